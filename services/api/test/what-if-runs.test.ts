/**
 * What-if runs: a period's what-if as a job (POST /v1/what-if/runs, GET and DELETE /v1/what-if/runs/:id), compared
 * in worker threads while the main thread keeps answering. Given a simulated store, When a run is made, watched,
 * cancelled or refused, Then what the API answers.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../src/index.ts';
import { ACCESS_STREAM } from '../src/context.ts';
import { WhatIfRuns } from '../src/what-if-runs.ts';
import { bearer, fixture, tablesOfEachConcessionaire, type Fixture } from './fixture.ts';

type Run = {
  id: string;
  status: string;
  progress: { eventsRead: number; eventsTotal: number | null; fraction: number | null };
  queuedAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  report: Record<string, unknown> | null;
  error: string | null;
  scope: { concessionaire?: string };
};

describe('what-if runs', () => {
  let f: Fixture;
  let day: string;
  let tableA: string;
  let tableB: string;
  before(async () => {
    // progress said every 100 events (the default, 50,000, is more than this store holds)
    f = await fixture({ tables: 8, roundsPerTable: 12, whatIfRuns: { progressEvery: 100 } });
    ({ tableA, tableB, day } = await tablesOfEachConcessionaire(f));
  });
  after(() => f.close());

  const post = (body: unknown, token: string, app = f.app) =>
    app.inject({ method: 'POST', url: '/v1/what-if/runs', payload: body as object, headers: bearer(token) });
  const get = (url: string, token: string, app = f.app) => app.inject({ url, headers: bearer(token) });
  const del = (id: string, token: string, app = f.app) =>
    app.inject({ method: 'DELETE', url: `/v1/what-if/runs/${id}`, headers: bearer(token) });

  /** Polls the run until it is finished; every answer seen, in order. */
  async function watch(id: string, token: string, app = f.app): Promise<Run[]> {
    const seen: Run[] = [];
    for (;;) {
      const res = await get(`/v1/what-if/runs/${id}`, token, app);
      assert.equal(res.statusCode, 200, res.body);
      const run = res.json() as Run;
      seen.push(run);
      if (run.status !== 'queued' && run.status !== 'running') return seen;
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('Given a period, When a run is made and watched until done, Then its report is what GET /v1/what-if answers, its progress grew to the end', async () => {
    const res = await post({ readings: 'J11=ALT', from: day, to: day }, f.tokens.inspector);
    assert.equal(res.statusCode, 202, res.body);
    const made = res.json() as Run;
    assert.equal(res.headers.location, `/v1/what-if/runs/${made.id}`);
    assert.ok(['queued', 'running'].includes(made.status));
    assert.deepEqual((res.json() as { readings: unknown }).readings, [{ key: 'J11', label: 'J11=ALT' }]);
    assert.deepEqual(made.scope, { from: day, to: day });
    assert.equal(made.report, null);

    const seen = await watch(made.id, f.tokens.inspector);
    const done = seen.at(-1)!;
    assert.equal(done.status, 'done', done.error ?? '');
    assert.ok(done.progress.eventsTotal! > 0);
    assert.equal(done.progress.eventsRead, done.progress.eventsTotal);
    assert.equal(done.progress.fraction, 1);
    for (let i = 1; i < seen.length; i++)
      assert.ok(seen[i]!.progress.eventsRead >= seen[i - 1]!.progress.eventsRead, 'progress never goes back');
    assert.ok(done.queuedAt <= done.startedAt! && done.startedAt! <= done.finishedAt!);

    const inline = await get(`/v1/what-if?readings=J11=ALT&from=${day}&to=${day}`, f.tokens.inspector);
    assert.equal(inline.statusCode, 200);
    const { elapsedMs: a, ...fromRun } = done.report!;
    const { elapsedMs: b, ...fromGet } = inline.json() as Record<string, unknown>;
    assert.equal(typeof a, 'number');
    assert.equal(typeof b, 'number');
    assert.ok((fromRun as { roundsChanged: number }).roundsChanged > 0);
    assert.deepEqual(fromRun, fromGet);

    const pdf = await get(`/v1/what-if/runs/${made.id}?format=pdf`, f.tokens.inspector);
    assert.equal(pdf.statusCode, 200);
    assert.equal(pdf.headers['content-type'], 'application/pdf');
    assert.equal(pdf.rawPayload.subarray(0, 5).toString(), '%PDF-');

    // a finished run cannot be cancelled
    const late = await del(made.id, f.tokens.inspector);
    assert.equal(late.statusCode, 409);
    assert.match(late.json().message, /is done already/);

    const accesses: { action: string; objectId: string; outcome: string }[] = [];
    for await (const e of f.store.readStream(ACCESS_STREAM)) accesses.push(e.data as never);
    const ofRun = accesses.filter((x) => x.objectId === made.id).map((x) => `${x.action} ${x.outcome}`);
    assert.ok(ofRun.includes('what-if.run.create ok'));
    assert.ok(ofRun.includes('what-if.run.read ok'));
    assert.ok(ofRun.includes('what-if.run.export ok'));
    assert.ok(ofRun.includes('what-if.run.cancel conflict'));
  });

  it('When a running run is cancelled, Then it ends cancelled (its workers ended), has no report or PDF, and the next run goes on', async () => {
    const made = (await post({ readings: 'J11=ALT', from: day, to: day }, f.tokens.inspector)).json() as Run;
    assert.equal(made.status, 'running', 'started at once: nothing else runs');
    const res = await del(made.id, f.tokens.inspector);
    assert.equal(res.statusCode, 200, res.body);
    const cancelled = res.json() as Run;
    assert.equal(cancelled.status, 'cancelled');
    assert.equal(cancelled.report, null);
    assert.ok(cancelled.finishedAt !== null);
    assert.equal((await get(`/v1/what-if/runs/${made.id}`, f.tokens.inspector)).json().status, 'cancelled');
    const pdf = await get(`/v1/what-if/runs/${made.id}?format=pdf`, f.tokens.inspector);
    assert.equal(pdf.statusCode, 409);
    assert.match(pdf.json().message, /is cancelled: its PDF exists once it is done/);

    const next = (await post({ readings: 'J2=ALT', from: day, to: day }, f.tokens.inspector)).json() as Run;
    assert.equal(next.status, 'running', 'the cancelled run left its slot');
    assert.equal((await watch(next.id, f.tokens.inspector)).at(-1)!.status, 'done');
  });

  it('Given runs are bounded, When one more than may wait is made, Then 503 with Retry-After, and nothing is queued for it', async () => {
    const app = await buildApp({
      store: f.store,
      auth: { tokenKey: f.key },
      whatIfRuns: { concurrency: 1, maxQueued: 1 },
    });
    try {
      const body = { readings: 'J11=ALT', from: day, to: day };
      // made at once: which of the three reaches the queue last is not fixed (each is checked before it is
      // queued), so the answers are told apart by what they say
      const answers = await Promise.all([
        post(body, f.tokens.inspector, app),
        post(body, f.tokens.inspector, app),
        post(body, f.tokens.inspector, app),
      ]);
      const codes = answers.map((x) => x.statusCode);
      assert.deepEqual([...codes].sort(), [202, 202, 503], answers.map((x) => x.body).join('\n'));
      const c = answers.find((x) => x.statusCode === 503)!;
      const a = answers.find((x) => x.statusCode === 202 && x.json().status === 'running')!;
      const b = answers.find((x) => x.statusCode === 202 && x.json().status === 'queued')!;
      assert.ok(a && b, 'one running, one waiting');
      assert.equal(b.json().status, 'queued');
      assert.equal(b.json().queuePosition, 1);
      assert.equal(c.headers['retry-after'], '30');
      assert.match(c.json().message, /the what-if queue is full \(1 running, 1 waiting/);
      // the waiting one, asked for its PDF: not yet
      const early = await get(`/v1/what-if/runs/${b.json().id}?format=pdf`, f.tokens.inspector, app);
      assert.equal(early.statusCode, 409);
      assert.match(early.json().message, /is queued: its PDF exists once it is done \(ask again later\)/);
      // cancelling the queued one frees its place in the queue at once
      assert.equal((await del(b.json().id, f.tokens.inspector, app)).json().status, 'cancelled');
      assert.equal((await post(body, f.tokens.inspector, app)).statusCode, 202);
    } finally {
      await app.close(); // cancels what is left, its workers ended
    }
  });

  it("Given scopes, Then a run is seen only under the scope it was made in, and an officer cannot run on another's table", async () => {
    const mine = await post({ readings: 'J11=ALT', from: day, to: day }, f.tokens.officerA);
    assert.equal(mine.statusCode, 202);
    const run = mine.json() as Run;
    assert.equal(run.scope.concessionaire, f.concessionaireA);
    for (const other of [f.tokens.officerB, f.tokens.inspector]) {
      const res = await get(`/v1/what-if/runs/${run.id}`, other);
      assert.equal(res.statusCode, 404);
      assert.match(res.json().message, new RegExp(`no what-if run ${run.id}`));
      assert.equal((await del(run.id, other)).statusCode, 404);
      assert.equal((await get(`/v1/what-if/runs/${run.id}?format=pdf`, other)).statusCode, 404);
    }
    const done = (await watch(run.id, f.tokens.officerA)).at(-1)!;
    assert.equal(done.status, 'done');
    const changed = (done.report as { changed: { concessionaire: string }[] }).changed;
    assert.ok(changed.every((c) => c.concessionaire === f.concessionaireA));

    const theirs = await post({ readings: 'J11=ALT', from: day, to: day, table: tableB }, f.tokens.officerA);
    assert.equal(theirs.statusCode, 404);
    assert.match(theirs.json().message, new RegExp(`no table ${tableB}`));
    const own = await post({ readings: 'J11=ALT', from: day, to: day, table: tableA }, f.tokens.officerA);
    assert.equal(own.statusCode, 202);
    await watch(own.json().id, f.tokens.officerA);
    const noCasino = await post(
      { readings: 'J11=ALT', from: day, to: day, casino: 'No Such' },
      f.tokens.inspector,
    );
    assert.equal(noCasino.statusCode, 404);
    assert.match(noCasino.json().message, /no casino No Such/);
    assert.equal((await get('/v1/what-if/runs/not-a-run', f.tokens.inspector)).statusCode, 404);
  });

  it('refuses bad input before anything is queued, naming the field', async () => {
    const cases: [unknown, RegExp][] = [
      [{ readings: 'J99=ALT', from: day, to: day }, /readings item 1 \("J99=ALT"\)/],
      [{ readings: 'J14=ALT', from: day, to: day }, /not selectable/],
      [{ readings: 'J2=ALT', from: '2025-02-30', to: '2025-03-01' }, /from: "2025-02-30" is not a date/],
      [{ readings: 'J2=ALT', from: '2025-01-01', to: '2025-03-01' }, /at most 31/],
      [{ readings: 'J2=ALT', from: day }, /to/],
      [{ readings: 'J2=ALT', from: day, to: day, format: 'pdf' }, /additional properties/],
    ];
    for (const [body, message] of cases) {
      const res = await post(body, f.tokens.inspector);
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      assert.match(res.json().message, message);
    }
    assert.equal(
      (
        await f.app.inject({
          method: 'POST',
          url: '/v1/what-if/runs',
          payload: { readings: 'J2=ALT', from: day, to: day },
        })
      ).statusCode,
      401,
    );
  });

  it('While a run goes on, the main thread answers /health/live (before the run ends)', async () => {
    const made = (await post({ readings: 'J11=ALT,J2=ALT', from: day, to: day }, f.tokens.inspector)).json();
    const order: string[] = [];
    const ended = watch(made.id, f.tokens.inspector).then((seen) => order.push(`run ${seen.at(-1)!.status}`));
    const live = await f.app.inject({ url: '/health/live' });
    order.push(`live ${live.statusCode}`);
    await ended;
    assert.deepEqual(order, ['live 200', 'run done']);
  });

  it('GET /v1/what-if is compared off the main thread too: /health/live answers while it is under way', async () => {
    const order: string[] = [];
    const slow = get(`/v1/what-if?readings=J11=ALT&from=${day}&to=${day}`, f.tokens.inspector).then((r) =>
      order.push(`what-if ${r.statusCode}`),
    );
    const live = await f.app.inject({ url: '/health/live' });
    order.push(`live ${live.statusCode}`);
    await slow;
    assert.deepEqual(order, ['live 200', 'what-if 200']);
  });

  it('keeps a bounded number of finished runs (the oldest dropped), and a run that cannot read the store fails saying why', async () => {
    const scope = { from: day, to: day };
    const runs = new WhatIfRuns(f.path, f.store, { keep: 1 });
    const first = runs.submit({ alternatives: ['J11'], scope, owner: null });
    const second = runs.submit({ alternatives: ['J11'], scope, owner: null });
    assert.equal(runs.queuePosition(second), 1);
    await second.finished;
    assert.equal(first.status, 'done');
    assert.equal(second.status, 'done');
    assert.equal(runs.get(first.id, null), undefined, 'the oldest finished run is dropped');
    assert.equal(runs.get(second.id, null), second);
    assert.equal(runs.get(second.id, f.concessionaireA), undefined, 'not under another scope');
    await runs.close();

    const logged: string[] = [];
    const missing = new WhatIfRuns(`${f.path}.no-such-file`, f.store, { log: (m) => logged.push(m) });
    const failed = missing.submit({ alternatives: ['J11'], scope, owner: null });
    await failed.finished;
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error, `internal error (what-if run ${failed.id}; see the API's log)`);
    assert.ok(
      logged.some((m) => m.includes(failed.id) && m.includes('no-such-file') && /unable to open/.test(m)),
      logged.join('\n'),
    );
    assert.equal(failed.report, null);
    await missing.close();
  });
});
