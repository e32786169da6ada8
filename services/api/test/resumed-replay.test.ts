/**
 * A round's first replay derived from its record's start state and its own events (round-derivations.ts
 * #resumed) answers the same bytes as the full fold of its table, for every round of simulated sessions of each
 * game whose module can resume; and when it cannot be trusted — no record, a record without a start state, a
 * damaged state, a record the round does not reproduce, an event of the round stored after its record — the
 * table is folded instead, the same answer given and the reason counted. Scope and the access record are the
 * route's, whichever path answers.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { IngestPipeline } from '@table-audit/ingest';
import { ReplayService, storedForm } from '@table-audit/replay';
import {
  DEFAULT_REPLAY_OPTIONS,
  gameModuleFor,
  type Finding,
  type RoundRecord,
  type TableEvent,
} from '@table-audit/rules';
import { roundStream, tableStream } from '@table-audit/schemas/streams';
import { simulateSession } from '@table-audit/simulator';
import { RoundDerivations, type RoundResume } from '../src/round-derivations.ts';
import { derivedAnswer, replayPayload, replaySerializer, type DerivedAnswer } from '../src/replay-body.ts';
import { StoreIndex } from '../src/store-index.ts';
import { DERIVED_FROM_HEADER } from '../src/routes/rounds.ts';
import { bearer, fixture, type Fixture } from './fixture.ts';

/** The games whose module resumes a fold (the others fold the table: nothing to compare yet). */
const RESUMING = ['THIRTEEN_CARDS', 'MAHJONG', 'F3CP', 'CRAPS'].filter(
  (g) => gameModuleFor(g)?.resumeTable !== undefined,
);

const serialize = replaySerializer();

interface Stored {
  dir: string;
  store: SqliteEventStore;
  index: StoreIndex;
  /** round → its table and game, in the order played */
  rounds: Map<string, { tableId: string; game: string }>;
}

/** Simulated sessions ingested as ingest stores them and, unless `replay` is false, replayed as the pipeline does. */
async function stored(
  sessions: readonly { game: string; tables: number; roundsPerTable: number; seed: number }[],
  replay: { startStates: boolean } | false = { startStates: true },
  conduct: { bettingSystemTables?: number; collusionTables?: number; collusionRounds?: number } = {},
): Promise<Stored> {
  const dir = mkdtempSync(join(tmpdir(), 'ta-api-resumed-'));
  const store = new SqliteEventStore(join(dir, 'events.sqlite'));
  const events: TableEvent[] = sessions.flatMap(
    (s) => simulateSession({ ...s, ...conduct, faultRate: 0.3, handledRate: 0.05 }).events,
  );
  const pipeline = new IngestPipeline(store, () => 0);
  for (let i = 0; i < events.length; i += 2_000)
    await pipeline.submit(
      events.slice(i, i + 2_000).map((event, k) => ({
        source: { kind: 'in-process' as const, producer: 'test', index: i + k },
        event,
      })),
    );
  if (replay) {
    const service = new ReplayService({
      store,
      replay: { ...DEFAULT_REPLAY_OPTIONS, startStates: replay.startStates },
    });
    await service.catchUp();
    await service.finish();
  }
  const games = new Map<string, string>();
  const rounds = new Map<string, { tableId: string; game: string }>();
  for (const e of events) {
    const h = e.data.header;
    if (e.type === 'TableOpened') games.set(h.tableId, (e.data as { game: string }).game);
    if (h.roundId && !rounds.has(h.roundId))
      rounds.set(h.roundId, { tableId: h.tableId, game: games.get(h.tableId)! });
  }
  const index = new StoreIndex(store);
  await index.refresh();
  return { dir, store, index, rounds };
}

const close = async (s: Stored) => {
  await s.store.close();
  rmSync(s.dir, { recursive: true, force: true });
};

/** The body the route sends for an answer. */
const body = (roundId: string, place: { tableId: string; game: string }, a: DerivedAnswer) =>
  serialize(
    replayPayload(roundId, { tableId: place.tableId, casino: 'c', concessionaire: 'x', game: place.game }, a),
  );

/** The round's answer resumed (a derivation with nothing folded) and the full fold's, as bodies. */
async function bothWays(
  s: Stored,
  roundId: string,
  resume: RoundResume | null = s.index.resumeOf(roundId),
  full = new RoundDerivations(s.store, derivedAnswer),
) {
  const place = s.rounds.get(roundId)!;
  const resumed = new RoundDerivations(s.store, derivedAnswer, { resumeGap: 0 });
  const a = await resumed.answer(roundId, place.tableId, [], place.game, undefined, resume);
  const b = await full.answer(roundId, place.tableId, [], place.game);
  return {
    resumed: body(roundId, place, a),
    full: body(roundId, place, b),
    stats: resumed.stats,
    derivedFrom: a.explanation.derivedFrom,
    fullStats: full.stats,
  };
}

