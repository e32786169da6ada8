export * from './validate.ts';
export * from './pipeline.ts';
