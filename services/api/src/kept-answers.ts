/**
 * Answers kept until the data they were made from changes: the incident list's pages and counts, and the charts.
 * An answer is kept with the version of the ClickHouse tables it was read from (their active parts, rows, highest
 * block number and last change, from `system.parts`) and served only while that version is still current; the
 * version is read at most every `versionEveryMs` and shared by every request meanwhile. Bounded by the number of
 * answers and by the rows they hold, the least recently used dropped first. The key is the caller's: it must hold
 * everything the answer depends on — the caller's scope first of all.
 */
import type { AnalyticsClient } from '@table-audit/analytics';

type Client = Pick<AnalyticsClient['client'], 'query'>;

export interface KeptAnswersOptions {
  /** answers kept, least recently used dropped first; 0: none */
  readonly answers?: number;
  /** rows (findings, count lines, chart points) the kept answers may hold in all */
  readonly rows?: number;
  /**
   * how long the tables' version is taken as current before it is read again, ms (default 250): an answer can lag
   * its tables by at most this long (the projection into ClickHouse lags the store by more)
   */
  readonly versionEveryMs?: number;
  readonly now?: () => number;
}

/**
 * What changes when anything is inserted into, merged in, mutated in or removed from these tables: one line per
 * table (a table with no part yet has no line; its first part adds one).
 */
export const versionSql = (tables: readonly string[]): string => {
  for (const t of tables) if (!/^\w+$/.test(t)) throw new Error(`not a table name: ${t}`);
  return `SELECT table, count() AS parts, sum(rows) AS rows, max(max_block_number) AS block,
  toString(max(modification_time)) AS changed FROM system.parts
  WHERE database = currentDatabase() AND table IN (${tables.map((t) => `'${t}'`).join(', ')}) AND active
  GROUP BY table ORDER BY table`;
};

export class KeptAnswers {
  readonly #answers = new Map<string, { version: string; answer: Promise<unknown>; rows: number }>();
  #rowsKept = 0;
  #version: { value: string; at: number } | null = null;
  #reading: Promise<string> | null = null;
  readonly #capacity: number;
  readonly #maxRows: number;
  readonly #every: number;
  readonly #now: () => number;
  /** how the answers were made, for tests and the benchmark */
  readonly stats = { kept: 0, made: 0, versionReads: 0 };

  constructor(
    private readonly client: Client,
    private readonly tables: readonly string[],
    private readonly rowsOf: (answer: unknown) => number,
    options: KeptAnswersOptions & { answers: number; rows: number },
  ) {
    this.#capacity = options.answers;
    this.#maxRows = options.rows;
    this.#every = options.versionEveryMs ?? 250;
    this.#now = options.now ?? Date.now;
    versionSql(tables); // refuses a bad name now, not at the first request
  }

  /** answers kept now and the rows they hold (for tests of the bounds) */
  get size(): { answers: number; rows: number } {
    return { answers: this.#answers.size, rows: this.#rowsKept };
  }

  /** The tables' version: read at most once per `versionEveryMs`, concurrent callers sharing the read. */
  version(): Promise<string> {
    const v = this.#version;
    if (v && this.#now() - v.at < this.#every) return Promise.resolve(v.value);
    this.#reading ??= this.client
      .query({ query: versionSql(this.tables), format: 'JSONCompactEachRow' })
      .then((r) => r.json<unknown[]>())
      .then((rows) => {
        this.stats.versionReads++;
        const value = JSON.stringify(rows);
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

  /**
   * The answer to `key` made at the tables' current version, kept (bounded) until they change. An answer bigger
   * than the whole row budget is made and handed out, but not kept. `make` may return `keep: false` for an answer
   * that depends on more than the key and the tables (e.g. the clock).
   */
  async get<T>(key: string, make: () => Promise<T>, keep: (answer: T) => boolean = () => true): Promise<T> {
    if (this.#capacity === 0) return make();
    const version = await this.version();
    const known = this.#answers.get(key);
    if (known && known.version === version) {
      this.#answers.delete(key);
      this.#answers.set(key, known); // most recently used last
      this.stats.kept++;
      return known.answer as Promise<T>;
    }
    if (known) {
      this.#answers.delete(key);
      this.#rowsKept -= known.rows;
    }
    this.stats.made++;
    const answer = make();
    const entry = { version, answer: answer as Promise<unknown>, rows: 0 };
    this.#answers.set(key, entry);
    answer.then(
      (value) => {
        if (this.#answers.get(key) !== entry) return; // replaced or dropped meanwhile
        if (!keep(value)) {
          this.#answers.delete(key);
          return;
        }
        entry.rows = this.rowsOf(value);
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
}
