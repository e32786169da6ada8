/**
 * Version 2 stores (hashes as hex text), version 3 stores (hashes as BLOBs, data as canonical JSON text) and version
 * 4 stores (compact data, chain over canonical JSON) are refused with the command that converts them, never misread;
 * the converter checks the old chains, writes a new version 5 file with the same events, positions, content and
 * checkpoints, chained anew over the stored bytes, and records the old store's heads and Merkle root in it.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { collect } from '../src/conformance.ts';
import { canonicalJson } from '../src/canonical-json.ts';
import { eventHash, GENESIS_HASH, legacyEventHash } from '../src/hash-chain.ts';
import { encodeCompact } from '../src/compact.ts';
import { DICTIONARY_KIND, SCHEMA_VERSION, StoreDictionary } from '../src/sqlite-event-store.ts';
import { merkleRoot, sortHeads, type StreamHead } from '../src/merkle.ts';
import type { RecordedEvent } from '../src/port.ts';
import { SqliteEventStore } from '../src/sqlite-event-store.ts';
import { migrateStore, migrationRecords } from '../src/sqlite-migrate.ts';

const dir = mkdtempSync(join(tmpdir(), 'ta-migrate-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

/** The version 3 layout, as that code created it. */
const V3_SCHEMA = `
CREATE TABLE events (
  position      INTEGER PRIMARY KEY AUTOINCREMENT,
  stream        TEXT    NOT NULL,
  revision      INTEGER NOT NULL,
  event_id      TEXT    NOT NULL,
  type          TEXT    NOT NULL,
  data          TEXT    NOT NULL,
  metadata      TEXT,
  recorded_at   INTEGER NOT NULL,
  previous_hash BLOB    NOT NULL,
  hash          BLOB    NOT NULL
);
CREATE UNIQUE INDEX events_by_event_id ON events (event_id);
CREATE UNIQUE INDEX events_by_stream_revision ON events (stream, revision);
CREATE TABLE checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL, saved_at INTEGER NOT NULL) WITHOUT ROWID;
PRAGMA user_version = 3;
`;

/**
 * A version 3 store written row by row as that code wrote it (hashes over the canonical JSON content), or, with
 * version 2, the same with hashes as 64 hex digits. Returns its path, its events as they must read back, and its
 * heads.
 */
function oldStore(version: 2 | 3 | 4) {
  const path = join(dir, `v${version}-${++n}.sqlite`);
  const db = new Database(path);
  db.exec(V3_SCHEMA);
  const insert = db.prepare(
    `INSERT INTO events (stream, revision, event_id, type, data, metadata, recorded_at, previous_hash, hash)
     VALUES (?, ?, ?, ?, ?, ?, ?, unhex(?), unhex(?))`,
  );
  const events: RecordedEvent[] = [];
  const heads = new Map<string, StreamHead>();
  const add = (
    stream: string,
    eventId: string,
    type: string,
    data: unknown,
    metadata?: Record<string, unknown>,
  ) => {
    const head = heads.get(stream);
    const revision = head === undefined ? 0 : head.revision + 1;
    const previousHash = head?.hash ?? GENESIS_HASH;
    const recordedAt = 1_764_561_600_000 + events.length;
    const content = { stream, revision, eventId, type, data, recordedAt, ...(metadata && { metadata }) };
    const hash = legacyEventHash(previousHash, content);
    const info = insert.run(
      stream,
      revision,
      eventId,
      type,
      canonicalJson(data),
      metadata ? canonicalJson(metadata) : null,
      recordedAt,
      previousHash,
      hash,
    );
    events.push({ ...content, position: BigInt(info.lastInsertRowid), hash, previousHash });
    heads.set(stream, { stream, revision, hash });
  };
  for (let i = 0; i < 3; i++) {
    add('table-1', `a${i}`, 'Dealt', { card: `A${i}`, seat: i, nested: [{ k: 'x' }, null, true, -5] });
    add('table-2', `b${i}`, 'Paid', { amount: i }, { m: i, source: 'file x.avro' });
    db.prepare(
      `INSERT INTO checkpoints (name, position, saved_at) VALUES ('replay', ?, 0)
       ON CONFLICT (name) DO UPDATE SET position = excluded.position`,
    ).run(i + 1);
  }
  if (version === 2)
    db.exec(`UPDATE events SET hash = lower(hex(hash)), previous_hash = lower(hex(previous_hash));
             PRAGMA user_version = 2;`);
  db.close();
  if (version === 4) toVersion4(path);
  return { path, events, root: merkleRoot(sortHeads(heads.values())) };
}

