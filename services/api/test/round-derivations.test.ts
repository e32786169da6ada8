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
import { explainRound, RoundNotFound, type RoundExplanation } from '@table-audit/replay';
import { DEFAULT_REPLAY_OPTIONS } from '@table-audit/rules';
import { simulateSession } from '@table-audit/simulator';
import { RoundDerivations } from '../src/round-derivations.ts';

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

  it('answers a round of no table with explainRound\'s "not found"', async () => {
    const d = new RoundDerivations(store, (x) => x);
    await assert.rejects(d.answer('no-such-round', session.tables[0]!.tableId), RoundNotFound);
  });
});
