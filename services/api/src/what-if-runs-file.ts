/**
 * The file the API keeps its what-if runs in (what-if-runs.ts), so that a restart keeps them: a SQLite file the API
 * creates and owns, beside its index (app.ts says where). It holds each kept run — its request (readings, period,
 * scope), whose it is (the concessionaire it was made under, null for the regulator), its state, times, progress,
 * and once done its report (JSON) — with a marker row naming the file's form and format and the store the runs were
 * compared over (that store's first event: id and hash).
 *
 * A file that exists and is not ours (no marker table, not SQLite, an empty file), ours in a newer format, or ours
 * but of another store, is refused with an error naming it and why, and left as it is: it is opened read-only to
 * look, never written. The API then keeps its runs in memory only for that start, and says so in its log.
 *
 * Everything read back is bounded: at most `keep` finished runs and `unfinished` unfinished ones are read (the
 * newest), a report longer than the bound (MAX_KEPT_REPORT_BYTES unless the runner says less) is not read, and any other row is removed (they are rows the
 * API wrote itself).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { EventStore } from '@table-audit/eventstore';

/** The marker table: one row saying what this file is, its format, and the store it belongs to. */
export const RUNS_MARKER = 'table_audit_what_if_runs';
/** The form the marker names. */
export const RUNS_FORM = 'table-audit API what-if runs';
/** Bumped when the tables change. */
export const RUNS_FORMAT = 1;
/**
 * The longest report a kept run keeps, bytes of JSON (4 MiB). A report lists at most 200 changed rounds (the API's
 * WHAT_IF_MAX_CHANGED); the simulated month's J11 report is far below this. 32 kept runs: at most 128 MiB of reports.
 */
export const MAX_KEPT_REPORT_BYTES = 4 * 1024 * 1024;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS ${RUNS_MARKER} (
  id                 INTEGER PRIMARY KEY CHECK (id = 1),
  form               TEXT NOT NULL,
  format             INTEGER NOT NULL,
  created_at         INTEGER NOT NULL,   -- UTC ms
  store_first_id     TEXT,               -- the store's first event (its identity): id and hash; NULL while empty
  store_first_hash   TEXT
);
CREATE TABLE IF NOT EXISTS runs (
  seq            INTEGER PRIMARY KEY AUTOINCREMENT,  -- submission order
  id             TEXT NOT NULL UNIQUE,
  owner          TEXT,               -- the concessionaire it was made under; NULL: the regulator's
  alternatives   TEXT NOT NULL,      -- JSON list of reading keys
  scope          TEXT NOT NULL,      -- JSON WhatIfScope
  status         TEXT NOT NULL,
  queued_at      INTEGER NOT NULL,   -- UTC ms
  started_at     INTEGER,
  finished_at    INTEGER,
  events_read    INTEGER NOT NULL,
  events_total   INTEGER,
  error          TEXT,
  interrupted_at INTEGER,
  interrupted    TEXT,               -- why it was interrupted
  report         TEXT                -- JSON, once done
);
`;

/** The runs file exists and is not one this API may use: it is left as it is. */
export class RunsFileRefused extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(
      `${path} ${reason}; the API leaves it as it is and keeps its what-if runs in memory only (a restart loses them): move that file away, or give the API another index path (its runs file is named after it)`,
    );
    this.name = 'RunsFileRefused';
  }
}

/** A run as the file keeps it. */
export interface RunRow {
  readonly id: string;
  readonly owner: string | null;
  readonly alternatives: string;
  readonly scope: string;
  readonly status: string;
  readonly queued_at: number;
  readonly started_at: number | null;
  readonly finished_at: number | null;
  readonly events_read: number;
  readonly events_total: number | null;
  readonly error: string | null;
  readonly interrupted_at: number | null;
  readonly interrupted: string | null;
  /** null when none was kept, or (read back) when the stored one is longer than MAX_KEPT_REPORT_BYTES */
  readonly report: string | null;
}

interface StoreIdentity {
  readonly id: string;
  readonly hash: string;
}

/** The store's first event: what says which store the runs were compared over. Null for an empty store. */
async function storeIdentity(store: EventStore): Promise<StoreIdentity | null> {
  for await (const e of store.readAll({ maxCount: 1 })) return { id: e.eventId, hash: e.hash };
  return null;
}

interface Marker {
  form: unknown;
  format: unknown;
  store_first_id: unknown;
  store_first_hash: unknown;
}

/** Looks at an existing file read-only: whether it is a runs file of ours, of this store. */
function inspect(path: string, store: StoreIdentity | null): void {
  let probe: Database.Database | undefined;
  try {
    probe = new Database(path, { readonly: true, fileMustExist: true });
    const table = probe
      .prepare<[string], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?")
      .get(RUNS_MARKER);
    if (!table)
      throw new RunsFileRefused(
        path,
        `exists and is not a table-audit what-if runs file (it has no ${RUNS_MARKER} table)`,
      );
    const m = probe.prepare<[], Marker>(`SELECT * FROM ${RUNS_MARKER} WHERE id = 1`).get();
    if (m?.form !== RUNS_FORM || typeof m.format !== 'number')
      throw new RunsFileRefused(
        path,
        `has a ${RUNS_MARKER} table that does not name the form "${RUNS_FORM}": not a file this code wrote`,
      );
    if (m.format !== RUNS_FORMAT)
      throw new RunsFileRefused(
        path,
        `is a what-if runs file in format ${m.format}; this code reads format ${RUNS_FORMAT}`,
      );
    if (m.store_first_id !== null && (m.store_first_id !== store?.id || m.store_first_hash !== store?.hash))
      throw new RunsFileRefused(
        path,
        `holds the what-if runs of another store (its first event was ${String(m.store_first_id)} with hash ${String(m.store_first_hash).slice(0, 12)}…; this store's is ${store === null ? 'none: it is empty' : `${store.id} with hash ${store.hash.slice(0, 12)}…`})`,
      );
  } catch (e) {
    if (e instanceof RunsFileRefused) throw e;
    throw new RunsFileRefused(
      path,
      `exists and is not a table-audit what-if runs file (${(e as Error).message})`,
    );
  } finally {
    probe?.close();
  }
}