/** The version 4 layout (compact data, names in a dictionary, chain over canonical JSON), as that code wrote it. */
function toVersion4(path: string): void {
  const db = new Database(path);
  const rows = db.prepare('SELECT * FROM events ORDER BY position').all() as {
    position: number;
    stream: string;
    revision: number;
    event_id: string;
    type: string;
    data: string;
    metadata: string | null;
    recorded_at: number;
    previous_hash: Buffer;
    hash: Buffer;
  }[];
  db.exec(`
    DROP TABLE events;
    CREATE TABLE dictionary (id INTEGER PRIMARY KEY, kind INTEGER NOT NULL, text TEXT NOT NULL, UNIQUE (kind, text));
    CREATE TABLE events (
      position INTEGER PRIMARY KEY AUTOINCREMENT, stream_id INTEGER NOT NULL, revision INTEGER NOT NULL,
      event_id TEXT NOT NULL, type_id INTEGER NOT NULL, data BLOB NOT NULL, metadata BLOB,
      recorded_at INTEGER NOT NULL, previous_hash BLOB NOT NULL, hash BLOB NOT NULL);
    CREATE UNIQUE INDEX events_by_event_id ON events (event_id);
    CREATE UNIQUE INDEX events_by_stream_revision ON events (stream_id, revision);
    CREATE TABLE migrations (id INTEGER PRIMARY KEY, from_file TEXT NOT NULL, from_version INTEGER NOT NULL,
      events INTEGER NOT NULL, merkle_root TEXT NOT NULL, heads TEXT NOT NULL, migrated_at INTEGER NOT NULL);
    PRAGMA user_version = 4;`);
  const dict = new StoreDictionary(db);
  const insert = db.prepare(
    `INSERT INTO events (position, stream_id, revision, event_id, type_id, data, metadata, recorded_at, previous_hash, hash)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const r of rows)
    insert.run(
      r.position,
      dict.idOf(DICTIONARY_KIND.stream, r.stream),
      r.revision,
      r.event_id,
      dict.idOf(DICTIONARY_KIND.type, r.type),
      encodeCompact(JSON.parse(r.data), dict, r.event_id),
      r.metadata === null ? null : encodeCompact(JSON.parse(r.metadata), dict, r.event_id),
      r.recorded_at,
      r.previous_hash,
      r.hash,
    );
  db.close();
}

/** The events as a version 5 store reads them back: the same content, chained anew. */
function rechained(events: readonly RecordedEvent[]): RecordedEvent[] {
  const heads = new Map<string, string>();
  return events.map((e) => {
    const previousHash = heads.get(e.stream) ?? GENESIS_HASH;
    const hash = eventHash(previousHash, e);
    heads.set(e.stream, hash);
    return { ...e, previousHash, hash };
  });
}

for (const version of [2, 3, 4] as const)
  describe(`store schema version ${version}`, () => {
    it('is refused, naming the file, its version and the command that converts it', async () => {
      const { path } = oldStore(version);
      assert.throws(
        () => new SqliteEventStore(path),
        (err: Error) => {
          assert.match(
            err.message,
            new RegExp(
              `^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} has event-store schema version ${version}`,
            ),
          );
          assert.match(err.message, /table-audit store migrate .* NEW\.sqlite/);
          return true;
        },
      );
    });

    it('is converted into a new file: the same events, positions, content and checkpoints, chained anew, verified', async () => {
      const { path, events, root } = oldStore(version);
      const before = readFileSync(path);
      const to = join(dir, `v5-${n}.sqlite`);
      const report = await migrateStore(path, to);
      const expected = rechained(events);
      const newHeads = sortHeads([
        ...new Map(
          expected.map((e) => [e.stream, { stream: e.stream, revision: e.revision, hash: e.hash }]),
        ).values(),
      ]);
      assert.deepEqual(
        { ...report, verify: report.verify.ok },
        {
          from: path,
          to,
          fromVersion: version,
          toVersion: SCHEMA_VERSION,
          events: 6,
          checkpoints: 1,
          merkleRoot: root,
          newMerkleRoot: merkleRoot(newHeads),
          verify: true,
        },
      );
      assert.notEqual(report.verify.merkleRoot, root, 'the chain is new: every hash changed');
      const [record, ...more] = migrationRecords(to);
      assert.equal(more.length, 0);
      assert.deepEqual(
        { ...record, migratedAt: 0 },
        {
          fromFile: path,
          fromVersion: version,
          events: 6,
          merkleRoot: root,
          heads: sortHeads([
            ...new Map(
              events.map((e) => [e.stream, { stream: e.stream, revision: e.revision, hash: e.hash }]),
            ).values(),
          ]),
          migratedAt: 0,
          newMerkleRoot: merkleRoot(newHeads),
          newHeads,
        },
      );
      assert.deepEqual(readFileSync(path), before, 'the old file is only read');
      const store = new SqliteEventStore(to);
      try {
        assert.deepEqual(await collect(store.readAll()), expected);
        assert.equal(await store.loadCheckpoint('replay'), 3n);
        const r = await store.append('table-1', [{ eventId: 'a3', type: 'Dealt', data: {} }]);
        assert.ok(r.position > events.at(-1)!.position, 'positions go on after the copied ones');
      } finally {
        await store.close();
      }
    });

    it('never overwrites, converts only versions 2 to 4, and names a damaged hash leaving no file behind', async () => {
      const { path } = oldStore(version);
      const taken = join(dir, 'taken.sqlite');
      writeFileSync(taken, 'mine');
      await assert.rejects(migrateStore(path, taken), /taken\.sqlite already exists/);
      assert.equal(readFileSync(taken, 'utf8'), 'mine');
      const three = join(dir, `three-${n}.sqlite`);
      await migrateStore(path, three);
      await assert.rejects(
        migrateStore(three, join(dir, 'x.sqlite')),
        /is an event store of version 6, which this code reads and appends to as it is: nothing to convert/,
      );

      const db = new Database(path);
      db.prepare(`UPDATE events SET hash = ${version === 2 ? "'zz'" : "x'00'"} WHERE event_id = 'b1'`).run();
      db.close();
      const to = join(dir, `damaged-${n}.sqlite`);
      await assert.rejects(
        migrateStore(path, to),
        version === 2
          ? /position 4 \(stream "table-2" revision 1\) has a hash that is not 64 lower-case hex digits \("zz"\)/
          : /position 4 \(stream "table-2" revision 1\) has a hash that is not 32 bytes/,
      );
      assert.equal(existsSync(to), false);
    });

    it('refuses data that is not canonical JSON, naming the event, and leaves no file behind', async () => {
      const { path } = oldStore(version);
      const db = new Database(path);
      db.prepare(`UPDATE events SET data = '{"seat": 1}' WHERE event_id = 'a1'`).run();
      db.close();
      const to = join(dir, `not-canonical-${n}.sqlite`);
      await assert.rejects(
        migrateStore(path, to),
        version === 4
          ? /position 3 \(stream "table-1" revision 1\) has data that cannot be read/
          : /position 3 \(stream "table-1" revision 1\) has data that is not canonical JSON/,
      );
      assert.equal(existsSync(to), false);
    });

    it('checks the old chain first: an edited event is named and nothing is converted', async () => {
      const { path } = oldStore(version);
      const db = new Database(path);
      // the other stream's event's hash, well-formed: only recomputing the old chain shows it
      db.prepare(
        `UPDATE events SET hash = (SELECT hash FROM events WHERE event_id = 'b0') WHERE event_id = 'a2'`,
      ).run();
      db.close();
      const to = join(dir, `broken-${n}.sqlite`);
      await assert.rejects(
        migrateStore(path, to),
        /position 5 \(stream "table-1" revision 2, id a2\): its hash does not match its content; its chain is broken, not converted/,
      );
      assert.equal(existsSync(to), false);
    });
  });
