export * from './rule-set.ts';
export * from './hands.ts';
export * from './arrangement.ts';
export * from './score.ts';
export * from './solver.ts';
export * from './deal.ts';
