import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CrapsScript, given } from './spec.ts';

describe('the RoundDerived record of a throw: one line per bet the throw resolved', () => {
  it('a come-out 5 resolves the Field and the Any 7, not the Pass Line nor the Hard 6: two lines, totals in avos', () => {
    const s = new CrapsScript().open();
    const line = s.bet('P1', 'PASS_LINE', 5_000);
    const field = s.bet('P2', 'FIELD', 10_000);
    const any7 = s.bet('P3', 'ANY_SEVEN', 5_000);
    s.bet('P3', 'HARD_WAY', 5_000, { number: 6 });
    s.throw([1, 4]).settle(field, 'LOSE').settle(any7, 'LOSE').close();
    const r = given(s).then([]);
    const rec = r.units[0]!.record!;
    assert.equal(rec.game, 'CRAPS');
    assert.equal(rec.ruleSetId, 'craps-2010');
    assert.equal(rec.status, 'SETTLED');
    assert.deepEqual(
      rec.lines.map((l) => [l.betId, l.betType, l.expectedOutcome, l.expectedNetAvos, l.differenceAvos]),
      [
        [field, 'FIELD', 'LOSE', -10_000, 0],
        [any7, 'ANY_SEVEN', 'LOSE', -5_000, 0],
      ],
    );
    assert.equal(rec.totalStakedAvos, 15_000);
    assert.equal(rec.houseResultAvos, 15_000);
    assert.ok(!rec.lines.some((l) => l.betId === line));
  });

  it('a Hard 6 the table paid on an easy 6 is a line with the difference: the rules say it loses', () => {
    const s = new CrapsScript().open();
    s.bet('P1', 'PASS_LINE', 5_000);
    const hard = s.bet('P3', 'HARD_WAY', 5_000, { number: 6 });
    s.throw([2, 4]).settle(hard, 'WIN', 45_000).close();
    const r = given(s).then(['CRAPS.PAYOUT.MISMATCH']);
    const l = r.units[0]!.record!.lines.find((x) => x.betId === hard)!;
    assert.equal(l.expectedOutcome, 'LOSE');
    assert.equal(l.differenceAvos, 50_000);
    assert.deepEqual(r.units[0]!.record!.findingIds, [r.findings[0]!.findingId]);
  });
});
