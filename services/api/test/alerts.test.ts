/** The alert workflow: Given the alert's events, When a command, Then an event or a refusal; and over HTTP. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Principal } from '../src/auth.ts';
import {
  AlertCommandRefused,
  alertStream,
  decide,
  foldAlert,
  type AlertCommand,
  type AlertEvent,
} from '../src/alerts.ts';
import { ACCESS_STREAM } from '../src/context.ts';
import { buildApp } from '../src/app.ts';
import { bearer, fixture, type Fixture } from './fixture.ts';

const officer: Principal = {
  subject: 'officer-a',
  role: 'compliance_officer',
  concessionaire: 'SJM Resorts',
};
const ctx = { alertId: 'F1', actor: officer, time: 1_764_000_000_000, requestId: 'r1' };

/** Given events, when a command: the event decided, or the refusal's reason. */
const given = (...commands: AlertCommand[]) => {
  const events: AlertEvent[] = [];
  for (const c of commands) events.push(decide(foldAlert(events), c, ctx));
  return {
    when: (c: AlertCommand, actor: Principal = officer): AlertEvent | 'forbidden' | 'conflict' => {
      try {
        return decide(foldAlert(events), c, { ...ctx, actor });
      } catch (e) {
        if (e instanceof AlertCommandRefused) return e.reason;
        throw e;
      }
    },
  };
};
const ack: AlertCommand = { kind: 'acknowledge', note: null };
const resolve: AlertCommand = {
  kind: 'resolve',
  disposition: 'false_positive',
  comment: 'the payout was right',
};
const reopen: AlertCommand = { kind: 'reopen', reason: 'DICJ asks again' };
const typeOf = (x: AlertEvent | string) => (typeof x === 'string' ? x : x.type);

describe('alert decider', () => {
  it('acknowledges an open alert once', () => {
    assert.equal(typeOf(given().when(ack)), 'AlertAcknowledged');
    assert.equal(given(ack).when(ack), 'conflict');
    assert.equal(given(resolve).when(ack), 'conflict');
  });
  it('resolves once with a disposition, and reopens only a resolved alert', () => {
    const resolved = given(ack).when(resolve);
    assert.equal(typeOf(resolved), 'AlertResolved');
    assert.equal((resolved as { data: { disposition: string } }).data.disposition, 'false_positive');
    assert.equal(given(resolve).when(resolve), 'conflict');
    assert.equal(given().when(reopen), 'conflict');
    assert.equal(typeOf(given(resolve).when(reopen)), 'AlertReopened');
    assert.equal(typeOf(given(resolve, reopen).when(resolve)), 'AlertResolved');
  });
  it('assigns to someone new, not to who has it, and not once resolved', () => {
    assert.equal(typeOf(given().when({ kind: 'assign', assignee: 'x' })), 'AlertAssigned');
    assert.equal(
      given({ kind: 'assign', assignee: 'x' }).when({ kind: 'assign', assignee: 'x' }),
      'conflict',
    );
    assert.equal(given().when({ kind: 'assign', assignee: null }), 'conflict');
    assert.equal(given(resolve).when({ kind: 'assign', assignee: 'y' }), 'conflict');
  });
  it('takes comments in any state; refuses what a role may not do', () => {
    assert.equal(typeOf(given(resolve).when({ kind: 'comment', comment: 'noted' })), 'AlertCommented');
    const inspector: Principal = { subject: 'i', role: 'inspector', concessionaire: null };
    const auditor: Principal = { subject: 'a', role: 'auditor', concessionaire: null };
    assert.equal(typeOf(given().when({ kind: 'comment', comment: 'DICJ' }, inspector)), 'AlertCommented');
    assert.equal(given().when(ack, inspector), 'forbidden');
    assert.equal(given().when({ kind: 'comment', comment: 'x' }, auditor), 'forbidden');
  });
  it('folds the state from the events: status, assignee, disposition, reopenings, who and when', () => {
    const s = foldAlert([
      decide(foldAlert([]), { kind: 'assign', assignee: 'officer-b' }, ctx),
      decide(foldAlert([]), resolve, { ...ctx, time: ctx.time + 5 }),
    ]);
    assert.deepEqual(s, {
      status: 'resolved',
      assignee: 'officer-b',
      disposition: 'false_positive',
      reopened: 0,
      lastChangedAt: ctx.time + 5,
      lastChangedBy: 'officer-a',
    });
  });
});