/** Appends a copy of the round's latest record, changed by `edit`, as its latest record. */
async function appendRecord(
  s: Stored,
  roundId: string,
  edit: (r: RoundRecord) => RoundRecord,
): Promise<void> {
  const at = s.index.resumeOf(roundId)!.record!;
  let record: RoundRecord | null = null;
  for await (const e of s.store.readStream(at.stream, { fromRevision: at.revision, maxCount: 1 }))
    record = e.data as RoundRecord;
  const changed = edit(record!);
  await s.store.append(roundStream(changed.tableId), [
    {
      eventId: `test-${roundId}-${Math.random().toString(36).slice(2)}`,
      type: 'RoundDerived',
      data: changed,
    },
  ]);
  await s.index.refresh();
}

describe('a round’s first replay resumed from its record', { skip: RESUMING.length === 0 }, () => {
  let s: Stored;
  before(async () => {
    s = await stored(
      RESUMING.map((game, i) => ({
        game,
        tables: 2,
        roundsPerTable: game === 'CRAPS' ? 30 : 12,
        seed: 7 + i,
      })),
    );
  });
  after(() => close(s));

  it(`answers every round byte for byte as the full fold does (${RESUMING.join(', ')})`, async () => {
    let resumed = 0;
    const byGame = new Map<string, number>();
    const full = new RoundDerivations(s.store, derivedAnswer); // folds each table once, keeps its rounds
    for (const [roundId, place] of s.rounds) {
      const r = s.index.resumeOf(roundId);
      assert.ok(r, `${roundId} is indexed`);
      const x = await bothWays(s, roundId, r, full);
      assert.equal(x.resumed, x.full, `${roundId} (${place.game}): the same body both ways`);
      if (x.stats.resumed === 1) {
        resumed++;
        byGame.set(place.game, (byGame.get(place.game) ?? 0) + 1);
        assert.match(x.derivedFrom ?? '', /^the start state in rounds-.* revision \d+ /);
        assert.equal(x.stats.folds, 0, 'the table was not folded');
      } else
        assert.deepEqual(
          Object.entries(x.stats.resumeFallbacks).filter(([, n]) => n > 0),
          [['roundOpen', 1]],
          `${roundId}: resumed or, for a round no event completes, folded`,
        );
      assert.equal(x.fullStats.resumed, 0, 'the full fold was asked without the index’s hint');
    }
    for (const game of RESUMING)
      assert.ok((byGame.get(game) ?? 0) >= 20, `${game}: ${byGame.get(game) ?? 0} rounds resumed`);
    assert.ok(resumed >= s.rounds.size - 2 * RESUMING.length * 2, `${resumed} of ${s.rounds.size} resumed`);
  });

  it('reads only the round’s own events (to the event completing the round after it), not the table’s', async () => {
    const [roundId, place] = [...s.rounds].filter(([, p]) => p.game === RESUMING[0])[8]!;
    const d = new RoundDerivations(s.store, derivedAnswer, { resumeGap: 0 });
    await d.answer(roundId, place.tableId, [], place.game, undefined, s.index.resumeOf(roundId));
    assert.equal(d.stats.resumed, 1);
    let events = 0;
    for await (const _ of s.store.readStream(tableStream(place.tableId))) events++;
    assert.ok(d.stats.eventsRead < events / 4, `read ${d.stats.eventsRead} of the table's ${events} events`);
  });

  it('shows the findings as stored, the same on the full fold', async () => {
    let compared = 0;
    for (const [roundId, place] of s.rounds) {
      const r = s.index.resumeOf(roundId)!;
      if (r.findings.length === 0) continue;
      const d = new RoundDerivations(s.store, derivedAnswer, { resumeGap: 0 });
      const a = await d.answer(roundId, place.tableId, [], place.game, undefined, r);
      const shown = (a.explanation.json as { findings?: Finding[] }).findings ?? [];
      for (const f of r.findings) {
        const same = shown.find((x) => x.findingId === f.findingId);
        if (!same) continue; // a finding judged later than the round after it is not in explainRound's answer either
        assert.equal(JSON.stringify(same), JSON.stringify(f), `${roundId}: ${f.findingId} as stored`);
        assert.equal(JSON.stringify(storedForm(same)), JSON.stringify(f));
        compared++;
      }
    }
    assert.ok(compared > 5, `findings compared: ${compared}`);
  });

  it('folds the table instead, giving the same answer, when the record is damaged, wrong or older than the round', async () => {
    const candidates = [...s.rounds].filter(
      ([id, p]) => p.game === RESUMING[0] && s.index.resumeOf(id)?.record,
    );
    const [damaged, mismatched, stale, chosenNull] = [
      candidates[2]!,
      candidates[4]!,
      candidates[6]!,
      candidates[8]!,
    ];
    await appendRecord(s, damaged[0], (r) => ({ ...r, startState: '{"form":"round-fold","v":1,"game":' }));
    await appendRecord(s, mismatched[0], (r) => ({ ...r, totalStakedAvos: r.totalStakedAvos + 100 }));
    await appendRecord(s, chosenNull[0], (r) => ({ ...r, startState: null }));
    // an event of the round stored after its record (a copy of its first event under a new id): stale
    let first: { type: string; data: unknown } | null = null;
    for await (const e of s.store.readStream(tableStream(stale[1].tableId), {
      fromRevision: s.index.resumeOf(stale[0])!.firstRevision,
      maxCount: 1,
    }))
      first = { type: e.type, data: e.data };
    const data = first!.data as { header: { eventId: string } };
    const late = { ...data, header: { ...data.header, eventId: `late-${stale[0]}` } };
    await s.store.append(tableStream(stale[1].tableId), [
      { eventId: `late-${stale[0]}`, type: first!.type, data: late },
    ]);
    await s.index.refresh();
    assert.equal(
      s.index.resumeOf(stale[0])!.stale,
      true,
      'the index sees the record as older than the round',
    );

    for (const [[roundId], why] of [
      [damaged, 'stateError'],
      [mismatched, 'mismatch'],
      [stale, 'stale'],
      [chosenNull, 'noState'],
    ] as const) {
      const x = await bothWays(s, roundId);
      assert.equal(x.resumed, x.full, `${roundId}: the same body`);
      assert.equal(x.stats.resumed, 0, `${roundId}: not resumed`);
      assert.equal(x.stats.resumeFallbacks[why], 1, `${roundId}: counted as ${why}`);
      assert.equal(x.stats.folds, 1, `${roundId}: the table folded`);
      assert.match(x.derivedFrom ?? '', /folded from its first event/);
    }
  });
});

