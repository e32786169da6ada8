/**
 * The raw limits the event store's figures are measured against, in the same run and on the same disk: better-sqlite3
 * on a file with the store's own settings (WAL, synchronous=FULL), rows of 300 bytes with a unique text key.
 *  - insert: N rows in one transaction (one fsync), rows/s;
 *  - read: every row back in rowid order, pages of 512 as arrays (the cheapest way a reader can get them), rows/s.
 */
import { createRequire } from 'node:module';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type BetterSqlite3 from '../packages/eventstore/node_modules/@types/better-sqlite3/index.d.ts';

// the SQLite adapter's own driver (bench does not depend on it directly)
const Database = createRequire(import.meta.resolve('@table-audit/eventstore/sqlite'))(
  'better-sqlite3',
) as typeof BetterSqlite3;

export interface RawFigures {
  rows: number;
  rowBytes: number;
  insertRowsPerSecond: number;
  readRowsPerSecond: number;
  bytesPerRow: number;
}

export function rawSqlite(dir: string, rows = 100_000): RawFigures {
  const path = join(dir, 'raw.sqlite');
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE raw (id INTEGER PRIMARY KEY, k TEXT NOT NULL UNIQUE, v TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO raw (k, v) VALUES (?, ?)');
  const filler = 'x'.repeat(300 - 16);
  const i0 = performance.now();
  db.transaction(() => {
    for (let i = 0; i < rows; i++) insert.run(`key-${String(i).padStart(12, '0')}`, filler);
  })();
  const insertSeconds = (performance.now() - i0) / 1000;
  const page = db
    .prepare<[number], unknown[]>('SELECT id, k, v FROM raw WHERE id > ? ORDER BY id LIMIT 512')
    .raw(true);
  const r0 = performance.now();
  const read = readPaged(page);
  const readSeconds = (performance.now() - r0) / 1000;
  db.close(); // checkpoints the WAL into the file
  if (read !== rows) throw new Error(`raw read ${read} of ${rows} rows`);
  return {
    rows,
    rowBytes: 300,
    insertRowsPerSecond: Math.round(rows / insertSeconds),
    readRowsPerSecond: Math.round(rows / readSeconds),
    bytesPerRow: Math.round(statSync(path).size / rows),
  };
}

/** A figure beside its raw limit and its target ratio. */
/**
 * Reads every row through `page`, a raw statement of 512 rows after a key (its first column), ordered by that key:
 * how the benches read SQLite at its own rate. Returns the rows read.
 */
export function readPaged(page: { all(after: number): unknown[][] }): number {
  let read = 0;
  for (let after = 0; ;) {
    const got = page.all(after);
    read += got.length;
    if (got.length < 512) return read;
    after = got.at(-1)![0] as number;
  }
}

export const versus = (value: number, raw: number, target: number) => ({
  value,
  ratioToRaw: +(value / raw).toFixed(3),
  target: `≥ ${target} of raw`,
  meetsTarget: value / raw >= target,
});

/** A store file's size per event, WAL checkpointed (the store closed), no VACUUM. */
export const bytesPerEvent = (path: string, events: number) => Math.round(statSync(path).size / events);
