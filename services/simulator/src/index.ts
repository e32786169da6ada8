export * from './rng.ts';
export * from './f3cp-round.ts';
