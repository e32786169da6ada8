import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { simulateSession } from '@table-audit/simulator';
import { binomialUpperTail } from '@table-audit/rules';
import { replayEvents } from '../src/replay-events.ts';

describe('collusion detector (F3CP.CONDUCT.COLLUSION, art. 18.º n.º 3)', () => {
  it('computes the binomial tail exactly where it can be checked by hand', () => {
    assert.equal(binomialUpperTail(10, 10), 1 / 1024);
    assert.equal(binomialUpperTail(10, 0), 1);
    assert.ok(Math.abs(binomialUpperTail(10, 9) - 11 / 1024) < 1e-15);
    assert.ok(
      binomialUpperTail(2_000, 1_500) > 0 && binomialUpperTail(2_000, 1_500) < 1e-100,
      'no underflow to 0 for large n',
    );
  });

  it('finds groups that share their cards, with the p-value and the rounds used', () => {
    const s = simulateSession({
      seed: 41,
      tables: 2,
      collusionTables: 2,
      collusionRounds: 400,
      roundsPerTable: 0,
    });
    const found = replayEvents(s.events).findings.filter((f) => f.checkId === 'F3CP.CONDUCT.COLLUSION');
    for (const t of s.truth) {
      const f = found.find((x) => x.tableId === t.tableId);
      assert.ok(f, `colluders at ${t.tableId} found`);
      assert.ok(
        f.players.every((p) => t.players!.includes(p)),
        'only colluders are named',
      );
      const d = f.details as {
        pValue: number;
        rounds: string[];
        informativeDecisions: number;
        followedGroupCards: number;
      };
      assert.ok(d.pValue * (d as unknown as { bonferroniGroups: number }).bonferroniGroups < 0.001);
      assert.ok(d.rounds.length > 0 && d.informativeDecisions >= d.followedGroupCards);
      assert.ok(f.evidenceEventIds.length > 0);
    }
  });

  it('raises nothing on honest players over long sessions', () => {
    const s = simulateSession({ seed: 42, tables: 8, roundsPerTable: 400 });
    const found = replayEvents(s.events).findings.filter((f) => f.checkId === 'F3CP.CONDUCT.COLLUSION');
    assert.deepEqual(found, []);
  });
});
