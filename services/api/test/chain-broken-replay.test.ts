/**
 * The API's disputed hands are explained only from events whose hash chain was checked (round-derivations.ts): the
 * full fold checks every link from the table's first event, a fold kept and read on checks what it reads on, a fold
 * resumed from a round's record that meets a broken link ends in the same refusal as the full fold, and a record
 * whose content no longer matches its hash is not resumed from. A round whose answer reads an event whose link fails
 * is refused with RoundNotVerified, as explainRound refuses it; the route answers 409 naming the stream, revision and
 * event id, in its own thread and through the replay workers alike. Rounds whose answers read nothing at or after the
 * break are answered as before, byte for byte.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { openForTampering } from '@table-audit/eventstore/sqlite-tamper';
import { IngestPipeline } from '@table-audit/ingest';
import {
  explainRound,
  ReplayService,
  RoundNotVerified,
  type BrokenLink,
  type RoundExplanation,
} from '@table-audit/replay';
import { roundStream, tableStream } from '@table-audit/schemas/streams';
import { simulateSession } from '@table-audit/simulator';
import { buildApp } from '../src/index.ts';
import { ACCESS_STREAM } from '../src/context.ts';
import { RoundDerivations } from '../src/round-derivations.ts';
import { derivedAnswer, replayPayload, replaySerializer, type DerivedAnswer } from '../src/replay-body.ts';
import { StoreIndex } from '../src/store-index.ts';
import { bearer, fixture, type Fixture } from './fixture.ts';
import { raisePayout as raiseRoundPayout } from '../../replay/test/raise-payout.ts';

// no faults: each round starts after the one before it is settled, so which rounds read an event is plain
const session = simulateSession({ seed: 29, tables: 2, roundsPerTable: 10, faultRate: 0 });
const [table, other] = session.tables.map((t) => t.tableId) as [string, string];
const stream = tableStream(table);
const roundsOf = (tableId: string): string[] => [
  ...new Set(
    session.events
      .filter((e) => e.data.header.tableId === tableId && e.data.header.roundId !== null)
      .map((e) => e.data.header.roundId!),
  ),
];
const rounds = roundsOf(table);
const serialize = replaySerializer();

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A store of its own: the session's events ingested (the first `n` of them), and, if asked, replayed. */
async function stored(n = session.events.length, replay = false) {
  const dir = mkdtempSync(join(tmpdir(), 'ta-api-chain-'));
  dirs.push(dir);
  const path = join(dir, 'events.sqlite');
  const store = new SqliteEventStore(path);
  const pipeline = new IngestPipeline(store, () => 0);
  let submitted = 0;
  const ingest = async (to: number) => {
    await pipeline.submit(
      session.events.slice(submitted, to).map((event, k) => ({
        source: { kind: 'in-process' as const, producer: 'test', index: submitted + k },
        event,
      })),
    );
    submitted = to;
  };
  await ingest(n);
  if (replay) {
    const service = new ReplayService({ store });
    await service.catchUp();
    await service.finish();
  }
  return { store, path, ingest };
}

/**
 * Edits the store file behind the store's back, as the replay's tamper tests do (a payout of the round raised, its
 * hash not recomputed), and returns where the chain now breaks.
 */
function raisePayout(path: string, roundId: string): BrokenLink {
  const { revision, eventId } = raiseRoundPayout(path, table, roundId);
  return { stream, revision, eventId, reason: '' };
}

/** The answer, or the error it is refused with. */
const tried = <T>(p: Promise<T>): Promise<T | Error> => p.catch((e: unknown) => e as Error);

/** Refused with RoundNotVerified at `at` (the reason aside: a recomputed hash is named in it). */
function refusedAt(x: unknown, roundId: string, at: BrokenLink): RoundNotVerified {
  assert.ok(x instanceof RoundNotVerified, `${roundId} refused, got ${String(x)}`);
  assert.deepEqual({ ...x.broken, reason: '' }, at, roundId);
  assert.match(x.broken.reason, /does not match its content/);
  assert.equal(x.roundId, roundId);
  return x;
}

const sameAs = (got: RoundExplanation | Error, expected: RoundExplanation | Error, what: string) => {
  assert.ok(!(got instanceof Error), `${what}: ${(got as Error).message}`);
  assert.ok(!(expected instanceof Error), `${what}: ${(expected as Error).message}`);
  assert.equal(JSON.stringify(got.json), JSON.stringify(expected.json), what);
  assert.equal(got.text, expected.text, what);
};

