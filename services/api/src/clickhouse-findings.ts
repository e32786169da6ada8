/**
 * The FindingsQuery adapter over ClickHouse's `findings` table (services/analytics: projected from the store,
 * ReplacingMergeTree read with FINAL). Every value travels as a query parameter ({name:Type}); column names come
 * from this file only, never from a caller.
 */
import type { AnalyticsClient } from '@table-audit/analytics';
import { macauDate, type Severity } from '@table-audit/rules';
import type {
  CountDimension,
  Cursor,
  FindingFilter,
  FindingsPage,
  FindingsQuery,
  FindingView,
} from './findings-query.ts';

type Client = AnalyticsClient['client'];

const COLUMNS: Record<CountDimension, string> = {
  severity: 'severity',
  checkId: 'check_id',
  casino: 'casino',
  concessionaire: 'concessionaire',
  tableId: 'table_id',
  game: 'game',
};

/** The Macau date of an instant as the projector writes it (services/analytics' macau_date), null out of range. */
function dayOf(utcMs: number): string | null {
  try {
    const d = macauDate(utcMs);
    // Date holds 1970-01-01 to 2149-06-06; outside it the event_time terms alone bound the range
    return d >= '1970-01-02' && d <= '2149-06-05' ? d : null;
  } catch {
    return null;
  }
}

/** The filter as a WHERE clause and its parameters. */
function where(q: FindingFilter): { sql: string; params: Record<string, unknown> } {
  const terms: string[] = [];
  const params: Record<string, unknown> = {};
  const equal = (column: string, name: string, value: string | undefined) => {
    if (value === undefined) return;
    terms.push(`${column} = {${name}:String}`);
    params[name] = value;
  };
  equal('concessionaire', 'scope', q.scope ?? undefined);
  equal('concessionaire', 'concessionaire', q.concessionaire);
  equal('casino', 'casino', q.casino);
  equal('table_id', 'tableId', q.tableId);
  equal('game', 'game', q.game);
  equal('check_id', 'checkId', q.checkId);
  equal('severity', 'severity', q.severity);
  equal('dealer_id', 'dealerId', q.dealerId);
  equal('round_id', 'roundId', q.roundId);
  if (q.playerId !== undefined) {
    terms.push('has(players, {playerId:String})');
    params['playerId'] = q.playerId;
  }
  // a time range is also said on macau_date (the partition key and the sorting key's second column), so that
  // ClickHouse reads only the months and the granules of those Macau days; event_time then bounds it exactly
  if (q.from !== undefined) {
    const day = dayOf(q.from);
    if (day !== null) {
      terms.push('macau_date >= {fromDay:Date}');
      params['fromDay'] = day;
    }
    terms.push(`event_time >= fromUnixTimestamp64Milli({from:Int64}, 'UTC')`);
    params['from'] = q.from;
  }
  if (q.to !== undefined) {
    const day = dayOf(q.to - 1);
    if (day !== null) {
      terms.push('macau_date <= {toDay:Date}');
      params['toDay'] = day;
    }
    terms.push(`event_time < fromUnixTimestamp64Milli({to:Int64}, 'UTC')`);
    params['to'] = q.to;
  }
  if (q.alertsOnly) terms.push('NOT handled');
  return { sql: terms.length ? `WHERE ${terms.join(' AND ')}` : '', params };
}

interface Row {
  finding_id: string;
  check_id: string;
  title: string;
  severity: string;
  handled: boolean;
  rule_set: string;
  game: string;
  casino: string;
  concessionaire: string;
  table_id: string;
  round_id: string | null;
  dealer_id: string | null;
  seats: number[];
  players: string[];
  summary: string;
  expected: string;
  declared: string;
  citation_keys: string[];
  citation_references: string[];
  interpretation_ids: string[];
  evidence_event_ids: string[];
  event_ms: string | number;
  details: string | null;
}

const SELECT_COLUMNS = `SELECT finding_id, check_id, title, severity, handled, rule_set, game, casino, concessionaire,
  table_id, round_id, dealer_id, seats, players, summary, expected, declared, citation_keys, citation_references,
  interpretation_ids, evidence_event_ids, toUnixTimestamp64Milli(event_time) AS event_ms, details`;
