/**
 * What-if runs kept across a restart (what-if-runs-file.ts), and GET /v1/what-if cancelled by a client that goes
 * away. Given a simulated store and an API whose runs file is kept beside its index, When the API is closed and
 * built again on the same directory, Then what the runs say; When the file is not ours, Then it is left as it was.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import type { EventStore, ReadAllOptions, RecordedEvent } from '@table-audit/eventstore';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { buildApp, whatIfRunsPathFor, type AppOptions } from '../src/index.ts';
import { ACCESS_STREAM } from '../src/context.ts';
import { WhatIfRuns, type WhatIfRun } from '../src/what-if-runs.ts';
import { WhatIfRunsFile } from '../src/what-if-runs-file.ts';
import { bearer, fixture, tablesOfEachConcessionaire, type Fixture } from './fixture.ts';

type Run = {
  id: string;
  status: string;
  error: string | null;
  interrupted: { at: number; reason: string } | null;
  finishedAt: number | null;
  report: Record<string, unknown> | null;
};

/**
 * The store, seen through a gate: once armed, a read of the whole log (a what-if's, which reads from the start;
 * the index's reads go on from its checkpoint) waits until the test releases it. The wrapper is not a
 * SqliteEventStore, so the API compares its runs in its main thread, from this store.
 */
