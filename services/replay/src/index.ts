export * from './replay-events.ts';
export * from './streams.ts';
export * from './tables.ts';
export * from './service.ts';
export * from './explain.ts';
export * from './field-gaps.ts';
export * from './integrity.ts';
export * from './writes.ts';
