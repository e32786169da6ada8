/**
 * The raw limits of the machine's SQLite, measured with better-sqlite3 alone (no event store, no JSON, no hash):
 * insert `rows` rows of 300 bytes with a unique key in one transaction, on a file in WAL mode with
 * synchronous=FULL as the event store uses; then read them all back in key order. What the store's ingest and the
 * replay's read are compared with, measured in the same run on the same disk.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sqliteBytes } from './measure.ts';

export const RAW_ROW_BYTES = 300;

export interface RawSqliteFigures {
  rows: number;
  rowBytes: number;
  insertRowsPerSecond: number;
  readRowsPerSecond: number;
  bytesPerRow: number;
}

export function rawSqliteLimits(dir: string, rows: number): RawSqliteFigures {
  const path = join(dir, 'raw.sqlite');
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec('CREATE TABLE rows (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, body BLOB NOT NULL)');
    // the bodies are random (incompressible) and made before the clock starts; the keys look like event ids
    const pool = Array.from({ length: 1024 }, () => randomBytes(RAW_ROW_BYTES));
    const insert = db.prepare('INSERT INTO rows (key, body) VALUES (?, ?)');
    let t0 = performance.now();
    db.transaction(() => {
      for (let i = 0; i < rows; i++) insert.run(`TC-RAW-${i}`, pool[i % pool.length]!);
    })();
    const insertSeconds = (performance.now() - t0) / 1000;
    let read = 0;
    let bytes = 0;
    t0 = performance.now();
    for (const row of db.prepare('SELECT id, key, body FROM rows ORDER BY id').iterate() as Iterable<{
      body: Buffer;
    }>) {
      read++;
      bytes += row.body.length;
    }
    const readSeconds = (performance.now() - t0) / 1000;
    if (read !== rows || bytes !== rows * RAW_ROW_BYTES) throw new Error(`raw read: ${read} rows of ${rows}`);
    db.pragma('wal_checkpoint(TRUNCATE)');
    return {
      rows,
      rowBytes: RAW_ROW_BYTES,
      insertRowsPerSecond: Math.round(rows / insertSeconds),
      readRowsPerSecond: Math.round(rows / readSeconds),
      bytesPerRow: Math.round(sqliteBytes(path) / rows),
    };
  } finally {
    db.close();
  }
}