function gated(store: SqliteEventStore) {
  let armed = false;
  let entered!: () => void;
  let release!: () => void;
  const gate = {
    arm: () => (armed = true),
    entered: new Promise<void>((r) => (entered = r)),
    released: new Promise<void>((r) => (release = r)),
    release: () => release(),
  };
  const readAll = (options?: ReadAllOptions): AsyncIterable<RecordedEvent> => {
    if (!armed || options?.fromPosition !== undefined) return store.readAll(options);
    return (async function* () {
      entered();
      await gate.released;
      yield* store.readAll(options);
    })();
  };
  const wrapped = new Proxy(store, {
    getPrototypeOf: () => Object.prototype,
    get(target, key) {
      if (key === 'readAll') return readAll;
      const v = Reflect.get(target, key, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  }) as unknown as EventStore;
  return { store: wrapped, gate };
}

/** What an app logged (pino JSON lines), as messages. */
function logged(): { logger: AppOptions['logger']; messages: string[] } {
  const messages: string[] = [];
  return {
    messages,
    logger: {
      level: 'info',
      stream: { write: (line: string) => messages.push((JSON.parse(line) as { msg: string }).msg) },
    } as AppOptions['logger'],
  };
}

describe('what-if runs kept across a restart', () => {
  let f: Fixture;
  let day: string;
  let dir: string;
  before(async () => {
    f = await fixture({ tables: 6, roundsPerTable: 10 });
    ({ day } = await tablesOfEachConcessionaire(f));
    dir = mkdtempSync(join(tmpdir(), 'ta-runs-'));
  });
  after(async () => {
    await f.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** An API over the fixture's store whose index (and so its runs file) is kept in `sub` of the test's directory. */
  const app = (sub: string, o: Partial<AppOptions> = {}) =>
    buildApp({ store: f.store, auth: { tokenKey: f.key }, indexPath: join(dir, sub, 'index.sqlite'), ...o });
  const post = (
    a: FastifyInstance,
    token: string,
    body: object = { readings: 'J11=ALT', from: day, to: day },
  ) => a.inject({ method: 'POST', url: '/v1/what-if/runs', payload: body, headers: bearer(token) });
  const get = (a: FastifyInstance, url: string, token: string) => a.inject({ url, headers: bearer(token) });

  async function watch(a: FastifyInstance, id: string, token: string): Promise<Run> {
    for (;;) {
      const res = await get(a, `/v1/what-if/runs/${id}`, token);
      assert.equal(res.statusCode, 200, res.body);
      const run = res.json() as Run;
      if (run.status !== 'queued' && run.status !== 'running') return run;
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async function accesses(): Promise<{ action: string; objectId: string; outcome: string }[]> {
    const all: { action: string; objectId: string; outcome: string }[] = [];
    for await (const e of f.store.readStream(ACCESS_STREAM)) all.push(e.data as never);
    return all;
  }

  it('the runs file is named after the index, beside it; an index in memory has none', () => {
    assert.equal(
      whatIfRunsPathFor('data/events.sqlite.index.sqlite'),
      'data/events.sqlite.index.what-if-runs.sqlite',
    );
    assert.equal(whatIfRunsPathFor('/x/api-index'), '/x/api-index.what-if-runs.sqlite');
    assert.equal(whatIfRunsPathFor(':memory:'), null);
    assert.equal(whatIfRunsPathFor(undefined), null);
  });

  it('Given a finished run, When the API is closed and built again on the same directory, Then it answers the same run, report and PDF, under its scope only (404 to others, recorded)', async () => {
    const first = await app('finished');
    const made = await post(first, f.tokens.officerA);
    assert.equal(made.statusCode, 202, made.body);
    const id = (made.json() as Run).id;
    const done = await watch(first, id, f.tokens.officerA);
    assert.equal(done.status, 'done', done.error ?? '');
    assert.ok(done.report);
    await first.close();

    const again = await app('finished');
    try {
      const res = await get(again, `/v1/what-if/runs/${id}`, f.tokens.officerA);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), done, 'the same run, its report included, as before the restart');
      const pdf = await get(again, `/v1/what-if/runs/${id}?format=pdf`, f.tokens.officerA);
      assert.equal(pdf.statusCode, 200);
      assert.equal(pdf.rawPayload.subarray(0, 5).toString(), '%PDF-');
      for (const other of [f.tokens.officerB, f.tokens.inspector]) {
        const no = await get(again, `/v1/what-if/runs/${id}`, other);
        assert.equal(no.statusCode, 404);
        assert.match(no.json().message, new RegExp(`no what-if run ${id}`));
        assert.equal(
          (await again.inject({ method: 'DELETE', url: `/v1/what-if/runs/${id}`, headers: bearer(other) }))
            .statusCode,
          404,
        );
      }
      const ofRun = (await accesses())
        .filter((x) => x.objectId === id)
        .map((x) => `${x.action} ${x.outcome}`);
      assert.ok(ofRun.includes('what-if.run.read ok'));
      assert.ok(ofRun.includes('what-if.run.export ok'));
      assert.ok(ofRun.includes('what-if.run.read not-found'));
      assert.ok(ofRun.includes('what-if.run.cancel not-found'));
    } finally {
      await again.close();
    }
  });

  it('Given a run running and one queued when the API is closed, Then after a restart both are interrupted, saying when and why, with no report; they cannot be cancelled', async () => {
    const { store, gate } = gated(f.store);
    const runsPath = join(dir, 'closed.what-if-runs.sqlite');
    const first = await buildApp({
      store,
      auth: { tokenKey: f.key },
      whatIfRunsPath: runsPath,
      whatIfRuns: { concurrency: 1 },
    });
    await first.ready();
    gate.arm();
    const running = (await post(first, f.tokens.inspector)).json() as Run;
    const queued = (await post(first, f.tokens.inspector)).json() as Run;
    assert.equal(running.status, 'running');
    assert.equal(queued.status, 'queued');
    await gate.entered; // the running one is reading the store
    // the runner is stopped (as the app's close does) before the read goes on: the run cannot finish first
    const closing = first.whatIfRuns.close();
    gate.release();
    await closing;
    await first.close();

    const again = await buildApp({ store: f.store, auth: { tokenKey: f.key }, whatIfRunsPath: runsPath });
    try {
      for (const [made, was] of [
        [running, 'running'],
        [queued, 'queued'],
      ] as const) {
        const res = await get(again, `/v1/what-if/runs/${made.id}`, f.tokens.inspector);
        assert.equal(res.statusCode, 200, res.body);
        const run = res.json() as Run;
        assert.equal(run.status, 'interrupted');
        assert.equal(run.report, null);
        assert.ok(run.interrupted && run.finishedAt === run.interrupted.at);
        assert.match(
          run.interrupted.reason,
          new RegExp(`stopped while this run was ${was}.*submit it again`),
        );
        const pdf = await get(again, `/v1/what-if/runs/${made.id}?format=pdf`, f.tokens.inspector);
        assert.equal(pdf.statusCode, 409);
        assert.match(pdf.json().message, /is interrupted/);
        const del = await again.inject({
          method: 'DELETE',
          url: `/v1/what-if/runs/${made.id}`,
          headers: bearer(f.tokens.inspector),
        });
        assert.equal(del.statusCode, 409);
        assert.match(del.json().message, /is interrupted already/);
      }
    } finally {
      await again.close();
    }
  });

  it('Given a run left running in the file (the API killed, not closed), Then the next start marks it interrupted, found at start', async () => {
    const first = await app('killed');
    const id = ((await post(first, f.tokens.inspector)).json() as Run).id;
    const done = await watch(first, id, f.tokens.inspector);
    assert.equal(done.status, 'done');
    await first.close();
    // what a killed API leaves: the run's row still says running (written when it started), no report
    const db = new Database(join(dir, 'killed', 'index.what-if-runs.sqlite'));
    db.prepare("UPDATE runs SET status = 'running', finished_at = NULL, report = NULL WHERE id = ?").run(id);
    db.close();

    const log = logged();
    const again = await app('killed', { logger: log.logger });
    try {
      const run = (await get(again, `/v1/what-if/runs/${id}`, f.tokens.inspector)).json() as Run;
      assert.equal(run.status, 'interrupted');
      assert.match(run.interrupted!.reason, /stopped while this run was running \(it did not close cleanly/);
      assert.ok(
        log.messages.some((m) => /1 kept run\(s\) read back, 1 of them interrupted/.test(m)),
        log.messages.join('\n'),
      );
    } finally {
      await again.close();
    }
  });

  it('keeps the 32 most recent finished runs: the 33rd removes the oldest from the file; a report above the bound is not kept, and the run says so', async () => {
    const path = join(dir, 'bound.what-if-runs.sqlite');
    const { store } = gated(f.store); // compared in this thread: 33 short runs
    const file = await WhatIfRunsFile.open(path, f.store);
    const runs = new WhatIfRuns(null, store, { file, maxQueued: 40 });
    const scope = { from: day, to: day };
    const made: WhatIfRun[] = [];
    for (let i = 0; i < 33; i++) made.push(runs.submit({ alternatives: ['J11'], scope, owner: null }));
    await Promise.all(made.map((r) => r.finished));
    assert.ok(made.every((r) => r.status === 'done'));
    const ids = () => {
      const db = new Database(path, { readonly: true });
      try {
        return db
          .prepare<[], { id: string }>('SELECT id FROM runs ORDER BY seq')
          .all()
          .map((r) => r.id);
      } finally {
        db.close();
      }
    };
    assert.deepEqual(
      ids(),
      made.slice(1).map((r) => r.id),
      'the oldest removed, the other 32 kept in order',
    );
    assert.equal(runs.get(made[0]!.id, null), undefined);
    await runs.close();

    // read back with a bound of 1,000 bytes: a kept report above it is not read, and the run says so; a new
    // report above it is not kept, and the run says so; one more finished run: the oldest of the file goes
    const small = new WhatIfRuns(null, store, {
      file: await WhatIfRunsFile.open(path, f.store),
      maxReportBytes: 1000,
    });
    const back = small.get(made[1]!.id, null)!;
    assert.equal(back.status, 'failed');
    assert.equal(back.report, null);
    assert.match(back.error!, /longer than the 1000 bytes the API reads back/);
    const big = small.submit({ alternatives: ['J11'], scope, owner: null });
    await big.finished;
    assert.equal(big.status, 'failed');
    assert.equal(big.report, null);
    assert.match(
      big.error!,
      /its report is \d+ bytes of JSON, more than the 1000 a kept run keeps: not kept/,
    );
    assert.deepEqual(ids(), [...made.slice(2).map((r) => r.id), big.id]);
    await small.close();
    // read back with the default bound: the reports kept are as they were (the smaller bound changed nothing in
    // the file), and the run whose report was not kept still says so
    const read = new WhatIfRuns(null, store, { file: await WhatIfRunsFile.open(path, f.store) });
    assert.equal(read.get(made[2]!.id, null)?.status, 'done');
    assert.deepEqual(read.get(made[2]!.id, null)?.report, made[2]!.report);
    assert.equal(read.get(big.id, null)?.error, big.error);
    await read.close();
  });

  it('a write to the runs file that fails does not stop the runner: the run goes on in memory, and the log says what was not written', async () => {
    const messages: string[] = [];
    const file = await WhatIfRunsFile.open(join(dir, 'failing.what-if-runs.sqlite'), f.store);
    const runs = new WhatIfRuns(null, gated(f.store).store, { file, log: (m) => messages.push(m) });
    file.close(); // every write now throws
    const run = runs.submit({ alternatives: ['J11'], scope: { from: day, to: day }, owner: null });
    await run.finished;
    assert.equal(run.status, 'done');
    assert.equal(runs.get(run.id, null), run);
    const said = `could not write what-if run ${run.id} (`;
    assert.ok(
      messages.some((m) => m.includes(said) && m.endsWith('it is kept in memory only until the API stops')),
      messages.join('\n'),
    );
    await runs.close();
  });

  it('a row of the runs file that cannot be read back is kept as a failed run saying why, not dropped', async () => {
    const path = join(dir, 'unreadable.what-if-runs.sqlite');
    const { store } = gated(f.store);
    const first = new WhatIfRuns(null, store, { file: await WhatIfRunsFile.open(path, f.store) });
    const run = first.submit({ alternatives: ['J11'], scope: { from: day, to: day }, owner: null });
    await run.finished;
    assert.equal(run.status, 'done');
    await first.close();
    const db = new Database(path);
    db.prepare("UPDATE runs SET scope = '{\"from\": 1', status = 'finished' WHERE id = ?").run(run.id);
    db.close();
    const messages: string[] = [];
    const again = new WhatIfRuns(null, store, {
      file: await WhatIfRunsFile.open(path, f.store),
      log: (m) => messages.push(m),
    });
    const back = again.get(run.id, null)!;
    assert.equal(back.status, 'failed');
    assert.equal(back.report, null);
    assert.match(
      back.error!,
      /^kept in a form this API cannot read back \(scope: .+; status: "finished" is not one this API knows\): submit the run again$/,
    );
    assert.ok(!back.error!.includes(path), 'the client is not told the server’s files');
    assert.ok(messages.some((m) => m.includes(path) && m.includes(`run ${run.id} cannot be read back`)));
    await again.close();
  });

  it('the OpenAPI document says a run may be interrupted, and when and why', async () => {
    const a = await buildApp({ store: f.store, auth: { tokenKey: f.key } });
    try {
      const doc = (await a.inject({ url: '/openapi.json' })).json() as {
        paths: Record<string, { get?: { responses: Record<string, unknown> } }>;
      };
      const ok = JSON.stringify(doc.paths['/v1/what-if/runs/{id}']!.get!.responses['200']);
      assert.ok(ok.includes('"interrupted"'), 'the status may be interrupted');
      assert.ok(ok.includes('status interrupted: when and why; otherwise null'), ok.slice(0, 2000));
    } finally {
      await a.close();
    }
  });

  it('refuses a runs file of another store, or not ours, leaving it byte for byte as it was; the runs are kept in memory and the log says why', async () => {
    // a runs file of this store, with a run in it
    const path = join(dir, 'theirs.what-if-runs.sqlite');
    const first = await buildApp({ store: f.store, auth: { tokenKey: f.key }, whatIfRunsPath: path });
    const id = ((await post(first, f.tokens.inspector)).json() as Run).id;
    await watch(first, id, f.tokens.inspector);
    await first.close();

    // another store: its first event is not this store's
    const otherDir = mkdtempSync(join(tmpdir(), 'ta-runs-other-'));
    const other = new SqliteEventStore(join(otherDir, 'events.sqlite'));
    try {
      await other.append('probe-1', [{ eventId: 'probe-event-1', type: 'Probe', data: { n: 1 } }]);
      const text = join(dir, 'notes.txt');
      writeFileSync(text, 'not a database\n');
      for (const [file, why] of [
        [
          path,
          /holds the what-if runs of another store \(its first event was .+; this store's is probe-event-1/,
        ],
        [text, /exists and is not a table-audit what-if runs file/],
        // another form: the API's index of the store, a SQLite file of its own
        [join(dir, 'finished', 'index.sqlite'), /has no table_audit_what_if_runs table/],
      ] as const) {
        const before = readFileSync(file);
        const log = logged();
        const a = await buildApp({
          store: other,
          auth: { tokenKey: f.key },
          whatIfRunsPath: file,
          logger: log.logger,
        });
        try {
          const refused = log.messages.find((m) => m.startsWith('what-if runs file refused'));
          assert.ok(refused, log.messages.join('\n'));
          assert.ok(refused.includes(file), 'names the file');
          assert.match(refused, why);
          assert.match(refused, /leaves it as it is and keeps its what-if runs in memory only/);
          assert.equal((await get(a, `/v1/what-if/runs/${id}`, f.tokens.inspector)).statusCode, 404);
        } finally {
          await a.close();
        }
        assert.ok(readFileSync(file).equals(before), `${file} left byte for byte as it was`);
      }
    } finally {
      await other.close();
      rmSync(otherDir, { recursive: true, force: true });
    }
    // and its own store still reads it
    const mine = await buildApp({ store: f.store, auth: { tokenKey: f.key }, whatIfRunsPath: path });
    assert.equal((await get(mine, `/v1/what-if/runs/${id}`, f.tokens.inspector)).json().status, 'done');
    await mine.close();
  });
});

describe('GET /v1/what-if: a client that goes away', () => {
  let f: Fixture;
  let day: string;
  before(async () => {
    f = await fixture({ tables: 4, roundsPerTable: 8 });
    ({ day } = await tablesOfEachConcessionaire(f));
  });
  after(() => f.close());

  it(
    'Given a real HTTP server, When the client aborts its GET /v1/what-if before the answer, Then its run ends cancelled and the access record says so',
    { timeout: 15_000 },
    async () => {
      const { store, gate } = gated(f.store);
      const app = await buildApp({ store, auth: { tokenKey: f.key } });
      try {
        await app.listen({ port: 0, host: '127.0.0.1' });
        gate.arm();
        const runs = app.whatIfRuns;
        // the runner's cancel, watched: which run the route cancels
        const cancelled = new Promise<WhatIfRun>((resolve) => {
          const cancel = runs.cancel.bind(runs);
          runs.cancel = (run: WhatIfRun) => {
            const p = cancel(run);
            resolve(run);
            return p;
          };
        });
        const { port } = app.server.address() as { port: number };
        const client = new AbortController();
        const asked = fetch(`http://127.0.0.1:${port}/v1/what-if?readings=J11=ALT&from=${day}&to=${day}`, {
          headers: bearer(f.tokens.inspector),
          signal: client.signal,
        });
        await gate.entered; // its run is reading the store: running, no answer yet
        client.abort();
        await assert.rejects(asked, { name: 'AbortError' });
        // the route cancels it when the connection closes (bounded only so that a failure does not hang the file)
        const run = await Promise.race([
          cancelled,
          new Promise<never>((_, reject) =>
            setTimeout(
              () =>
                reject(new Error('the route did not cancel its run within 10 s of the client going away')),
              10_000,
            ).unref(),
          ),
        ]);
        gate.release();
        await run.finished;
        assert.equal(run.status, 'cancelled');
        assert.equal(run.report, null);
        assert.equal(run.request.kept, false);
        assert.equal(runs.get(run.id, null), undefined, 'not kept');
        // the request's access record comes once the run has ended: polled, a bounded number of times
        let outcome: string | undefined;
        for (let i = 0; i < 500 && outcome === undefined; i++) {
          for await (const e of f.store.readStream(ACCESS_STREAM)) {
            const a = e.data as { action: string; outcome: string };
            if (a.action === 'what-if') outcome = a.outcome;
          }
          if (outcome === undefined) await new Promise((r) => setTimeout(r, 10));
        }
        assert.equal(outcome, 'cancelled');
        // and the runner goes on: the next request is answered
        const next = await app.inject({
          url: `/v1/what-if?readings=J11=ALT&from=${day}&to=${day}`,
          headers: bearer(f.tokens.inspector),
        });
        assert.equal(next.statusCode, 200, next.body);
      } finally {
        gate.release();
        await app.close();
      }
    },
  );
});