const SELECT = `${SELECT_COLUMNS} FROM findings FINAL`;

const view = (r: Row): FindingView => ({
  findingId: r.finding_id,
  checkId: r.check_id,
  title: r.title,
  severity: r.severity as Severity,
  ruleSet: r.rule_set,
  casino: r.casino,
  concessionaire: r.concessionaire,
  tableId: r.table_id,
  roundId: r.round_id,
  game: r.game === '' ? null : r.game,
  dealerId: r.dealer_id,
  seats: r.seats.map(Number),
  players: r.players,
  summary: r.summary,
  handled: r.handled,
  expected: JSON.parse(r.expected) as unknown,
  declared: JSON.parse(r.declared) as unknown,
  citations: r.citation_keys.map((key, i) => ({ key, reference: r.citation_references[i] ?? '' })),
  interpretations: r.interpretation_ids,
  evidenceEventIds: r.evidence_event_ids,
  eventTime: Number(r.event_ms),
  ...(r.details === null ? {} : { details: JSON.parse(r.details) as Record<string, unknown> }),
});

export interface ClickHouseFindingsOptions {
  /** answers kept (pages and counts), least recently used dropped first; 0: none (default 2,000) */
  readonly answers?: number;
  /** findings (and count rows) the kept answers may hold in all (default 20,000): a big page costs its size */
  readonly rows?: number;
  /**
   * how long the findings table's version, read from system.parts, is taken as current before it is read again,
   * ms (default 250): a kept answer is served only while the version it was made at is current, so a page can lag
   * the table by at most this long (the projection into ClickHouse lags the store by more)
   */
  readonly versionEveryMs?: number;
  readonly now?: () => number;
}

/** How many rows an answer holds: a page's findings, or a count's lines. */
const rowsOf = (value: unknown): number =>
  Array.isArray(value) ? value.length : ((value as FindingsPage | null)?.items?.length ?? 0);

/** What changes when anything is inserted into, merged in or removed from the findings table. */
const VERSION = `SELECT count() AS parts, sum(rows) AS rows, max(max_block_number) AS block,
  toString(max(modification_time)) AS changed FROM system.parts
  WHERE database = currentDatabase() AND table = 'findings' AND active`;

export class ClickHouseFindings implements FindingsQuery {
  readonly #answers = new Map<string, { version: string; answer: Promise<unknown>; rows: number }>();
  #rowsKept = 0;
  readonly #maxRows: number;
  #version: { value: string; at: number } | null = null;
  #reading: Promise<string> | null = null;
  readonly #capacity: number;
  readonly #every: number;
  readonly #now: () => number;
  /** how the answers were made, for tests and the benchmark */
  readonly stats = { queries: 0, kept: 0, versionReads: 0 };

  constructor(
    private readonly client: Client,
    readonly description: string,
    options: ClickHouseFindingsOptions = {},
  ) {
    this.#capacity = options.answers ?? 2_000;
    this.#maxRows = options.rows ?? 20_000;
    this.#every = options.versionEveryMs ?? 250;
    this.#now = options.now ?? Date.now;
  }

