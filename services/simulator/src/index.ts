export * from './rng.ts';
export * from './f3cp-round.ts';
export * from './faults.ts';
export * from './f3cp-session.ts';
export * from './sinks.ts';
