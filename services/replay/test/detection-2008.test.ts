import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { simulateSession } from '@table-audit/simulator';
import { ALL_F3CP08_CHECK_IDS, F3CP_SIMULATION } from '@table-audit/rules';
import { replayEvents } from '../src/replay-events.ts';
import { labelledDetection } from './labelled-detection.ts';

const START = Date.parse('2019-06-01T04:00:00Z'); // 12:00 Macau time: the 2008 rules (78/2008, 97/2008)
const CATALOGUE = F3CP_SIMULATION.catalogueAt!(START);

/**
 * The labelled simulation under the 2008 rules: a 2019 session with every 2008 fault kind injected (labelled with
 * F3CP08 check ids) and irregularities handled as art. 11.º says (negative controls). Every injected fault must be
 * found under its check id; no finding may appear on a clean round; every F3CP08 check is exercised.
 */
describe('detection under the 2008 rules, proven on a labelled 2019 session', () => {
  const session = simulateSession({
    seed: 2008,
    tables: 40,
    roundsPerTable: 50,
    start: START,
    faultRate: 0.12,
    handledRate: 0.06,
    tableIdPrefix: '2019-',
  });
  const result = replayEvents(session.events);
  // tallied when first asked, after the first test has held every label to the 2008 check ids
  let tally: ReturnType<typeof labelledDetection> | null = null;
  const detection = () => (tally ??= labelledDetection(session.truth, result.findings, ALL_F3CP08_CHECK_IDS));

  it('plays the 2008 catalogue, every fault kind, at tables whose ids carry the prefix', () => {
    const kinds = new Set(session.truth.map((t) => t.fault));
    for (const f of CATALOGUE.roundFaults) {
      assert.ok(kinds.has(f.name), `fault ${f.name} injected`);
      for (const id of f.checkIds) assert.ok(id.startsWith('F3CP08.'), `${f.name} labelled ${id}`);
    }
    assert.ok(session.tables.every((t) => t.tableId.startsWith('2019-')));
    assert.ok(result.rounds.length >= 1_900, `${result.rounds.length} rounds`);
    assert.deepEqual(result.unjudged, []);
  });

  it('finds every injected fault under its F3CP08 check id', () => {
    for (const t of session.truth)
      for (const checkId of t.checkIds)
        assert.ok(ALL_F3CP08_CHECK_IDS.includes(checkId), `${t.fault}: ${checkId} is a 2008 check`);
    assert.deepEqual(detection().missed, []);
  });

  it('raises nothing on clean rounds or handled irregularities, nothing but the injected checks on faulty ones', () => {
    assert.deepEqual(detection().unexpected, []);
  });

  it('exercises every F3CP08 check, and reports per check id', () => {
    console.log(
      `2008 detection per check id (${result.rounds.length} rounds, ${session.truth.length} faults, ${result.findings.length} findings):\n${detection().report(40)}`,
    );
    for (const [id, c] of detection().perCheck) assert.ok(c.injected > 0, `${id} exercised`);
  });

  it('refuses a table-id prefix that could not start an id, and a fault the rules in force do not have', () => {
    assert.throws(() => simulateSession({ start: START, tableIdPrefix: '2019/' }), /tableIdPrefix "2019\/"/);
    assert.throws(
      () => simulateSession({ faults: ['2008-bet-not-offered'] }),
      /has no fault 2008-bet-not-offered under the rules in force at 2025-12-01T04:00:00.000Z/,
    );
  });
});
