// The morning report alone, for the command line: it does not load the Grafana SDK (build.ts), which only the
// generator needs, so `table-audit` starts no slower for having the report command.
export { clickhouseRunner } from '../run.ts';
export { morningReport, REPORT_INTERVAL_MS, ReportExistsError, writeNewFile } from './morning.ts';