  async #rows<T>(query: string, params: Record<string, unknown>): Promise<T[]> {
    this.stats.queries++;
    const result = await this.client.query({ query, query_params: params, format: 'JSONEachRow' });
    return result.json<T>();
  }

  /** The findings table's version: read at most once per `versionEveryMs`, concurrent callers sharing the read. */
  #currentVersion(): Promise<string> {
    const v = this.#version;
    if (v && this.#now() - v.at < this.#every) return Promise.resolve(v.value);
    this.#reading ??= this.#rows<Record<string, string>>(VERSION, {})
      .then(([row]) => {
        this.stats.versionReads++;
        const value = JSON.stringify(row ?? null);
        this.#version = { value, at: this.#now() };
        return value;
      })
      .finally(() => (this.#reading = null));
    return this.#reading;
  }

  /** Drops the least recently used answers until both bounds hold. */
  #bound(): void {
    for (const [key, entry] of this.#answers) {
      if (this.#answers.size <= this.#capacity && this.#rowsKept <= this.#maxRows) return;
      this.#answers.delete(key);
      this.#rowsKept -= entry.rows;
    }
  }

  /** The answer to `key` made at the table's current version, kept (bounded) until the table changes. */
  async #kept<T>(key: string, make: () => Promise<T>): Promise<T> {
    if (this.#capacity === 0) return make();
    const version = await this.#currentVersion();
    const known = this.#answers.get(key);
    this.#answers.delete(key);
    if (known && known.version === version) {
      this.#answers.set(key, known); // most recently used last
      this.stats.kept++;
      return known.answer as Promise<T>;
    }
    const answer = make();
    const entry = { version, answer: answer as Promise<unknown>, rows: 0 };
    if (known) this.#rowsKept -= known.rows;
    this.#answers.set(key, entry);
    answer.then(
      (value) => {
        if (this.#answers.get(key) !== entry) return; // replaced or dropped meanwhile
        entry.rows = rowsOf(value);
        this.#rowsKept += entry.rows;
        this.#bound();
      },
      () => {
        if (this.#answers.get(key) === entry) this.#answers.delete(key); // a failure is not kept
      },
    );
    this.#bound();
    return answer;
  }

  /**
   * One query per page: the page (after the cursor, newest first then id descending, a total order) with the
   * filter's count beside it as a scalar subquery, so ClickHouse answers both in one round trip. Only a page that
   * comes back empty (past the last finding) asks for the count on its own.
   */
  list(filter: FindingFilter, page: { limit: number; after: Cursor | null }): Promise<FindingsPage> {
    return this.#kept(JSON.stringify(['list', filter, page]), () => this.#list(filter, page));
  }

  async #list(filter: FindingFilter, page: { limit: number; after: Cursor | null }): Promise<FindingsPage> {
    const w = where(filter);
    let sql = w.sql;
    const params: Record<string, unknown> = { ...w.params, limit: page.limit + 1 };
    if (page.after !== null) {
      // after the cursor in the order newest first, then id descending
      const after = `(event_time, finding_id) < (fromUnixTimestamp64Milli({afterTime:Int64}, 'UTC'), {afterId:String})`;
      sql = sql ? `${sql} AND ${after}` : `WHERE ${after}`;
      params['afterTime'] = page.after.eventTime;
      params['afterId'] = page.after.findingId;
    }
    const rows = await this.#rows<Row & { total: string }>(
      `${SELECT_COLUMNS}, (SELECT count() FROM findings FINAL ${w.sql}) AS total FROM findings FINAL ${sql}
       ORDER BY event_time DESC, finding_id DESC LIMIT {limit:UInt32}`,
      params,
    );
    let total: number;
    if (rows.length) total = Number(rows[0]!.total);
    else {
      const [count] = await this.#rows<{ total: string }>(
        `SELECT count() AS total FROM findings FINAL ${w.sql}`,
        w.params,
      );
      total = Number(count?.total ?? 0);
    }
    const items = rows.slice(0, page.limit).map(view);
    const last = items.at(-1);
    return {
      items,
      total,
      next:
        rows.length > page.limit && last ? { eventTime: last.eventTime, findingId: last.findingId } : null,
    };
  }

  async get(findingId: string, scope: string | null): Promise<FindingView | null> {
    const w = where({ scope });
    const sql = w.sql ? `${w.sql} AND finding_id = {id:String}` : 'WHERE finding_id = {id:String}';
    const [row] = await this.#rows<Row>(`${SELECT} ${sql} LIMIT 1`, { ...w.params, id: findingId });
    return row ? view(row) : null;
  }

  count(filter: FindingFilter, by: CountDimension): Promise<{ value: string | null; count: number }[]> {
    return this.#kept(JSON.stringify(['count', filter, by]), () => this.#count(filter, by));
  }

  async #count(
    filter: FindingFilter,
    by: CountDimension,
  ): Promise<{ value: string | null; count: number }[]> {
    const column = COLUMNS[by];
    const w = where(filter);
    const rows = await this.#rows<{ value: string | null; count: string }>(
      `SELECT ${column} AS value, count() AS count FROM findings FINAL ${w.sql} GROUP BY value ORDER BY count DESC, value`,
      w.params,
    );
    return rows.map((r) => ({
      value: by === 'game' && r.value === '' ? null : r.value,
      count: Number(r.count),
    }));
  }

  async ping(): Promise<void> {
    await this.#rows('SELECT 1 AS ok', {});
  }
}
