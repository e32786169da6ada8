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
import {
  KEY_COLUMNS,
  keyOf,
  keysCanAnswer,
  keysMatch,
  pageOfKeys,
  type FindingKey,
  type KeyRow,
} from './finding-keys.ts';
import { KeptAnswers, type KeptAnswersOptions } from './kept-answers.ts';

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
/** The filter's WHERE, and a page's: at most limit + 1 rows after the cursor (newest first, then id descending). */
function pageWhere(filter: FindingFilter, page: { limit: number; after: Cursor | null }) {
  const w = where(filter);
  let sql = w.sql;
  const params: Record<string, unknown> = { ...w.params, limit: page.limit + 1 };
  if (page.after !== null) {
    const after = `(event_time, finding_id) < (fromUnixTimestamp64Milli({afterTime:Int64}, 'UTC'), {afterId:String})`;
    sql = sql ? `${sql} AND ${after}` : `WHERE ${after}`;
    params['afterTime'] = page.after.eventTime;
    params['afterId'] = page.after.findingId;
  }
  return { w, sql, params };
}

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

export interface ClickHouseFindingsOptions extends KeptAnswersOptions {
  /** answers kept (pages and counts), least recently used dropped first; 0: none (default 2,000) */
  readonly answers?: number;
  /**
   * findings (and count rows) the kept answers may hold in all (default 20,000): a big page costs its size; and
   * as many findings are kept by where they are stored (part, offset, id, position) for the pages of other filters
   */
  readonly rows?: number;
  /**
   * the most findings the table may hold for its keys to be kept in memory (finding-keys.ts; default 20,000; 0:
   * never): while they are, a page of any filter is made from them, without a query for its keys or its count
   */
  readonly keys?: number;
  /**
   * whether a page asked while the keys of the table's current version are being loaded waits for them (default
   * false: it is made by query meanwhile, so a load never delays a page; tests set it to hold the keys' pages to
   * the stored findings)
   */
  readonly waitForKeys?: boolean;
}

/** How many rows an answer holds: a page's findings, or a count's lines. */
const rowsOf = (value: unknown): number =>
  Array.isArray(value) ? value.length : ((value as FindingsPage | null)?.items?.length ?? 0);

export class ClickHouseFindings implements FindingsQuery {
  readonly #kept: KeptAnswers;
  readonly #queries = { n: 0 };
  /** findings read for earlier pages, by (part, offset in it, position, id): a row's stored copy (see list) */
  readonly #rowsKept = new Map<string, FindingView>();
  readonly #maxRowsKept: number;
  readonly #maxKeys: number;
  readonly #waitForKeys: boolean;
  /** the table's keys at a version (null: more findings than `keys` allows) */
  #keysAt: { readonly version: string; readonly keys: readonly FindingKey[] | null } | null = null;
  #loadingKeys: { readonly version: string; readonly done: Promise<void> } | null = null;
  /** pages made from the keys in memory, loads of them, loads that failed (the pages then made by query) */
  readonly #keyStats = { keyPages: 0, keyLoads: 0, keyLoadFailures: 0 };

