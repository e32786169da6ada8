/**
 * The processor loop (src/processor.ts) on the SQLite adapter, on the EventStoreDB adapter over its in-memory
 * imitation client, and on a real EventStoreDB/KurrentDB when EVENTSTORE_URL is set (a throwaway server: tests
 * write uniquely named streams and assume no other writer while they run). Each test names its own streams and
 * checkpoints; where batch boundaries matter it starts from a checkpoint just before its own events.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { EventStoreDbEventStore } from '../src/eventstoredb-event-store.ts';
import {
  appendToStreams,
  InvalidArgument,
  ProcessorHandlerFailed,
  runProcessor,
  runProcessors,
  type BatchContext,
  type EventStore,
  type Processor,
} from '../src/index.ts';
import { SqliteEventStore } from '../src/sqlite-event-store.ts';
import { FakeEventStoreDb } from './fake-eventstoredb-client.ts';

interface Batch {
  ids: string[];
  context: BatchContext;
}

/** A processor that records what it was given. */
function recorder(name: string, overrides: Partial<Processor> = {}) {
  const batches: Batch[] = [];
  const checkpoints: bigint[] = [];
  const caughtUp: (bigint | null)[] = [];
  const processor: Processor = {
    name,
    handle: (batch, context) => void batches.push({ ids: batch.map((e) => e.eventId), context }),
    onCheckpoint: (p) => void checkpoints.push(p),
    onCaughtUp: ({ position }) => void caughtUp.push(position),
    ...overrides,
  };
  return { processor, batches, checkpoints, caughtUp, handled: () => batches.flatMap((b) => b.ids) };
}

/** Delegates to `store`, with some calls replaced. */
function wrap(store: EventStore, overrides: Partial<EventStore>): EventStore {
  return {
    append: (s, e, o) => store.append(s, e, o),
    readStream: (s, o) => store.readStream(s, o),
    readAll: (o) => store.readAll(o),
    subscribeToAll: (o) => store.subscribeToAll(o),
    saveCheckpoint: (n, p) => store.saveCheckpoint(n, p),
    loadCheckpoint: (n) => store.loadCheckpoint(n),
    close: () => store.close(),
    ...overrides,
  };
}

