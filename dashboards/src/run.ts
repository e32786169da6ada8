// Running a panel's SQL the way Grafana would (macros expanded, variables interpolated) against ClickHouse. The
// port is one method, so the report, the tests and the API can run the same panels over any client.
import type { AnalyticsClient } from '@table-audit/analytics';
import { expandMacros, type MacroContext } from './macros.ts';
import type { PanelQuery } from './panel.ts';

export interface Column {
  readonly name: string;
  readonly type: string;
}

/** A result in ClickHouse's JSONCompact shape: 64-bit integers arrive as strings. */
export interface QueryResult {
  readonly columns: readonly Column[];
  readonly rows: readonly (readonly unknown[])[];
}

export interface SqlRunner {
  run(sql: string): Promise<QueryResult>;
}

/** The part of @clickhouse/client's client the runner needs (a server's or chDB's: the same API). */
export type ClickHouseQueryClient = Pick<AnalyticsClient['client'], 'query'>;

/** Bounds on what one panel query may read and return, so a dashboard query cannot exhaust the process. */
export const PANEL_LIMITS = { maxResultRows: 10_000, maxExecutionSeconds: 30 } as const;

export const clickhouseRunner = (client: ClickHouseQueryClient): SqlRunner => ({
  async run(sql) {
    const result = await client.query({
      query: sql,
      format: 'JSONCompact',
      clickhouse_settings: {
        max_result_rows: String(PANEL_LIMITS.maxResultRows),
        result_overflow_mode: 'throw',
        max_execution_time: PANEL_LIMITS.maxExecutionSeconds,
      },
    });
    const body = await result.json<unknown[]>();
    return { columns: (body.meta ?? []).map(({ name, type }) => ({ name, type })), rows: body.data };
  },
});

export class PanelQueryError extends Error {
  override readonly name = 'PanelQueryError';
}

export const runPanel = async (
  runner: SqlRunner,
  panel: PanelQuery,
  ctx: MacroContext,
): Promise<QueryResult> => {
  const sql = expandMacros(panel.sql, ctx);
  try {
    return await runner.run(sql);
  } catch (err) {
    throw new PanelQueryError(
      `panel ${panel.id} ("${panel.title}"): ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }
};

/** A Macau calendar day (YYYY-MM-DD, already checked with parseMacauDate) as the time range Grafana would send. */
export const MACAU_OFFSET_MS = 8 * 3_600_000;
export const macauDayRange = (date: string): { from: number; to: number } => {
  const from = Date.parse(`${date}T00:00:00Z`) - MACAU_OFFSET_MS;
  return { from, to: from + 86_400_000 - 1_000 };
};
