export * from './client.ts';
export * from './migrations.ts';
export * from './migrate.ts';
