export * from './build.ts';
export * from './dashboards.ts';
export * from './grafana.ts';
export * from './macros.ts';
export * from './panel.ts';
export * from './run.ts';
export * from './scope.ts';
export * from './variables.ts';
export { renderReport, type ReportInput, type ReportSection } from './report/html.ts';
