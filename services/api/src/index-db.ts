/**
 * The API's index database (store-index.ts): a SQLite file the API creates and owns — never the event store's file —
 * or an in-memory database. It holds the index's tables, rounds, findings and alert states, and the checkpoint
 * (the store position read up to) with the identity of the store it indexes (the first and the last event it
 * indexed: stream, revision, id, hash, position), all written in the same transactions.
 *
 * A file that exists and is not an index of ours (no marker table, or not SQLite at all) is refused with an error
 * naming it, and left as it is: it is opened read-only to look, never written. An index of ours in an older
 * format is emptied and rebuilt; one in a newer format is refused (this code cannot read it).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/** The marker table: one row saying this is an API index, its format, the checkpoint and the store's identity. */
export const INDEX_MARKER = 'table_audit_api_index';
/** Bumped when the tables change: an index in an older format is rebuilt. */
export const INDEX_FORMAT = 2;

/** The index database's page cache, KiB (SQLite's default is 2,000). */
const INDEX_CACHE_KIB = 64 * 1024;

const DATA_TABLES = ['tables', 'rounds', 'findings', 'alerts'] as const;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS ${INDEX_MARKER} (
  id             INTEGER PRIMARY KEY CHECK (id = 1),
  format         INTEGER NOT NULL,
  created_at     INTEGER NOT NULL,   -- UTC ms
  position       INTEGER,            -- the store position read up to (the next read starts after it); NULL: nothing
  first_stream   TEXT,               -- the first event indexed: where it is in the store, its id, hash, position
  first_revision INTEGER,
  first_event_id TEXT,
  first_hash     TEXT,
  first_position INTEGER,
  last_stream    TEXT,               -- the last event indexed: the same
  last_revision  INTEGER,
  last_event_id  TEXT,
  last_hash      TEXT,
  last_position  INTEGER
);
CREATE TABLE IF NOT EXISTS tables (
  table_id       TEXT PRIMARY KEY,
  casino         TEXT NOT NULL,
  concessionaire TEXT NOT NULL,
  game           TEXT,
  rounds         INTEGER NOT NULL    -- how many of its rounds are indexed (the next round's ordinal)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS rounds (
  round_id        TEXT PRIMARY KEY,
  -- where it was played (RoundPlace)
  table_id        TEXT NOT NULL,
  casino          TEXT NOT NULL,
  concessionaire  TEXT NOT NULL,
  game            TEXT,
  dealer_id       TEXT,
  start_time      INTEGER NOT NULL,
  -- where it resumes from (RoundResume): its table as its first event said, its place among that table's rounds
  resume_table    TEXT NOT NULL,
  ordinal         INTEGER NOT NULL,
  first_revision  INTEGER NOT NULL,
  last_revision   INTEGER NOT NULL,   -- of the last event stored that names it
  last_position   INTEGER NOT NULL,
  record_stream   TEXT,
  record_revision INTEGER,
  record_position INTEGER,
  reported        TEXT NOT NULL      -- JSON list of the finding ids its record reports
) WITHOUT ROWID;
CREATE UNIQUE INDEX IF NOT EXISTS rounds_by_table ON rounds (resume_table, ordinal);
CREATE TABLE IF NOT EXISTS findings (
  finding_id     TEXT PRIMARY KEY,
  -- the id's UTF-16 code units, big-endian: their byte order is JavaScript's string order (compareFindings)
  sort_key       BLOB NOT NULL,
  event_time     INTEGER,
  concessionaire TEXT,
  casino         TEXT,
  table_id       TEXT,
  round_id       TEXT,
  check_id       TEXT,
  severity       TEXT,
  handled        INTEGER NOT NULL,
  players        TEXT NOT NULL,      -- JSON list
  data           TEXT NOT NULL       -- the finding as stored, JSON
);
CREATE INDEX IF NOT EXISTS findings_by_time ON findings (event_time DESC, sort_key DESC);
CREATE INDEX IF NOT EXISTS findings_by_round ON findings (round_id);
CREATE TABLE IF NOT EXISTS alerts (
  alert_id TEXT PRIMARY KEY,
  state    TEXT NOT NULL             -- AlertState, JSON
) WITHOUT ROWID;
`;

/** The index file exists and is not an index this code may use: it is left as it is. */
export class IndexFileRefused extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(
      `${path} ${reason}; the API leaves it as it is: give another index path (table-audit serve --index PATH) or move that file away`,
    );
    this.name = 'IndexFileRefused';
  }
}

/** What the marker row holds. */
export interface IndexMarker {
  readonly format: number;
  readonly position: number | null;
  readonly first_stream: string | null;
  readonly first_revision: number | null;
  readonly first_event_id: string | null;
  readonly first_hash: string | null;
  readonly first_position: number | null;
  readonly last_stream: string | null;
  readonly last_revision: number | null;
  readonly last_event_id: string | null;
  readonly last_hash: string | null;
  readonly last_position: number | null;
}

/** Looks at an existing file read-only: its marker, or why it is not an index of ours. */
function inspect(path: string): { format: number } {
  let probe: Database.Database | undefined;
  try {
    probe = new Database(path, { readonly: true, fileMustExist: true });
    const marker = probe
      .prepare<[string], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?")
      .get(INDEX_MARKER);
    if (!marker)
      throw new IndexFileRefused(
        path,
        `exists and is not a table-audit API index (it has no ${INDEX_MARKER} table)`,
      );
    const row = probe
      .prepare<[], { format: unknown }>(`SELECT format FROM ${INDEX_MARKER} WHERE id = 1`)
      .get();
    if (typeof row?.format !== 'number' || !Number.isSafeInteger(row.format))
      throw new IndexFileRefused(
        path,
        `has a ${INDEX_MARKER} table without its row: not an index this code wrote`,
      );
    if (row.format > INDEX_FORMAT)
      throw new IndexFileRefused(
        path,
        `is a table-audit API index in format ${row.format}; this code knows format ${INDEX_FORMAT}`,
      );
    return { format: row.format };
  } catch (e) {
    if (e instanceof IndexFileRefused) throw e;
    throw new IndexFileRefused(path, `exists and is not a table-audit API index (${(e as Error).message})`);
  } finally {
    probe?.close();
  }
}

/**
 * Opens (or creates) the index database at `path` (':memory:' for one in memory). Returns it with whether it was
 * emptied because its format was older (the caller says so in its log).
 */
export function openIndexDb(path: string): { db: Database.Database; reformatted: number | null } {
  const inMemory = path === ':memory:';
  let reformatted: number | null = null;
  if (!inMemory) {
    if (existsSync(path)) {
      const { format } = inspect(path);
      if (format < INDEX_FORMAT) reformatted = format;
    } else mkdirSync(dirname(path), { recursive: true });
  }
  const db = new Database(path);
  try {
    if (!inMemory) {
      db.pragma('journal_mode = WAL');
      // the index can always be rebuilt from the store: a commit lost to a power cut is read again
      db.pragma('synchronous = NORMAL');
    }
    // a build looks up each round it meets (most are new: a miss must go down the b-tree), and each round record's
    // round: with SQLite's default 2 MB of cache most of those pages came from the OS at realistic size
    db.pragma(`cache_size = -${INDEX_CACHE_KIB}`);
    db.transaction(() => {
      if (reformatted !== null) {
        db.exec(`DROP TABLE IF EXISTS ${INDEX_MARKER}`);
        for (const t of DATA_TABLES) db.exec(`DROP TABLE IF EXISTS ${t}`);
      }
      db.exec(SCHEMA);
      db.prepare(`INSERT OR IGNORE INTO ${INDEX_MARKER} (id, format, created_at) VALUES (1, ?, ?)`).run(
        INDEX_FORMAT,
        Date.now(),
      );
    })();
  } catch (e) {
    db.close();
    throw e;
  }
  return { db, reformatted };
}

/** Empties the index (its data and checkpoint), in the caller's transaction. */
export function emptyIndex(db: Database.Database): void {
  for (const t of DATA_TABLES) db.exec(`DELETE FROM ${t}`);
  db.prepare(
    `UPDATE ${INDEX_MARKER} SET position = NULL, first_stream = NULL, first_revision = NULL, first_event_id = NULL,
     first_hash = NULL, first_position = NULL, last_stream = NULL, last_revision = NULL, last_event_id = NULL,
     last_hash = NULL, last_position = NULL WHERE id = 1`,
  ).run();
}

export function readMarker(db: Database.Database): IndexMarker {
  return db.prepare<[], IndexMarker>(`SELECT * FROM ${INDEX_MARKER} WHERE id = 1`).get()!;
}
