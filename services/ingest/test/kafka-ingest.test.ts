// Kafka → event store against a real Kafka-protocol broker (librdkafka's mock cluster): every event exactly once
// through duplicates, broker outages, fail-overs and failed commits; bad messages kept as rejects.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { encodeEvent, frame, type TableEvent } from '@table-audit/schemas';
import { ApiKey, ErrorCode } from '@table-audit/infra/kafka-mock';
import { simulateSession } from '@table-audit/simulator';
import { REJECT_CODES } from '../src/index.ts';
import { assertExactlyOnce, rejectsIn, tableEventCount, waitFor } from './helpers.ts';
import { cluster, registry, startIngest, TOPIC, waitForCommits, waitForTableEvents } from './kafka.ts';

const dir = mkdtempSync(join(tmpdir(), 'ta-ingest-kafka-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const storeAt = (name: string) => new SqliteEventStore(join(dir, `${name}.sqlite`));

const session = simulateSession({
  seed: 5,
  tables: 6,
  roundsPerTable: 8,
  faultRate: 0.1,
  handledRate: 0.05,
  bettingSystemTables: 1,
});
const events = session.events;
const half = Math.floor(events.length / 2);

test('happy path: a session on a 3-partition topic, every event stored exactly once, offsets committed', async (t) => {
  const c = await cluster(t);
  const store = storeAt('happy');
  t.after(() => store.close());
  assert.equal(await c.publish(events), events.length);
  const run = await startIngest(t, c, store, 'ingest-happy');
  await waitForTableEvents(store, events.length);
  const high = await waitForCommits(c.admin, 'ingest-happy');
  assert.equal(
    [...high.values()].reduce((a, b) => a + b, 0),
    events.length,
  );
  assert.deepEqual([...high.keys()].sort(), [0, 1, 2]);
  assert.ok(
    [...high.values()].every((n) => n > 0),
    'every partition carries tables',
  );
  await run.stop();
  await assertExactlyOnce(store, events);
  assert.deepEqual(await rejectsIn(store), []);
  assert.equal(run.pipeline.totals.accepted, events.length);
  assert.deepEqual(run.crashes, []);
  t.diagnostic(
    `${events.length} events, ${run.consumer.stats.batches} batches, ${run.consumer.stats.commits} commits`,
  );
});

test('the same messages produced twice: every event stored exactly once', async (t) => {
  const c = await cluster(t);
  const store = storeAt('twice');
  t.after(() => store.close());
  await c.publish(events);
  const run = await startIngest(t, c, store, 'ingest-twice');
  await waitForTableEvents(store, events.length);
  await c.publish(events); // the whole session again, after it was stored
  await c.publish(events.slice(0, 300)); // and part of it a third time
  await waitForCommits(c.admin, 'ingest-twice');
  await run.stop();
  await assertExactlyOnce(store, events);
  assert.equal(run.pipeline.totals.accepted, events.length);
  assert.equal(run.pipeline.totals.alreadyStored, events.length + 300);
  assert.deepEqual(await rejectsIn(store), []);
});

test('broker down and up, leader and coordinator moved, during ingestion: every event exactly once', async (t) => {
  const c = await cluster(t);
  const { mock } = c;
  const groupId = 'ingest-outage';
  // broker 1 leads partition 0, broker 2 partition 1 and coordinates the group, broker 3 partition 2
  for (const p of [0, 1, 2]) await mock.setPartitionLeader(TOPIC, p, p + 1);
  await mock.setCoordinator('group', groupId, 2);
  const store = storeAt('outage');
  t.after(() => store.close());
  const run = await startIngest(t, c, store, groupId);
  const log: string[] = [];
  const t0 = Date.now();
  const note = (what: string) => log.push(`${Date.now() - t0} ms: ${what}`);
  const quarter = Math.ceil(events.length / 4);
  const chunk = (i: number) => events.slice(i * quarter, (i + 1) * quarter);
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

  await c.publish(chunk(0), 100);
  await waitForTableEvents(store, 200);
  // outage without fail-over: the leader of partition 1 and group coordinator refuses connections for a while
  await mock.brokerDown(2);
  note('broker 2 (partition 1 leader, coordinator) down');
  const during1 = c.publish(chunk(1), 100);
  await pause(1500);
  await mock.brokerUp(2);
  note('broker 2 up');
  await during1;
  note('chunk 1 published');
  // fail-over: broker 3 goes down, its partition moves to broker 1 and the coordinator to broker 3 … then back
  await mock.brokerDown(3);
  await mock.setPartitionLeader(TOPIC, 2, 1);
  await mock.setCoordinator('group', groupId, 1);
  note('broker 3 down, partition 2 -> broker 1, coordinator -> broker 1');
  await c.publish(chunk(2), 100);
  note('chunk 2 published');
  await pause(1000);
  await mock.brokerUp(3);
  await mock.setPartitionLeader(TOPIC, 2, 3);
  note('broker 3 up, partition 2 -> broker 3');
  await c.publish(chunk(3), 100);
  note('chunk 3 published');

  await waitForTableEvents(store, events.length, 45_000);
  await waitForCommits(c.admin, groupId, 45_000);
  note('everything stored and committed');
  await run.stop();
  await assertExactlyOnce(store, events);
  assert.deepEqual(await rejectsIn(store), []);
  t.diagnostic(
    `${log.join('; ')}; producer duplicates and redeliveries recognised: ${run.pipeline.totals.alreadyStored}; ` +
      `consumer ${JSON.stringify(run.consumer.stats)}; crashes: ${run.crashes.join(' | ') || 'none'}`,
  );
});

test('failed commits: ILLEGAL_GENERATION rejoins the group (kafkajs #1712), a fatal one restarts the consumer', async (t) => {
  const c = await cluster(t);
  const groupId = 'ingest-commit-failures';
  const store = storeAt('commits');
  t.after(() => store.close());
  await c.publish(events.slice(0, half));
  // The first commit races a rebalance: kafkajs wraps ILLEGAL_GENERATION in a non-retriable error; the adapter
  // rethrows the cause, kafkajs rejoins and delivers the uncommitted batch again.
  await c.mock.pushRequestErrors(ApiKey.OffsetCommit, [ErrorCode.ILLEGAL_GENERATION]);
  const run = await startIngest(t, c, store, groupId);
  await waitForTableEvents(store, half);
  await waitForCommits(c.admin, groupId);
  assert.equal(run.consumer.stats.rejoinsAfterFailedCommit, 1);
  assert.deepEqual(run.crashes, [], 'ILLEGAL_GENERATION must not crash the consumer');
  assert.ok(run.pipeline.totals.alreadyStored > 0, 'the batch whose commit failed is delivered again');

  // A commit error kafkajs gives up on (not a rebalance): its consumer crashes for good; the adapter starts a
  // new one, which gets everything not committed again.
  await c.mock.pushRequestErrors(ApiKey.OffsetCommit, [12 /* OFFSET_METADATA_TOO_LARGE */]);
  const before = run.pipeline.totals.alreadyStored;
  await c.publish(events.slice(half));
  await waitForTableEvents(store, events.length);
  await waitForCommits(c.admin, groupId);
  assert.equal(run.consumer.stats.adapterRestarts, 1, `crashes: ${run.crashes.join(' | ')}`);
  assert.match(run.crashes[0]!, /restarted by adapter/);
  assert.ok(run.pipeline.totals.alreadyStored > before, 'the batch whose commit failed is delivered again');
  await run.stop();
  await assertExactlyOnce(store, events);
  t.diagnostic(`consumer ${JSON.stringify(run.consumer.stats)}; crashes: ${run.crashes.join(' | ')}`);
});

test('bad messages on the topic are kept as rejects with bytes, source and reason; ingestion goes on', async (t) => {
  const c = await cluster(t);
  const groupId = 'ingest-bad-input';
  const store = storeAt('bad');
  t.after(() => store.close());
  const producer = c.kafka.producer();
  await producer.connect();
  t.after(() => producer.disconnect());

  const first = events.slice(0, half);
  await c.publish(first);
  const table = session.tables[0]!.tableId;
  const take = <T extends TableEvent['type']>(type: T) =>
    first.find((e) => e.type === type && e.data.header.tableId === table) as Extract<TableEvent, { type: T }>;
  const bet = take('BetPlaced');
  const card = take('CardDealt');
  const header = (id: string, tableId = table) => ({ ...bet.data.header, eventId: id, tableId });
  const good = await encodeEvent(registry, 'BetPlaced', { ...bet.data, header: header('bad-truncated') });
  const wrongMagic = Buffer.from(good);
  wrongMagic[0] = 1;
  const bad: { what: string; key: string; value: Buffer | null; code: string; reason: RegExp }[] = [
    {
      what: 'truncated bytes',
      key: table,
      value: good.subarray(0, good.length - 6),
      code: 'TRUNCATED_PAYLOAD',
      reason: /^TRUNCATED_PAYLOAD: /,
    },
    {
      what: 'an unknown schema id',
      key: table,
      value: frame(987_654, good.subarray(5)),
      code: 'UNKNOWN_SCHEMA_ID',
      reason: /^UNKNOWN_SCHEMA_ID: .*987654/,
    },
    {
      what: 'a wrong magic byte',
      key: table,
      value: wrongMagic,
      code: 'WRONG_MAGIC_BYTE',
      reason: /^WRONG_MAGIC_BYTE: .*0x01/,
    },
    {
      what: 'fewer bytes than the frame',
      key: table,
      value: Buffer.from([0, 0, 1]),
      code: 'MESSAGE_TOO_SHORT',
      reason: /^MESSAGE_TOO_SHORT: /,
    },
    {
      what: 'no value (a tombstone)',
      key: table,
      value: null,
      code: REJECT_CODES.emptyMessage,
      reason: /^empty message/,
    },
    {
      what: 'a card that does not exist',
      key: table,
      value: await encodeEvent(registry, 'CardDealt', {
        ...card.data,
        header: header('bad-card'),
        card: 'Zz',
      }),
      code: REJECT_CODES.invalidEvent,
      reason: /^invalid CardDealt: card "Zz" is not a card/,
    },
    {
      what: 'a bet of 0',
      key: table,
      value: await encodeEvent(registry, 'BetPlaced', {
        ...bet.data,
        header: header('bad-amount'),
        amount: 0,
      }),
      code: REJECT_CODES.invalidEvent,
      reason: /^invalid BetPlaced: amount 0 must be a positive whole number of avos$/,
    },
    {
      what: 'an unknown table',
      key: 'NO-SUCH-TABLE',
      value: await encodeEvent(registry, 'BetPlaced', {
        ...bet.data,
        header: header('bad-table', 'NO-SUCH-TABLE'),
      }),
      code: REJECT_CODES.invalidEvent,
      reason:
        /^invalid BetPlaced: table "NO-SUCH-TABLE" is not known: no TableOpened has been received for it$/,
    },
    {
      what: 'an event id re-used with other content',
      key: table,
      value: await encodeEvent(registry, 'BetPlaced', { ...bet.data, amount: bet.data.amount + 100 }),
      code: REJECT_CODES.eventIdConflict,
      reason: new RegExp(`^event id ${bet.data.header.eventId} is already stored with different data`),
    },
  ];
  const where = new Map<string, { partition: number; offset: string }>();
  for (const b of bad) {
    const [meta] = await producer.send({
      topic: TOPIC,
      acks: -1,
      messages: [{ key: b.key, value: b.value }],
    });
    where.set(b.what, { partition: meta!.partition, offset: meta!.baseOffset! });
  }
  const rest = events.slice(half);
  await c.publish(rest);

  const run = await startIngest(t, c, store, groupId);
  await waitForTableEvents(store, events.length);
  await waitFor('every reject', async () => (await rejectsIn(store)).length >= bad.length);
  await waitForCommits(c.admin, groupId);
  await run.stop();
  await assertExactlyOnce(store, events);

  const rejects = await rejectsIn(store);
  assert.equal(rejects.length, bad.length);
  for (const b of bad) {
    const at = where.get(b.what)!;
    const r = rejects.find(
      (x) =>
        x.data.source.kind === 'kafka' &&
        x.data.source.offset === at.offset &&
        x.data.source.partition === at.partition,
    );
    assert.ok(r, `${b.what}: no reject at partition ${at.partition} offset ${at.offset}`);
    assert.deepEqual(
      r.data.source,
      { kind: 'kafka', topic: TOPIC, partition: at.partition, offset: at.offset },
      b.what,
    );
    assert.equal(r.data.code, b.code, b.what);
    assert.match(r.data.reason, b.reason, b.what);
    assert.equal(r.data.rawBase64, b.value === null ? null : b.value.toString('base64'), b.what);
  }
  assert.equal(run.pipeline.totals.rejected, bad.length);
  assert.deepEqual(
    Object.fromEntries(run.pipeline.totals.byReason),
    Object.fromEntries(
      [...new Set(bad.map((b) => b.code))].map((code) => [code, bad.filter((b) => b.code === code).length]),
    ),
  );
  assert.equal(await tableEventCount(store), events.length);
});
