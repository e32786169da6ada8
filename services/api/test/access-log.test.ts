/**
 * The access log's group commit (access-log.ts): a record is resolved only once the append holding it has returned,
 * a failed append fails every record of its batch, and appends are spaced by what the last one cost — records
 * arriving within the gap share one append, a record after a quiet spell is appended at once. The clock is the test's, so nothing here
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
  it('resolves a record only once its append returned; records within the gap after it share the next append', async () => {
    const { store, appends } = heldStore();
    let now = 1_000;
    const log = new AccessLog(store, { windowMs: 2, maxWaitMs: 20, now: () => now });
    const first = settled(log.record(record(1)));
    await turn();
    assert.equal(appends.length, 1, 'after a quiet spell: appended in the same turn');
    assert.equal(appends[0]!.stream, ACCESS_STREAM);
    await turn();
    assert.equal(first.done, false, 'not resolved before the append returns');
    now += 3; // the append took 3 ms: the next may start 6 ms after it ended
    appends[0]!.release();
    await turn();
    assert.equal(first.done, true);
    now += 5; // within the gap: three records wait for one append together
    const more = [2, 3, 4].map((n) => settled(log.record(record(n))));
    await turn();
    assert.equal(appends.length, 1, 'no append before the gap ends');
    await new Promise((r) => setTimeout(r, 10)); // the gap's timer (1 ms) has fired
    assert.equal(appends.length, 2);
    assert.deepEqual(
      appends[1]!.events.map((e) => e.eventId),
      ['req-2:round.replay', 'req-3:round.replay', 'req-4:round.replay'],
    );
    assert.ok(more.every((s) => !s.done));
    appends[1]!.release(); // took no time: the next gap is the window, 2 ms from this append's start
    await turn();
    assert.ok(more.every((s) => s.done && s.error === undefined));
    now += 2;
    const later = settled(log.record(record(5)));
    await turn();
    assert.equal(appends.length, 3, 'past the gap: appended at once');
    appends[2]!.release();
    await turn();
    assert.equal(later.done, true);
    assert.deepEqual(log.stats, { appends: 3, records: 5 });
  });

  it('waits no longer than maxWaitMs after a slow append', async () => {
    const { store, appends } = heldStore();
    let now = 0;
    const log = new AccessLog(store, { windowMs: 2, maxWaitMs: 20, now: () => now });
    void log.record(record(1));
    await turn();
    now += 500; // a very slow commit
    appends[0]!.release();
    await turn();
    now += 20;
    void log.record(record(2));
    await turn();
    assert.equal(appends.length, 2, '20 ms after it ended, not 1,000');
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
});