describe('the full fold checks every link it reads', () => {
  it('refuses the rounds whose answers read an edited event, as explainRound does; answers the others as before', async () => {
    const { store, path } = await stored();
    try {
      const intact = new RoundDerivations(store, (x) => x);
      const before = new Map<string, RoundExplanation>();
      for (const roundId of [...rounds, ...roundsOf(other)]) {
        const a = await intact.answer(roundId, roundId.startsWith(table) ? table : other);
        sameAs(a, await explainRound(store, roundId), `${roundId}, intact: as explainRound`);
        before.set(roundId, a);
      }
      const at = raisePayout(path, rounds[4]!);
      const d = new RoundDerivations(store, (x) => x);
      // Given the edit in round 4: rounds 3 (its answer reads round 4 up to its settlement) to 9 refused, naming the
      // edited event, as explainRound names it
      for (const roundId of rounds.slice(3)) {
        const x = refusedAt(await tried(d.answer(roundId, table)), roundId, at);
        assert.equal(
          x.message,
          refusedAt(await tried(explainRound(store, roundId)), roundId, at).message,
          roundId,
        );
      }
      // rounds 0 to 2 and the other table: the same answers
      for (const roundId of rounds.slice(0, 3))
        sameAs(await d.answer(roundId, table), before.get(roundId)!, roundId);
      for (const roundId of roundsOf(other))
        sameAs(await d.answer(roundId, other), before.get(roundId)!, roundId);
      // the table's fold kept for rounds 0 to 2 is read on for round 6, and refused there; the refused fold is not
      // kept: asked again, the table is read again from its first event, and refused again
      const [folds, continued] = [d.stats.folds, d.stats.continued];
      refusedAt(await tried(d.answer(rounds[6]!, table)), rounds[6]!, at);
      assert.deepEqual([d.stats.folds, d.stats.continued], [folds, continued + 1], 'the kept fold read on');
      refusedAt(await tried(d.answer(rounds[6]!, table)), rounds[6]!, at);
      assert.equal(d.stats.folds, folds + 1, 'the refused table read anew');
    } finally {
      await store.close();
    }
  });

  it('a kept fold read on after its table grew checks the new events: refused for the rounds that need an edited one', async () => {
    // Given the table's fold kept after answering round 3 of the first half of the session
    const half = session.events.findIndex((e) => e.data.header.roundId === rounds[6]);
    const { store, path, ingest } = await stored(half);
    try {
      const d = new RoundDerivations(store, (x) => x);
      await d.answer(rounds[3]!, table);
      assert.equal(d.stats.folds, 1);
      // When the rest is stored and a payout of round 7 (among the new events) is raised in the file
      await ingest(session.events.length);
      const at = raisePayout(path, rounds[7]!);
      // Then round 5 (read on from the kept fold, settled before round 7) is answered as explainRound answers it
      sameAs(await d.answer(rounds[5]!, table), await explainRound(store, rounds[5]!), rounds[5]!);
      assert.deepEqual([d.stats.folds, d.stats.continued > 0], [1, true], 'the kept fold read on');
      // and round 8, whose answer reads round 7, is refused where the kept fold read on
      refusedAt(await tried(d.answer(rounds[8]!, table)), rounds[8]!, at);
      assert.equal(d.stats.folds, 1, 'refused by the kept fold, read on, not by a new one');
      refusedAt(await tried(d.answer(rounds[6]!, table)), rounds[6]!, at);
    } finally {
      await store.close();
    }
  });
});

describe('a fold resumed from a round’s record', () => {
  let s: Awaited<ReturnType<typeof stored>>;
  let index: StoreIndex;
  before(async () => {
    s = await stored(session.events.length, true); // replayed: every round has its record and start state
    index = new StoreIndex(s.store);
    await index.refresh();
  });
  after(() => s.store.close());

  const body = (roundId: string, a: DerivedAnswer) =>
    serialize(replayPayload(roundId, { tableId: table, casino: 'c', concessionaire: 'x', game: 'F3CP' }, a));
  const resumedAnswer = async (roundId: string) => {
    const d = new RoundDerivations(s.store, derivedAnswer, { resumeGap: 0 });
    const a = await tried(d.answer(roundId, table, [], 'F3CP', undefined, index.resumeOf(roundId)));
    return { a, stats: d.stats };
  };

  it('is not made from a record whose content no longer matches its hash: the table is folded, the same answer', async () => {
    const roundId = rounds[5]!;
    const intact = await resumedAnswer(roundId);
    assert.equal(intact.stats.resumed, 1, 'resumed from its record while the record is intact');
    const record = index.resumeOf(roundId)!.record!;
    assert.equal(record.stream, roundStream(table));
    const db = openForTampering(s.path);
    const row = db
      .prepare('SELECT data FROM events WHERE stream = ? AND revision = ?')
      .get(record.stream, record.revision) as { data: string };
    db.prepare('UPDATE events SET data = ? WHERE stream = ? AND revision = ?').run(
      row.data.replace(/"totalStakedAvos":(\d+)/, (_m, a: string) => `"totalStakedAvos":${Number(a) + 100}`),
      record.stream,
      record.revision,
    );
    db.close();
    const x = await resumedAnswer(roundId);
    assert.equal(x.stats.resumed, 0);
    assert.equal(x.stats.resumeFallbacks.recordBroken, 1);
    assert.equal(x.stats.folds, 1, 'the table folded from its first event');
    assert.ok(!(x.a instanceof Error) && !(intact.a instanceof Error));
    assert.equal(body(roundId, x.a), body(roundId, intact.a), 'the same body');
  });

  it('that meets a broken link ends in the full fold’s refusal, never in an unchecked fold', async () => {
    const at = raisePayout(s.path, rounds[7]!);
    const x = await resumedAnswer(rounds[7]!);
    refusedAt(x.a, rounds[7]!, at);
    assert.equal(x.stats.resumeFallbacks.chainBroken, 1, 'the resumed fold met the break');
    assert.equal(x.stats.folds, 1, 'then the full fold, which refused');
    // round 6: the index says nothing about it is judged with round 7 (the replay stored both rounds' records), so
    // its answer reads only its own events, all before the break: answered. Without that word from the index, its
    // answer reads round 7 up to its settlement, as explainRound's does: refused
    assert.equal(index.resumeOf(rounds[6]!)!.settled, true);
    const six = await resumedAnswer(rounds[6]!);
    assert.ok(!(six.a instanceof Error), String(six.a));
    const unhinted = new RoundDerivations(s.store, derivedAnswer);
    refusedAt(await tried(unhinted.answer(rounds[6]!, table, [], 'F3CP')), rounds[6]!, at);
    refusedAt(await tried(explainRound(s.store, rounds[6]!)), rounds[6]!, at);
  });
});