describe(
  'an F3CP round whose record names conduct findings (art. 18.º) only the whole session gives',
  {
    skip: !RESUMING.includes('F3CP'),
  },
  () => {
    it('shows them as stored beside what the resumed fold gives: the full fold’s bytes', async () => {
      const s = await stored(
        [{ game: 'F3CP', tables: 3, roundsPerTable: 40, seed: 5 }],
        { startStates: true },
        {
          bettingSystemTables: 1,
          collusionTables: 1,
          collusionRounds: 300,
        },
      );
      try {
        const full = new RoundDerivations(s.store, derivedAnswer);
        let conduct = 0;
        let fromStore = 0;
        for (const [roundId] of s.rounds) {
          const r = s.index.resumeOf(roundId)!;
          const x = await bothWays(s, roundId, r, full);
          assert.equal(x.resumed, x.full, `${roundId}: the same body both ways`);
          if (x.stats.resumed === 1 && r.findings.some((f) => /CONDUCT/.test(f.checkId))) conduct++;
          fromStore += x.stats.findingsFromStore;
        }
        assert.ok(conduct >= 2, `rounds resumed with conduct findings: ${conduct}`);
        assert.ok(
          fromStore >= 2,
          `findings shown from the store, not given by the resumed fold: ${fromStore}`,
        );

        // one derivation asked for a round in the middle of each table first, then for the rounds after it in order,
        // then for those before it: each round from the middle on resumes from its own record (a fold resumed for
        // one round never answers another: a start state is exact for its own round only); the first round before
        // it folds the table from its first event (within RESUME_GAP of it), which then answers the rounds up to the
        // middle; every body the full fold's
        const d = new RoundDerivations(s.store, derivedAnswer, { resumeGap: 64 });
        const tables = [...new Set([...s.rounds.values()].map((p) => p.tableId))];
        for (const tableId of tables) {
          const own = [...s.rounds].filter(([, p]) => p.tableId === tableId);
          const m = Math.floor(own.length / 2);
          for (const [roundId, place] of [own[m]!, ...own.slice(m + 1), ...own.slice(0, m)]) {
            const a = await d.answer(roundId, tableId, [], place.game, undefined, s.index.resumeOf(roundId));
            const b = await full.answer(roundId, tableId, [], place.game);
            assert.equal(body(roundId, place, a), body(roundId, place, b), `${roundId}, asked in order`);
          }
        }
        assert.ok(d.stats.folds <= tables.length, `folds from the first event: ${d.stats.folds}`);
        assert.ok(
          d.stats.resumedFolds >= s.rounds.size / 3 &&
            d.stats.resumedFolds <= s.rounds.size / 2 + tables.length,
          `folds resumed: ${d.stats.resumedFolds} for ${s.rounds.size} rounds of ${tables.length} tables`,
        );
        // each resumed fold answered its own round, and no other
        assert.equal(d.stats.resumed, d.stats.resumedFolds);
        assert.ok(d.stats.resumed > s.rounds.size / 3, `answers of resumed folds: ${d.stats.resumed}`);

        // by default (RESUME_GAP): a round near its table's start folds the table from its first event; the last
        // round of the long (collusion) table resumes from its record
        const long = tables
          .map((t) => [...s.rounds].filter(([, p]) => p.tableId === t))
          .sort((x, y) => y.length - x.length)[0]!;
        assert.ok(long.length >= 300, `${long.length} rounds`);
        for (const [[roundId, place], resumed, folds] of [
          [long[0]!, 0, 1],
          [long.at(-1)!, 1, 0],
        ] as const) {
          const byDefault = new RoundDerivations(s.store, derivedAnswer);
          const a = await byDefault.answer(
            roundId,
            place.tableId,
            [],
            place.game,
            undefined,
            s.index.resumeOf(roundId),
          );
          const b = await full.answer(roundId, place.tableId, [], place.game);
          assert.equal(body(roundId, place, a), body(roundId, place, b), roundId);
          assert.deepEqual(
            [byDefault.stats.resumedFolds, byDefault.stats.folds],
            [resumed, folds],
            `${roundId}: folds resumed, folds from the first event`,
          );
        }
      } finally {
        await close(s);
      }
    });
  },
);

