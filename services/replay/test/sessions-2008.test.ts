import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { simulateSession } from '@table-audit/simulator';
import { replayEvents } from '../src/replay-events.ts';

/**
 * Simulated sessions under the 2008 rules (Despacho 78/2008, art. 9.º re-worded by 97/2008): the simulator opens a
 * 2008 table (Ante, Play and Pair Plus only, no jackpot) when its first instant is before 2025-11-11 in Macau, and
 * the replay judges each round by its own date. Clean rounds here; the 2008 faults, the
 * irregularities handled as art. 11.º says and their detection are proven in detection-2008.test.ts.
 */
describe('simulated 2008 sessions, replayed', () => {
  it('a 2019 session: every round derived under f3cp-2008a, no finding, only the 2008 bets', () => {
    const session = simulateSession({
      seed: 2008,
      tables: 8,
      roundsPerTable: 25,
      start: Date.parse('2019-06-01T06:00:00Z'),
      faultRate: 0,
      handledRate: 0,
    });
    assert.deepEqual(session.truth, [], 'no fault injected');
    const bets = new Set(session.events.flatMap((e) => (e.type === 'BetPlaced' ? [e.data.betType] : [])));
    assert.deepEqual([...bets].sort(), ['ANTE', 'PAIR_PLUS', 'PLAY']);
    const result = replayEvents(session.events);
    assert.equal(result.rounds.length, 8 * 25);
    assert.deepEqual(result.notDerived, []);
    assert.ok(result.rounds.every((r) => r.ruleSet === 'f3cp-2008a'));
    assert.deepEqual(
      result.findings.map((f) => `${f.checkId} ${f.roundId}: ${f.summary}`),
      [],
    );
  });

  it('tables playing over midnight into 2025-11-11 (Macau): rounds under f3cp-2008a, then f3cp-2025, no finding', () => {
    const session = simulateSession({
      seed: 11,
      tables: 3,
      roundsPerTable: 40,
      // 2025-11-10 23:40 in Macau: about 40 s to a minute between rounds, so the tables cross midnight
      start: Date.parse('2025-11-10T15:40:00Z'),
    });
    const result = replayEvents(session.events);
    const sets = new Set(result.rounds.map((r) => r.ruleSet));
    assert.deepEqual([...sets].sort(), ['f3cp-2008a', 'f3cp-2025']);
    assert.deepEqual(
      result.findings.map((f) => `${f.checkId} ${f.roundId}: ${f.summary}`),
      [],
    );
  });
});
