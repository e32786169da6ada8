/**
 * The one definition of how an event store behaves: node:test tests that every adapter must pass.
 *
 *   eventStoreConformance('SqliteEventStore (file)', async () => new SqliteEventStore(tempFile()), { reopen });
 *
 * Each test takes a fresh store from makeStore() and closes it. Streams, event ids and checkpoint names are unique
 * per run, and whole-store reads are filtered to the test's own streams, so the suite can run against a server
 * that already holds data (EventStoreDB). `reopen` opens the same store again after close(); without it the
 * durability test is skipped, saying why.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  EventIdConflict,
  InvalidArgument,
  InvalidEventData,
  StoreClosed,
  WrongExpectedRevision,
} from './errors.ts';
import { eventHash, GENESIS_HASH, recomputedHash } from './hash-chain.ts';
import { linkBrokenBecause } from './link.ts';
import type { EventData, EventStore, ExpectedRevision, RecordedEvent } from './port.ts';
import { appendToStreams } from './append-many.ts';
import { streamHead } from './stream-head.ts';
import { verify } from './verify.ts';

export interface ConformanceOptions {
  /** Opens the same store again once it is closed (a file, a server): for the durability test. */
  reopen?: (closed: EventStore) => Promise<EventStore>;
  /** Why there is no reopen, shown as the durability test's skip reason. */
  noReopenReason?: string;
  /** How long to wait for a live event. Default 5000 ms. */
  liveTimeoutMs?: number;
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const isWrongExpectedRevision =
  (stream: string, expected: ExpectedRevision, actual: number) =>
  (err: unknown): boolean => {
    assert.ok(err instanceof WrongExpectedRevision, `expected WrongExpectedRevision, got ${String(err)}`);
    assert.equal(err.stream, stream);
    assert.equal(err.expected, expected);
    assert.equal(err.actual, actual);
    assert.match(err.message, new RegExp(stream));
    return true;
  };

