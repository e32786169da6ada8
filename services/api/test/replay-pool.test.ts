/**
 * The replay workers (replay-pool.ts): every answer they give is byte for byte the in-thread route's (every game,
 * an alternative reading, a round not there), a kept answer is made anew once the table's stream grows, the scope
 * check comes before any worker sees the request (and records the access), and the pool is bounded — a full
 * worker refuses at once, and the route answers 503 with Retry-After.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { IngestPipeline } from '@table-audit/ingest';
import { RoundNotFound } from '@table-audit/replay';
import { simulateSession } from '@table-audit/simulator';
import { buildApp } from '../src/index.ts';
import { ACCESS_STREAM } from '../src/context.ts';
import { ReplayPool, ReplayPoolBusy } from '../src/replay-pool.ts';
import { bearer, everyOtherGame, fixture, type Fixture } from './fixture.ts';

const replayUrl = (roundId: string, alternative?: string) =>
  `/v1/rounds/${encodeURIComponent(roundId)}/replay${alternative ? `?alternative=${alternative}` : ''}`;

/** Every round the store's table streams name, with its table. */
async function roundsOf(store: SqliteEventStore): Promise<Map<string, string>> {
  const rounds = new Map<string, string>();
  for await (const e of store.readAll({ streams: (s) => s.startsWith('table-') })) {
    const h = (e.data as { header?: { roundId?: string | null; tableId?: string } }).header;
    if (h?.roundId && h.tableId) rounds.set(h.roundId, h.tableId);
  }
  return rounds;
}

/** The same request to both apps: status, content type and body bytes equal. */
async function sameAnswer(pooled: FastifyInstance, inThread: FastifyInstance, url: string, token: string) {
  const a = await pooled.inject({ url, headers: bearer(token) });
  const b = await inThread.inject({ url, headers: bearer(token) });
  assert.equal(a.statusCode, b.statusCode, `${url}: the status`);
  assert.equal(a.headers['content-type'], b.headers['content-type'], `${url}: the content type`);
  if (a.statusCode === 500)
    // a failure names its request, whose id is each app's own: the rest of the message is the same
    assert.equal(
      a.body.replace(a.headers['x-request-id'] as string, 'ID'),
      b.body.replace(b.headers['x-request-id'] as string, 'ID'),
    );
  else assert.ok(a.rawPayload.equals(b.rawPayload), `${url}: the body, byte for byte`);
  return a;
}

