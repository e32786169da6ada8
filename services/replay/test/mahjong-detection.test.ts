import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { roundFaultsOf, simulateSession } from '@table-audit/simulator';
import { ALL_MAHJONG_CHECK_IDS } from '@table-audit/rules/mahjong';
import { replayEvents } from '../src/replay-events.ts';
import { labelledDetection } from './labelled-detection.ts';

/**
 * The labelled Mah-Jong deal simulation (Portaria 52/89/M art. 1.º–2.º, the deal only) through the real replay:
 * 10 tables × 40 games as ta.mahjong.* events with every deal fault injected. Every injected fault must be found
 * under its check id on its game; no finding may appear on a clean deal; every MAHJONG. check id is exercised.
 * Outcomes and payments are out of scope: the records carry no bet lines.
 */
describe('Mah-Jong deal detection, proven on a labelled simulation through the replay', () => {
  const session = simulateSession({
    game: 'MAHJONG',
    seed: 5289,
    tables: 10,
    roundsPerTable: 40,
    faultRate: 0.2,
    handledRate: 0,
  });
  const result = replayEvents(session.events);
  const detection = labelledDetection(session.truth, result.findings, ALL_MAHJONG_CHECK_IDS);

  it('injects every deal fault kind and judges every game under mahjong-1989-deal', () => {
    const kinds = new Set(session.truth.map((t) => t.fault));
    for (const k of roundFaultsOf('MAHJONG')) assert.ok(kinds.has(k), `fault ${k} injected`);
    assert.equal(result.rounds.length, 10 * 40);
    assert.deepEqual(
      result.rounds.filter((r) => r.ruleSet !== 'mahjong-1989-deal' || r.notDerived).map((r) => r.roundId),
      [],
    );
    assert.deepEqual(result.unjudged, []);
  });

  it('finds every injected fault under its check id, and nothing on clean deals', () => {
    assert.deepEqual(detection.missed, []);
    assert.deepEqual(detection.unexpected, []);
    for (const [id, c] of detection.perCheck) assert.ok(c.injected > 0, `${id} exercised`);
    console.log(
      `Mah-Jong deal detection: ${result.rounds.length} games, ${session.events.length} events, ${session.truth.length} faults injected, ${result.findings.length} findings`,
    );
  });
});
