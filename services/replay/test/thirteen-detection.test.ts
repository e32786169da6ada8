import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { roundFaultsOf, simulateSession } from '@table-audit/simulator';
import { ALL_THIRTEEN_CHECK_IDS, THIRTEEN_HANDLED } from '@table-audit/rules/thirteen';
import { replayEvents } from '../src/replay-events.ts';
import { labelledDetection } from './labelled-detection.ts';

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
  const detection = labelledDetection(session.truth, result.findings, ALL_THIRTEEN_CHECK_IDS);

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
    assert.deepEqual(detection.missed, []);
  });

  it('raises nothing on clean rounds, and nothing but the injected check on faulty ones', () => {
    assert.deepEqual(detection.unexpected, []);
  });

  it('exercises every THIRTEEN. check id, and reports per check id', () => {
    console.log(
      `13 Cards detection per check id (${result.rounds.length} rounds, ${session.events.length} events, ${result.findings.length} findings):\n${detection.report(40)}`,
    );
    for (const [id, c] of detection.perCheck) assert.ok(c.injected > 0, `${id} exercised`);
  });
});