describe('alert workflow over HTTP', () => {
  let f: Fixture;
  let alertId: string;
  before(async () => {
    f = await fixture({ tables: 6, roundsPerTable: 12 });
    const r = await f.app.inject({
      url: `/v1/alerts?concessionaire=${encodeURIComponent(f.concessionaireA)}&limit=5`,
      headers: bearer(f.tokens.officerA),
    });
    alertId = r.json().items[0].alertId;
  });
  after(() => f.close());
  const post = (kind: string, payload: object, token = f.tokens.officerA) =>
    f.app.inject({ method: 'POST', url: `/v1/alerts/${alertId}/${kind}`, headers: bearer(token), payload });

  it('writes each action as an event with who and when, and never rewrites history', async () => {
    assert.equal((await post('acknowledge', { note: 'looking' })).statusCode, 200);
    assert.equal((await post('assign', { assignee: 'officer-c' })).statusCode, 200);
    const resolved = await post('resolve', { disposition: 'referred', comment: 'to DICJ enforcement' });
    assert.equal(resolved.statusCode, 200, resolved.body);
    assert.equal(resolved.json().state.status, 'resolved');
    assert.equal(resolved.json().state.disposition, 'referred');
    const again = await post('resolve', { disposition: 'confirmed', comment: 'twice' });
    assert.equal(again.statusCode, 409);
    assert.match(again.json().message, /already resolved \(referred\)/);
    assert.equal((await post('reopen', { reason: 'new clip' })).statusCode, 200);
    const history = (
      await f.app.inject({ url: `/v1/alerts/${alertId}`, headers: bearer(f.tokens.inspector) })
    ).json().history as { type: string; data: { actorSubject: string; time: number } }[];
    assert.deepEqual(
      history.map((h) => h.type),
      ['AlertAcknowledged', 'AlertAssigned', 'AlertResolved', 'AlertReopened'],
    );
    for (const h of history) {
      assert.equal(h.data.actorSubject, 'officer-a');
      assert.ok(Number.isSafeInteger(h.data.time));
    }
    const stored: string[] = [];
    for await (const e of f.store.readStream(alertStream(alertId))) stored.push(e.type);
    assert.deepEqual(stored, ['AlertAcknowledged', 'AlertAssigned', 'AlertResolved', 'AlertReopened']);
  });

  it('refuses a bad disposition, an empty comment and unknown fields, naming them (400)', async () => {
    for (const [payload, name] of [
      [{ disposition: 'maybe', comment: 'x' }, 'disposition'],
      [{ disposition: 'confirmed', comment: '' }, 'comment'],
      [{ disposition: 'confirmed', comment: 'x', extra: 1 }, 'additional'],
    ] as const) {
      const r = await post('resolve', payload);
      assert.equal(r.statusCode, 400, JSON.stringify(payload));
      assert.match(r.json().message, new RegExp(name));
    }
  });

  it('gives one of two officers resolving at once a success and the other 409', async () => {
    const before = (
      await f.app.inject({ url: `/v1/alerts/${alertId}`, headers: bearer(f.tokens.officerA) })
    ).json();
    assert.equal(before.state.status, 'open');
    const results = await Promise.all([
      post('resolve', { disposition: 'confirmed', comment: 'first officer' }),
      post('resolve', { disposition: 'false_positive', comment: 'second officer' }),
    ]);
    assert.deepEqual(
      results.map((r) => r.statusCode).sort(),
      [200, 409],
      results.map((r) => r.body).join('\n'),
    );
    const resolutions: string[] = [];
    for await (const e of f.store.readStream(alertStream(alertId)))
      if (e.type === 'AlertResolved') resolutions.push((e.data as { comment: string }).comment);
    assert.equal(resolutions.length - 1, 1, 'exactly one more resolution was stored');
  });

  it('refuses the second of two appends decided on the same revision (optimistic concurrency, 409)', async () => {
    // both requests decide on the same state: the store lets neither append until both have tried
    let waiting: (() => void)[] = [];
    const store = new Proxy(f.store, {
      get(target, name, receiver) {
        if (name !== 'append') {
          const value = Reflect.get(target, name, receiver) as unknown;
          return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
        }
        return async (stream: string, ...rest: unknown[]) => {
          if (stream.startsWith('alert-')) {
            await new Promise<void>((resolve) => {
              waiting.push(resolve);
              if (waiting.length === 2) for (const go of waiting) go();
            });
          }
          return (target.append as (...a: unknown[]) => Promise<unknown>).call(target, stream, ...rest);
        };
      },
    });
    const app = await buildApp({ store, auth: { tokenKey: f.key } });
    try {
      waiting = [];
      const results = await Promise.all(
        ['one', 'two'].map((who) =>
          app.inject({
            method: 'POST',
            url: `/v1/alerts/${alertId}/comment`,
            headers: bearer(f.tokens.officerA),
            payload: { comment: `officer ${who}` },
          }),
        ),
      );
      assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 409]);
      assert.match(results.find((r) => r.statusCode === 409)!.json().message, /changed by another request/);
    } finally {
      await app.close();
    }
  });

  it('records every workflow action, round read and export as an access event', async () => {
    const roundId = (
      await f.app.inject({ url: `/v1/findings/${alertId}`, headers: bearer(f.tokens.inspector) })
    ).json().roundId as string;
    await f.app.inject({
      url: `/v1/rounds/${encodeURIComponent(roundId)}/replay`,
      headers: bearer(f.tokens.auditor),
    });
    await f.app.inject({ url: `/v1/alerts/${alertId}/evidence`, headers: bearer(f.tokens.auditor) });
    await f.app.inject({ url: `/v1/rounds/NO-SUCH-ROUND/replay`, headers: bearer(f.tokens.auditor) });
    const accesses: { action: string; actorSubject: string; objectId: string; outcome: string }[] = [];
    for await (const e of f.store.readStream(ACCESS_STREAM)) accesses.push(e.data as never);
    const has = (action: string, who: string, outcome: string) =>
      assert.ok(
        accesses.some((a) => a.action === action && a.actorSubject === who && a.outcome === outcome),
        `${action} by ${who}: ${outcome}`,
      );
    has('alert.acknowledge', 'officer-a', 'ok');
    has('alert.resolve', 'officer-a', 'conflict');
    has('round.replay', 'auditor-1', 'ok');
    has('round.replay', 'auditor-1', 'not-found');
    has('alert.export.json', 'auditor-1', 'ok');
  });
});

