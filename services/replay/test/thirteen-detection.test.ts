import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { roundFaultsOf, simulateSession } from '@table-audit/simulator';
import { ALL_THIRTEEN_CHECK_IDS, THIRTEEN_HANDLED } from '@table-audit/rules/thirteen';
import { replayEvents } from '../src/replay-events.ts';

/**
 * The labelled 13 Cards simulation (Portaria 51/89/M) through the real replay: 12 tables × 40 rounds as
 * ta.thirteen.* events with every fault kind injected, and irregularities handled as the law says (a card turned
 * face up, a misdeal given to its own place, a cancelled deal reshuffled and cut again, a bet withdrawn before the
 * dice) as negative controls. Every injected fault must be found under its check id on its round; no finding may
 * appear on a clean round; every THIRTEEN. check id is exercised.
 */
describe('13 Cards detection, proven on a labelled simulation through the replay', () => {
  const session = simulateSession({
    game: 'THIRTEEN_CARDS',
    seed: 1989,
    tables: 12,
    roundsPerTable: 40,
    faultRate: 0.25,
    handledRate: 0.1,
  });
  const result = replayEvents(session.events);
  const truthOf = new Map<string, Set<string>>();
  for (const t of session.truth)
    if (t.roundId) truthOf.set(t.roundId, new Set([...(truthOf.get(t.roundId) ?? []), ...t.checkIds]));
  const perCheck = new Map(
    ALL_THIRTEEN_CHECK_IDS.map((id) => [id, { injected: 0, found: 0, falsePositives: 0 }]),
  );

  it('injects every 13 Cards fault kind and handles irregularities, on 480 rounds', () => {
    const kinds = new Set(session.truth.map((t) => t.fault));
    for (const k of roundFaultsOf('THIRTEEN_CARDS')) assert.ok(kinds.has(k), `fault ${k} injected`);
    assert.ok(THIRTEEN_HANDLED.length > 0);
    assert.ok(
      session.events.some((e) => e.type === 'DealCancelled'),
      'a cancelled deal handled',
    );
    assert.equal(result.rounds.length, 12 * 40);
  });

  it('judges every round under thirteen-cards-1989', () => {
    assert.deepEqual(
      result.rounds.filter((r) => r.ruleSet !== 'thirteen-cards-1989' || r.notDerived).map((r) => r.roundId),
      [],
    );
    assert.deepEqual(result.unjudged, []);
  });

  it('finds every injected fault under its check id, on its round', () => {
    const missed: string[] = [];
    for (const t of session.truth)
      for (const checkId of t.checkIds) {
        const c = perCheck.get(checkId)!;
        c.injected++;
        if (result.findings.some((f) => f.roundId === t.roundId && f.checkId === checkId)) c.found++;
        else missed.push(`${t.fault} ${t.roundId}: ${checkId}`);
      }
    assert.deepEqual(missed, []);
  });

  it('raises nothing on clean rounds, and nothing but the injected check on faulty ones', () => {
    const unexpected: string[] = [];
    for (const f of result.findings)
      if (!(f.roundId && truthOf.get(f.roundId)?.has(f.checkId))) {
        const c = perCheck.get(f.checkId);
        if (c) c.falsePositives++;
        unexpected.push(`${f.checkId} ${f.roundId ?? f.tableId}: ${f.summary}`);
      }
    assert.deepEqual(unexpected, []);
  });

  it('exercises every THIRTEEN. check id, and reports per check id', () => {
    const rows = [...perCheck].map(
      ([id, c]) =>
        `${id.padEnd(40)} injected ${String(c.injected).padStart(4)}  found ${String(c.found).padStart(4)}  false positives ${c.falsePositives}`,
    );
    console.log(
      `13 Cards detection per check id (${result.rounds.length} rounds, ${session.events.length} events, ${result.findings.length} findings):\n${rows.join('\n')}`,
    );
    for (const [id, c] of perCheck) assert.ok(c.injected > 0, `${id} exercised`);
  });
});
