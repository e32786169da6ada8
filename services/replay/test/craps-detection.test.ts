import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { roundFaultsOf, simulateSession } from '@table-audit/simulator';
import { ALL_CRAPS_CHECK_IDS, CRAPS_HANDLED } from '@table-audit/rules';
import { replayEvents } from '../src/replay-events.ts';
import { labelledDetection } from './labelled-detection.ts';

/**
 * The labelled CRAPS simulation (Despacho 53/2010): 40 tables × 150 throws with every fault kind injected, and
 * void throws handled as the law says (a die off the table checked before it is used again; a throw short of the
 * middle declared void) as negative controls. Every injected fault must be found under its check id on its throw;
 * no finding may appear on a clean throw; every CRAPS check id is exercised.
 */
describe('CRAPS detection, proven on a labelled simulation', () => {
  const session = simulateSession({
    game: 'CRAPS',
    seed: 2010,
    tables: 40,
    roundsPerTable: 150,
    faultRate: 0.1,
    handledRate: 0.06,
  });
  const result = replayEvents(session.events);
  const detection = labelledDetection(session.truth, result.findings, ALL_CRAPS_CHECK_IDS);

  it('injects every CRAPS fault kind and handles void throws, on 6,000 throws', () => {
    const kinds = new Set(session.truth.map((t) => t.fault));
    for (const k of roundFaultsOf('CRAPS')) assert.ok(kinds.has(k), `fault ${k} injected`);
    const voids = session.events.filter((e) => e.type === 'DiceThrown' && e.data.declaredVoid).length;
    assert.ok(voids > 100, `${voids} void throws`);
    assert.ok(CRAPS_HANDLED.length > 0);
    assert.equal(result.rounds.length, 40 * 150);
  });

  it('judges every throw under craps-2010', () => {
    const throws = new Set(
      session.events.filter((e) => e.type === 'DiceThrown').map((e) => e.data.header.roundId),
    );
    assert.deepEqual(
      result.rounds.filter((r) => !throws.has(r.roundId)).map((r) => r.roundId),
      [],
    );
    assert.deepEqual(result.unjudged, []);
  });

  it('finds every injected fault under its check id, on its throw', () => {
    assert.deepEqual(detection.missed, []);
  });

  it('raises nothing on clean throws, and nothing but the injected check on faulty ones', () => {
    assert.deepEqual(detection.unexpected, []);
  });

  it('exercises every CRAPS check id, and reports per check id', () => {
    console.log(
      `CRAPS detection per check id (${result.rounds.length} throws, ${session.events.length} events, ${result.findings.length} findings):\n${detection.report(34)}`,
    );
    for (const [id, c] of detection.perCheck) assert.ok(c.injected > 0, `${id} exercised`);
  });
});
