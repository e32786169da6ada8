/**
 * The API's disputed hands derived once per table (round-derivations.ts) say exactly what services/replay's
 * explainRound says for every round — before and after the table's stream grows, under an alternative reading,
 * and when the bound drops tables — while reading each table's events once.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { IngestPipeline } from '@table-audit/ingest';
import type { EventStore } from '@table-audit/eventstore';
import { explainRound, ReplayService, RoundNotFound, type RoundExplanation } from '@table-audit/replay';
import { DEFAULT_REPLAY_OPTIONS } from '@table-audit/rules';
import { simulateSession } from '@table-audit/simulator';
import { RoundDerivations } from '../src/round-derivations.ts';
import { completeExplanation } from '../src/explanations.ts';

const session = simulateSession({
  seed: 1,
  tables: 3,
  roundsPerTable: 10,
  faultRate: 0.3,
  handledRate: 0.1,
  // faults whose findings about a round are judged with a later one (a late event, a Progressive not carried)
  faults: ['jackpot-not-carried', 'event-after-close', 'round-not-closed'],
});
const rounds = new Map<string, string>(); // round → table
for (const t of session.tables)
  for (const e of t.events) if (e.data.header.roundId) rounds.set(e.data.header.roundId, t.tableId);

let dir: string;
let store: SqliteEventStore;
let pipeline: IngestPipeline;
let submitted = 0;
async function ingestUpTo(n: number): Promise<void> {
  const events = session.events.slice(submitted, n);
  await pipeline.submit(
    events.map((event, k) => ({
      source: { kind: 'in-process' as const, producer: 'test', index: submitted + k },
      event,
    })),
  );
  submitted = n;
}

const same = (a: RoundExplanation, b: RoundExplanation, what: string) => {
  assert.deepEqual(a.json, b.json, `${what}: the JSON`);
  assert.equal(a.text, b.text, `${what}: the text`);
  assert.equal(a.tableId, b.tableId);
};

/** explainRound's answer, or the message it rejects with. */
const reference = (roundId: string, alternatives: readonly string[] = []) =>
  explainRound(store, roundId, { ...DEFAULT_REPLAY_OPTIONS, alternatives }).then(
    (x) => x,
    (e: Error) => e.message,
  );

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ta-api-derivations-'));
  store = new SqliteEventStore(join(dir, 'events.sqlite'));
  pipeline = new IngestPipeline(store, () => 0);
});
after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('disputed hands derived once per table', () => {
  it('explains every round as explainRound does, reading each table once, and goes on when the table grows', async () => {
    await ingestUpTo(Math.floor(session.events.length / 2));
    const d = new RoundDerivations(store, (x) => x);
    let compared = 0;
    for (const [roundId, tableId] of rounds) {
      const expected = await reference(roundId);
      const got = await d.answer(roundId, tableId).then(
        (x) => x,
        (e: Error) => {
          assert.ok(e instanceof RoundNotFound, `${roundId}: ${e.message}`);
          return e.message;
        },
      );
      if (typeof expected === 'string') assert.equal(got, expected, roundId);
      else {
        assert.notEqual(typeof got, 'string', `${roundId}: ${String(got)}`);
        same(got as RoundExplanation, expected, roundId);
        compared++;
      }
    }
    assert.ok(compared > 10, `rounds compared before the tables grew: ${compared}`);
    const foldsBefore = d.stats.folds;
    assert.ok(foldsBefore <= session.tables.length, `one fold per table, not per round (${foldsBefore})`);

    await ingestUpTo(session.events.length);
    const readBefore = d.stats.eventsRead;
    compared = 0;
    for (const [roundId, tableId] of rounds) {
      const expected = await reference(roundId);
      assert.notEqual(typeof expected, 'string', `${roundId}: ${String(expected)}`);
      same(await d.answer(roundId, tableId), expected as RoundExplanation, `${roundId} after growth`);
      compared++;
    }
    assert.equal(compared, rounds.size);
    // the grown tables were read on from where they stopped: no table's first half read twice
    assert.ok(
      d.stats.eventsRead - readBefore <= session.events.length - Math.floor(session.events.length / 2),
      `events read after growth: ${d.stats.eventsRead - readBefore}`,
    );
  });

  it('keeps answers by round, head and readings; an alternative reading is a derivation of its own', async () => {
    await ingestUpTo(session.events.length);
    const d = new RoundDerivations(store, (x) => x);
    const [roundId, tableId] = [...rounds][5]!;
    const a = await d.answer(roundId, tableId);
    assert.equal(await d.answer(roundId, tableId), a, 'the same answer kept');
    assert.equal(d.stats.answersKept, 1);
    const h1 = await d.answer(roundId, tableId, ['H1']);
    assert.notEqual(h1, a);
    same(h1, (await reference(roundId, ['H1'])) as RoundExplanation, 'under H1');
    assert.equal(d.stats.folds, 2, 'one fold per reading');
  });

  it('stays within its bound, dropping the least recently used tables, and still answers right', async () => {
    await ingestUpTo(session.events.length);
    const d = new RoundDerivations(store, (x) => x, { maxRounds: 8, maxExplanations: 3 });
    for (const [roundId, tableId] of [...rounds].reverse())
      same(await d.answer(roundId, tableId), (await reference(roundId)) as RoundExplanation, roundId);
    // each table holds more than 8 rounds: every table change drops the one before and folds anew
    assert.ok(d.stats.folds >= session.tables.length);
    const [roundId, tableId] = [...rounds].at(-1)!; // its table was the first dropped, its answer too
    const folds = d.stats.folds;
    await d.answer(roundId, tableId);
    assert.equal(d.stats.folds, folds + 1, 'a dropped table is folded again');
  });

  it('reads a table only as far as the round asked needs, and on from there for a later round', async () => {
    await ingestUpTo(session.events.length);
    const tableId = [...rounds.values()][0]!;
    const tableRounds = [...rounds].filter(([, t]) => t === tableId); // in the order the session played them
    let events = 0;
    for await (const _ of store.readStream(`table-${tableId}`)) events++;
    const d = new RoundDerivations(store, (x) => x);
    const [first] = tableRounds[0]!;
    same(await d.answer(first, tableId), (await reference(first)) as RoundExplanation, first);
    const early = d.stats.eventsRead;
    assert.ok(
      early < events / 2,
      `the first round of ${tableRounds.length} read ${early} of ${events} events`,
    );
    // every other round of the table: the fold goes on from where it stopped, each event read once
    for (const [roundId] of tableRounds.slice(1))
      same(await d.answer(roundId, tableId), (await reference(roundId)) as RoundExplanation, roundId);
    assert.equal(d.stats.folds, 1, 'folded from its first event once');
    assert.ok(d.stats.continued >= 1);
    assert.equal(d.stats.eventsRead, events, 'every event of the table read once');
  });

  it('answers a round of no table with explainRound\'s "not found"', async () => {
    const d = new RoundDerivations(store, (x) => x);
    await assert.rejects(d.answer('no-such-round', session.tables[0]!.tableId), RoundNotFound);
  });

  it('with the round’s game: an F3CP answer is kept by the table’s head alone, a CRAPS throw’s by its findings too', async () => {
    const own = mkdtempSync(join(tmpdir(), 'ta-api-derivations-game-'));
    const games = new SqliteEventStore(join(own, 'events.sqlite'));
    try {
      const f3cp = simulateSession({ seed: 5, tables: 2, roundsPerTable: 8, faultRate: 0.3, handledRate: 0 });
      const craps = simulateSession({
        game: 'CRAPS',
        seed: 5,
        tables: 1,
        roundsPerTable: 30,
        faultRate: 0.5,
      });
      const ingest = new IngestPipeline(games, () => 0);
      const submit = (events: readonly (typeof f3cp.events)[number][], from: number) =>
        ingest.submit(
          events.map((event, k) => ({
            source: { kind: 'in-process' as const, producer: 't', index: from + k },
            event,
          })),
        );
      const half = Math.floor(f3cp.events.length / 2);
      await submit(f3cp.events.slice(0, half), 0);
      await submit(craps.events, 1_000_000);
      // reads of findings streams counted: an F3CP answer needs none
      let findingsReads = 0;
      const counted: EventStore = {
        ...games,
        append: games.append.bind(games),
        readAll: games.readAll.bind(games),
        subscribeToAll: games.subscribeToAll.bind(games),
        saveCheckpoint: games.saveCheckpoint.bind(games),
        loadCheckpoint: games.loadCheckpoint.bind(games),
        close: games.close.bind(games),
        readStream: (stream, options) => {
          if (stream.startsWith('findings-')) findingsReads++;
          return games.readStream(stream, options);
        },
      };
      const d = new RoundDerivations(counted, (x) => x);
      const explained = (roundId: string) =>
        explainRound(games, roundId, DEFAULT_REPLAY_OPTIONS).then(
          (x) => x,
          (e: Error) => e.message,
        );
      const f3cpRounds = new Map<string, string>();
      for (const t of f3cp.tables)
        for (const e of t.events) if (e.data.header.roundId) f3cpRounds.set(e.data.header.roundId, t.tableId);
      const answers = new Map<string, RoundExplanation>();
      for (const round of [0, 1]) {
        if (round === 1) await submit(f3cp.events.slice(half), half); // the tables grow
        for (const [roundId, tableId] of f3cpRounds) {
          const expected = await explained(roundId);
          const got = await d.answer(roundId, tableId, [], 'F3CP').then(
            (x) => x,
            (e: Error) => e.message,
          );
          if (typeof expected === 'string') {
            assert.equal(got, expected, roundId);
            continue;
          }
          same(got as RoundExplanation, expected, `${roundId}${round ? ' after growth' : ''}`);
          // asked again with nothing stored meanwhile: the very answer kept
          assert.equal(await d.answer(roundId, tableId, [], 'F3CP'), got);
          if (round === 1 && answers.has(roundId))
            assert.notEqual(got, answers.get(roundId), `${roundId}: made anew once its table grew`);
          answers.set(roundId, got as RoundExplanation);
        }
      }
      assert.ok(answers.size > 10);
      assert.equal(findingsReads, 0, 'no findings stream read for F3CP answers');

      // a CRAPS throw: its answer shows the findings stored about it, so storing them (the replay appends to the
      // findings stream, not to the table's) makes it anew
      const crapsTable = craps.tables[0]!.tableId;
      const throws = [
        ...new Set(craps.events.map((e) => e.data.header.roundId).filter((r): r is string => r !== null)),
      ];
      const before = new Map<string, RoundExplanation>();
      for (const t of throws) before.set(t, await d.answer(t, crapsTable, [], 'CRAPS'));
      for (const t of throws)
        assert.equal(
          await d.answer(t, crapsTable, [], 'CRAPS'),
          before.get(t),
          `${t}: kept while nothing is stored`,
        );
      await new ReplayService({ store: games }).catchUp();
      let changed = 0;
      for (const t of throws) {
        const now = await d.answer(t, crapsTable, [], 'CRAPS');
        assert.notEqual(now, before.get(t), `${t}: made anew once findings were stored`);
        same(
          now,
          (await explained(t).then((x) => completeFor(games, x, crapsTable, t))) as RoundExplanation,
          t,
        );
        if (JSON.stringify(now.json) !== JSON.stringify(before.get(t)!.json)) changed++;
      }
      assert.ok(changed > 0, 'some throw now shows its stored findings');
      // a caller that names another game for a CRAPS throw still gets the whole answer, never kept
      const [t] = throws;
      const kept = d.stats.answersKept;
      const wrong = await d.answer(t!, crapsTable, [], 'F3CP');
      same(
        wrong,
        (await explained(t!).then((x) => completeFor(games, x, crapsTable, t!))) as RoundExplanation,
        t!,
      );
      assert.notEqual(await d.answer(t!, crapsTable, [], 'F3CP'), wrong, 'not kept');
      assert.equal(d.stats.answersKept, kept);
    } finally {
      await games.close();
      rmSync(own, { recursive: true, force: true });
    }
  });
});

/** explainRound's answer as the API completes it (a CRAPS throw with its stored findings). */
async function completeFor(
  s: EventStore,
  x: RoundExplanation | string,
  tableId: string,
  roundId: string,
): Promise<RoundExplanation | string> {
  return typeof x === 'string' ? x : completeExplanation(s, x, tableId, roundId);
}
