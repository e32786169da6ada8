/**
 * Converts a version 2 (hashes as hex text) or version 3 (hashes as 32-byte BLOBs, data as canonical JSON text)
 * SQLite store into a new version 4 file (data and metadata in the compact form, names in the dictionary).
 *
 * The hash chain is over the canonical JSON content, not over the stored form, so every event keeps its hash: the
 * copy has the same positions, revisions, ids, recorded times, hashes and checkpoints. Continuity is proved, not
 * assumed: while copying, the old store's stream heads (each stream's last revision and hash) and their Merkle root
 * are computed from the old rows; then the copy is verified (every link recomputed from the decoded content) and its
 * heads and Merkle root must be the same. The old root and heads are kept in the new store's `migrations` table, and
 * since they are the same values, anchors signed over the old store still verify the new one. The old file is only
 * read, and the new one must not exist: nothing is overwritten; a failed conversion removes its own file.
 */
import { existsSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { canonicalJson, NotCanonicalJson } from './canonical-json.ts';
import { encodeCompact } from './compact.ts';
import { merkleRoot, sortHeads, type StreamHead } from './merkle.ts';
import { DICTIONARY_KIND, SCHEMA_VERSION, SqliteEventStore, StoreDictionary } from './sqlite-event-store.ts';
import { verify, type VerifyReport } from './verify.ts';

export interface MigrateReport {
  from: string;
  to: string;
  fromVersion: number;
  toVersion: number;
  events: number;
  checkpoints: number;
  /** The Merkle root over the old store's stream heads: the copy's is the same. */
  merkleRoot: string;
  /** The chains of the copy, which are those of the original. */
  verify: VerifyReport;
}

const HEX_HASH = /^[0-9a-f]{64}$/;
const PAGE = 10_000;

interface OldRow {
  position: number;
  stream: string;
  revision: number;
  event_id: string;
  type: string;
  data: string;
  metadata: string | null;
  recorded_at: number;
  previous_hash: unknown;
  hash: unknown;
}

export async function migrateStore(from: string, to: string): Promise<MigrateReport> {
  if (!existsSync(from)) throw new Error(`${from}: no such store file`);
  if (existsSync(to))
    throw new Error(`${to} already exists: the converted store is written to a new file only`);
  const old = new Database(from, { readonly: true, fileMustExist: true });
  try {
    const fromVersion = old.pragma('user_version', { simple: true }) as number;
    if (fromVersion !== 2 && fromVersion !== 3)
      throw new Error(
        fromVersion === SCHEMA_VERSION
          ? `${from} is already an event store of version ${SCHEMA_VERSION}: nothing to convert`
          : `${from} has event-store schema version ${fromVersion}: only version 2 and 3 stores are converted`,
      );
    const where = (r: OldRow) =>
      `${from}: the event at position ${r.position} (stream "${r.stream}" revision ${r.revision})`;
    const hashHex = (r: OldRow, column: 'hash' | 'previous_hash'): string => {
      const value = r[column];
      const hex =
        fromVersion === 2
          ? value
          : value instanceof Uint8Array && value.length === 32
            ? Buffer.from(value).toString('hex')
            : null;
      if (typeof hex !== 'string' || !HEX_HASH.test(hex))
        throw new Error(
          fromVersion === 2
            ? `${where(r)} has a ${column} that is not 64 lower-case hex digits (${JSON.stringify(value)}): not converted`
            : `${where(r)} has a ${column} that is not 32 bytes: not converted`,
        );
      return hex;
    };
    const json = (r: OldRow, column: 'data' | 'metadata'): unknown => {
      const text = r[column];
      try {
        const value = JSON.parse(String(text)) as unknown;
        if (canonicalJson(value) === text) return value;
      } catch (err) {
        if (!(err instanceof SyntaxError) && !(err instanceof NotCanonicalJson)) throw err;
      }
      throw new Error(`${where(r)} has ${column} that is not canonical JSON: not converted`);
    };

    // the new store makes its own schema; then rows go in through a plain connection, positions as they were
    await new SqliteEventStore(to).close();
    try {
      const db = new Database(to, { fileMustExist: true });
      let events = 0;
      let checkpoints = 0;
      const heads = new Map<string, StreamHead>();
      try {
        const dict = new StoreDictionary(db);
        const insert = db.prepare(
          `INSERT INTO events (position, stream_id, revision, event_id, type_id, data, metadata, recorded_at,
                               previous_hash, hash)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, unhex(?), unhex(?))`,
        );
        const page = old.prepare<[number, number], OldRow>(
          'SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ?',
        );
        db.transaction(() => {
          for (let after = -1; ;) {
            const rows = page.all(after, PAGE);
            for (const r of rows) {
              const hash = hashHex(r, 'hash');
              insert.run(
                r.position,
                dict.idOf(DICTIONARY_KIND.stream, r.stream),
                r.revision,
                r.event_id,
                dict.idOf(DICTIONARY_KIND.type, r.type),
                encodeCompact(json(r, 'data'), dict, r.event_id),
                r.metadata === null ? null : encodeCompact(json(r, 'metadata'), dict, r.event_id),
                r.recorded_at,
                hashHex(r, 'previous_hash'),
                hash,
              );
              const head = heads.get(r.stream);
              if (head === undefined || r.revision > head.revision)
                heads.set(r.stream, { stream: r.stream, revision: r.revision, hash });
            }
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
        dict.commit();
      } finally {
        db.close();
      }
      const oldHeads = sortHeads(heads.values());
      const oldRoot = merkleRoot(oldHeads);
      const store = new SqliteEventStore(to, { readOnly: true });
      let report: VerifyReport;
      try {
        report = await verify(store, { heads: true });
      } finally {
        await store.close();
      }
      if (report.ok && report.merkleRoot !== oldRoot)
        throw new Error(
          `${to}: the copy's Merkle root ${report.merkleRoot} is not the old store's ${oldRoot}: not converted`,
        );
      const record = new Database(to, { fileMustExist: true });
      try {
        record
          .prepare(
            `INSERT INTO migrations (from_file, from_version, events, merkle_root, heads, migrated_at)
             VALUES (?, ?, ?, ?, ?, ?)`,
          )
          .run(from, fromVersion, events, oldRoot, JSON.stringify(oldHeads), Date.now());
      } finally {
        record.close();
      }
      return {
        from,
        to,
        fromVersion,
        toVersion: SCHEMA_VERSION,
        events,
        checkpoints,
        merkleRoot: oldRoot,
        verify: report,
      };
    } catch (err) {
      // the new file is this function's own: a failed conversion leaves nothing half-made
      for (const f of [to, `${to}-wal`, `${to}-shm`, `${to}-journal`]) rmSync(f, { force: true });
      throw err;
    }
  } finally {
    old.close();
  }
}

/** What a migration recorded in a version 4 store: the old store it copied and what that store's chains were. */
export interface MigrationRecord {
  fromFile: string;
  fromVersion: number;
  events: number;
  merkleRoot: string;
  heads: StreamHead[];
  migratedAt: number;
}

export function migrationRecords(path: string): MigrationRecord[] {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare(
        'SELECT from_file, from_version, events, merkle_root, heads, migrated_at FROM migrations ORDER BY id',
      )
      .all() as {
      from_file: string;
      from_version: number;
      events: number;
      merkle_root: string;
      heads: string;
      migrated_at: number;
    }[];
    return rows.map((r) => ({
      fromFile: r.from_file,
      fromVersion: r.from_version,
      events: r.events,
      merkleRoot: r.merkle_root,
      heads: JSON.parse(r.heads) as StreamHead[],
      migratedAt: r.migrated_at,
    }));
  } finally {
    db.close();
  }
}
