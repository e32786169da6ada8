/**
 * The access log's group commit (access-log.ts): a record is resolved only once the append holding it has returned,
 * a failed append fails every record of its batch, and while records keep coming within the gap after the last
 * append (its cost), they wait for each other — a turn of the event loop that brings none appends at once. The clock is the test's, so nothing here
 * depends on how fast the machine is.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AppendResult, EventData, EventStore } from '@table-audit/eventstore';
import type { AccessRecorded } from '@table-audit/schemas/events';
import { AccessLog, ACCESS_STREAM } from '../src/access-log.ts';

/** A store whose appends are held until the test lets them return (or fail). */
function heldStore() {
  const appends: { stream: string; events: readonly EventData[]; release: (err?: Error) => void }[] = [];
  const store = {
    append: (stream: string, events: readonly EventData[]) =>
      new Promise<AppendResult>((resolve, reject) =>
        appends.push({
          stream,
          events,
          release: (err) => (err ? reject(err) : resolve({} as AppendResult)),
        }),
      ),
  } as unknown as EventStore;
  return { store, appends };
}

const record = (n: number): AccessRecorded => ({
  accessId: `req-${n}:round.replay`,
  actorSubject: 'inspector',
  actorRole: 'inspector',
  actorConcessionaire: null,
  time: n,
  requestId: `req-${n}`,
  action: 'round.replay',
  objectType: 'round',
  objectId: `round-${n}`,
  outcome: 'ok',
});

const turn = () => new Promise((r) => setImmediate(r));
const settled = (p: Promise<void>) => {
  const s = { done: false, error: undefined as unknown };
  p.then(
    () => (s.done = true),
    (e: unknown) => ((s.done = true), (s.error = e)),
  );
  return s;
};

describe('the access log’s group commit', () => {
  it('resolves a record only once its append returned; records that keep coming within the gap share one append', async () => {
    const { store, appends } = heldStore();
    let now = 1_000;
    const log = new AccessLog(store, { windowMs: 2, maxWaitMs: 20, now: () => now });
    const first = settled(log.record(record(1)));
    await turn();
    assert.equal(appends.length, 1, 'after a quiet spell: appended in the same turn');
    assert.equal(appends[0]!.stream, ACCESS_STREAM);
    await turn();
    assert.equal(first.done, false, 'not resolved before the append returns');
    now += 3; // the append took 3 ms: the gap ends 6 ms after it ended
    appends[0]!.release();
    await turn();
    assert.equal(first.done, true);
    now += 1;
    // within the gap, records arriving turn after turn wait for each other
    const more = [settled(log.record(record(2))), settled(log.record(record(3)))];
    await turn();
    assert.equal(appends.length, 1, 'this turn brought records: put off');
    more.push(settled(log.record(record(4))));
    await turn();
    assert.equal(appends.length, 1, 'and this one too');
    await turn(); // a turn that brought none: appended, though the gap is still open
    assert.equal(appends.length, 2);
    assert.deepEqual(
      appends[1]!.events.map((e) => e.eventId),
      ['req-2:round.replay', 'req-3:round.replay', 'req-4:round.replay'],
    );
    assert.ok(more.every((s) => !s.done));
    appends[1]!.release();
    await turn();
    assert.ok(more.every((s) => s.done && s.error === undefined));
    assert.deepEqual(log.stats, { appends: 2, records: 4 });
  });

  it('appends once the gap has passed, however many records keep coming, and caps the gap at maxWaitMs', async () => {
    const { store, appends } = heldStore();
    let now = 0;
    const log = new AccessLog(store, { windowMs: 2, maxWaitMs: 20, now: () => now });
    void log.record(record(1));
    await turn();
    now += 500; // a very slow commit: the gap is capped at 20 ms after it
    appends[0]!.release();
    await turn();
    let n = 2;
    for (; now < 519; now += 5) {
      void log.record(record(n++));
      await turn();
      assert.equal(appends.length, 1, `${now - 500} ms after: put off`);
    }
    now = 520;
    void log.record(record(n++));
    await turn();
    assert.equal(appends.length, 2, '20 ms after it ended, not 1,000, though records kept coming');
    assert.equal(appends[1]!.events.length, n - 2);
    appends[1]!.release();
  });

  it('fails every record of a batch whose append fails, and appends the next ones anew', async () => {
    const { store, appends } = heldStore();
    let now = 0;
    const log = new AccessLog(store, { windowMs: 2, now: () => now });
    const batch = [1, 2].map((n) => settled(log.record(record(n))));
    await turn();
    appends[0]!.release(new Error('disk full'));
    await turn();
    for (const s of batch) assert.equal((s.error as Error | undefined)?.message, 'disk full');
    now += 100; // a quiet spell
    const next = settled(log.record(record(3)));
    await turn();
    assert.equal(appends.length, 2);
    appends[1]!.release();
    await turn();
    assert.equal(next.done && next.error, undefined);
  });

  it('with no window, appends once per turn of the event loop', async () => {
    const { store, appends } = heldStore();
    const log = new AccessLog(store, { windowMs: 0, maxWaitMs: 0, now: () => 0 });
    const a = settled(log.record(record(1)));
    const b = settled(log.record(record(2)));
    await turn();
    assert.equal(appends.length, 1);
    assert.equal(appends[0]!.events.length, 2);
    appends[0]!.release();
    await turn();
    const c = settled(log.record(record(3)));
    await turn();
    assert.equal(appends.length, 2, 'the next turn: its own append, with no wait');
    appends[1]!.release();
    await turn();
    assert.ok(a.done && b.done && c.done);
  });

  it('with a writer off the event loop: one append in flight, the next holding every record that came meanwhile', async () => {
    const { store, appends } = heldStore();
    const writer = {
      append: (events: readonly EventData[]) => store.append(ACCESS_STREAM, events).then(() => {}),
    };
    let now = 0;
    // a window and a gap that would put appends off: with a writer they do not apply
    const log = new AccessLog({} as EventStore, {
      windowMs: 1_000,
      maxWaitMs: 1_000,
      now: () => now,
      writer,
    });
    const first = [1, 2].map((n) => settled(log.record(record(n))));
    await turn();
    assert.equal(appends.length, 1, 'the records of a turn together');
    assert.equal(appends[0]!.events.length, 2);
    const meanwhile = [3, 4, 5].map((n) => settled(log.record(record(n))));
    await turn();
    await turn();
    assert.equal(appends.length, 1, 'while one append is in flight, records wait for it');
    now += 5;
    appends[0]!.release();
    await turn();
    assert.ok(first.every((s) => s.done && s.error === undefined));
    assert.ok(
      meanwhile.every((s) => !s.done),
      'not before their own append returned',
    );
    assert.equal(appends.length, 2, 'then at once, all of them in one append, with no gap kept');
    assert.deepEqual(
      appends[1]!.events.map((e) => e.eventId),
      ['req-3:round.replay', 'req-4:round.replay', 'req-5:round.replay'],
    );
    appends[1]!.release(new Error('disk full'));
    await turn();
    for (const s of meanwhile) assert.equal((s.error as Error | undefined)?.message, 'disk full');
    const after = settled(log.record(record(6)));
    await turn();
    assert.equal(appends.length, 3, 'after a failed append, the next record is appended anew');
    appends[2]!.release();
    await turn();
    assert.equal(after.done && after.error, undefined);
    assert.deepEqual(log.stats, { appends: 3, records: 6 });
  });
});
