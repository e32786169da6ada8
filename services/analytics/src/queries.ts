/**
 * The analytics queries the CLI, the benchmark and `table-audit run` share. Values only ever reach ClickHouse as
 * query parameters ({name:Type}); the SQL text is made of constant clauses chosen by which filters are set.
 */
import type { ClickHouseClient } from '@clickhouse/client';
import type { Severity } from '@table-audit/rules';

export const SEVERITIES: readonly Severity[] = ['critical', 'high', 'medium', 'low'];

/**
 * The condition that keeps, of `bets`, the lines of each round's latest derivation only. A round derived again (the
 * replay appends a new RoundDerived when the rules code changed) writes its lines again, keyed by line position, and
 * `FINAL` keeps the newer of each; but a derivation with FEWER lines leaves the old lines past its last one in the
 * table, and only this condition hides them: a bet line is current when its `position` (the store position of the
 * RoundDerived it came from) is the round's latest, which is the `position` of the round's row in `rounds`.
 * `roundsWhere` narrows the rounds looked at (ideally by their sorting key: casino, macau_date, table_id) to those
 * the query reads bets of. Every query over `bets` needs it; `rounds` needs nothing (one row per round).
 */
export const currentBets = (roundsWhere: string): string =>
  `(round_id, position) IN (SELECT round_id, max(position) FROM rounds WHERE ${roundsWhere} GROUP BY round_id)`;

export interface FindingFilter {
  casino?: string;
  tableId?: string;
  game?: string;
  checkId?: string;
  severity?: Severity;
  dealerId?: string;
  /** Macau dates, YYYY-MM-DD, both inclusive */
  from?: string;
  to?: string;
}

/** One finding as the findings command lists it. */
export interface FindingListRow {
  finding_id: string;
  /** UTC milliseconds */
  event_time_ms: number;
  macau_date: string;
  casino: string;
  concessionaire: string;
  table_id: string;
  game: string;
  round_id: string | null;
  dealer_id: string | null;
  check_id: string;
  severity: string;
  handled: boolean;
  discrepancy_avos: number | null;
  citation_keys: string[];
  interpretation_ids: string[];
  evidence_event_ids: string[];
  summary: string;
}

const CLAUSES: Record<keyof FindingFilter, string> = {
  casino: 'casino = {casino:String}',
  tableId: 'table_id = {tableId:String}',
  game: 'game = {game:String}',
  checkId: 'check_id = {checkId:String}',
  severity: 'severity = {severity:String}',
  dealerId: 'dealer_id = {dealerId:String}',
  from: 'macau_date >= {from:Date}',
  to: 'macau_date <= {to:Date}',
};

function where(filter: FindingFilter): { sql: string; params: Record<string, string> } {
  const clauses: string[] = [];
  const params: Record<string, string> = {};
  for (const key of Object.keys(CLAUSES) as (keyof FindingFilter)[]) {
    const value = filter[key];
    if (value === undefined) continue;
    clauses.push(CLAUSES[key]);
    params[key] = value;
  }
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

// event_time_ms: a new name, since an alias named like its column would shadow the column in WHERE and ORDER BY
const FINDING_COLUMNS = `SELECT finding_id, toUnixTimestamp64Milli(event_time) AS event_time_ms, macau_date,
  casino, concessionaire, table_id, game, round_id, dealer_id, check_id, severity,
  handled, discrepancy_avos, citation_keys, interpretation_ids, evidence_event_ids, summary
  FROM findings FINAL`;

/** Findings matching the filter, latest first (then by finding id, so pages are stable). */
export async function listFindings(
  client: ClickHouseClient,
  filter: FindingFilter,
  limit: number,
): Promise<FindingListRow[]> {
  const w = where(filter);
  const result = await client.query({
    query: `${FINDING_COLUMNS} ${w.sql}
      ORDER BY event_time DESC, finding_id
      LIMIT {limit:UInt32}`,
    query_params: { ...w.params, limit },
    format: 'JSONEachRow',
    // Int64 as JSON numbers: avos and milliseconds are far below 2^53
    clickhouse_settings: { output_format_json_quote_64bit_integers: 0 },
  });
  return result.json<FindingListRow>();
}

/** The dashboard-style aggregates (aliases never reuse a column's name: an alias would shadow it) the benchmark times (and Grafana panels ask in the same shape). */
export const DASHBOARD_QUERIES: Record<string, string> = {
  'findings by casino, check and day': `SELECT casino, check_id, macau_date, count() AS findings
    FROM findings FINAL WHERE macau_date BETWEEN {from:Date} AND {to:Date}
    GROUP BY casino, check_id, macau_date ORDER BY macau_date, casino, check_id`,
  'discrepancy sums by casino and day': `SELECT casino, macau_date, sum(difference_avos) AS net_difference_avos,
      sumIf(difference_avos, difference_avos > 0) AS overpaid_avos, countIf(difference_avos != 0) AS bets_off
    FROM bets FINAL WHERE macau_date BETWEEN {from:Date} AND {to:Date}
      AND ${currentBets('macau_date BETWEEN {from:Date} AND {to:Date}')}
    GROUP BY casino, macau_date ORDER BY macau_date, casino`,
  'top tables by findings': `SELECT casino, table_id, count() AS findings, sum(abs(discrepancy_avos)) AS total_discrepancy_avos
    FROM findings FINAL WHERE macau_date BETWEEN {from:Date} AND {to:Date}
    GROUP BY casino, table_id ORDER BY findings DESC, table_id LIMIT 10`,
  'top dealers by findings': `SELECT dealer_id, count() AS findings, uniqExact(table_id) AS tables
    FROM findings FINAL WHERE macau_date BETWEEN {from:Date} AND {to:Date} AND dealer_id IS NOT NULL
    GROUP BY dealer_id ORDER BY findings DESC, dealer_id LIMIT 10`,
  'house result by casino and day': `SELECT casino, macau_date, sum(house_result_avos) AS total_house_result_avos,
      sum(total_staked_avos) AS staked_avos, count() AS rounds
    FROM rounds FINAL WHERE macau_date BETWEEN {from:Date} AND {to:Date}
    GROUP BY casino, macau_date ORDER BY macau_date, casino`,
  'table health by table': `SELECT table_id, countIf(kind = 'SHUFFLER_MALFUNCTION') AS malfunctions,
      countIf(kind = 'SHUFFLER_REPLACED') AS replacements, countIf(kind = 'ROUND_VOIDED') AS voids,
      countIf(misdeal) AS misdeals, countIf(kind = 'DEALING_SWITCHED_TO_SHOE') AS switched_to_shoe
    FROM table_health FINAL WHERE macau_date BETWEEN {from:Date} AND {to:Date}
    GROUP BY table_id ORDER BY voids DESC, table_id`,
};

/** The top findings by money involved (then severity), for `table-audit run`'s summary. */
export async function topFindings(client: ClickHouseClient, limit: number): Promise<FindingListRow[]> {
  const result = await client.query({
    query: `${FINDING_COLUMNS} WHERE NOT handled
      ORDER BY abs(ifNull(discrepancy_avos, 0)) DESC,
        indexOf(['critical', 'high', 'medium', 'low'], severity), finding_id
      LIMIT {limit:UInt32}`,
    query_params: { limit },
    format: 'JSONEachRow',
    clickhouse_settings: { output_format_json_quote_64bit_integers: 0 },
  });
  return result.json<FindingListRow>();
}
