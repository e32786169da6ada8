export * from './checks.ts';
export * from './finding.ts';
export * from './round-view.ts';
export * from './round-checks.ts';
export * from './table-replayer.ts';
export * from './collusion.ts';
export * from './replay-events.ts';
