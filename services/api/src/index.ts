export * from './app.ts';
export * from './auth.ts';
export * from './alerts.ts';
export * from './context.ts';
export * from './findings-query.ts';
export * from './store-index.ts';
export * from './evidence.ts';
export { parseMacauTime } from './time.ts';
export * from './anchors.ts';
