/**
 * Chart series for the UI from the dashboards' own panel SQL (@table-audit/dashboards): the query a Grafana panel
 * runs is the query the UI draws, said once. The panel's macros are expanded as Grafana's ClickHouse data source
 * expands them (dashboards/src/macros.ts); the caller's scope never enters the SQL text: the concessionaire
 * variable is set to a marker that is then replaced by a query parameter ({scope:String}), and a panel whose SQL
 * does not carry the marker after expansion is refused rather than run unscoped.
 */
import type { AnalyticsClient } from '@table-audit/analytics';
import {
  dashboards,
  expandMacros,
  PANEL_LIMITS,
  type PanelQuery,
  type VariableSelection,
} from '@table-audit/dashboards';
import { SCOPE_VARIABLES } from '@table-audit/dashboards';
import { KeptAnswers, type KeptAnswersOptions } from './kept-answers.ts';

type Client = Pick<AnalyticsClient['client'], 'query'>;

/** The charts the API serves, each the panel of the DICJ overview dashboard it is drawn from. */
export const CHARTS = {
  'findings-over-time': 'ta-dicj-overview.findings-over-time',
  'payout-discrepancies': 'ta-dicj-overview.payout-discrepancies-over-time',
} as const;
export type ChartName = keyof typeof CHARTS;
export const CHART_NAMES = Object.keys(CHARTS) as ChartName[];

export interface ChartRequest {
  /** the caller's concessionaire, or null for every one */
  readonly scope: string | null;
  /** UTC ms, inclusive; with `to`, or both left to the source (the span of the findings in scope, at most 31 days) */
  readonly from?: number;
  readonly to?: number;
}

export interface ChartSeries {
  readonly chart: ChartName;
  readonly panel: { readonly id: string; readonly title: string; readonly description: string };
  /** what the values count: findings, or money in avos (the panel's MOP columns × 100) */
  readonly unit: 'findings' | 'avos';
  readonly from: number;
  readonly to: number;
  /** the width of one time bucket (buckets start at whole multiples of it since 1970, in UTC, as in Grafana) */
  readonly intervalSeconds: number;
  readonly series: { readonly name: string; readonly points: { time: number; value: number }[] }[];
}

export interface ChartsQuery {
  series(chart: ChartName, request: ChartRequest): Promise<ChartSeries>;
  readonly description: string;
}

const panels = new Map(dashboards.flatMap((d) => d.panels).map((p) => [p.id, p]));

/** The panel behind a chart (thrown at start-up, not at request time, if the dashboards lose it). */
export function chartPanel(chart: ChartName): PanelQuery {
  const p = panels.get(CHARTS[chart]);
  if (!p) throw new Error(`the dashboards have no panel ${CHARTS[chart]} for the chart ${chart}`);
  return p;
}

/** One bucket per hour up to 3 days, per 6 hours up to 14 days, else per day. */
export function chartInterval(from: number, to: number): number {
  const days = (to - from) / 86_400_000;
  return days <= 3 ? 3_600 : days <= 14 ? 6 * 3_600 : 86_400;
}

const SCOPE_MARKER = 'ta-scope-marker-8d1f0c';
const ALL: VariableSelection = { values: [], all: true };
const DEFAULT_DAYS = 31;

/**
 * The panel's SQL for a scope and range as it reaches ClickHouse, with the scope as a query parameter. Throws if
 * the panel does not filter on the concessionaire (it would otherwise show every concessionaire's data).
 */
export function chartSql(
  panel: PanelQuery,
  scope: string | null,
  from: number,
  to: number,
  intervalSeconds: number,
): { sql: string; params: Record<string, unknown> } {
  const variables: Record<string, VariableSelection> = Object.fromEntries(
    SCOPE_VARIABLES.map((v) => [
      v,
      v === 'concessionaire' && scope !== null ? { values: [SCOPE_MARKER] } : ALL,
    ]),
  );
  let sql = expandMacros(panel.sql, { from, to, intervalMs: intervalSeconds * 1000, variables });
  if (scope !== null) {
    const quoted = `'${SCOPE_MARKER}'`;
    if (!sql.includes(quoted))
      throw new Error(`panel ${panel.id} does not filter on the concessionaire; it cannot be served scoped`);
    sql = sql.split(quoted).join('{scope:String}');
  }
  return { sql, params: scope === null ? {} : { scope } };
}

/** The tables the charts' panels read (FROM and JOIN of their SQL): their parts are the charts' version. */
export function chartTables(): string[] {
  const tables = new Set<string>();
  for (const c of CHART_NAMES)
    for (const m of chartPanel(c).sql.matchAll(/\b(?:FROM|JOIN)\s+(\w+)/gi)) tables.add(m[1]!);
  return [...tables].sort();
}

export interface ClickHouseChartsOptions extends KeptAnswersOptions {
  /** chart answers kept, by (chart, scope, range), until a table they read changes (default 500; 0: none) */
  readonly answers?: number;
  /** points the kept answers may hold in all (default 200,000) */
  readonly rows?: number;
}

const pointsOf = (value: unknown): number =>
  (value as ChartSeries).series.reduce((n, s) => n + s.points.length, 0);

export class ClickHouseCharts implements ChartsQuery {
  readonly #kept: KeptAnswers;
  /** queries run, for tests and the benchmark */
  readonly stats = { queries: 0 };