  constructor(
    private readonly client: Client,
    readonly description: string,
    options: ClickHouseFindingsOptions = {},
  ) {
    this.#kept = new KeptAnswers(client, ['findings'], rowsOf, {
      ...options,
      answers: options.answers ?? 2_000,
      rows: options.rows ?? 20_000,
    });
    this.#maxRowsKept = options.rows ?? 20_000;
    this.#maxKeys = options.keys ?? 20_000;
    this.#waitForKeys = options.waitForKeys ?? false;
  }

  /**
   * how the answers were made, for tests and the benchmark: queries run for pages, counts and rows (not the loads
   * of the keys), answers served as kept, pages made from the keys in memory, loads of the keys
   */
  get stats(): {
    queries: number;
    kept: number;
    versionReads: number;
    keyPages: number;
    keyLoads: number;
    keyLoadFailures: number;
  } {
    const k = this.#kept.stats;
    return { queries: this.#queries.n, kept: k.kept, versionReads: k.versionReads, ...this.#keyStats };
  }

  /** Resolves when the keys of the version being loaded are (for tests: a page after it is made from them). */
  async keysLoaded(): Promise<void> {
    await this.#loadingKeys?.done;
  }

  /**
   * The table's keys at its current version, or null: none kept (`keys: 0`, or more findings than it allows), or
   * not loaded yet — the first page asked at a new version starts the load and, unless `waitForKeys`, is made by
   * query meanwhile. One load per version; a failed load is tried again by the next page.
   */
  async #currentKeys(): Promise<readonly FindingKey[] | null> {
    if (this.#maxKeys === 0) return null;
    const version = await this.#kept.version();
    if (this.#keysAt?.version === version) return this.#keysAt.keys;
    if (this.#loadingKeys?.version !== version) {
      const loading = { version, done: this.#loadKeys(version) };
      this.#loadingKeys = loading;
      void loading.done.finally(() => {
        if (this.#loadingKeys === loading) this.#loadingKeys = null;
      });
    }
    if (!this.#waitForKeys) return null;
    await this.#loadingKeys?.done;
    return this.#keysAt?.version === version ? this.#keysAt.keys : null;
  }

  /**
   * Loads the keys (FINAL, in the list's order), tagged with the version read before the query: what is loaded is
   * that version or newer, never older. Not loaded when the version's rows (every stored version of every finding,
   * at least as many as FINAL reads) or the query's answer exceed the bound.
   */
  async #loadKeys(version: string): Promise<void> {
    const stored = (JSON.parse(version) as unknown[][]).reduce((n, line) => n + Number(line[2] ?? 0), 0);
    if (stored > this.#maxKeys) {
      this.#keysAt = { version, keys: null };
      return;
    }
    try {
      this.#keyStats.keyLoads++;
      const result = await this.client.query({
        query: `SELECT ${KEY_COLUMNS} FROM findings FINAL ORDER BY event_time DESC, finding_id DESC LIMIT {n:UInt32}`,
        query_params: { n: this.#maxKeys + 1 },
        format: 'JSONCompactEachRow',
      });
      const rows = await result.json<KeyRow>();
      const strings = new Map<string, string>();
      const intern = (s: string) => {
        const known = strings.get(s);
        if (known !== undefined) return known;
        strings.set(s, s);
        return s;
      };
      this.#keysAt = {
        version,
        keys: rows.length > this.#maxKeys ? null : rows.map((r) => keyOf(r, intern)),
      };
    } catch {
      // the page is made by query, which reports what went wrong; the next page tries the load again
      this.#keyStats.keyLoadFailures++;
    }
  }

  /** answers kept now and the rows they hold */
  get kept(): { answers: number; rows: number } {
    return this.#kept.size;
  }

  async #rows<T>(query: string, params: Record<string, unknown>): Promise<T[]> {
    this.#queries.n++;
    const result = await this.client.query({ query, query_params: params, format: 'JSONEachRow' });
    return result.json<T>();
  }

  /** Rows as arrays (JSONCompactEachRow: no column names repeated on every row). */
  async #compact<T extends unknown[]>(query: string, params: Record<string, unknown>): Promise<T[]> {
    this.#queries.n++;
    const result = await this.client.query({ query, query_params: params, format: 'JSONCompactEachRow' });
    return result.json<T>();
  }

  /**
   * A page in two steps, each a query with FINAL (the table is a ReplacingMergeTree: only each finding's last
   * version counts). First the page's keys — where each row is stored (its part and offset in it: a part is never
   * changed once written; a merge or a mutation writes a new one), its finding id and `position` (the store position
   * the row was projected from, the table's version column) — after the cursor, newest first then id descending (a total order), with
   * the filter's count beside them on a first page (a window over the filtered rows, before the LIMIT). Reading
   * only the sorting columns is what makes this cheap: ClickHouse reads every selected column of every row the
   * filter keeps before it sorts and cuts, and a finding's texts are most of its bytes. Then the rows themselves,
   * each looked up by those keys among the rows kept from earlier pages, the rest read by id (every stored version,
   * the one the keys name picked). A row kept is the very stored row the keys name. A deep page's count is the
   * filter's, kept by filter with the table's version. If a row of the first step is gone by the second (merged
   * into a newer version meanwhile), the page is made again by one query that reads everything.
   */
  list(filter: FindingFilter, page: { limit: number; after: Cursor | null }): Promise<FindingsPage> {
    return this.#kept.get(JSON.stringify(['list', filter, page]), () => this.#list(filter, page));
  }

  /** How many findings match a filter, kept by filter until the table changes (a deep page's total). */
  #total(filter: FindingFilter): Promise<number> {
    return this.#kept.get(JSON.stringify(['total', filter]), async () => {
      const w = where(filter);
      const [count] = await this.#rows<{ total: string }>(
        `SELECT count() AS total FROM findings FINAL ${w.sql}`,
        w.params,
      );
      return Number(count?.total ?? 0);
    });
  }

  async #list(filter: FindingFilter, page: { limit: number; after: Cursor | null }): Promise<FindingsPage> {
    const inMemory = await this.#currentKeys();
    if (inMemory !== null && keysCanAnswer(filter, page.after))
      return this.#listFromKeys(inMemory, filter, page);
    const { sql, params } = pageWhere(filter, page);
    const first = page.after === null;
    // a deep page's count is the filter's (kept): asked beside the page's keys, not after them
    const [keys, deepTotal] = await Promise.all([
      this.#compact<[string, string, string, string, string?]>(
        `SELECT finding_id, toString(position), _part, toString(_part_offset)${first ? ', toString(count() OVER ())' : ''}
         FROM findings FINAL ${sql}
         ORDER BY event_time DESC, finding_id DESC LIMIT {limit:UInt32}`,
        params,
      ),
      first ? null : this.#total(filter),
    ]);
    // a first page: the window's count (none when nothing matches); a deep page: the filter's, kept
    const total = deepTotal ?? Number(keys[0]?.[4] ?? 0);
    const items = await this.#byKey(
      keys
        .slice(0, page.limit)
        .map(([id, position, part, offset]) => `${part}\u0000${offset}\u0000${position}\u0000${id}`),
    );
    if (items === null) return this.#listInOneQuery(filter, page); // a row changed between the two queries
    const last = items.at(-1);
    return {
      items,
      total,
      next:
        keys.length > page.limit && last ? { eventTime: last.eventTime, findingId: last.findingId } : null,
    };
  }

  /** A page made from the keys in memory: the same keys and count the two queries of #list would read. */
  async #listFromKeys(
    keys: readonly FindingKey[],
    filter: FindingFilter,
    page: { limit: number; after: Cursor | null },
  ): Promise<FindingsPage> {
    this.#keyStats.keyPages++;
    const match = keysMatch(filter, {
      from: filter.from === undefined ? null : dayOf(filter.from),
      to: filter.to === undefined ? null : dayOf(filter.to - 1),
    });
    const found = pageOfKeys(keys, match, page);
    const items = await this.#byKey(found.stored.slice(0, page.limit));
    if (items === null) return this.#listInOneQuery(filter, page); // a row merged away since the keys were read
    const last = items.at(-1);
    return {
      items,
      total: found.total,
      next:
        found.stored.length > page.limit && last
          ? { eventTime: last.eventTime, findingId: last.findingId }
          : null,
    };
  }

  /** The rows of these keys (part, offset, position, id), in their order: kept rows, the rest read; null if one is gone. */
  async #byKey(keys: readonly string[]): Promise<FindingView[] | null> {
    const missing = keys
      .filter((k) => !this.#rowsKept.has(k))
      .map((k) => k.slice(k.lastIndexOf('\u0000') + 1));
    const read = new Map<string, FindingView>();
    if (missing.length) {
      // no FINAL: the exact version named by the first query, whichever versions are still unmerged
      const rows = await this.#rows<Row & { position: string; part: string; offset: string }>(
        `${SELECT_COLUMNS}, toString(position) AS position, _part AS part, toString(_part_offset) AS offset
         FROM findings PREWHERE finding_id IN {ids:Array(String)}`,
        { ids: missing },
      );
      for (const r of rows)
        read.set(`${r.part}\u0000${r.offset}\u0000${r.position}\u0000${r.finding_id}`, view(r));
    }
    const out: FindingView[] = [];
    for (const k of keys) {
      const row = this.#rowsKept.get(k) ?? read.get(k);
      if (!row) return null;
      this.#rowsKept.delete(k);
      this.#rowsKept.set(k, row); // most recently used last
      out.push(row);
    }
    while (this.#rowsKept.size > this.#maxRowsKept)
      this.#rowsKept.delete(this.#rowsKept.keys().next().value!);
    return out;
  }

  /** The page and the filter's count in one query that reads every column (the fallback of list). */
  async #listInOneQuery(
    filter: FindingFilter,
    page: { limit: number; after: Cursor | null },
  ): Promise<FindingsPage> {
    const { w, sql, params } = pageWhere(filter, page);
    const rows = await this.#rows<Row & { total: string }>(
      `${SELECT_COLUMNS}, (SELECT count() FROM findings FINAL ${w.sql}) AS total FROM findings FINAL ${sql}
       ORDER BY event_time DESC, finding_id DESC LIMIT {limit:UInt32}`,
      params,
    );
    const total = rows.length ? Number(rows[0]!.total) : await this.#total(filter);
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
    return this.#kept.get(JSON.stringify(['count', filter, by]), () => this.#count(filter, by));
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
