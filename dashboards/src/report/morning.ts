// The morning report: the report panels of the dashboards, run for one Macau day with every scope variable at
// All, exactly as Grafana would run them, then drawn into one HTML file.
import { writeFileSync } from 'node:fs';
import { dashboards, panels, REPORT_PANELS } from '../dashboards.ts';
import type { VariableSelection } from '../macros.ts';
import { SCOPE_VARIABLES } from '../scope.ts';
import { macauDayRange, runPanel, type SqlRunner } from '../run.ts';
import { renderReport, type ReportSection } from './html.ts';

/** The report's time series are bucketed by the hour. */
export const REPORT_INTERVAL_MS = 3_600_000;

export interface MorningReportOptions {
  /** Macau date, YYYY-MM-DD, already validated (parseMacauDate). */
  readonly date: string;
  readonly generatedAt: number;
  readonly source: string;
}

export const morningReport = async (runner: SqlRunner, options: MorningReportOptions): Promise<string> => {
  const range = macauDayRange(options.date);
  const all: VariableSelection = { values: [], all: true };
  const variables = Object.fromEntries(SCOPE_VARIABLES.map((v) => [v, all]));
  const sections: ReportSection[] = [];
  for (const id of REPORT_PANELS) {
    const panel = panels.get(id)!;
    const dashboard = dashboards.find((d) => d.panels.includes(panel))!;
    const result = await runPanel(runner, panel, { ...range, intervalMs: REPORT_INTERVAL_MS, variables });
    sections.push({ dashboard: dashboard.title, panel, result });
  }
  return renderReport({ ...options, range, intervalMs: REPORT_INTERVAL_MS, sections });
};

export class ReportExistsError extends Error {
  override readonly name = 'ReportExistsError';
}

/** Writes the report to a new file; an existing file is never overwritten. */
export const writeNewFile = (path: string, content: string): void => {
  try {
    writeFileSync(path, content, { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST')
      throw new ReportExistsError(
        `${path} exists; the report never overwrites a file — choose another --out`,
      );
    throw err;
  }
};
