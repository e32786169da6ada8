export * from './client.ts';
export * from './migrations.ts';
export * from './migrate.ts';
export * from './projector.ts';
export * from './rows.ts';
export * from './queries.ts';
export * from './tsv.ts';