describe('a round’s first replay without a record to resume from', { skip: RESUMING.length === 0 }, () => {
  it('folds the table when no record is stored, or the records carry no start state', async () => {
    const sessions = [{ game: RESUMING[0]!, tables: 1, roundsPerTable: 6, seed: 3 }];
    for (const [replay, why] of [
      [false, 'noRecord'],
      [{ startStates: false }, 'noState'],
    ] as const) {
      const s = await stored(sessions, replay);
      try {
        let n = 0;
        for (const [roundId] of s.rounds) {
          const x = await bothWays(s, roundId);
          assert.equal(x.resumed, x.full, roundId);
          assert.equal(x.stats.resumed, 0);
          assert.equal(x.stats.resumeFallbacks[why], 1, `${roundId}: ${why}`);
          n++;
        }
        assert.ok(n >= 6);
      } finally {
        await close(s);
      }
    }
  });
});

describe('the replay route over resumed rounds', { skip: RESUMING.length === 0 }, () => {
  let f: Fixture;
  before(async () => {
    f = await fixture({
      tables: 1,
      roundsPerTable: 3,
      otherGames: [{ game: RESUMING[0]!, tables: 4, roundsPerTable: 6 }],
      derivations: { resumeGap: 0 }, // every round past a table's first event resumed, however short the table
    });
  });
  after(() => f.close());

  it('answers its own concessionaire’s round resumed (saying so), another’s 404, and records every read', async () => {
    const index = new StoreIndex(f.store);
    await index.refresh();
    const inspector = await f.app.inject({
      url: '/v1/findings?limit=200',
      headers: bearer(f.tokens.inspector),
    });
    assert.equal(inspector.statusCode, 200);
    // rounds of the resuming game, by concessionaire (the index knows where each was played)
    const played = new Map<string, string>();
    for (const item of inspector.json().items as {
      roundId: string | null;
      concessionaire: string;
      game: string;
    }[])
      if (item.roundId && item.game === RESUMING[0]) played.set(item.roundId, item.concessionaire);
    const own = [...played].find(([, c]) => c === f.concessionaireA);
    const other = [...played].find(([, c]) => c !== f.concessionaireA);
    assert.ok(own && other, 'rounds of two concessionaires');
    const url = (id: string) => `/v1/rounds/${encodeURIComponent(id)}/replay`;
    const a = await f.app.inject({ url: url(own[0]), headers: bearer(f.tokens.officerA) });
    assert.equal(a.statusCode, 200, a.body);
    assert.match(String(a.headers[DERIVED_FROM_HEADER]), /^the start state in rounds-/);
    const refused = await f.app.inject({ url: url(other[0]), headers: bearer(f.tokens.officerA) });
    assert.equal(refused.statusCode, 404);
    assert.doesNotMatch(refused.body, /derivation/);
    // the inspector's answer for the officer's round is the same bytes
    const b = await f.app.inject({ url: url(own[0]), headers: bearer(f.tokens.inspector) });
    assert.equal(b.body, a.body);
    let ok = 0;
    let notFound = 0;
    for await (const e of f.store.readStream('api-access')) {
      const d = e.data as { action: string; objectId: string; outcome: string };
      if (d.action !== 'round.replay') continue;
      if (d.objectId === own[0] && d.outcome === 'ok') ok++;
      if (d.objectId === other[0] && d.outcome === 'not-found') notFound++;
    }
    assert.equal(ok, 2, 'both reads of the round recorded');
    assert.equal(notFound, 1, 'the refused read recorded');
  });
});
