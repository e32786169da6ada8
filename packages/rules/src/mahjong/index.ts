export * from './tiles.ts';
export * from './deal.ts';
export * from './round.ts';
export * from './checks.ts';
export * from './simulation.ts';