async function until(condition: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

function processorSuite(label: string, makeStore: () => Promise<EventStore>, liveTimeoutMs = 5000): void {
  const run = `proc-${randomUUID().slice(0, 8)}`;
  let n = 0;
  const unique = (what: string) => `${run}-${what}-${++n}`;

  async function withStore(test: (store: EventStore) => Promise<void>): Promise<void> {
    const store = await makeStore();
    try {
      await test(store);
    } finally {
      await store.close();
    }
  }
  /** Appends `count` events to `stream`, one append each (one position each); returns them as stored. */
  async function appendEvents(
    store: EventStore,
    stream: string,
    count: number,
    type = 'T',
  ): Promise<{ id: string; position: bigint }[]> {
    const out: { id: string; position: bigint }[] = [];
    for (let i = 0; i < count; i++) {
      const id = `${stream}/${++n}`;
      const r = await store.append(stream, [{ eventId: id, type, data: { i } }]);
      out.push({ id, position: r.position });
    }
    return out;
  }
  /** A checkpoint just before the test's own events, so batches hold nothing else. */
  async function startHere(store: EventStore, name: string): Promise<bigint> {
    const marker = unique('marker');
    const r = await store.append(marker, [{ eventId: `${marker}/0`, type: 'Marker', data: null }]);
    await store.saveCheckpoint(name, r.position);
    return r.position;
  }

  describe(`processor: ${label}`, () => {
    it('resumeFrom: resumes from an earlier position than the saved checkpoint when the processor says so', () =>
      withStore(async (store) => {
        const name = unique('p');
        const start = await startHere(store, name);
        const events = await appendEvents(store, unique('s'), 4);
        // the saved checkpoint moved to the end behind the processor's back; it trusts its own copy (start)
        await store.saveCheckpoint(name, events.at(-1)!.position);
        const saved: (bigint | null)[] = [];
        const r = recorder(name, {
          resumeFrom: (s) => {
            saved.push(s);
            return start;
          },
        });
        await runProcessor(store, r.processor);
        assert.deepEqual(saved, [events.at(-1)!.position]);
        assert.deepEqual(
          r.handled(),
          events.map((e) => e.id),
        );
      }));

    it('catches up from zero: every event in global order, checkpoint at the last, then nothing again', () =>
      withStore(async (store) => {
        const a = unique('a');
        const b = unique('b');
        const events = [...(await appendEvents(store, a, 3)), ...(await appendEvents(store, b, 4))];
        const name = unique('p');
        const r = recorder(name, { filter: { streamPrefix: [a, b] } });
        const report = await runProcessor(store, r.processor, { batchSize: 3 });
        assert.deepEqual(
          r.handled(),
          events.map((e) => e.id),
        );
        assert.ok(r.batches.every((x) => x.context.mode === 'catch-up'));
        const last = events.at(-1)!.position;
        // on a fresh store the read ends at the test's last event; a shared server may hold later ones
        assert.ok((await store.loadCheckpoint(name))! >= last);
        assert.equal(report.checkpoints[name], await store.loadCheckpoint(name));
        assert.deepEqual(r.caughtUp, [report.checkpoints[name]]);
        assert.equal(report.aborted, false);

        const again = recorder(name);
        const second = await runProcessor(store, again.processor, { batchSize: 3 });
        assert.deepEqual(again.batches, [], 'nothing after the checkpoint');
        assert.equal(second.checkpoints[name], report.checkpoints[name]);
      }));

    it('resumes after a saved checkpoint', () =>
      withStore(async (store) => {
        const s = unique('s');
        const name = unique('p');
        await startHere(store, name);
        const events = await appendEvents(store, s, 6);
        await store.saveCheckpoint(name, events[2]!.position);
        const r = recorder(name);
        await runProcessor(store, r.processor, { batchSize: 100 });
        assert.deepEqual(
          r.handled(),
          events.slice(3).map((e) => e.id),
        );
        assert.equal(await store.loadCheckpoint(name), events[5]!.position);
      }));

    it('hands over batches of batchSize and saves the checkpoint after each', () =>
      withStore(async (store) => {
        const s = unique('s');
        const name = unique('p');
        await startHere(store, name);
        const events = await appendEvents(store, s, 7);
        const r = recorder(name);
        const report = await runProcessor(store, r.processor, { batchSize: 3 });
        assert.deepEqual(
          r.batches.map((b) => b.ids),
          [events.slice(0, 3), events.slice(3, 6), events.slice(6)].map((x) => x.map((e) => e.id)),
        );
        const ends = [events[2]!, events[5]!, events[6]!].map((e) => e.position);
        assert.deepEqual(
          r.batches.map((b) => b.context.position),
          ends,
        );
        assert.deepEqual(
          r.batches.map((b) => b.context.read),
          [3, 3, 1],
        );
        assert.deepEqual(r.checkpoints, ends);
        assert.equal(report.read, 7);

        // exactly a multiple of the batch size: no empty batch at the end
        const name2 = unique('p');
        await store.saveCheckpoint(name2, (await store.loadCheckpoint(name))!);
        const s2 = unique('s');
        await appendEvents(store, s2, 6);
        const r2 = recorder(name2);
        await runProcessor(store, r2.processor, { batchSize: 3 });
        assert.deepEqual(
          r2.batches.map((b) => b.ids.length),
          [3, 3],
        );
      }));

    it('does not save the checkpoint when the handler throws, and names the batch in the error', () =>
      withStore(async (store) => {
        const s = unique('s');
        const name = unique('p');
        await startHere(store, name);
        const events = await appendEvents(store, s, 5);
        let calls = 0;
        const r = recorder(name, {
          handle: () => {
            if (++calls === 2) throw new Error('projection table missing');
          },
        });
        await assert.rejects(runProcessor(store, r.processor, { batchSize: 2 }), (err: unknown) => {
          assert.ok(err instanceof ProcessorHandlerFailed, String(err));
          assert.equal(err.processor, name);
          assert.equal(err.firstEventId, events[2]!.id);
          assert.equal(err.lastEventId, events[3]!.id);
          assert.equal(err.firstPosition, events[2]!.position);
          assert.equal(err.lastPosition, events[3]!.position);
          assert.equal((err.cause as Error).message, 'projection table missing');
          assert.match(err.message, /projection table missing/);
          assert.ok(err.message.includes(events[2]!.id) && err.message.includes(String(events[3]!.position)));
          return true;
        });
        assert.equal(await store.loadCheckpoint(name), events[1]!.position, 'only the first batch');
        const retry = recorder(name);
        await runProcessor(store, retry.processor, { batchSize: 2 });
        assert.deepEqual(
          retry.handled(),
          events.slice(2).map((e) => e.id),
        );
      }));

    it('advances the checkpoint over events its filter leaves out, without calling the handler for them', () =>
      withStore(async (store) => {
        const mine = unique('mine');
        const other = unique('other');
        const name = unique('p');
        await startHere(store, name);
        const kept = await appendEvents(store, mine, 2);
        await appendEvents(store, mine, 1, 'Ignored'); // right stream, wrong type
        const others = await appendEvents(store, other, 4);
        const r = recorder(name, { filter: { streamPrefix: mine, eventTypes: ['T'] } });
        await runProcessor(store, r.processor, { batchSize: 3 });
        assert.deepEqual(
          r.batches.map((b) => b.ids),
          [kept.map((e) => e.id)],
          'one call: the other batches held nothing for it',
        );
        assert.equal(r.checkpoints.length, 3, 'a checkpoint per batch read, handled or not');
        assert.equal(await store.loadCheckpoint(name), others.at(-1)!.position);
        const predicate = recorder(unique('p'), { filter: (e) => e.stream === other && e.data !== null });
        await store.saveCheckpoint(predicate.processor.name, kept[0]!.position);
        await runProcessor(store, predicate.processor);
        assert.deepEqual(
          predicate.handled(),
          others.map((e) => e.id),
        );
      }));

    it('savesCheckpoint: the handler saves the checkpoint with its writes; the loop saves it only for batches it did not hand over', () =>
      withStore(async (store) => {
        const mine = unique('mine');
        const other = unique('other');
        const out = unique('out');
        const name = unique('p');
        await startHere(store, name);
        const kept = await appendEvents(store, mine, 3);
        const others = await appendEvents(store, other, 3);
        const loopSaves: bigint[] = [];
        const counting = wrap(store, {
          saveCheckpoint: (n, p) => {
            if (n === name) loopSaves.push(p);
            return store.saveCheckpoint(n, p);
          },
        });
        const contexts: BatchContext[] = [];
        const processor: Processor = {
          name,
          savesCheckpoint: true,
          filter: { streamPrefix: mine },
          handle: async (batch, context) => {
            contexts.push(context);
            await appendToStreams(
              store,
              [
                {
                  stream: out,
                  events: batch.map((e) => ({ eventId: `out-${e.eventId}`, type: 'Out', data: null })),
                },
              ],
              { checkpoint: context.checkpoint },
            );
          },
        };
        const report = await runProcessor(counting, processor, { batchSize: 3 });
        assert.deepEqual(
          contexts.map((c) => c.checkpoint),
          [{ name, position: kept.at(-1)!.position }],
          'the handler is told which checkpoint to save, at the batch end',
        );
        const written: { eventId: string; position: bigint }[] = [];
        for await (const e of store.readStream(out)) written.push(e);
        assert.deepEqual(
          written.map((e) => e.eventId),
          kept.map((e) => `out-${e.id}`),
        );
        // the loop saved the checkpoint of the batches it did not hand over (the other stream's events, then the
        // handler's own writes, read after them), never the one the handler saved
        assert.deepEqual(
          loopSaves,
          [others.at(-1)!.position, written.at(-1)!.position],
          'only the batches it did not hand over',
        );
        assert.equal(report.checkpoints[name], written.at(-1)!.position);
        assert.equal(await store.loadCheckpoint(name), written.at(-1)!.position);

        // a handler that fails before its write leaves the checkpoint where it was
        const more = await appendEvents(store, mine, 2);
        await assert.rejects(
          runProcessor(store, { ...processor, handle: () => Promise.reject(new Error('disk full')) }),
          ProcessorHandlerFailed,
        );
        assert.equal(await store.loadCheckpoint(name), written.at(-1)!.position);
        await runProcessor(store, processor);
        assert.equal(
          await store.loadCheckpoint(name),
          more.at(-1)!.position,
          'saved by the handler, with its writes',
        );
      }));

    it("more: a processor may leave a full batch's writes to a later one; flush writes them before catching up", () =>
      withStore(async (store) => {
        const mine = unique('defer');
        const out = unique('defer-out');
        const name = unique('p');
        await startHere(store, name);
        // 6 events in batches of 3: both batches are full, then an empty read ends the catch-up
        const kept = await appendEvents(store, mine, 6);
        const events: { stream: string; events: { eventId: string; type: string; data: null }[] }[] = [];
        let pending: { name: string; position: bigint } | null = null;
        const write = async () => {
          if (pending === null) return;
          await appendToStreams(store, events.splice(0), { checkpoint: pending });
          pending = null;
        };
        const order: string[] = [];
        const processor: Processor = {
          name,
          savesCheckpoint: true,
          filter: { streamPrefix: mine },
          handle: async (batch, context) => {
            order.push(`batch more=${context.more}`);
            events.push({
              stream: out,
              events: batch.map((e) => ({ eventId: `out-${e.eventId}`, type: 'Out', data: null })),
            });
            pending = context.checkpoint;
            if (!context.more) await write();
          },
          flush: async () => {
            order.push(`flush${pending === null ? '' : ' (writes)'}`);
            await write();
          },
          onCaughtUp: () => void order.push('caught up'),
        };
        await runProcessor(store, processor, { batchSize: 3 });
        assert.deepEqual(order.slice(0, 2), ['batch more=true', 'batch more=true']);
        assert.ok(order.includes('flush (writes)'), `the deferred writes were flushed: ${order.join(', ')}`);
        assert.equal(order.at(-1), 'caught up', 'flushed before the loop says it caught up');
        const written: string[] = [];
        for await (const e of store.readStream(out)) written.push(e.eventId);
        assert.deepEqual(
          written,
          kept.map((e) => `out-${e.id}`),
        );
        assert.equal(await store.loadCheckpoint(name), kept.at(-1)!.position, 'saved with the writes');
      }));

    it('follows events appended after it started, live, until aborted', { timeout: 60_000 }, () =>
      withStore(async (store) => {
        const s = unique('s');
        const name = unique('p');
        await startHere(store, name);
        const before = await appendEvents(store, s, 2);
        const r = recorder(name, { filter: { streamPrefix: s } });
        const abort = new AbortController();
        const running = runProcessor(store, r.processor, {
          live: true,
          signal: abort.signal,
          flushMs: 10,
        });
        await until(() => r.caughtUp.length === 1, liveTimeoutMs, 'catch-up');
        const live = await appendEvents(store, s, 3);
        await until(() => r.handled().length === 5, liveTimeoutMs, 'the live events');
        abort.abort();
        const report = await running;
        assert.deepEqual(
          r.handled(),
          [...before, ...live].map((e) => e.id),
        );
        assert.deepEqual(
          r.batches.map((b) => b.context.mode),
          ['catch-up', ...r.batches.slice(1).map(() => 'live')],
        );
        assert.equal(await store.loadCheckpoint(name), live.at(-1)!.position);
        assert.equal(report.checkpoints[name], live.at(-1)!.position);
      }),
    );

    it(
      'on abort while live, hands over what it received in a final flush and checkpoints it',
      { timeout: 60_000 },
      () =>
        withStore(async (base) => {
          let delivered = 0;
          // counts what the subscription delivered, to abort once the events are in the processor's hands
          const store = wrap(base, {
            subscribeToAll: (o) => {
              const sub = base.subscribeToAll(o);
              return {
                close: () => sub.close(),
                async *[Symbol.asyncIterator]() {
                  for await (const e of sub) {
                    delivered++;
                    yield e;
                  }
                },
              };
            },
          });
          const s = unique('s');
          const name = unique('p');
          await startHere(store, name);
          const r = recorder(name);
          const abort = new AbortController();
          const running = runProcessor(store, r.processor, {
            live: true,
            signal: abort.signal,
            flushMs: 600_000, // no timed flush before the abort
            batchSize: 1000,
          });
          await until(() => r.caughtUp.length === 1, liveTimeoutMs, 'catch-up');
          const live = await appendEvents(store, s, 3);
          await until(() => delivered >= 3, liveTimeoutMs, 'the subscription to deliver');
          assert.equal(r.batches.length, 0, 'nothing flushed yet');
          abort.abort();
          await running;
          assert.deepEqual(
            r.batches.map((b) => [b.context.mode, b.ids]),
            [['live', live.map((e) => e.id)]],
          );
          assert.equal(await store.loadCheckpoint(name), live.at(-1)!.position);
        }),
    );

    it(
      'stops a live run when a live batch fails, with the error, and keeps the checkpoint before it',
      {
        timeout: 60_000,
      },
      () =>
        withStore(async (store) => {
          const s = unique('s');
          const name = unique('p');
          const start = await startHere(store, name);
          const r = recorder(name, {
            handle: (batch) => {
              throw new Error(`cannot project ${batch[0]!.eventId}`);
            },
          });
          const abort = new AbortController();
          const running = runProcessor(store, r.processor, { live: true, signal: abort.signal, flushMs: 5 });
          await until(() => r.caughtUp.length === 1, liveTimeoutMs, 'catch-up');
          const [first] = await appendEvents(store, s, 1);
          await assert.rejects(running, (err: unknown) => {
            assert.ok(err instanceof ProcessorHandlerFailed, String(err));
            assert.equal(err.firstEventId, first!.id);
            assert.match(err.message, new RegExp(`cannot project ${first!.id}`));
            return true;
          });
          assert.equal(await store.loadCheckpoint(name), start);
          assert.equal(abort.signal.aborted, false, 'it stopped on its own');
        }),
    );

    it('re-delivers exactly the batch whose checkpoint a crash prevented', () =>
      withStore(async (store) => {
        const s = unique('s');
        const name = unique('p');
        await startHere(store, name);
        const events = await appendEvents(store, s, 7);
        let saves = 0;
        // the process dies after the second batch's writes, before its checkpoint
        const crashing = wrap(store, {
          saveCheckpoint: async (n, p) => {
            if (n === name && ++saves === 2) throw new Error('power cut');
            return store.saveCheckpoint(n, p);
          },
        });
        const first = recorder(name);
        await assert.rejects(runProcessor(crashing, first.processor, { batchSize: 3 }), /power cut/);
        assert.deepEqual(
          first.batches.map((b) => b.ids),
          [events.slice(0, 3), events.slice(3, 6)].map((x) => x.map((e) => e.id)),
        );
        assert.equal(await store.loadCheckpoint(name), events[2]!.position);

        const restarted = recorder(name);
        await runProcessor(store, restarted.processor, { batchSize: 3 });
        assert.deepEqual(restarted.batches[0]!.ids, first.batches[1]!.ids, 'the same batch again');
        assert.deepEqual(
          restarted.handled(),
          events.slice(3).map((e) => e.id),
        );
      }));

    it('runs several processors over one read, each from its own checkpoint', () =>
      withStore(async (base) => {
        let reads = 0;
        const store = wrap(base, {
          readAll: (o) => {
            reads++;
            return base.readAll(o);
          },
        });
        const s = unique('s');
        const behind = unique('behind');
        const ahead = unique('ahead');
        await startHere(store, behind);
        const events = await appendEvents(store, s, 6);
        await store.saveCheckpoint(ahead, events[3]!.position);
        const b = recorder(behind);
        const a = recorder(ahead);
        const report = await runProcessors(store, [b.processor, a.processor], { batchSize: 10 });
        assert.deepEqual(
          b.handled(),
          events.map((e) => e.id),
        );
        assert.deepEqual(
          a.handled(),
          events.slice(4).map((e) => e.id),
        );
        assert.equal(reads, 1, 'one read for both');
        assert.deepEqual(report.checkpoints, {
          [behind]: events[5]!.position,
          [ahead]: events[5]!.position,
        });
      }));

    it('readByType: the catch-up reads only the readEventTypes, then the rest once, and the checkpoint reaches the last event', () =>
      withStore(async (base) => {
        const reads: (readonly string[] | undefined)[] = [];
        const store = wrap(base, {
          readAll: (o) => {
            reads.push(o?.eventTypes);
            return base.readAll(o);
          },
        });
        const s = unique('typed');
        const name = unique('p');
        const start = await startHere(store, name);
        const wanted: string[] = [];
        for (let i = 0; i < 3; i++) {
          wanted.push(...(await appendEvents(store, s, 1, 'Wanted')).map((e) => e.id));
          await appendEvents(store, s, 2, 'Other');
          await appendEvents(store, unique('elsewhere'), 1, 'Wanted'); // the filter leaves it out
        }
        const tail = await appendEvents(store, s, 3, 'Other');
        const filter = (e: { stream: string; type: string }) => e.stream === s && e.type === 'Wanted';
        const typed = recorder(name, { filter, readEventTypes: ['Wanted'] });
        const report = await runProcessor(store, typed.processor, { batchSize: 2, readByType: true });
        assert.deepEqual(typed.handled(), wanted);
        assert.equal(
          await store.loadCheckpoint(name),
          tail.at(-1)!.position,
          'past the events of other types',
        );
        // three full reads of its type, a short one, then every type: a full read (back to its type: none), the rest
        const W = ['Wanted'];
        assert.deepEqual(reads, [W, W, W, W, undefined, W, undefined]);
        assert.equal(report.read, 6 + 3, 'the six of its type, then the three left after the last of them');
        assert.ok(
          typed.batches.every((b) => b.context.read <= 2),
          'batches of the size asked for',
        );

        // the same handled: with readByType on a processor without readEventTypes and without readByType on one
        // with them (both read every type), and on a store that ignores the option
        const ignoring = wrap(base, { readAll: ({ eventTypes: _, ...o } = {}) => base.readAll(o) });
        for (const [label, on, readEventTypes, readByType] of [
          ['no readEventTypes', store, undefined, true],
          ['no readByType', store, ['Wanted'], false],
          ['a store ignoring eventTypes', ignoring, ['Wanted'], true],
        ] as const) {
          const other = unique('p');
          await base.saveCheckpoint(other, start);
          const r = recorder(other, { filter, ...(readEventTypes ? { readEventTypes } : {}) });
          const before = reads.length;
          await runProcessor(on, r.processor, { batchSize: 2, readByType });
          assert.deepEqual(r.handled(), wanted, label);
          assert.equal(await base.loadCheckpoint(other), tail.at(-1)!.position, label);
          if (on === store)
            assert.ok(
              reads.slice(before).every((t) => t === undefined),
              label,
            );
        }
      }));

    it('refuses a bad batch size or flush interval, and two processors with one name', () =>
      withStore(async (store) => {
        const p = recorder(unique('p')).processor;
        await assert.rejects(runProcessor(store, p, { batchSize: 0 }), InvalidArgument);
        await assert.rejects(
          runProcessor(store, p, { batchSize: 1.5 }),
          /batchSize must be a positive integer/,
        );
        await assert.rejects(runProcessor(store, p, { flushMs: -1 }), /flushMs/);
        await assert.rejects(runProcessors(store, [p, p]), /two processors are named/);
        await assert.rejects(runProcessors(store, []), InvalidArgument);
      }));
  });
}

const dir = mkdtempSync(join(tmpdir(), 'ta-processor-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
processorSuite(
  'SqliteEventStore (file)',
  async () => new SqliteEventStore(join(dir, `store-${++files}`, 'events.sqlite')),
);
processorSuite(
  'EventStoreDbEventStore on its in-memory imitation client (not a server)',
  async () => new EventStoreDbEventStore(new FakeEventStoreDb().client()),
);

const url = process.env.EVENTSTORE_URL;
if (url === undefined || url === '') {
  describe(
    'processor: EventStoreDbEventStore',
    {
      skip: 'EVENTSTORE_URL is not set: no EventStoreDB/KurrentDB server to run against (set it to e.g. esdb://localhost:2113?tls=false)',
    },
    () => {
      it('runs the processor tests against EventStoreDB', () => {});
    },
  );
} else {
  processorSuite(`EventStoreDbEventStore at ${url}`, async () => EventStoreDbEventStore.connect(url), 15_000);
}