describe('replay workers', () => {
  let f: Fixture;
  let inThread: FastifyInstance;
  let rounds: Map<string, string>;
  before(async () => {
    f = await fixture({
      tables: 4,
      roundsPerTable: 8,
      otherGames: everyOtherGame(1),
      replayWorkers: { threads: 2 },
      accessLog: { thread: true },
    });
    inThread = await buildApp({ store: f.store, auth: { tokenKey: f.key } });
    rounds = await roundsOf(f.store);
  });
  after(async () => {
    await inThread.close();
    await f.close();
  });

  it('start from the compiled worker, at most one a core', () => {
    const pool = f.app.replayPool;
    assert.ok(pool, 'the pool started');
    assert.deepEqual(pool.code, { compiled: true });
    assert.ok(pool.threads >= 1 && pool.threads <= 2);
  });

  it('answer every round of every game byte for byte as the route does in its own thread', async () => {
    const games = new Set<string>();
    let failed = 0;
    for (const roundId of rounds.keys()) {
      const r = await sameAnswer(f.app, inThread, replayUrl(roundId), f.tokens.inspector);
      // a 500 here is the rules' (the same in both apps): a 13 Cards round with a card dealt twice makes the
      // solver refuse its input (SolverInputError, packages/rules/src/thirteen), in `table-audit replay` too
      if (r.statusCode === 500) failed++;
      else {
        assert.equal(r.statusCode, 200, r.body);
        games.add((r.json() as { game: string }).game);
      }
    }
    assert.ok(failed <= 2, `${failed} rounds failed`);
    assert.deepEqual([...games].sort(), ['CRAPS', 'F3CP', 'MAHJONG', 'THIRTEEN_CARDS']);
    // asked again: kept answers (their bodies served by the main thread while their table's head is unchanged,
    // without asking a worker), still the same bytes
    const pool = f.app.replayPool!;
    const [keptBefore, askedBefore] = [pool.stats.keptHere, pool.stats.asked];
    for (const roundId of [...rounds.keys()].slice(0, 20))
      await sameAnswer(f.app, inThread, replayUrl(roundId), f.tokens.inspector);
    assert.ok(
      pool.stats.keptHere - keptBefore >= 15,
      `${pool.stats.keptHere - keptBefore} served from kept bodies`,
    );
    assert.ok(pool.stats.asked - askedBefore <= 5, 'the workers not asked for them');
    // under the alternative reading H1, and a round not there
    for (const roundId of [...rounds.keys()].slice(0, 10))
      await sameAnswer(f.app, inThread, replayUrl(roundId, 'H1'), f.tokens.inspector);
    const missing = await sameAnswer(f.app, inThread, replayUrl('no-such-round'), f.tokens.inspector);
    assert.equal(missing.statusCode, 404);
    assert.ok(f.app.replayPool!.stats.answered >= rounds.size);
  });

  it('check the caller scope before any worker sees the request, and record every read', async () => {
    const byConcessionaire = new Map<string, string>();
    for (const roundId of rounds.keys()) {
      const r = await f.app.inject({ url: replayUrl(roundId), headers: bearer(f.tokens.inspector) });
      byConcessionaire.set((r.json() as { concessionaire: string }).concessionaire, roundId);
    }
    const ofA = byConcessionaire.get(f.concessionaireA);
    assert.ok(ofA, 'a round of concessionaire A');
    const pool = f.app.replayPool!;
    const asked = pool.stats.asked;
    // kept in its worker from the inspector's request; another concessionaire's officer gets a 404 as for a round
    // that does not exist, and the worker is never asked
    const foreign = await f.app.inject({ url: replayUrl(ofA), headers: bearer(f.tokens.officerB) });
    assert.equal(foreign.statusCode, 404);
    assert.equal((foreign.json() as { message: string }).message, `no round ${ofA}`);
    assert.equal(pool.stats.asked, asked, 'the worker was not asked');
    const own = await sameAnswer(f.app, inThread, replayUrl(ofA), f.tokens.officerA);
    assert.equal(own.statusCode, 200);
    const inspector = await f.app.inject({ url: replayUrl(ofA), headers: bearer(f.tokens.inspector) });
    assert.ok(own.rawPayload.equals(inspector.rawPayload), "the officer's answer is the inspector's");
    const records: { actorSubject: string; objectId: string; outcome: string; requestId: string }[] = [];
    for await (const e of f.store.readStream(ACCESS_STREAM)) records.push(e.data as never);
    const mine = (subject: string, outcome: string) =>
      records.filter((r) => r.actorSubject === subject && r.objectId === ofA && r.outcome === outcome).length;
    assert.ok(mine('officer-b', 'not-found') >= 1, 'the refused read is recorded');
    assert.ok(mine('officer-a', 'ok') >= 1, 'the read through a worker is recorded');
    assert.ok(
      records.some((r) => r.requestId === foreign.headers['x-request-id']),
      'recorded with its request id',
    );
  });

  it('store each access record through the writer thread before the answer goes', async () => {
    const roundId = [...rounds.keys()][3]!;
    for (let i = 0; i < 5; i++) {
      const answers = await Promise.all(
        [0, 1, 2].map(() => f.app.inject({ url: replayUrl(roundId), headers: bearer(f.tokens.auditor) })),
      );
      // read at once through the test's own connection: every answered request's record is there already
      const ids = new Set<string>();
      for await (const e of f.store.readStream(ACCESS_STREAM))
        ids.add((e.data as { requestId: string }).requestId);
      for (const a of answers) {
        assert.equal(a.statusCode, 200);
        assert.ok(ids.has(a.headers['x-request-id'] as string), 'the record is stored before the answer');
      }
    }
  });

  it('refuse at once beyond the queue bound (ReplayPoolBusy), and the route answers 503 with Retry-After', async () => {
    const pool = await ReplayPool.start({ storePath: f.path, threads: 1, maxQueued: 2 });
    try {
      const [roundId, tableId] = [...rounds][0]!;
      const place = { tableId, casino: 'c', concessionaire: 'x', game: 'F3CP' };
      // asked one after another in the same turn: the bound is checked as each is asked
      const asks = Array.from({ length: 5 }, () =>
        pool.replay(roundId, place, []).then(
          () => 'answered',
          (e: Error) => e,
        ),
      );
      const settled = await Promise.all(asks);
      assert.equal(settled.filter((s) => s === 'answered').length, 2);
      const refused = settled.filter((s) => s instanceof ReplayPoolBusy);
      assert.equal(refused.length, 3);
      assert.equal((refused[0] as ReplayPoolBusy).retryAfterSeconds, 1);
      assert.deepEqual(pool.queued, [0], 'nothing left waiting');
      await assert.rejects(pool.replay('no-such-round', place, []), RoundNotFound);
    } finally {
      await pool.close();
    }
    const app = await buildApp({
      store: f.store,
      auth: { tokenKey: f.key },
      replayWorkers: { threads: 1, maxQueued: 3 },
    });
    try {
      const all = [...rounds.keys()].slice(0, 40);
      await app.inject({ url: replayUrl(all[0]!), headers: bearer(f.tokens.inspector) }); // the token verified once
      const answers = await Promise.all(
        all.map((roundId) => app.inject({ url: replayUrl(roundId), headers: bearer(f.tokens.inspector) })),
      );
      const busy = answers.filter((a) => a.statusCode === 503);
      const ok = answers.filter((a) => a.statusCode === 200);
      assert.equal(busy.length + ok.length, all.length, 'every answer 200 or 503');
      assert.ok(ok.length >= 3, `${ok.length} answered`);
      assert.ok(busy.length >= 1, 'forty at once overflow a queue of three');
      for (const b of busy) {
        assert.equal(b.headers['retry-after'], '1');
        assert.match((b.json() as { message: string }).message, /busy.*ask again/);
      }
      assert.equal(app.replayPool!.stats.busy, busy.length);
      const records: { requestId: string; outcome: string }[] = [];
      for await (const e of f.store.readStream(ACCESS_STREAM)) records.push(e.data as never);
      const ids = new Set(busy.map((b) => b.headers['x-request-id']));
      assert.equal(
        records.filter((r) => ids.has(r.requestId) && r.outcome === 'unavailable').length,
        busy.length,
        'each refused read is recorded as unavailable',
      );
    } finally {
      await app.close();
    }
  });
});

