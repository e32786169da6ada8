import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { analyticsTarget, DEFAULT_ANALYTICS_DIR, migrate, openAnalytics } from '@table-audit/analytics';
import { clickhouseRunner, morningReport, writeNewFile } from '@table-audit/dashboards/report';
import { DateError, parseMacauDate } from '@table-audit/rules';
import { out, UsageError, type Command } from './command.ts';

const usage = `Usage: table-audit report --date YYYY-MM-DD [--out FILE.html] [--analytics DIR]

Writes the morning report for one Macau day (UTC+8) as one self-contained HTML file: the main charts of the
Grafana dashboards (findings by casino, check and severity; payout discrepancies, over- and under-payment apart;
top tables and dealers; open alerts by age; table health; conduct), drawn from the same queries, with their data.
No script, no network: it opens anywhere. Money in MOP, times in Macau time.

  --date D         the Macau date to report on
  --out FILE       where to write it (default table-audit-report-D.html); an existing file is never overwritten
  --analytics DIR  the chDB data directory (default ${DEFAULT_ANALYTICS_DIR}); CLICKHOUSE_URL, when set, is used instead`;

export const reportCommand: Command = {
  name: 'report',
  summary: 'the morning report: one Macau day of the dashboards as a self-contained HTML file',
  usage,
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        date: { type: 'string' },
        out: { type: 'string' },
        analytics: { type: 'string', default: DEFAULT_ANALYTICS_DIR },
      },
    });
    if (values.date === undefined) throw new UsageError('--date is required (a Macau date, YYYY-MM-DD)');
    let date: string;
    try {
      date = parseMacauDate(values.date, '--date');
    } catch (e) {
      if (e instanceof DateError) throw new UsageError(e.message);
      throw e;
    }
    const path = values.out ?? `table-audit-report-${date}.html`;
    if (!path.endsWith('.html')) throw new UsageError(`--out "${path}" must end in .html`);
    // checked before any query, and again atomically when writing (flag wx)
    if (existsSync(path))
      throw new Error(`${path} exists; the report never overwrites a file — choose another --out`);
    const target = analyticsTarget(process.env, values.analytics);
    if ('path' in target && !existsSync(target.path))
      throw new Error(
        `no analytics data in ${target.path}: run \`table-audit run\` (or project the store) first, or give --analytics DIR`,
      );
    const analytics = await openAnalytics(target);
    try {
      await migrate(analytics.client);
      const html = await morningReport(clickhouseRunner(analytics.client), {
        date,
        generatedAt: Date.now(),
        source: analytics.description,
      });
      writeNewFile(path, html);
    } finally {
      await analytics.close();
    }
    out(`wrote ${path}: the morning report for ${date} (Macau time), from ${analytics.description}`);
    return 0;
  },
};
