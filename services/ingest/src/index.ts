export * from './validate.ts';
export * from './pipeline.ts';
export * from './consumer.ts';
export * from './kafka-ingest.ts';
export * from './file-ingest.ts';
export * from './sequence.ts';
export * from './parallel-ingest.ts';
