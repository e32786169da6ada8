/**
 * Converts a version 2 (hashes as hex text), 3 (hashes as 32-byte BLOBs, data as canonical JSON text) or 4 (data in
 * the compact form, names in a dictionary) SQLite store into a new file of the current version (6), whose chain is
 * over the stored bytes (hash-form.ts, chain version 5) instead of canonical JSON. A version 5 store needs no
 * conversion: it is opened and appended to as it is.
 *
 * Every event's hash therefore changes; what carries over is proved, not assumed:
 *  1. the old store's chains are checked first, link by link (revisions gap-free, each previous hash the hash before
 *     it, each hash recomputed from the content as that version computed it): a store whose chain is broken is not
 *     converted, and the first broken event is named;
 *  2. the events are copied with their positions, stream revisions, ids, types, content and recorded times, chained
 *     anew, with the checkpoints and the highest position ever given;
 *  3. the copy is read back and each event's content, hashed the old way with the old previous hash, must give the
 *     old hash of the event at that position: the new store holds exactly what the old chain covered;
 *  4. the copy's new chains are verified, and the old store's heads and Merkle root (what anchors signed over it)
 *     are kept in the new store's `migrations` table beside the new ones.
 * Anchors signed over the old store keep verifying the old file (which is only read, never changed); the new store
 * starts its own anchors. The new file must not exist: nothing is overwritten; a failed conversion removes its own file.
 */
import { existsSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { canonicalJson, NotCanonicalJson } from './canonical-json.ts';
import { CompactFormatError, decodeCompact } from './compact.ts';
import { GENESIS_HASH, legacyEventHash } from './hash-chain.ts';
import { merkleRoot, sortHeads, type StreamHead } from './merkle.ts';
import {
  DICTIONARY_KIND,
  OPENED_SCHEMA_VERSIONS,
  SCHEMA_VERSION,
  SqliteEventStore,
  StoreDictionary,
} from './sqlite-event-store.ts';
import { verify, type VerifyReport } from './verify.ts';

export interface MigrateReport {
  from: string;
  to: string;
  fromVersion: number;
  toVersion: number;
  events: number;
  checkpoints: number;
  /** The Merkle root over the old store's stream heads (what anchors over the old store signed). */
  merkleRoot: string;
  /** The Merkle root over the new store's heads (chain version 5). */
  newMerkleRoot: string;
  /** The chains of the copy. */
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
  data: unknown;
  metadata: unknown;
  recorded_at: number;
  previous_hash: unknown;
  hash: unknown;
}

/** An old row with its content read and its hashes as hex. */
interface OldEvent {
  position: number;
  stream: string;
  revision: number;
  eventId: string;
  type: string;
  data: unknown;
  metadata: Record<string, unknown> | undefined;
  recordedAt: number;
  previousHash: string;
  hash: string;
}

/** Reads an old store's events in position order, each checked to be readable (not yet its chain). */
function* oldEvents(old: Database.Database, from: string, version: number): Generator<OldEvent> {
  const where = (r: OldRow) =>
    `${from}: the event at position ${r.position} (stream "${r.stream}" revision ${r.revision})`;
  const hashHex = (r: OldRow, column: 'hash' | 'previous_hash'): string => {
    const value = r[column];
    const hex =
      version === 2
        ? value
        : value instanceof Uint8Array && value.length === 32
          ? Buffer.from(value).toString('hex')
          : null;
    if (typeof hex !== 'string' || !HEX_HASH.test(hex))
      throw new Error(
        version === 2
          ? `${where(r)} has a ${column} that is not 64 lower-case hex digits (${JSON.stringify(value)}): not converted`
          : `${where(r)} has a ${column} that is not 32 bytes: not converted`,
      );
    return hex;
  };
  const dict = version === 4 ? new StoreDictionary(old) : null;
  const content = (r: OldRow, column: 'data' | 'metadata'): unknown => {
    const stored = r[column];
    if (dict !== null) {
      try {
        const value = decodeCompact(stored as Uint8Array, dict, r.event_id);
        canonicalJson(value);
        return value;
      } catch (err) {
        if (!(err instanceof CompactFormatError) && !(err instanceof NotCanonicalJson)) throw err;
        throw new Error(
          `${where(r)} has ${column} that cannot be read (${(err as Error).message}): not converted`,
        );
      }
    }
    try {
      const value = JSON.parse(String(stored)) as unknown;
      if (canonicalJson(value) === stored) return value;
    } catch (err) {
      if (!(err instanceof SyntaxError) && !(err instanceof NotCanonicalJson)) throw err;
    }
    throw new Error(`${where(r)} has ${column} that is not canonical JSON: not converted`);
  };
  const page = old.prepare<[number, number], OldRow>(
    version === 4
      ? `SELECT e.position, s.text AS stream, e.revision, e.event_id, t.text AS type, e.data, e.metadata,
                e.recorded_at, e.previous_hash, e.hash
         FROM events e JOIN dictionary s ON s.id = e.stream_id AND s.kind = ${DICTIONARY_KIND.stream}
                       JOIN dictionary t ON t.id = e.type_id AND t.kind = ${DICTIONARY_KIND.type}
         WHERE e.position > ? ORDER BY e.position LIMIT ?`
      : 'SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ?',
  );
  if (version === 4) {
    // a row whose stream or type entry is gone would be skipped by the join: counted, so it cannot be
    const all = (old.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;
    const joined = (
      old
        .prepare(
          `SELECT count(*) AS n FROM events e JOIN dictionary s ON s.id = e.stream_id AND s.kind = ${DICTIONARY_KIND.stream}
           JOIN dictionary t ON t.id = e.type_id AND t.kind = ${DICTIONARY_KIND.type}`,
        )
        .get() as { n: number }
    ).n;
    if (joined !== all)
      throw new Error(
        `${from}: ${all - joined} event(s) name a stream or type missing from its dictionary: not converted`,
      );
  }
  for (let after = -1; ;) {
    const rows = page.all(after, PAGE);
    for (const r of rows) {
      const metadata = r.metadata === null ? undefined : (content(r, 'metadata') as Record<string, unknown>);
      yield {
        position: r.position,
        stream: r.stream,
        revision: r.revision,
        eventId: r.event_id,
        type: r.type,
        data: content(r, 'data'),
        metadata,
        recordedAt: r.recorded_at,
        previousHash: hashHex(r, 'previous_hash'),
        hash: hashHex(r, 'hash'),
      };
    }
    if (rows.length < PAGE) return;
    after = rows.at(-1)!.position;
  }
}

export async function migrateStore(from: string, to: string): Promise<MigrateReport> {
  if (!existsSync(from)) throw new Error(`${from}: no such store file`);
  if (existsSync(to))
    throw new Error(`${to} already exists: the converted store is written to a new file only`);
  const old = new Database(from, { readonly: true, fileMustExist: true });
  try {
    const fromVersion = old.pragma('user_version', { simple: true }) as number;
    if (fromVersion !== 2 && fromVersion !== 3 && fromVersion !== 4)
      throw new Error(
        OPENED_SCHEMA_VERSIONS.includes(fromVersion)
          ? `${from} is an event store of version ${fromVersion}, which this code reads and appends to as it is: nothing to convert`
          : `${from} has event-store schema version ${fromVersion}: only version 2, 3 and 4 stores are converted`,
      );

    // 1. the old chains, as that version hashed them
    const heads = new Map<string, StreamHead>();
    let events = 0;
    for (const e of oldEvents(old, from, fromVersion)) {
      const head = heads.get(e.stream);
      const expectedRevision = head === undefined ? 0 : head.revision + 1;
      const expectedPrevious = head === undefined ? GENESIS_HASH : head.hash;
      const at = `${from}: the event at position ${e.position} (stream "${e.stream}" revision ${e.revision}, id ${e.eventId})`;
      if (e.revision !== expectedRevision)
        throw new Error(`${at} should be revision ${expectedRevision}: its chain is broken, not converted`);
      if (e.previousHash !== expectedPrevious)
        throw new Error(
          `${at}: its previous hash is not the hash of the event before it; its chain is broken, not converted`,
        );
      if (legacyEventHash(e.previousHash, e) !== e.hash)
        throw new Error(`${at}: its hash does not match its content; its chain is broken, not converted`);
      heads.set(e.stream, { stream: e.stream, revision: e.revision, hash: e.hash });
      events++;
    }
    const oldHeads = sortHeads(heads.values());
    const oldRoot = merkleRoot(oldHeads);

    // 2. the copy, chained anew
    let checkpoints = 0;
    try {
      const store = new SqliteEventStore(to);
      try {
        store.importTransaction(() => {
          for (const e of oldEvents(old, from, fromVersion))
            store.importEvent(e.position, e.stream, e.revision, e, e.recordedAt);
        });
      } finally {
        await store.close();
      }
      const db = new Database(to, { fileMustExist: true });
      try {
        db.transaction(() => {
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

      // 3. the copy's content is what the old chain covered; 4. its own chains
      const store2 = new SqliteEventStore(to, { readOnly: true });
      let report: VerifyReport;
      try {
        const originals = oldEvents(old, from, fromVersion);
        let copied = 0;
        for await (const e of store2.readAll()) {
          const o = originals.next();
          if (o.done || o.value.position !== Number(e.position))
            throw new Error(
              `${to}: the copy's event at position ${e.position} is not the old store's next event`,
            );
          if (legacyEventHash(o.value.previousHash, e) !== o.value.hash)
            throw new Error(
              `${to}: the copy of the event at position ${e.position} does not hold the content its old hash covers`,
            );
          copied++;
        }
        if (copied !== events) throw new Error(`${to}: ${copied} events copied of ${events}`);
        report = await verify(store2, { heads: true });
      } finally {
        await store2.close();
      }
      if (!report.ok)
        throw new Error(
          `${to}: the copy's chain does not verify (${report.firstBroken?.reason ?? 'anchors'}): not converted`,
        );
      const record = new Database(to, { fileMustExist: true });
      try {
        record
          .prepare(
            `INSERT INTO migrations (from_file, from_version, events, merkle_root, heads, migrated_at,
                                     new_merkle_root, new_heads)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            from,
            fromVersion,
            events,
            oldRoot,
            JSON.stringify(oldHeads),
            Date.now(),
            report.merkleRoot!,
            JSON.stringify(report.heads),
          );
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
        newMerkleRoot: report.merkleRoot!,
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

/** What a migration recorded in a version 5 store: the old store it copied, its chains' heads then, and the copy's. */
export interface MigrationRecord {
  fromFile: string;
  fromVersion: number;
  events: number;
  merkleRoot: string;
  heads: StreamHead[];
  migratedAt: number;
  /** the copy's heads and Merkle root right after the conversion (chain version 5) */
  newMerkleRoot: string | null;
  newHeads: StreamHead[] | null;
}

export function migrationRecords(path: string): MigrationRecord[] {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare(
        `SELECT from_file, from_version, events, merkle_root, heads, migrated_at, new_merkle_root, new_heads
         FROM migrations ORDER BY id`,
      )
      .all() as {
      from_file: string;
      from_version: number;
      events: number;
      merkle_root: string;
      heads: string;
      migrated_at: number;
      new_merkle_root: string | null;
      new_heads: string | null;
    }[];
    return rows.map((r) => ({
      fromFile: r.from_file,
      fromVersion: r.from_version,
      events: r.events,
      merkleRoot: r.merkle_root,
      heads: JSON.parse(r.heads) as StreamHead[],
      migratedAt: r.migrated_at,
      newMerkleRoot: r.new_merkle_root,
      newHeads: r.new_heads === null ? null : (JSON.parse(r.new_heads) as StreamHead[]),
    }));
  } finally {
    db.close();
  }
}