describe('replay workers, the table growing', () => {
  const session = simulateSession({
    seed: 5,
    tables: 3,
    roundsPerTable: 8,
    faultRate: 0.3,
    handledRate: 0.1,
    faults: ['jackpot-not-carried', 'event-after-close', 'round-not-closed'],
  });
  let dir: string;
  let store: SqliteEventStore;
  let pipeline: IngestPipeline;
  let submitted = 0;
  const ingestUpTo = async (n: number) => {
    await pipeline.submit(
      session.events.slice(submitted, n).map((event, k) => ({
        source: { kind: 'in-process' as const, producer: 'test', index: submitted + k },
        event,
      })),
    );
    submitted = n;
  };
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ta-api-replay-pool-'));
    store = new SqliteEventStore(join(dir, 'events.sqlite'));
    pipeline = new IngestPipeline(store, () => 0);
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('makes a kept answer anew once its table stream has grown, as the route in its own thread does', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const { issueToken } = await import('../src/index.ts');
    const { privateKey } = generateKeyPairSync('ed25519');
    const token = await issueToken(privateKey, { subject: 'i', role: 'inspector', concessionaire: null });
    await ingestUpTo(Math.floor(session.events.length / 2));
    const pooled = await buildApp({ store, auth: { tokenKey: privateKey }, replayWorkers: { threads: 2 } });
    try {
      const first = new Map<string, Buffer>();
      for (const roundId of (await roundsOf(store)).keys()) {
        const r = await pooled.inject({ url: replayUrl(roundId), headers: bearer(token) });
        assert.equal(r.statusCode, 200, r.body);
        first.set(roundId, r.rawPayload);
      }
      await ingestUpTo(session.events.length);
      // a new app in the main thread over the grown store: what every answer must now be
      const inThread = await buildApp({ store, auth: { tokenKey: privateKey } });
      try {
        let changed = 0;
        for (const roundId of (await roundsOf(store)).keys()) {
          const r = await sameAnswer(pooled, inThread, replayUrl(roundId), token);
          assert.equal(r.statusCode, 200);
          const before = first.get(roundId);
          if (before && !before.equals(r.rawPayload)) changed++;
        }
        // the rounds still open at the half (and those whose later findings came after it) read differently now:
        // served from what the worker kept, they would not
        assert.ok(changed >= 1, `${changed} answers changed once the tables grew`);
      } finally {
        await inThread.close();
      }
    } finally {
      await pooled.close();
    }
  });
});
