/**
 * Store version 6: a string that begins with a dictionary string (a bet id is its round id and "/1-ANTE") is kept as
 * that entry and the rest (compact tag 10). What is hashed is the whole string, as in version 5: the chain does not
 * see how a string is kept. A version 5 store is opened and appended to as it is, without tag 10, so the code that
 * made it can still read it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { collect } from '../src/conformance.ts';
import { eventHash, GENESIS_HASH } from '../src/hash-chain.ts';
import type { EventData, RecordedEvent } from '../src/port.ts';
import { SCHEMA_VERSION, SqliteEventStore } from '../src/sqlite-event-store.ts';
import { migrateStore } from '../src/sqlite-migrate.ts';
import { verify } from '../src/verify.ts';

const dir = mkdtempSync(join(tmpdir(), 'ta-prefixed-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

const ROUND = 'LIS-F3CP-001-R00001';
/** A round's events: its id seen often enough to be a dictionary string, then bets whose ids begin with it. */
const events = (): EventData[] => [
  ...[1, 2, 3].map((i) => ({
    eventId: `TC-${i}`,
    type: 'CardDealt',
    data: { header: { eventId: `TC-${i}`, roundId: ROUND }, card: 'Ah', seat: i },
  })),
  ...[1, 2].map((seat) => ({
    eventId: `TC-B${seat}`,
    type: 'BetPlaced',
    data: {
      header: { eventId: `TC-B${seat}`, roundId: ROUND },
      betId: `${ROUND}/${seat}-ANTE`,
      amount: 50_000,
    },
    metadata: { source: 'file /var/incoming/session.avro', block: 0, record: seat },
  })),
];

/** The stored data of the bets, as bytes. */
const betPayloads = (path: string): Buffer[] => {
  const db = new Database(path, { readonly: true });
  try {
    return (
      db.prepare(`SELECT data FROM events WHERE event_id LIKE 'TC-B%' ORDER BY position`).all() as {
        data: Buffer;
      }[]
    ).map((r) => r.data);
  } finally {
    db.close();
  }
};

/** Each event's hash recomputed from its content (hash-chain.ts), as any adapter and an offline check make it. */
function assertHashedFromContent(read: readonly RecordedEvent[]): void {
  const heads = new Map<string, string>();
  for (const e of read) {
    assert.equal(e.hash, eventHash(heads.get(e.stream) ?? GENESIS_HASH, e), `hash of ${e.eventId}`);
    heads.set(e.stream, e.hash);
  }
}

describe('strings kept as a dictionary string and the rest (store version 6)', () => {
  it('Given bet ids that begin with their round id, Then the round id is not kept again, and they read back whole under the same hashes', async () => {
    const path = join(dir, `v6-${++n}.sqlite`);
    const store = new SqliteEventStore(path);
    assert.equal(store.schemaVersion, SCHEMA_VERSION);
    await store.append('table-1', events());
    const read = await collect(store.readAll());
    await store.close();

    for (const [i, bytes] of betPayloads(path).entries()) {
      assert.equal(bytes.includes(`${ROUND}/`), false, 'the round id is referenced, not repeated');
      assert.equal(bytes.includes(`/${i + 1}-ANTE`), true, 'the rest is kept as it is');
    }
    const reopened = new SqliteEventStore(path, { readOnly: true });
    try {
      const again = await collect(reopened.readAll());
      assert.deepEqual(
        again.map((e) => e.data),
        events().map((e) => e.data),
      );
      assertHashedFromContent(again);
      assert.deepEqual(
        again.map((e) => e.hash),
        read.map((e) => e.hash),
      );
      assert.equal((await verify(reopened)).ok, true);
    } finally {
      await reopened.close();
    }
  });

  it('Given the rest of a kept string edited in the database, Then verify names the event as a broken link', async () => {
    const path = join(dir, `v6-${++n}.sqlite`);
    const store = new SqliteEventStore(path);
    await store.append('table-1', events());
    await store.close();
    const db = new Database(path);
    const [first] = betPayloads(path);
    const edited = Buffer.from(first!.toString('latin1').replace('/1-ANTE', '/7-ANTE'), 'latin1');
    db.prepare(`UPDATE events SET data = ? WHERE event_id = 'TC-B1'`).run(edited);
    db.close();
    const reopened = new SqliteEventStore(path, { readOnly: true });
    try {
      const report = await verify(reopened);
      assert.equal(report.ok, false);
      assert.equal(report.firstBroken?.eventId, 'TC-B1');
    } finally {
      await reopened.close();
    }
  });

  it('Given a version 5 store, Then it is opened and appended to as it is: every string whole, the chain verified, nothing to convert', async () => {
    const path = join(dir, `v5-${++n}.sqlite`);
    new Database(path).close();
    const created = new SqliteEventStore(path);
    await created.close();
    const db = new Database(path);
    db.pragma('user_version = 5');
    db.close();

    const store = new SqliteEventStore(path);
    assert.equal(store.schemaVersion, 5);
    await store.append('table-1', events());
    await store.close();
    for (const [i, bytes] of betPayloads(path).entries())
      assert.equal(bytes.includes(`${ROUND}/${i + 1}-ANTE`), true, 'kept whole in a version 5 store');
    assert.equal(new Database(path, { readonly: true }).pragma('user_version', { simple: true }), 5);

    const reopened = new SqliteEventStore(path, { readOnly: true });
    try {
      const read = await collect(reopened.readAll());
      assert.deepEqual(
        read.map((e) => e.data),
        events().map((e) => e.data),
      );
      assertHashedFromContent(read);
      assert.equal((await verify(reopened)).ok, true);
    } finally {
      await reopened.close();
    }
    await assert.rejects(
      migrateStore(path, join(dir, `never-${n}.sqlite`)),
      /is an event store of version 5, which this code reads and appends to as it is: nothing to convert/,
    );
  });
});
