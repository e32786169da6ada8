import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { collect, eventStoreConformance } from '../src/conformance.ts';
import { eventHash, EventIdConflict, InvalidEventData, verify, type EventStore } from '../src/index.ts';
import { SqliteEventStore } from '../src/sqlite-event-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'ta-eventstore-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const newFile = () => join(dir, `store-${++files}`, 'events.sqlite');
const reopen = async (closed: EventStore) => new SqliteEventStore((closed as SqliteEventStore).path);

eventStoreConformance('SqliteEventStore, file in a temp dir', async () => new SqliteEventStore(newFile()), {
  reopen,
});
eventStoreConformance('SqliteEventStore, :memory:', async () => new SqliteEventStore(':memory:'), {
  noReopenReason: 'an in-memory database is gone once closed; the file store runs the durability test',
});

describe('SqliteEventStore specifics', () => {
  it('stores objects of one key order by a cached shape, and objects alike but not the same as their own', async () => {
    const store = new SqliteEventStore(':memory:');
    try {
      const datas: unknown[] = [
        { b: 1, a: 2 },
        { b: 3, a: undefined }, // a member left out: the shape of the defined ones
        { b: 4, a: 5 },
        { 'a\u0000b': 1, c: 2 }, // key lists whose U+0000-joined spellings are the same
        { a: 1, 'b\u0000c': 2 },
        { 'a\u0000b': 3, c: 4 },
      ];
      await store.append(
        's',
        datas.map((data, i) => ({ eventId: `e${i}`, type: 'T', data })),
      );
      await store.append('s', [{ eventId: 'e9', type: 'T', data: { b: 6, a: 7 } }]);
      const read = await collect(store.readStream('s'));
      assert.deepEqual(
        read.map((e) => e.data),
        [...datas.map((d) => JSON.parse(JSON.stringify(d)) as unknown), { b: 6, a: 7 }],
      );
      for (const e of read) assert.equal(e.hash, eventHash(e.previousHash, e), 'hashed as its content');
      assert.equal((await verify(store)).ok, true);
    } finally {
      await store.close();
    }
  });

  it('refuses a string or key with a lone surrogate (UTF-8 cannot keep it), naming where', async () => {
    const store = new SqliteEventStore(':memory:');
    try {
      for (const data of [{ seat: 'x\ud800' }, { ['k\udc00']: 1 }])
        await assert.rejects(store.append('s', [{ eventId: 'e1', type: 'T', data }]), (err: unknown) => {
          assert.ok(err instanceof InvalidEventData);
          assert.match(err.message, /lone surrogate/);
          return true;
        });
      assert.deepEqual(await collect(store.readStream('s')), []);
    } finally {
      await store.close();
    }
  });

  it('tells the position of its last event (headPosition), -1 when empty', async () => {
    const store = new SqliteEventStore(':memory:');
    try {
      assert.equal(await store.headPosition(), -1n);
      await store.append('a', [{ eventId: 'e1', type: 'T', data: 1 }]);
      const { position } = await store.append('b', [
        { eventId: 'e2', type: 'T', data: 2 },
        { eventId: 'e3', type: 'T', data: 3 },
      ]);
      assert.equal(await store.headPosition(), position);
      const all = await collect(store.readAll());
      assert.equal(all.at(-1)!.position, position);
    } finally {
      await store.close();
    }
  });

  it('reads a selection of all streams but a few (sent to SQLite as the few left out) as a full read filtered', async () => {
    const store = new SqliteEventStore(':memory:');
    try {
      const write = async (streams: string[], round: number) => {
        for (const s of streams)
          await store.append(s, [
            { eventId: `${s}-${round}-a`, type: 'T', data: round },
            { eventId: `${s}-${round}-b`, type: 'U', data: round },
          ]);
      };
      const many = Array.from({ length: 40 }, (_, i) => `t-${i}`);
      await write([...many, 'api-access'], 0);
      await write([...many.slice(0, 5), 'api-access', 'skip-2', 't-new'], 1); // new streams, one selected
      const keep = (s: string) => s !== 'api-access' && !s.startsWith('skip-');
      const all = await collect(store.readAll());
      const want = all.filter((e) => keep(e.stream)).map((e) => [e.eventId, e.position]);
      assert.deepEqual(
        (await collect(store.readAll({ streams: keep }))).map((e) => [e.eventId, e.position]),
        want,
      );
      const from = all[30]!.position;
      assert.deepEqual(
        (await collect(store.readAll({ streams: keep, fromPosition: from, maxCount: 7 }))).map((e) => [
          e.eventId,
          e.position,
        ]),
        want.filter(([, p]) => (p as bigint) > from).slice(0, 7),
      );
    } finally {
      await store.close();
    }
  });

  it('decodes an event read before close() when it is first used after', async () => {
    const path = newFile();
    const store = new SqliteEventStore(path);
    await store.append('s', [
      { eventId: 'e1', type: 'T', data: { round: 'R-1', n: 1 }, metadata: { m: 'x' } },
    ]);
    const [e] = await collect(store.readAll());
    await store.close();
    assert.deepEqual([e!.data, e!.metadata], [{ round: 'R-1', n: 1 }, { m: 'x' }]);
  });

  it('refuses an event id already stored in another stream (ids are unique store-wide)', async () => {
    const store = new SqliteEventStore(':memory:');
    try {
      await store.append('table-1', [{ eventId: 'e-1', type: 'T', data: 1 }]);
      await assert.rejects(
        store.append('table-2', [{ eventId: 'e-1', type: 'T', data: 1 }]),
        (err: unknown) => {
          assert.ok(err instanceof EventIdConflict);
          assert.equal(err.difference, 'stream');
          assert.equal(err.storedStream, 'table-1');
          return true;
        },
      );
    } finally {
      await store.close();
    }
  });

  it("a live subscription sees another process's appends (by polling)", { timeout: 10_000 }, async () => {
    const path = newFile();
    const reader = new SqliteEventStore(path, { pollIntervalMs: 20 });
    const writer = new SqliteEventStore(path); // another connection: no in-process wake-up reaches the reader
    try {
      const subscription = reader.subscribeToAll();
      const first = (async () => {
        for await (const e of subscription) return e;
      })();
      await new Promise((r) => setTimeout(r, 50));
      await writer.append('table-9', [{ eventId: 'from-elsewhere', type: 'T', data: { n: 1 } }]);
      const e = await first;
      assert.equal(e?.eventId, 'from-elsewhere');
      await subscription.close();
    } finally {
      await writer.close();
      await reader.close();
    }
  });

  it('wakes its own subscriptions on append, without waiting for the poll', { timeout: 10_000 }, async () => {
    const store = new SqliteEventStore(':memory:', { pollIntervalMs: 60_000 });
    try {
      const subscription = store.subscribeToAll();
      const first = (async () => {
        for await (const e of subscription) return e;
      })();
      await new Promise((r) => setTimeout(r, 20));
      const t0 = Date.now();
      await store.append('table-3', [{ eventId: 'now', type: 'T', data: 1 }]);
      assert.equal((await first)?.eventId, 'now');
      assert.ok(Date.now() - t0 < 1000);
      await subscription.close();
    } finally {
      await store.close();
    }
  });

  it('opens read-only for verification, and refuses to open what is not an event store', async () => {
    const path = newFile();
    const store = new SqliteEventStore(path);
    await store.append('s', [{ eventId: 'a', type: 'T', data: 1 }]);
    await store.close();
    const readOnly = new SqliteEventStore(path, { readOnly: true });
    try {
      assert.equal((await collect(readOnly.readStream('s'))).length, 1);
      await assert.rejects(readOnly.append('s', [{ eventId: 'b', type: 'T', data: 1 }]), /readonly/);
    } finally {
      await readOnly.close();
    }
    assert.throws(() => new SqliteEventStore(join(dir, 'nope', 'missing.sqlite'), { readOnly: true }));
    const Database = (await import('better-sqlite3')).default;
    const other = join(dir, 'other.sqlite');
    const db = new Database(other);
    db.exec('CREATE TABLE t (x)');
    db.close();
    assert.throws(() => new SqliteEventStore(other), /not a table-audit event store/);
  });
});