describe('the alert list filtered on workflow state', () => {
  let f: Fixture;
  let ids: string[];
  before(async () => {
    f = await fixture({ tables: 12, roundsPerTable: 15 });
    const r = await f.app.inject({ url: '/v1/alerts?limit=200', headers: bearer(f.tokens.officerA) });
    ids = (r.json().items as { alertId: string }[]).map((a) => a.alertId);
    assert.ok(ids.length >= 4, `officer A needs 4 alerts, has ${ids.length}`);
    const act = async (id: string, kind: string, payload: object) =>
      assert.equal(
        (
          await f.app.inject({
            method: 'POST',
            url: `/v1/alerts/${id}/${kind}`,
            headers: bearer(f.tokens.officerA),
            payload,
          })
        ).statusCode,
        200,
      );
    await act(ids[0]!, 'acknowledge', {});
    await act(ids[1]!, 'resolve', { disposition: 'false_positive', comment: 'paid right' });
    await act(ids[2]!, 'assign', { assignee: 'officer-c' });
    await act(ids[3]!, 'resolve', { disposition: 'confirmed', comment: 'short paid' });
    await act(ids[3]!, 'reopen', { reason: 'new footage' });
  });
  after(() => f.close());
  const list = async (q: string, token = f.tokens.officerA) => {
    const r = await f.app.inject({ url: `/v1/alerts?${q}`, headers: bearer(token) });
    assert.equal(r.statusCode, 200, r.body);
    return r.json() as {
      items: { alertId: string; state: { status: string } }[];
      total: number;
      nextCursor: string | null;
    };
  };

  it('keeps only the alerts in a status, with a disposition, or assigned to someone', async () => {
    assert.deepEqual(
      (await list('status=acknowledged')).items.map((a) => a.alertId),
      [ids[0]],
    );
    const resolved = await list('status=resolved');
    assert.deepEqual(
      resolved.items.map((a) => a.alertId),
      [ids[1]],
    );
    assert.equal(resolved.total, 1);
    assert.deepEqual(
      (await list('disposition=false_positive')).items.map((a) => a.alertId),
      [ids[1]],
    );
    assert.equal((await list('disposition=confirmed')).total, 0, 'reopened: no disposition any more');
    assert.deepEqual(
      (await list('assignee=officer-c')).items.map((a) => a.alertId),
      [ids[2]],
    );
    const open = await list('status=open&limit=200');
    assert.equal(open.total, ids.length - 2, 'every alert but the acknowledged and the resolved one');
    assert.ok(open.items.every((a) => a.state.status === 'open'));
    assert.ok(
      open.items.some((a) => a.alertId === ids[3]),
      'the reopened alert is open again',
    );
  });

  it('pages a filtered list with stable cursors', async () => {
    const all = await list('status=open&limit=200');
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const p = await list(`status=open&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(p.total, all.total);
      seen.push(...p.items.map((a) => a.alertId));
      cursor = p.nextCursor;
    } while (cursor !== null);
    assert.deepEqual(
      seen,
      all.items.map((a) => a.alertId),
    );
  });

  it("respects tenancy: another concessionaire's officer sees none of these states", async () => {
    const other = await list('status=resolved', f.tokens.officerB);
    assert.ok(other.items.every((a) => a.alertId !== ids[1]));
    assert.equal((await list('assignee=officer-c', f.tokens.officerB)).total, 0);
    assert.equal((await list('assignee=officer-c', f.tokens.inspector)).total, 1);
  });

  it('refuses an unknown status or disposition, naming the parameter (400)', async () => {
    for (const [q, name] of [
      ['status=closed', 'querystring/status'],
      ['disposition=maybe', 'querystring/disposition'],
      ['assignee=', 'querystring/assignee'],
    ] as const) {
      const r = await f.app.inject({ url: `/v1/alerts?${q}`, headers: bearer(f.tokens.officerA) });
      assert.equal(r.statusCode, 400, q);
      assert.match(r.json().message, new RegExp(name), r.body);
    }
  });
});