export class WhatIfRunsFile {
  readonly #db: Database.Database;
  readonly #s;

  private constructor(
    readonly path: string,
    db: Database.Database,
  ) {
    this.#db = db;
    this.#s = {
      put: db.prepare(
        `INSERT INTO runs (id, owner, alternatives, scope, status, queued_at, started_at, finished_at, events_read,
         events_total, error, interrupted_at, interrupted, report) VALUES (@id, @owner, @alternatives, @scope,
         @status, @queued_at, @started_at, @finished_at, @events_read, @events_total, @error, @interrupted_at,
         @interrupted, @report)
         ON CONFLICT (id) DO UPDATE SET status = excluded.status, started_at = excluded.started_at,
         finished_at = excluded.finished_at, events_read = excluded.events_read, events_total = excluded.events_total,
         error = excluded.error, interrupted_at = excluded.interrupted_at, interrupted = excluded.interrupted,
         report = excluded.report`,
      ),
      progress: db.prepare('UPDATE runs SET events_read = ?, events_total = ? WHERE id = ?'),
      remove: db.prepare('DELETE FROM runs WHERE id = ?'),
    };
  }

  /**
   * Opens the runs file at `path` for `store`, creating it if there is none. Throws RunsFileRefused (the file left
   * as it is) for a file that is not ours, of a newer or older format, or of another store.
   */
  static async open(path: string, store: EventStore): Promise<WhatIfRunsFile> {
    const identity = await storeIdentity(store);
    if (existsSync(path)) inspect(path, identity);
    else mkdirSync(dirname(path), { recursive: true });
    const db = new Database(path);
    try {
      db.transaction(() => {
        db.exec(SCHEMA);
        db.prepare(
          `INSERT OR IGNORE INTO ${RUNS_MARKER} (id, form, format, created_at) VALUES (1, ?, ?, ?)`,
        ).run(RUNS_FORM, RUNS_FORMAT, Date.now());
        // made over an empty store (or kept while it was): it takes the store's identity once it has one
        if (identity !== null)
          db.prepare(
            `UPDATE ${RUNS_MARKER} SET store_first_id = ?, store_first_hash = ? WHERE id = 1 AND store_first_id IS NULL`,
          ).run(identity.id, identity.hash);
      })();
    } catch (e) {
      db.close();
      throw e;
    }
    return new WhatIfRunsFile(path, db);
  }

  /**
   * The runs kept, in submission order: the newest `keep` finished ones and the newest `unfinished` queued or
   * running ones (the caller marks those interrupted); every other row is removed.
   */
  load(keep: number, unfinished: number, maxReportBytes = MAX_KEPT_REPORT_BYTES): RunRow[] {
    const cols = `id, owner, alternatives, scope, status, queued_at, started_at, finished_at, events_read,
      events_total, error, interrupted_at, interrupted,
      CASE WHEN length(CAST(report AS BLOB)) <= @max THEN report END AS report,
      report IS NOT NULL AS had_report, seq`;
    const pick = (where: string, n: number) =>
      this.#db
        .prepare<[{ max: number; n: number }], RunRow & { had_report: number; seq: number }>(
          `SELECT ${cols} FROM runs WHERE ${where} ORDER BY seq DESC LIMIT @n`,
        )
        .all({ max: maxReportBytes, n });
    return this.#db.transaction(() => {
      const rows = [
        ...pick("status NOT IN ('queued', 'running')", keep),
        ...pick("status IN ('queued', 'running')", unfinished),
      ].sort((a, b) => a.seq - b.seq);
      const ids = new Set(rows.map((r) => r.id));
      for (const { id } of this.#db.prepare<[], { id: string }>('SELECT id FROM runs').all())
        if (!ids.has(id)) this.#s.remove.run(id);
      return rows.map(({ had_report, seq: _seq, ...r }) =>
        had_report && r.report === null && r.status === 'done'
          ? {
              ...r,
              status: 'failed',
              error: `its report, as kept, is longer than the ${maxReportBytes} bytes the API reads back: submit the run again`,
            }
          : r,
      );
    })();
  }

  /** Writes a run (a new one, or its new state). */
  put(row: RunRow): void {
    this.#s.put.run(row);
  }

  /** A running run's progress. */
  progress(id: string, eventsRead: number, eventsTotal: number | null): void {
    this.#s.progress.run(eventsRead, eventsTotal, id);
  }

  /** Removes a run (a finished one beyond the bound). */
  remove(id: string): void {
    this.#s.remove.run(id);
  }

  close(): void {
    this.#db.close();
  }
}
