/**
 * Converts a version 2 SQLite store (hashes as hex text) into a new version 3 file (hashes as 32-byte BLOBs). Every
 * row is copied as it is — same positions, same content, same hashes (as bytes), same checkpoints — so anchors
 * signed over the old store hold for the new one; the chains are then verified on the copy. The old file is only
 * read, and the new one must not exist: nothing is overwritten.
 */
import { existsSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { SCHEMA_VERSION, SqliteEventStore } from './sqlite-event-store.ts';
import { verify, type VerifyReport } from './verify.ts';

export interface MigrateReport {
  from: string;
  to: string;
  fromVersion: number;
  toVersion: number;
  events: number;
  checkpoints: number;
  /** the chains of the copy, which are those of the original */
  verify: VerifyReport;
}

const HEX_HASH = /^[0-9a-f]{64}$/;
const PAGE = 10_000;

interface V2Row {
  position: number;
  stream: string;
  revision: number;
  event_id: string;
  type: string;
  data: string;
  metadata: string | null;
  recorded_at: number;
  previous_hash: string;
  hash: string;
}

export async function migrateStore(from: string, to: string): Promise<MigrateReport> {
  if (!existsSync(from)) throw new Error(`${from}: no such store file`);
  if (existsSync(to))
    throw new Error(`${to} already exists: the converted store is written to a new file only`);
  const old = new Database(from, { readonly: true, fileMustExist: true });
  try {
    const fromVersion = old.pragma('user_version', { simple: true }) as number;
    if (fromVersion !== 2)
      throw new Error(
        fromVersion === SCHEMA_VERSION
          ? `${from} is already an event store of version ${SCHEMA_VERSION}: nothing to convert`
          : `${from} has event-store schema version ${fromVersion}: only version 2 stores are converted`,
      );
    // the new store makes its own schema; then rows go in through a plain connection, positions as they were
    await new SqliteEventStore(to).close();
    try {
      const db = new Database(to, { fileMustExist: true });
      let events = 0;
      let checkpoints = 0;
      try {
        const insert = db.prepare(
          `INSERT INTO events (position, stream, revision, event_id, type, data, metadata, recorded_at, previous_hash, hash)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        );
        const page = old.prepare<[number, number], V2Row>(
          'SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ?',
        );
        const hashBytes = (row: V2Row, column: 'hash' | 'previous_hash') => {
          const hex = row[column];
          if (typeof hex !== 'string' || !HEX_HASH.test(hex))
            throw new Error(
              `${from}: the event at position ${row.position} (stream "${row.stream}" revision ${row.revision}) has ` +
                `a ${column} that is not 64 lower-case hex digits (${JSON.stringify(hex)}): not converted`,
            );
          return Buffer.from(hex, 'hex');
        };
        db.transaction(() => {
          for (let after = -1; ;) {
            const rows = page.all(after, PAGE);
            for (const r of rows)
              insert.run(
                r.position,
                r.stream,
                r.revision,
                r.event_id,
                r.type,
                r.data,
                r.metadata,
                r.recorded_at,
                hashBytes(r, 'previous_hash'),
                hashBytes(r, 'hash'),
              );
            events += rows.length;
            if (rows.length < PAGE) break;
            after = rows.at(-1)!.position;
          }
          // positions are never reused: the old store's highest ever given carries over (events deleted at the end)
          const seq = old.prepare(`SELECT seq FROM sqlite_sequence WHERE name = 'events'`).get() as
            { seq: number } | undefined;
          if (seq)
            db.prepare(`UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'events'`).run(seq.seq);
          const saved = old.prepare('SELECT name, position, saved_at FROM checkpoints').all() as {
            name: string;
            position: number;
            saved_at: number;
          }[];
          const save = db.prepare('INSERT INTO checkpoints (name, position, saved_at) VALUES (?, ?, ?)');
          for (const c of saved) save.run(c.name, c.position, c.saved_at);
          checkpoints = saved.length;
        })();
      } finally {
        db.close();
      }
      const store = new SqliteEventStore(to, { readOnly: true });
      try {
        const report = await verify(store);
        return { from, to, fromVersion, toVersion: SCHEMA_VERSION, events, checkpoints, verify: report };
      } finally {
        await store.close();
      }
    } catch (err) {
      // the new file is this function's own: a failed conversion leaves nothing half-made
      for (const f of [to, `${to}-wal`, `${to}-shm`, `${to}-journal`]) rmSync(f, { force: true });
      throw err;
    }
  } finally {
    old.close();
  }
}
