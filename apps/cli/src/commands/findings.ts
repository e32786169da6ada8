import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runProcessor, type EventStore } from '@table-audit/eventstore';
import {
  AnalyticsProjector,
  analyticsTarget,
  DEFAULT_ANALYTICS_DIR,
  listFindings,
  migrate,
  openAnalytics,
  PROJECTION_RUN_OPTIONS,
  SEVERITIES,
  topFindings,
  type FindingFilter,
  type FindingListRow,
} from '@table-audit/analytics';
import { calendarDateProblem, formatMacauTime, formatMop, type Severity } from '@table-audit/rules';
import { MAHJONG_SCOPE } from '@table-audit/rules/mahjong';
import { json, out, UsageError, type Command } from './command.ts';
import { wholeNumber } from './numbers.ts';

const usage = `Usage: table-audit findings [filters] [--limit N] [--format table|json|csv] [--analytics DIR]

Lists the findings projected into ClickHouse, latest first: by default as a table for people (amounts in MOP,
times in Macau time, UTC+8); --format json or csv for files (amounts in avos, times in UTC milliseconds and the
Macau date).

  --casino NAME     --table ID     --game GAME (e.g. F3CP)     --check CHECK_ID (e.g. F3CP.PAYOUT.MISMATCH)
  --severity LEVEL  one of ${SEVERITIES.join(', ')}
  --dealer STAFF_ID
  --from DATE --to DATE   Macau dates YYYY-MM-DD, both included
  --limit N         at most N findings (1 to 100,000, default 50)
  --analytics DIR   the chDB data directory (default $TABLE_AUDIT_ANALYTICS, else ${DEFAULT_ANALYTICS_DIR}, where
                    table-audit run projects); with CLICKHOUSE_URL set, that ClickHouse server is read instead

Exit 0 when the query ran (even with no finding), 1 when it could not, 2 for a usage error.`;

const MAX_TEXT = 200;

/** A free-text filter value: non-empty, bounded, printable. */
function text(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '')
    throw new UsageError(`${flag} needs a value, e.g. ${flag} ${example[flag] ?? 'X'}`);
  if (value.length > MAX_TEXT)
    throw new UsageError(`${flag} is ${value.length} characters long; at most ${MAX_TEXT} are accepted`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) throw new UsageError(`${flag} holds a control character`);
  return value;
}

const example: Record<string, string> = {
  '--casino': '"Casino Lisboa"',
  '--table': 'T001',
  '--game': 'F3CP',
  '--check': 'F3CP.PAYOUT.MISMATCH',
  '--dealer': 'D0042',
};

function macauDateOption(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const problem = calendarDateProblem(value);
  if (problem) throw new UsageError(`${flag} "${value}" is not a Macau date YYYY-MM-DD: it ${problem}`);
  return value;
}

/** CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180). */
const csvField = (v: unknown): string => {
  const s = v === null || v === undefined ? '' : Array.isArray(v) ? v.join(' ') : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

const CSV_COLUMNS: (keyof FindingListRow)[] = [
  'finding_id',
  'event_time_ms',
  'macau_date',
  'casino',
  'concessionaire',
  'table_id',
  'game',
  'round_id',
  'dealer_id',
  'check_id',
  'severity',
  'handled',
  'discrepancy_avos',
  'citation_keys',
  'interpretation_ids',
  'evidence_event_ids',
  'summary',
];

/** The findings as a table for people: Macau time, MOP. */
/** A Mah-Jong finding carries the scope note, as in the API: only the deal is judged (Portaria 52/89/M). */
export const withScopeNotes = (rows: readonly FindingListRow[]): object[] =>
  rows.map((r) => (r.game === 'MAHJONG' ? { ...r, scope: MAHJONG_SCOPE } : r));

/** The scope note under a table of findings that holds a Mah-Jong one. */
export const scopeNoteLines = (rows: readonly FindingListRow[]): string[] =>
  rows.some((r) => r.game === 'MAHJONG') ? [`Mah-Jong: ${MAHJONG_SCOPE.message}`] : [];

export function findingsTable(rows: readonly FindingListRow[]): string {
  const head = [
    'Macau time (UTC+8)',
    'casino',
    'table',
    'round',
    'dealer',
    'check',
    'severity',
    'amount',
    'cites',
  ];
  const body = rows.map((r) => [
    formatMacauTime(r.event_time_ms).replace(' Macau time (UTC+8)', ''),
    r.casino,
    r.table_id,
    r.round_id ?? '(table)',
    r.dealer_id ?? '-',
    r.check_id,
    r.handled ? `${r.severity} (handled)` : r.severity,
    r.discrepancy_avos === null ? '' : formatMop(r.discrepancy_avos),
    r.citation_keys.join('; '),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 7 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(head), ...body.map(line)].join('\n');
}

export const findingsCommand: Command = {
  name: 'findings',
  summary: 'list and filter the findings in ClickHouse (table, JSON or CSV)',
  usage,
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        casino: { type: 'string' },
        table: { type: 'string' },
        game: { type: 'string' },
        check: { type: 'string' },
        severity: { type: 'string' },
        dealer: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        limit: { type: 'string', default: '50' },
        format: { type: 'string', default: 'table' },
        analytics: { type: 'string' },
      },
    });
    const format = values.format!;
    if (!['table', 'json', 'csv'].includes(format))
      throw new UsageError(`--format takes table, json or csv, got "${format}"`);
    const severity = values.severity;
    if (severity !== undefined && !SEVERITIES.includes(severity as Severity))
      throw new UsageError(`--severity takes one of ${SEVERITIES.join(', ')}, got "${severity}"`);
    const filter: FindingFilter = {
      casino: text('--casino', values.casino),
      tableId: text('--table', values.table),
      game: text('--game', values.game),
      checkId: text('--check', values.check),
      severity: severity as Severity | undefined,
      dealerId: text('--dealer', values.dealer),
      from: macauDateOption('--from', values.from),
      to: macauDateOption('--to', values.to),
    };
    for (const k of Object.keys(filter) as (keyof FindingFilter)[])
      if (filter[k] === undefined) delete filter[k];
    if (filter.from && filter.to && filter.from > filter.to)
      throw new UsageError(`--from ${filter.from} is after --to ${filter.to}`);
    const limit = wholeNumber('--limit', values.limit!, 1, 100_000);
    if (values.analytics === '')
      throw new UsageError('--analytics needs a directory, e.g. --analytics data/analytics');
    const dir = values.analytics ?? (process.env.TABLE_AUDIT_ANALYTICS || DEFAULT_ANALYTICS_DIR);
    const target = analyticsTarget(process.env, dir);
    // a read never creates the embedded directory: no directory means nothing was projected there
    if ('path' in target && !existsSync(target.path))
      throw new Error(
        `there is no analytics data in ${target.path}: table-audit run projects the findings there ` +
          `(or give --analytics DIR, or set CLICKHOUSE_URL)`,
      );

    const analytics = await openAnalytics(target);
    try {
      await migrate(analytics.client);
      const rows = await listFindings(analytics.client, filter, limit);
      if (format === 'json') out(json(withScopeNotes(rows)));
      else if (format === 'csv')
        out(
          [CSV_COLUMNS.join(','), ...rows.map((r) => CSV_COLUMNS.map((c) => csvField(r[c])).join(','))].join(
            '\n',
          ),
        );
      else if (rows.length === 0) out(`no finding matches (${analytics.description})`);
      else {
        out(findingsTable(rows));
        for (const line of scopeNoteLines(rows)) out(line);
        out(
          `${rows.length} finding(s)${rows.length === limit ? ` (the first ${limit}; --limit N for more)` : ''}, from ${analytics.description}`,
        );
      }
      return 0;
    } finally {
      await analytics.close();
    }
  },
};

/**
 * The projection step of `table-audit run`: the store's new events into ClickHouse (CLICKHOUSE_URL, else chDB in
 * $TABLE_AUDIT_ANALYTICS, else analytics/ beside the store), then the top findings by money involved. Returns the
 * lines to print.
 */
export async function projectForRun(store: EventStore, storeFile: string): Promise<string[]> {
  const t = performance.now();
  const dir = process.env.TABLE_AUDIT_ANALYTICS || join(dirname(storeFile), 'analytics');
  const analytics = await openAnalytics(analyticsTarget(process.env, dir));
  try {
    await migrate(analytics.client);
    const projector = new AnalyticsProjector(analytics.client);
    await runProcessor(store, projector, PROJECTION_RUN_OPTIONS);
    const rows = Object.values(projector.stats.rows).reduce((a, b) => a + b, 0);
    const top = await topFindings(analytics.client, 5);
    const seconds = (performance.now() - t) / 1000;
    return [
      `   analytics: ${rows.toLocaleString('en-US')} rows projected into ${analytics.description} (${seconds.toFixed(1)} s); ` +
        `table-audit findings${'url' in analyticsTarget(process.env) ? '' : ` --analytics ${dir}`} lists them`,
      `   dashboards: ${dashboardsWhere()}`,
      ...(top.length ? ['   top findings (by amount; amounts in MOP, times in Macau time, UTC+8):'] : []),
      ...top.map(
        (f) =>
          `     ${f.table_id}  round ${f.round_id ?? '(table)'}  ${f.check_id}  ${f.discrepancy_avos === null ? 'no amount' : formatMop(f.discrepancy_avos)}  ${formatMacauTime(f.event_time_ms)}`,
      ),
    ];
  } finally {
    await analytics.close();
  }
}

/** The generated Grafana provisioning (pnpm dashboards writes it), as a path from where the command was run. */
export const GRAFANA_DIR = fileURLToPath(new URL('../../../../infra/grafana/', import.meta.url));

function dashboardsWhere(): string {
  const shown = relative(process.cwd(), GRAFANA_DIR) || '.';
  return existsSync(join(GRAFANA_DIR, 'dashboards'))
    ? `Grafana dashboards and provisioning in ${shown} (data source: this ClickHouse); ` +
        'table-audit report --date YYYY-MM-DD draws the main charts without Grafana'
    : `the Grafana dashboards are not built (${shown} has none): pnpm dashboards writes them; ` +
        'table-audit report --date YYYY-MM-DD draws the main charts without Grafana';
}