  constructor(
    private readonly client: Client,
    readonly description: string,
    options: ClickHouseChartsOptions = {},
  ) {
    for (const c of CHART_NAMES) chartPanel(c);
    this.#kept = new KeptAnswers(client, chartTables(), pointsOf, {
      ...options,
      answers: options.answers ?? 500,
      rows: options.rows ?? 200_000,
    });
  }

  /** answers kept now and the points they hold; how many were served as kept */
  get kept(): { answers: number; rows: number; served: number } {
    return { ...this.#kept.size, served: this.#kept.stats.kept };
  }

  async #rows<T>(query: string, params: Record<string, unknown>): Promise<T[]> {
    this.stats.queries++;
    const result = await this.client.query({
      query,
      query_params: params,
      format: 'JSONEachRow',
      clickhouse_settings: {
        max_result_rows: String(PANEL_LIMITS.maxResultRows),
        result_overflow_mode: 'throw',
        max_execution_time: PANEL_LIMITS.maxExecutionSeconds,
      },
    });
    return result.json<T>();
  }

  /**
   * The default range: the findings in scope but for the earliest and the latest 1%, within 15½ days of the median
   * (a clock a year off is
   * itself a finding, and would leave the chart empty), at most 31 days, at least an hour (the last 31 days when
   * there is none). The range is given with the series, so a chart says what it covers.
   */
  async #defaultRange(scope: string | null): Promise<{ from: number; to: number; clock?: true }> {
    const [row] = await this.#rows<{
      first: string | number;
      middle: string | number;
      last: string | number;
      n: string | number;
    }>(
      `SELECT toUnixTimestamp64Milli(quantileExact(0.01)(event_time)) AS first, toUnixTimestamp64Milli(quantileExact(0.5)(event_time)) AS middle,
        toUnixTimestamp64Milli(quantileExact(0.99)(event_time)) AS last,
        count() AS n FROM findings FINAL${scope === null ? '' : ' WHERE concessionaire = {scope:String}'}`,
      scope === null ? {} : { scope },
    );
    if (!row || Number(row.n) === 0) {
      const to = Date.now();
      return { from: to - DEFAULT_DAYS * 86_400_000, to, clock: true };
    }
    // centred on the median finding: a few clocks a year off do not pull the month away from the bulk
    const to = Math.min(Number(row.last), Number(row.middle) + (DEFAULT_DAYS / 2) * 86_400_000) + 1_000;
    const from = Math.min(Math.max(Number(row.first), to - DEFAULT_DAYS * 86_400_000), to - 3_600_000);
    return { from, to };
  }

  /**
   * The chart for a scope and range, kept by (chart, scope, range) while the tables it reads are unchanged (a
   * default range that fell back on the clock, with no finding in scope, is made anew each time).
   */
  series(chart: ChartName, request: ChartRequest): Promise<ChartSeries> {
    const key = JSON.stringify([chart, request.scope, request.from ?? null, request.to ?? null]);
    let clock = false;
    return this.#kept.get(
      key,
      async () => {
        const s = await this.#series(chart, request);
        clock = s.clock;
        return s.series;
      },
      () => !clock,
    );
  }

  async #series(chart: ChartName, request: ChartRequest): Promise<{ series: ChartSeries; clock: boolean }> {
    const panel = chartPanel(chart);
    const { from, to, clock } =
      request.from !== undefined && request.to !== undefined
        ? { from: request.from, to: request.to, clock: undefined }
        : await this.#defaultRange(request.scope);
    const intervalSeconds = chartInterval(from, to);
    const { sql, params } = chartSql(panel, request.scope, from, to, intervalSeconds);
    // the panel's first column is its time bucket; read it as Unix seconds, whatever the session's time zone
    const rows = await this.#rows<Record<string, unknown>>(
      `SELECT toUnixTimestamp(time) AS ta_time_s, * FROM (${sql}) ORDER BY ta_time_s`,
      params,
    );
    const money = panel.unit === 'mop';
    const keyColumns = panel.columns
      .filter((c) => c.name !== 'time' && !isNumeric(c.type))
      .map((c) => c.name);
    const valueColumns = panel.columns
      .filter((c) => c.name !== 'time' && isNumeric(c.type))
      .map((c) => c.name);
    const series = new Map<string, { time: number; value: number }[]>();
    for (const r of rows) {
      const time = Number(r['ta_time_s']) * 1000;
      for (const v of valueColumns) {
        const name =
          keyColumns.length > 0 ? keyColumns.map((k) => String(r[k])).join(' · ') : v.replace(/_mop$/, '');
        const raw = Number(r[v]);
        const value = money ? Math.round(raw * 100) : raw;
        const points = series.get(name) ?? [];
        points.push({ time, value });
        series.set(name, points);
      }
    }
    return {
      series: {
        chart,
        panel: { id: panel.id, title: panel.title, description: panel.description },
        unit: money ? 'avos' : 'findings',
        from,
        to,
        intervalSeconds,
        series: [...series].map(([name, points]) => ({ name, points })),
      },
      clock: clock === true,
    };
  }
}

const isNumeric = (type: RegExp): boolean => type.test('UInt64') || type.test('Float64');
