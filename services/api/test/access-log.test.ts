/**
 * The access log's group commit (access-log.ts): a record is resolved only once the append holding it has returned,
 * a failed append fails every record of its batch, and appends are spaced by the window — records arriving within it
 * share one append, a record after a quiet spell is appended at once. The clock is the test's, so nothing here
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
  it('resolves a record only once its append returned; records within the window share the next append', async () => {
    const { store, appends } = heldStore();
    let now = 1_000;
    const log = new AccessLog(store, { windowMs: 4, now: () => now });
    const first = settled(log.record(record(1)));
    await turn();
    assert.equal(appends.length, 1, 'after a quiet spell: appended in the same turn');
    assert.equal(appends[0]!.stream, ACCESS_STREAM);
    await turn();
    assert.equal(first.done, false, 'not resolved before the append returns');
    appends[0]!.release();
    await turn();
    assert.equal(first.done, true);
    // within the window of that append (the clock has not moved): three records wait for one append together
    now += 1;
    const more = [2, 3, 4].map((n) => settled(log.record(record(n))));
    await turn();
    assert.equal(appends.length, 1, 'no append before the window ends');
    await new Promise((r) => setTimeout(r, 10)); // the window's timer (3 ms) has fired
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

  it('fails every record of a batch whose append fails, and appends the next ones anew', async () => {
    const { store, appends } = heldStore();
    let now = 0;
    const log = new AccessLog(store, { windowMs: 4, now: () => now });
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
    const log = new AccessLog(store, { windowMs: 0, now: () => 0 });
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
