/**
 * EventStoreDbEventStore's own logic on an in-memory imitation of the client (fake-eventstoredb-client.ts): the
 * conformance suite plus what only this adapter has (an id index per stream that can go stale when another
 * process writes, retries, UUID mapping). This is not a test of EventStoreDB itself: eventstoredb.test.ts runs
 * the same suite against a real server when EVENTSTORE_URL is set.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { collect, eventStoreConformance } from '../src/conformance.ts';
import {
  CHAIN_METADATA_KEY,
  eventUuid,
  EventStoreDbEventStore,
  type EventStoreDbEventStoreOptions,
} from '../src/eventstoredb-event-store.ts';
import { InvalidArgument, InvalidEventData, verify, WrongExpectedRevision } from '../src/index.ts';
import { FakeEventStoreDb } from './fake-eventstoredb-client.ts';

const shared = new FakeEventStoreDb();
const connect = async () => new EventStoreDbEventStore(shared.client());
eventStoreConformance(
  'EventStoreDbEventStore on an in-memory imitation of its client (not a server)',
  connect,
  {
    reopen: connect,
  },
);

describe('EventStoreDbEventStore specifics (imitation client)', () => {
  const server = new FakeEventStoreDb();
  const open = (options?: EventStoreDbEventStoreOptions) =>
    new EventStoreDbEventStore(server.client(), options);
  const e = (id: string) => ({ eventId: id, type: 'T', data: { id } });

  it('stays idempotent and exact when another process appended behind its cached index', async () => {
    const a = open();
    const b = open();
    await a.append('s1', [e('s1/1'), e('s1/2')]);
    await b.append('s1', [e('s1/3')], { expectedRevision: 1 }); // a's index does not know s1/3
    const repeat = await a.append('s1', [e('s1/3')], { expectedRevision: 0 });
    assert.deepEqual([repeat.appended, repeat.alreadyStored, repeat.nextExpectedRevision], [0, 1, 2]);
    await b.append('s1', [e('s1/4')]);
    const right = await a.append('s1', [e('s1/5')], { expectedRevision: 3 }); // right, though a's index says 2
    assert.equal(right.nextExpectedRevision, 4);
    await b.append('s1', [e('s1/6')]);
    await assert.rejects(
      a.append('s1', [e('s1/7')], { expectedRevision: 4 }),
      (err: unknown) => err instanceof WrongExpectedRevision && err.actual === 5,
    );
    const stored = await collect(a.readStream('s1'));
    assert.deepEqual(
      stored.map((x) => x.eventId),
      ['s1/1', 's1/2', 's1/3', 's1/4', 's1/5', 's1/6'],
    );
    assert.equal((await verify(a, { stream: 's1' })).ok, true);
  });

  it('retries when other writers keep appending, and gives up after maxAttempts writing nothing', async () => {
    const store = open({ maxAttempts: 3 });
    await store.append('s2', [e('s2/1')]);
    server.interleaveForeignWrites = 2;
    const r = await store.append('s2', [e('s2/2')]);
    assert.equal(r.appended, 1);
    assert.equal(r.nextExpectedRevision, 3, 'after the two foreign events');
    server.interleaveForeignWrites = 10;
    await assert.rejects(store.append('s2', [e('s2/3')]), /3 attempts to append were each overtaken/);
    server.interleaveForeignWrites = 0;
    const ids = (await collect(store.readStream('s2'))).map((x) => x.eventId);
    assert.ok(!ids.includes('s2/3'));
    const report = await verify(store, { stream: 's2' });
    assert.equal(
      report.firstBroken?.revision,
      1,
      'an event written around the adapter has no place in the chain',
    );
  });

  it('gives the server UUIDs, keeps the original id and the chain in metadata, and reserves its names', async () => {
    const store = open();
    await store.append('s3', [
      { eventId: 'finding:r-1:payout', type: 'Finding', data: 1, metadata: { by: 'replay' } },
    ]);
    const raw = server.streams.get('s3')![0]!;
    assert.equal(raw.id, eventUuid('finding:r-1:payout'));
    const meta = raw.metadata as Record<string, Record<string, string>>;
    assert.equal(meta.by as unknown, 'replay');
    assert.equal(meta[CHAIN_METADATA_KEY]!.eventId, 'finding:r-1:payout');
    const [read] = await collect(store.readStream('s3'));
    assert.deepEqual(read!.metadata, { by: 'replay' });
    await assert.rejects(
      store.append('s3', [{ eventId: 'x', type: 'T', data: 1, metadata: { [CHAIN_METADATA_KEY]: 1 } }]),
      InvalidEventData,
    );
    await assert.rejects(store.append('table-audit-checkpoint-replay', [e('x')]), InvalidArgument);
    await assert.rejects(store.append('$ce-table', [e('x')]), InvalidArgument);
  });

  it('re-reads a stream whose index was dropped (LRU) and still refuses a second copy', async () => {
    const store = open({ maxIndexedStreams: 2 });
    for (const s of ['l1', 'l2', 'l3']) await store.append(s, [e(`${s}/1`)]);
    const again = await store.append('l1', [e('l1/1')]);
    assert.equal(again.alreadyStored, 1);
    assert.equal((await collect(store.readStream('l1'))).length, 1);
  });
});