export function eventStoreConformance(
  name: string,
  makeStore: () => Promise<EventStore>,
  options: ConformanceOptions = {},
): void {
  const run = `conformance-${randomUUID().slice(0, 8)}`;
  let streams = 0;
  /** A stream name of its own for each use, unique to this run. */
  const newStream = (label: string) => `${run}-${label}-${++streams}`;
  const event = (
    stream: string,
    n: number | string,
    data: unknown = { n },
    metadata?: Record<string, unknown>,
  ) => {
    const e: EventData = { eventId: `${stream}/e${n}`, type: 'TestEvent', data };
    if (metadata !== undefined) e.metadata = metadata;
    return e;
  };
  const liveTimeoutMs = options.liveTimeoutMs ?? 5000;

  async function withStore(test: (store: EventStore) => Promise<void>): Promise<void> {
    const store = await makeStore();
    try {
      await test(store);
    } finally {
      await store.close();
    }
  }
  const ids = (events: RecordedEvent[]) => events.map((e) => e.eventId);
  const ofStreams = (events: RecordedEvent[], ...names: string[]) =>
    events.filter((e) => names.includes(e.stream));

  describe(`event store conformance: ${name}`, () => {
    describe('append and read back', () => {
      it('stores events with gap-free revisions from 0, increasing positions, and their data exactly', () =>
        withStore(async (store) => {
          const s = newStream('roundtrip');
          const data = {
            text: 'Fortune 3 Card Poker 富貴三條 — ½',
            amounts: [0, -150, Number.MAX_SAFE_INTEGER],
            nested: { b: [true, false, null], a: { z: 1, y: [] } },
          };
          const before = Date.now();
          const result = await store.append(s, [
            event(s, 1, data, { source: 'table-7', kafkaOffset: 42 }),
            event(s, 2, null),
            event(s, 3, 'just a string', {}),
            event(s, 4, 7),
          ]);
          assert.deepEqual(
            { ...result, position: undefined },
            {
              nextExpectedRevision: 3,
              position: undefined,
              appended: 4,
              alreadyStored: 0,
            },
          );
          const read = await collect(store.readStream(s));
          assert.deepEqual(
            ids(read),
            [1, 2, 3, 4].map((n) => `${s}/e${n}`),
          );
          assert.deepEqual(
            read.map((e) => e.revision),
            [0, 1, 2, 3],
          );
          assert.deepEqual(read[0]!.data, data);
          assert.equal(read[1]!.data, null);
          assert.equal(read[2]!.data, 'just a string');
          assert.equal(read[3]!.data, 7);
          assert.deepEqual(read[0]!.metadata, { source: 'table-7', kafkaOffset: 42 });
          assert.ok(!('metadata' in read[1]!), 'no metadata given: none recorded');
          assert.ok(!('metadata' in read[2]!), 'an empty metadata object is recorded as none');
          for (const e of read) {
            assert.equal(e.stream, s);
            assert.equal(e.type, 'TestEvent');
            assert.equal(typeof e.position, 'bigint');
            assert.ok(
              e.recordedAt >= before - 60_000 && e.recordedAt <= Date.now() + 60_000,
              'recordedAt is UTC ms',
            );
          }
          for (let i = 1; i < read.length; i++) assert.ok(read[i]!.position > read[i - 1]!.position);
          assert.equal(result.position, read[3]!.position, 'the result names the position of the last event');
        }));

      it('continues revisions across appends and reports the next expected revision', () =>
        withStore(async (store) => {
          const s = newStream('continue');
          assert.equal((await store.append(s, [event(s, 1)])).nextExpectedRevision, 0);
          const second = await store.append(s, [event(s, 2), event(s, 3)]);
          assert.equal(second.nextExpectedRevision, 2);
          const read = await collect(store.readStream(s));
          assert.deepEqual(
            read.map((e) => e.revision),
            [0, 1, 2],
          );
          assert.equal(second.position, read[2]!.position);
        }));

      it('refuses data that cannot be kept exactly (floats, unsafe integers, undefined, non-plain objects), writing nothing', () =>
        withStore(async (store) => {
          const s = newStream('invalid');
          const bad: Array<[unknown, RegExp]> = [
            [{ stake: 12.5 }, /data\.stake/],
            [{ x: Number.NaN }, /data\.x/],
            [{ big: 2 ** 53 }, /data\.big/],
            [[1, undefined], /data\[1\]/],
            [{ when: new Date(0) }, /data\.when/],
            [{ n: 10n }, /data\.n/],
          ];
          for (const [data, where] of bad)
            await assert.rejects(store.append(s, [event(s, 1), event(s, 2, data)]), (err: unknown) => {
              assert.ok(err instanceof InvalidEventData, String(err));
              assert.equal(err.eventId, `${s}/e2`);
              assert.match(err.message, where);
              return true;
            });
          await assert.rejects(
            store.append(s, [{ eventId: `${s}/m`, type: 'T', data: 1, metadata: { f: 0.1 } }]),
            InvalidEventData,
          );
          assert.deepEqual(await collect(store.readStream(s)), [], 'nothing of a refused append is stored');
        }));

      it('refuses malformed arguments with InvalidArgument', () =>
        withStore(async (store) => {
          const s = newStream('args');
          await assert.rejects(store.append('', [event(s, 1)]), InvalidArgument);
          await assert.rejects(
            store.append(`${s}\ud800`, [event(s, 1)]),
            InvalidArgument,
            'a lone surrogate',
          );
          await assert.rejects(store.append(s, [event(s, 1)], { expectedRevision: -2 }), InvalidArgument);
          await assert.rejects(store.append(s, [event(s, 1)], { expectedRevision: 1.5 }), InvalidArgument);
          await assert.rejects(store.append(s, [{ eventId: '', type: 'T', data: 1 }]), InvalidArgument);
          await assert.rejects(store.append(s, [{ eventId: `${s}/x`, type: '', data: 1 }]), InvalidEventData);
          assert.throws(() => store.readStream(s, { maxCount: -1 }), InvalidArgument);
          await assert.rejects(store.saveCheckpoint('', 1n), InvalidArgument);
        }));

      it('appends atomically and consistently when many appends to one stream run at once', () =>
        withStore(async (store) => {
          const s = newStream('concurrent');
          const results = await Promise.all(
            Array.from({ length: 10 }, (_, i) => store.append(s, [event(s, `${i}a`), event(s, `${i}b`)])),
          );
          assert.deepEqual(
            results.map((r) => r.appended),
            Array(10).fill(2),
          );
          const read = await collect(store.readStream(s));
          assert.deepEqual(
            read.map((e) => e.revision),
            Array.from({ length: 20 }, (_, i) => i),
          );
          for (let i = 0; i < 20; i += 2)
            assert.equal(
              read[i]!.eventId.replace(/a$/, 'b'),
              read[i + 1]!.eventId,
              'one call stays together',
            );
          assert.equal((await verify(store, { stream: s })).ok, true);

          const race = newStream('race');
          const outcomes = await Promise.allSettled(
            Array.from({ length: 5 }, (_, i) =>
              store.append(race, [event(race, i)], { expectedRevision: 'no-stream' }),
            ),
          );
          assert.equal(
            outcomes.filter((o) => o.status === 'fulfilled').length,
            1,
            'exactly one creates the stream',
          );
          for (const o of outcomes)
            if (o.status === 'rejected')
              assert.ok(o.reason instanceof WrongExpectedRevision, String(o.reason));
        }));
    });

    describe('idempotency by event id', () => {
      it('stores a duplicate across appends once and counts it as already stored', () =>
        withStore(async (store) => {
          const s = newStream('dup-across');
          const marker = await store.append(newStream('marker'), [event(s, 'marker')]);
          const first = await store.append(s, [event(s, 1), event(s, 2)]);
          const again = await store.append(s, [event(s, 1), event(s, 2)]);
          assert.deepEqual(again, {
            nextExpectedRevision: 1,
            position: first.position,
            appended: 0,
            alreadyStored: 2,
          });
          const partly = await store.append(s, [event(s, 2), event(s, 3)]);
          assert.equal(partly.appended, 1);
          assert.equal(partly.alreadyStored, 1);
          assert.equal(partly.nextExpectedRevision, 2);
          const read = await collect(store.readStream(s));
          assert.deepEqual(ids(read), [`${s}/e1`, `${s}/e2`, `${s}/e3`]);
          const all = ofStreams(await collect(store.readAll({ fromPosition: marker.position })), s);
          assert.deepEqual(ids(all), [`${s}/e1`, `${s}/e2`, `${s}/e3`], 'readAll has one copy too');
        }));

      it('stores a duplicate inside one append once', () =>
        withStore(async (store) => {
          const s = newStream('dup-inside');
          const r = await store.append(s, [event(s, 1), event(s, 1), event(s, 2), event(s, 1)]);
          assert.equal(r.appended, 2);
          assert.equal(r.alreadyStored, 2);
          assert.equal(r.nextExpectedRevision, 1);
          assert.deepEqual(ids(await collect(store.readStream(s))), [`${s}/e1`, `${s}/e2`]);
        }));

      it('accepts a repeat of stored events whatever the expected revision, even a stale one', () =>
        withStore(async (store) => {
          const s = newStream('dup-stale');
          await store.append(s, [event(s, 1)], { expectedRevision: 'no-stream' });
          await store.append(s, [event(s, 2), event(s, 3)], { expectedRevision: 0 });
          for (const expectedRevision of ['no-stream', 0, 1, 7, 'stream-exists', 'any'] as const) {
            const r = await store.append(s, [event(s, 1), event(s, 2)], { expectedRevision });
            assert.deepEqual(
              [r.appended, r.alreadyStored, r.nextExpectedRevision],
              [0, 2, 2],
              String(expectedRevision),
            );
          }
          assert.equal((await collect(store.readStream(s))).length, 3);
        }));

      it('still checks the expected revision when a repeat comes with new events, and writes none of them', () =>
        withStore(async (store) => {
          const s = newStream('dup-mixed');
          await store.append(s, [event(s, 1), event(s, 2), event(s, 3)]);
          await assert.rejects(
            store.append(s, [event(s, 1), event(s, 4)], { expectedRevision: 0 }),
            isWrongExpectedRevision(s, 0, 2),
          );
          assert.equal((await collect(store.readStream(s))).length, 3);
          const ok = await store.append(s, [event(s, 1), event(s, 4)], { expectedRevision: 2 });
          assert.deepEqual([ok.appended, ok.alreadyStored, ok.nextExpectedRevision], [1, 1, 3]);
        }));

      it('refuses a different event under a stored id (type or data), but lets metadata differ (first copy wins)', () =>
        withStore(async (store) => {
          const s = newStream('id-conflict');
          await store.append(s, [event(s, 1, { stake: 100 }, { attempt: 1 })]);
          await assert.rejects(store.append(s, [event(s, 1, { stake: 200 })]), (err: unknown) => {
            assert.ok(err instanceof EventIdConflict, String(err));
            assert.equal(err.eventId, `${s}/e1`);
            assert.equal(err.difference, 'data');
            return true;
          });
          await assert.rejects(
            store.append(s, [{ ...event(s, 1, { stake: 100 }), type: 'Other' }]),
            EventIdConflict,
          );
          await assert.rejects(
            store.append(s, [event(s, 2, { a: 1 }), event(s, 2, { a: 2 })]),
            EventIdConflict,
            'a repeat inside one call must be the same event too',
          );
          const r = await store.append(s, [event(s, 1, { stake: 100 }, { attempt: 2 })]);
          assert.equal(r.alreadyStored, 1);
          const read = await collect(store.readStream(s));
          assert.equal(read.length, 1);
          assert.deepEqual(read[0]!.metadata, { attempt: 1 });
        }));
    });

    describe('expected revision', () => {
      it("'no-stream' holds only for a stream without events", () =>
        withStore(async (store) => {
          const s = newStream('no-stream');
          await store.append(s, [event(s, 1)], { expectedRevision: 'no-stream' });
          await assert.rejects(
            store.append(s, [event(s, 2)], { expectedRevision: 'no-stream' }),
            isWrongExpectedRevision(s, 'no-stream', 0),
          );
          const t = newStream('minus-one');
          await store.append(t, [event(t, 1)], { expectedRevision: -1 });
          await assert.rejects(
            store.append(t, [event(t, 2)], { expectedRevision: -1 }),
            isWrongExpectedRevision(t, -1, 0),
          );
        }));

      it("'stream-exists' holds only for a stream with events", () =>
        withStore(async (store) => {
          const s = newStream('stream-exists');
          await assert.rejects(
            store.append(s, [event(s, 1)], { expectedRevision: 'stream-exists' }),
            isWrongExpectedRevision(s, 'stream-exists', -1),
          );
          assert.deepEqual(await collect(store.readStream(s)), []);
          await store.append(s, [event(s, 1)]);
          await store.append(s, [event(s, 2)], { expectedRevision: 'stream-exists' });
        }));

      it('a number holds only when it is the revision of the last event', () =>
        withStore(async (store) => {
          const s = newStream('number');
          await assert.rejects(
            store.append(s, [event(s, 1)], { expectedRevision: 0 }),
            isWrongExpectedRevision(s, 0, -1),
          );
          await store.append(s, [event(s, 1), event(s, 2)]);
          await assert.rejects(
            store.append(s, [event(s, 3)], { expectedRevision: 0 }),
            isWrongExpectedRevision(s, 0, 1),
          );
          await assert.rejects(
            store.append(s, [event(s, 3)], { expectedRevision: 2 }),
            isWrongExpectedRevision(s, 2, 1),
          );
          const r = await store.append(s, [event(s, 3)], { expectedRevision: 1 });
          assert.equal(r.nextExpectedRevision, 2);
          await store.append(s, [event(s, 4)], { expectedRevision: r.nextExpectedRevision });
          assert.equal((await collect(store.readStream(s))).length, 4);
        }));

      it("'any' (the default) always holds", () =>
        withStore(async (store) => {
          const s = newStream('any');
          await store.append(s, [event(s, 1)], { expectedRevision: 'any' });
          await store.append(s, [event(s, 2)]);
          assert.equal((await collect(store.readStream(s))).length, 2);
        }));

      it('an empty append checks the expectation and reports the stream as it is', () =>
        withStore(async (store) => {
          const s = newStream('empty');
          assert.deepEqual(await store.append(s, []), {
            nextExpectedRevision: -1,
            position: -1n,
            appended: 0,
            alreadyStored: 0,
          });
          const r = await store.append(s, [event(s, 1)]);
          assert.deepEqual(await store.append(s, [], { expectedRevision: 0 }), { ...r, appended: 0 });
          await assert.rejects(store.append(s, [], { expectedRevision: 'no-stream' }), WrongExpectedRevision);
        }));
    });

    describe('reading', () => {
      it('reads a stream forwards and backwards, from a revision, up to a count; a missing stream yields nothing', () =>
        withStore(async (store) => {
          const s = newStream('read');
          await store.append(
            s,
            [0, 1, 2, 3, 4].map((n) => event(s, n)),
          );
          const revisions = async (o: Parameters<EventStore['readStream']>[1]) =>
            (await collect(store.readStream(s, o))).map((e) => e.revision);
          assert.deepEqual(await revisions({}), [0, 1, 2, 3, 4]);
          assert.deepEqual(await revisions({ direction: 'backwards' }), [4, 3, 2, 1, 0]);
          assert.deepEqual(await revisions({ fromRevision: 2 }), [2, 3, 4]);
          assert.deepEqual(await revisions({ fromRevision: 1, maxCount: 2 }), [1, 2]);
          assert.deepEqual(await revisions({ direction: 'backwards', fromRevision: 3, maxCount: 2 }), [3, 2]);
          assert.deepEqual(await revisions({ direction: 'backwards', maxCount: 1 }), [4]);
          assert.deepEqual(await revisions({ fromRevision: 9 }), []);
          assert.deepEqual(await revisions({ maxCount: 0 }), []);
          assert.deepEqual(await collect(store.readStream(newStream('missing'))), []);
          assert.deepEqual(
            await collect(store.readStream(newStream('missing'), { direction: 'backwards' })),
            [],
          );
        }));

      it("streamHead gives the revision of a stream's last event, -1 for a stream without events", () =>
        withStore(async (store) => {
          const s = newStream('head');
          assert.ok(store.streamHead, 'this adapter implements streamHead');
          assert.equal(await store.streamHead(s), -1);
          assert.equal(await streamHead(store, s), -1);
          await store.append(s, [event(s, 0)]);
          assert.equal(await store.streamHead(s), 0);
          await store.append(
            s,
            [1, 2, 3].map((n) => event(s, n)),
          );
          assert.equal(await store.streamHead(s), 3);
          // the port's helper gives the same on a store without the method (a decorator written before it)
          const bare = { readStream: store.readStream.bind(store) } as unknown as EventStore;
          assert.equal(await streamHead(bare, s), 3);
          assert.equal(await streamHead(bare, newStream('none')), -1);
        }));

      it('reads long streams completely in both directions (past any internal page size)', () =>
        withStore(async (store) => {
          const s = newStream('long');
          const n = 1100;
          const first = await store.append(
            s,
            Array.from({ length: n }, (_, i) => event(s, i)),
          );
          const forwards = await collect(store.readStream(s));
          assert.equal(forwards.length, n);
          assert.ok(forwards.every((e, i) => e.revision === i));
          const backwards = await collect(store.readStream(s, { direction: 'backwards' }));
          assert.ok(backwards.every((e, i) => e.revision === n - 1 - i));
          const all = ofStreams(await collect(store.readAll({ fromPosition: forwards[0]!.position })), s);
          assert.equal(all.length, n - 1);
          assert.equal(first.position, forwards[n - 1]!.position);
        }));

      it('reads all streams in global order, after an exclusive position, up to a count', () =>
        withStore(async (store) => {
          const a = newStream('all-a');
          const b = newStream('all-b');
          const start = await store.append(a, [event(a, 1)]);
          await store.append(b, [event(b, 1)]);
          await store.append(a, [event(a, 2)]);
          await store.append(b, [event(b, 2), event(b, 3)]);
          const after = ofStreams(await collect(store.readAll({ fromPosition: start.position })), a, b);
          assert.deepEqual(ids(after), [`${b}/e1`, `${a}/e2`, `${b}/e2`, `${b}/e3`]);
          for (let i = 1; i < after.length; i++) assert.ok(after[i]!.position > after[i - 1]!.position);
          const two = await collect(store.readAll({ fromPosition: start.position, maxCount: 2 }));
          assert.equal(two.length, 2);
          assert.ok(two[0]!.position > start.position, 'fromPosition is exclusive');
          const fromStart = await collect(store.readAll({ maxCount: 3 }));
          assert.ok(fromStart.length > 0 && fromStart.length <= 3);
          for (let i = 1; i < fromStart.length; i++)
            assert.ok(fromStart[i]!.position > fromStart[i - 1]!.position);
        }));
    });

    describe('reading a selection of streams', () => {
      it('readAll with streams (a list or a predicate) yields only theirs, in global order, maxCount counting them', () =>
        withStore(async (store) => {
          const a = newStream('sel-a');
          const b = newStream('sel-b');
          const c = newStream('sel-c');
          const start = await store.append(newStream('sel-before'), [event(a, 'before')]);
          await store.append(a, [event(a, 1)]);
          await store.append(b, [event(b, 1)]);
          await store.append(c, [event(c, 1)]);
          await store.appendMany?.([
            { stream: c, events: [event(c, 2)] },
            { stream: a, events: [event(a, 2)] },
          ]);
          if (!store.appendMany) await store.append(a, [event(a, 2)]);
          await store.append(b, [event(b, 2)]);
          const fromStart = { fromPosition: start.position };
          const listed = await collect(store.readAll({ ...fromStart, streams: [a, b] }));
          assert.deepEqual(ids(listed), [`${a}/e1`, `${b}/e1`, `${a}/e2`, `${b}/e2`]);
          for (let i = 1; i < listed.length; i++) assert.ok(listed[i]!.position > listed[i - 1]!.position);
          const asked: string[] = [];
          const predicate = (stream: string) => {
            asked.push(stream);
            return stream === c;
          };
          const byPredicate = await collect(store.readAll({ ...fromStart, streams: predicate }));
          assert.deepEqual(ids(byPredicate), [`${c}/e1`, `${c}/e2`]);
          assert.equal(asked.filter((s) => s === c).length, 1, 'the predicate is asked once per stream name');
          const first = await collect(store.readAll({ ...fromStart, streams: [a, b], maxCount: 3 }));
          assert.deepEqual(ids(first), [`${a}/e1`, `${b}/e1`, `${a}/e2`]);
          const after = await collect(store.readAll({ fromPosition: listed[1]!.position, streams: [a] }));
          assert.deepEqual(ids(after), [`${a}/e2`]);
          assert.deepEqual(await collect(store.readAll({ streams: [newStream('sel-none')] })), []);
          assert.deepEqual(await collect(store.readAll({ ...fromStart, streams: [] })), []);
        }));

      it('refuses a streams option that is neither a list of names nor a predicate', () =>
        withStore(async (store) => {
          await assert.rejects(
            async () => collect(store.readAll({ streams: 'table-1' as unknown as string[] })),
            InvalidArgument,
          );
        }));

      it(
        'subscribeToAll with streams delivers only theirs, including a stream created after it started',
        { timeout: 30_000 },
        () =>
          withStore(async (store) => {
            const a = newStream('subsel-a');
            const b = newStream('subsel-b');
            const later = newStream('subsel-later');
            const start = await store.append(a, [event(a, 1)]);
            await store.append(b, [event(b, 1)]);
            await store.append(a, [event(a, 2)]);
            const subscription = store.subscribeToAll({
              fromPosition: start.position,
              streams: (s) => s === a || s === later,
            });
            const received: RecordedEvent[] = [];
            const consume = (async () => {
              for await (const e of subscription) {
                received.push(e);
                if (received.length === 1) {
                  await store.append(b, [event(b, 2)]);
                  await store.append(later, [event(later, 1)]);
                }
                if (received.length === 2) break;
              }
            })();
            await withTimeout(consume, liveTimeoutMs, 'the selected catch-up and live events');
            await subscription.close();
            assert.deepEqual(ids(received), [`${a}/e2`, `${later}/e1`]);
          }),
      );
    });

    describe('reading by event type', () => {
      // type names of this run only: a server's store may hold other runs' events
      const typeA = `${run}-TypeA`;
      const typeB = `${run}-TypeB`;
      const typed = (stream: string, n: number, type: string): EventData => ({
        eventId: `${stream}/e${n}`,
        type,
        data: { n },
      });

      it('readAll with eventTypes yields only those types, in global order, maxCount counting them, links intact', () =>
        withStore(async (store) => {
          const a = newStream('type-a');
          const b = newStream('type-b');
          const start = await store.append(newStream('type-before'), [typed(a, 0, typeA)]);
          await store.append(a, [typed(a, 1, typeA), typed(a, 2, 'TestEvent'), typed(a, 3, typeB)]);
          await store.append(b, [typed(b, 1, 'TestEvent'), typed(b, 2, typeA)]);
          await store.append(a, [typed(a, 4, 'TestEvent'), typed(a, 5, typeA)]);
          const fromStart = { fromPosition: start.position };
          const ofA = await collect(store.readAll({ ...fromStart, eventTypes: [typeA] }));
          assert.deepEqual(ids(ofA), [`${a}/e1`, `${b}/e2`, `${a}/e5`]);
          for (let i = 1; i < ofA.length; i++) assert.ok(ofA[i]!.position > ofA[i - 1]!.position);
          const ofBoth = await collect(store.readAll({ ...fromStart, eventTypes: [typeB, typeA] }));
          assert.deepEqual(ids(ofBoth), [`${a}/e1`, `${a}/e3`, `${b}/e2`, `${a}/e5`]);
          const first = await collect(store.readAll({ ...fromStart, eventTypes: [typeA], maxCount: 2 }));
          assert.deepEqual(ids(first), [`${a}/e1`, `${b}/e2`]);
          const after = await collect(store.readAll({ fromPosition: ofA[0]!.position, eventTypes: [typeA] }));
          assert.deepEqual(ids(after), [`${b}/e2`, `${a}/e5`]);
          const ofStreamAndType = await collect(
            store.readAll({ ...fromStart, streams: [a], eventTypes: [typeA] }),
          );
          assert.deepEqual(ids(ofStreamAndType), [`${a}/e1`, `${a}/e5`]);
          assert.deepEqual(await collect(store.readAll({ ...fromStart, eventTypes: [] })), []);
          assert.deepEqual(await collect(store.readAll({ ...fromStart, eventTypes: [`${run}-never`] })), []);
          // an event whose predecessor was skipped still carries that predecessor's stored hash, and its own hash
          // checks against it; the skipped links themselves are verify's to check
          const wholeA = await collect(store.readStream(a));
          const whole = new Map(wholeA.map((e) => [e.eventId, e]));
          for (const e of ofBoth.filter((x) => x.stream === a)) {
            assert.equal(e.previousHash, e.revision === 0 ? GENESIS_HASH : wholeA[e.revision - 1]!.hash);
            assert.equal(e.hash, whole.get(e.eventId)!.hash);
            assert.equal(recomputedHash(e), e.hash);
            assert.equal(eventHash(e.previousHash, e), e.hash);
          }
          assert.deepEqual(ofA[1]!.data, { n: 2 });
          assert.equal(ofA[1]!.type, typeA);
        }));

      it('refuses an eventTypes option that is not a list of type names', () =>
        withStore(async (store) => {
          await assert.rejects(
            async () => collect(store.readAll({ eventTypes: typeA as unknown as string[] })),
            InvalidArgument,
          );
          await assert.rejects(
            async () => collect(store.readAll({ eventTypes: [1] as unknown as string[] })),
            InvalidArgument,
          );
        }));

      it(
        'subscribeToAll with eventTypes delivers only those, including a type first stored after it started',
        { timeout: 30_000 },
        () =>
          withStore(async (store) => {
            const a = newStream('subtype-a');
            const typeLater = `${run}-TypeLater`;
            const start = await store.append(a, [typed(a, 1, typeA)]);
            await store.append(a, [typed(a, 2, 'TestEvent'), typed(a, 3, typeA)]);
            const subscription = store.subscribeToAll({
              fromPosition: start.position,
              eventTypes: [typeA, typeLater],
            });
            const received: RecordedEvent[] = [];
            const consume = (async () => {
              for await (const e of subscription) {
                if (e.stream !== a) continue;
                received.push(e);
                if (received.length === 1) {
                  await store.append(a, [typed(a, 4, 'TestEvent'), typed(a, 5, typeB)]);
                  await store.append(a, [typed(a, 6, typeLater)]);
                }
                if (received.length === 2) break;
              }
            })();
            await withTimeout(consume, liveTimeoutMs, 'the catch-up and live events of the selected types');
            await subscription.close();
            assert.deepEqual(ids(received), [`${a}/e3`, `${a}/e6`]);
            assert.equal(received[1]!.previousHash, (await collect(store.readStream(a)))[4]!.hash);
          }),
      );
    });

    describe('subscription to all', () => {
      it(
        'catches up from a position, then delivers an event appended after subscribing',
        { timeout: 30_000 },
        () =>
          withStore(async (store) => {
            const s = newStream('subscribe');
            const start = await store.append(newStream('before'), [event(s, 'before')]);
            await store.append(s, [event(s, 1), event(s, 2)]);
            const subscription = store.subscribeToAll({ fromPosition: start.position });
            const received: RecordedEvent[] = [];
            let appendedLive = false;
            const consume = (async () => {
              for await (const e of subscription) {
                if (e.stream !== s) continue;
                received.push(e);
                if (received.length === 2 && !appendedLive) {
                  appendedLive = true; // caught up with what was there; now one that did not exist when it started
                  await store.append(s, [event(s, 3)]);
                }
                if (received.length === 3) break;
              }
            })();
            await withTimeout(consume, liveTimeoutMs, 'the catch-up and live events');
            await subscription.close();
            assert.deepEqual(ids(received), [`${s}/e1`, `${s}/e2`, `${s}/e3`]);
            for (let i = 1; i < received.length; i++)
              assert.ok(received[i]!.position > received[i - 1]!.position);
            assert.ok(received.every((e) => e.hash.length === 64));
          }),
      );

      it(
        'close() ends an iteration that is waiting for events, and later subscriptions start where asked',
        { timeout: 30_000 },
        () =>
          withStore(async (store) => {
            const s = newStream('close');
            const first = await store.append(s, [event(s, 1)]);
            await store.append(s, [event(s, 2)]);
            const subscription = store.subscribeToAll({ fromPosition: first.position });
            const seen: string[] = [];
            const consume = (async () => {
              for await (const e of subscription) if (e.stream === s) seen.push(e.eventId);
            })();
            const deadline = Date.now() + liveTimeoutMs;
            while (seen.length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
            await subscription.close();
            await withTimeout(consume, liveTimeoutMs, 'the iteration to end after close()');
            assert.deepEqual(seen, [`${s}/e2`], 'from an exclusive position');
            await subscription.close();
          }),
      );
    });

    describe('checkpoints', () => {
      it('round-trips a named position; an unknown name gives null', () =>
        withStore(async (store) => {
          const name = `${run}-consumer-${++streams}`;
          assert.equal(await store.loadCheckpoint(name), null);
          await store.saveCheckpoint(name, 5n);
          assert.equal(await store.loadCheckpoint(name), 5n);
          await store.saveCheckpoint(name, 123_456_789_012n);
          assert.equal(await store.loadCheckpoint(name), 123_456_789_012n);
          assert.equal(await store.loadCheckpoint(`${name}-other`), null);
        }));

      it('keeps checkpoints out of the events', () =>
        withStore(async (store) => {
          const s = newStream('ckpt-events');
          const start = await store.append(s, [event(s, 1)]);
          await store.saveCheckpoint(`${run}-quiet-${++streams}`, start.position);
          await store.append(s, [event(s, 2)]);
          const after = await collect(store.readAll({ fromPosition: start.position }));
          assert.deepEqual(ids(ofStreams(after, s)), [`${s}/e2`]);
          assert.ok(after.every((e) => e.type !== 'checkpoint'));
        }));
    });

    describe('appendMany (several streams, one call)', () => {
      it('appends each part with its own revisions, saves the checkpoint, and answers per part in order', () =>
        withStore(async (store) => {
          assert.equal(typeof store.atomicAcrossStreams, 'boolean', 'the store says whether it is atomic');
          const a = newStream('many-a');
          const b = newStream('many-b');
          const name = `${run}-many-${++streams}`;
          await store.append(a, [event(a, 0)]);
          const results = await appendToStreams(
            store,
            [
              { stream: a, events: [event(a, 1), event(a, 2)], expectedRevision: 0 },
              { stream: b, events: [event(b, 1)], expectedRevision: 'no-stream' },
              { stream: a, events: [event(a, 3), event(a, 1)] },
            ],
            { checkpoint: { name, position: 7n } },
          );
          assert.deepEqual(
            results.map((r) => ({ ...r, position: undefined })),
            [
              { nextExpectedRevision: 2, appended: 2, alreadyStored: 0, position: undefined },
              { nextExpectedRevision: 0, appended: 1, alreadyStored: 0, position: undefined },
              { nextExpectedRevision: 3, appended: 1, alreadyStored: 1, position: undefined },
            ],
          );
          const readA = await collect(store.readStream(a));
          assert.deepEqual(
            ids(readA),
            [0, 1, 2, 3].map((n) => `${a}/e${n}`),
          );
          assert.equal(results[0]!.position, readA[2]!.position);
          assert.equal(results[2]!.position, readA[3]!.position);
          assert.equal((await collect(store.readStream(b)))[0]!.position, results[1]!.position);
          assert.equal(await store.loadCheckpoint(name), 7n);
          assert.equal((await verify(store, { stream: a })).ok, true);
          const again = await appendToStreams(store, [
            { stream: a, events: [event(a, 1), event(a, 2)], expectedRevision: 0 },
            { stream: b, events: [event(b, 1)], expectedRevision: 'no-stream' },
          ]);
          assert.deepEqual(
            again.map((r) => [r.appended, r.alreadyStored]),
            [
              [0, 2],
              [0, 1],
            ],
            'a re-sent call stores nothing again, whatever its stale expectations',
          );
        }));

      it('a refused part: nothing at all when atomic across streams, else the parts before it', () =>
        withStore(async (store) => {
          const a = newStream('many-refused-a');
          const b = newStream('many-refused-b');
          const c = newStream('many-refused-c');
          const name = `${run}-many-refused-${++streams}`;
          await store.append(b, [event(b, 0)]);
          await assert.rejects(
            appendToStreams(
              store,
              [
                { stream: a, events: [event(a, 1)] },
                { stream: b, events: [event(b, 1)], expectedRevision: 'no-stream' },
                { stream: c, events: [event(c, 1)] },
              ],
              { checkpoint: { name, position: 3n } },
            ),
            isWrongExpectedRevision(b, 'no-stream', 0),
          );
          const atomic = store.atomicAcrossStreams === true;
          assert.deepEqual(ids(await collect(store.readStream(a))), atomic ? [] : [`${a}/e1`]);
          assert.deepEqual(ids(await collect(store.readStream(b))), [`${b}/e0`]);
          assert.deepEqual(ids(await collect(store.readStream(c))), [], 'no part after the refused one');
          assert.equal(await store.loadCheckpoint(name), null, 'nor the checkpoint');
          // a stored id with other data is refused the same way
          await assert.rejects(
            appendToStreams(store, [
              { stream: c, events: [event(c, 1)] },
              { stream: b, events: [event(b, 0, { n: 'other' })] },
            ]),
            EventIdConflict,
          );
          assert.deepEqual(ids(await collect(store.readStream(c))), atomic ? [] : [`${c}/e1`]);
        }));

      it('refuses malformed parts and checkpoints with InvalidArgument before writing anything', () =>
        withStore(async (store) => {
          const a = newStream('many-malformed');
          const good = { stream: a, events: [event(a, 1)] };
          for (const [appends, options] of [
            [[good, { stream: '', events: [] }], {}],
            [[good, { stream: a, events: [], expectedRevision: -2 }], {}],
            [[good, { stream: a, events: 'x' }], {}],
            [[good, null], {}],
            [[good], { checkpoint: { name: '', position: 1n } }],
            [[good], { checkpoint: { name: 'x', position: 1 } }],
            ['not an array', {}],
          ] as const)
            await assert.rejects(
              appendToStreams(store, appends as never, options as never),
              InvalidArgument,
              JSON.stringify(appends, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
            );
          assert.deepEqual(await collect(store.readStream(a)), []);
        }));
    });

    describe('hash chain (tamper evidence)', () => {
      it('chains each event to the previous one of its stream, from 64 zeros', () =>
        withStore(async (store) => {
          const s = newStream('chain');
          const other = newStream('chain-other');
          await store.append(s, [event(s, 1), event(s, 2)]);
          await store.append(other, [event(other, 1)]);
          await store.append(s, [event(s, 3, { x: 1 }, { m: 'y' })]);
          const read = await collect(store.readStream(s));
          assert.equal(read[0]!.previousHash, GENESIS_HASH);
          assert.equal(GENESIS_HASH, '0'.repeat(64));
          for (let i = 1; i < read.length; i++) assert.equal(read[i]!.previousHash, read[i - 1]!.hash);
          for (const e of read) {
            assert.match(e.hash, /^[0-9a-f]{64}$/);
            assert.equal(e.hash, eventHash(e.previousHash, e));
          }
          const [otherFirst] = await collect(store.readStream(other));
          assert.equal(otherFirst!.previousHash, GENESIS_HASH, 'chains are per stream');
        }));

      it('covers recordedAt, and the link check from the bytes read agrees with verify', () =>
        withStore(async (store) => {
          const s = newStream('chain-time');
          await store.append(s, [event(s, 1), event(s, 2, { nested: { a: [1, 'b'] } })]);
          const read = await collect(store.readStream(s));
          for (const [i, e] of read.entries()) {
            assert.notEqual(eventHash(e.previousHash, { ...e, recordedAt: e.recordedAt + 1 }), e.hash);
            assert.equal(recomputedHash(e), e.hash);
            assert.equal(linkBrokenBecause(e, i === 0 ? undefined : read[i - 1], true), null);
          }
        }));

      it('verify() passes an intact stream and an intact store', () =>
        withStore(async (store) => {
          const s = newStream('verify');
          await store.append(s, [event(s, 1), event(s, 2)]);
          await store.append(s, [event(s, 3)]);
          assert.deepEqual(await verify(store, { stream: s }), { ok: true, streams: 1, events: 3 });
          assert.deepEqual(await verify(store, { stream: newStream('verify-missing') }), {
            ok: true,
            streams: 0,
            events: 0,
          });
          const whole = await verify(store);
          assert.equal(whole.ok, true, JSON.stringify(whole.firstBroken));
          assert.ok(whole.events >= 3);
        }));
    });

    describe('durability', () => {
      const skip = options.reopen
        ? false
        : (options.noReopenReason ?? 'no way to reopen this store was given');
      it(
        'keeps events, chain and checkpoints across close and reopen, and continues the chain',
        { skip },
        async () => {
          const reopen = options.reopen!;
          const s = newStream('durable');
          const checkpoint = `${run}-durable-${++streams}`;
          const store = await makeStore();
          let before: RecordedEvent[];
          try {
            await store.append(s, [event(s, 1), event(s, 2)]);
            const last = await store.append(s, [event(s, 3)]);
            await store.saveCheckpoint(checkpoint, last.position);
            before = await collect(store.readStream(s));
          } finally {
            await store.close();
          }
          await assert.rejects(store.append(s, [event(s, 4)]), StoreClosed);
          const reopened = await reopen(store);
          try {
            assert.deepEqual(await collect(reopened.readStream(s)), before);
            assert.equal(await reopened.loadCheckpoint(checkpoint), before.at(-1)!.position);
            const again = await reopened.append(s, [event(s, 3), event(s, 4)], { expectedRevision: 2 });
            assert.deepEqual([again.appended, again.alreadyStored, again.nextExpectedRevision], [1, 1, 3]);
            const after = await collect(reopened.readStream(s));
            assert.equal(after[3]!.previousHash, before[2]!.hash);
            assert.deepEqual(await verify(reopened, { stream: s }), { ok: true, streams: 1, events: 4 });
          } finally {
            await reopened.close();
          }
        },
      );

      it('rejects calls after close(), and close() twice is harmless', () =>
        withStore(async (store) => {
          await store.close();
          await store.close();
          await assert.rejects(store.append(newStream('closed'), [event('x', 1)]), StoreClosed);
          await assert.rejects(store.loadCheckpoint('x'), StoreClosed);
          await assert.rejects(collect(store.readAll()), StoreClosed);
        }));
    });
  });
}