describe('the replay route over an edited store', () => {
  let f: Fixture;
  let inThread: FastifyInstance;
  before(async () => {
    f = await fixture({ tables: 2, roundsPerTable: 6, replayWorkers: { threads: 1 } });
    inThread = await buildApp({ store: f.store, auth: { tokenKey: f.key } });
  });
  after(async () => {
    await inThread.close();
    await f.close();
  });

  it('answers 409 naming the broken link, in its own thread and through the replay workers, and records it', async () => {
    // the fixture's tables: an F3CP round with a payout, and a round of another table
    const payouts = new Map<string, string>(); // round → table
    for await (const e of f.store.readAll({ streams: (x) => x.startsWith('table-') }))
      if (e.type === 'PayoutMade') {
        const h = (e.data as { header: { roundId: string; tableId: string } }).header;
        if (!payouts.has(h.roundId)) payouts.set(h.roundId, h.tableId);
      }
    const [edited, tableId] = [...payouts].at(-1)!;
    const [untouched] = [...payouts].find(([, t]) => t !== tableId)!;
    const url = (id: string) => `/v1/rounds/${encodeURIComponent(id)}/replay`;
    const headers = bearer(f.tokens.inspector);
    const was = await f.app.inject({ url: url(untouched), headers });
    assert.equal(was.statusCode, 200, was.body);

    const row = raiseRoundPayout(f.path, tableId, edited);

    for (const [app, how] of [
      [f.app, 'the replay workers'],
      [inThread, 'its own thread'],
    ] as const) {
      assert.equal(app.replayPool !== null, how === 'the replay workers', how);
      const r = await app.inject({ url: url(edited), headers });
      assert.equal(r.statusCode, 409, `${how}: ${r.body}`);
      const b = r.json() as {
        statusCode: number;
        error: string;
        message: string;
        brokenLink: BrokenLink;
      };
      assert.deepEqual(
        { ...b, message: '', brokenLink: { ...b.brokenLink, reason: '' } },
        {
          statusCode: 409,
          error: 'Conflict',
          message: '',
          brokenLink: {
            stream: tableStream(tableId),
            revision: row.revision,
            eventId: row.eventId,
            reason: '',
          },
        },
        how,
      );
      assert.match(b.brokenLink.reason, /does not match its content/);
      assert.equal(
        b.message,
        new RoundNotVerified(edited, tableId, b.brokenLink).message,
        `${how}: explainRound's message`,
      );
      assert.match(b.message, /table-audit verify --stream table-/);
      assert.doesNotMatch(r.body, /"derivation"/, `${how}: nothing explained`);
      // the round of another table: the same bytes as before the edit
      const still = await app.inject({ url: url(untouched), headers });
      assert.equal(still.statusCode, 200, still.body);
      assert.equal(still.body, was.body, `${how}: another table's round as before`);
    }
    // the evidence export of the round is refused too, with the same message
    const evidence = await f.app.inject({
      url: `/v1/rounds/${encodeURIComponent(edited)}/evidence`,
      headers,
    });
    assert.equal(evidence.statusCode, 409, evidence.body);
    assert.match(
      (evidence.json() as { message: string }).message,
      /is not explained: its table's stored record/,
    );
    const recorded = new Map<string, number>();
    for await (const e of f.store.readStream(ACCESS_STREAM)) {
      const a = e.data as { action: string; objectId: string; outcome: string };
      if (a.objectId === edited && a.outcome === 'not-verified')
        recorded.set(a.action, (recorded.get(a.action) ?? 0) + 1);
    }
    assert.deepEqual(
      Object.fromEntries(recorded),
      { 'round.replay': 2, 'round.export.json': 1 },
      'each refused read recorded as not-verified',
    );
  });
});
