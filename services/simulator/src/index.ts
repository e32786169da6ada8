export * from './rng.ts';
export * from './faults.ts';
export * from './clock.ts';
export * from './session.ts';
export * from './sinks.ts';
