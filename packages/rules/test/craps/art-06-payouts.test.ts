import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CrapsScript, given, only } from './spec.ts';

/** Art. 5.º and 6.º: each bet resolved as the law says, with explicit figures (MOP 50 = 5,000 avos). */
describe('art. 5.º–6.º: what a throw pays (CRAPS.PAYOUT.MISMATCH)', () => {
  it('Pass Line: a come-out 7 wins 1:1 → nothing', () => {
    const s = new CrapsScript().open();
    const b = s.bet('P1', 'PASS_LINE', 5_000);
    s.throw([3, 4]).settle(b, 'WIN', 5_000).close();
    const r = given(s).then([]);
    assert.equal(r.units[0]!.record!.lines[0]!.expectedPayoutAvos, 5_000);
  });

  it('Pass Line: a come-out 7 paid MOP 40 on MOP 50 → PAYOUT.MISMATCH, expected 5,000 avos', () => {
    const s = new CrapsScript().open();
    const b = s.bet('P1', 'PASS_LINE', 5_000);
    s.throw([3, 4]).settle(b, 'WIN', 4_000).close();
    const f = only(given(s).then(['CRAPS.PAYOUT.MISMATCH']), 'CRAPS.PAYOUT.MISMATCH');
    assert.deepEqual(f.expected, { betId: b, outcome: 'WIN', payout: 5_000 });
    assert.ok(f.citations.some((c) => c.key === '53/2010 art.6 al.1'));
  });

  it('Pass Line and odds: point 6 made, the line 1:1 and the odds 6:5 → nothing', () => {
    const s = new CrapsScript().open();
    const line = s.bet('P1', 'PASS_LINE', 5_000);
    s.throw([2, 4]);
    const odds = s.bet('P1', 'PASS_ODDS', 10_000, { behind: line });
    s.throw([5, 5]); // 10: nothing decided
    s.throw([1, 5]).settle(line, 'WIN', 5_000).settle(odds, 'WIN', 12_000).close();
    given(s).then([]);
  });

  it("Don't Pass: a come-out 12 is the bar, a tie → PUSH; paid as a win → PAYOUT.MISMATCH", () => {
    const ok = new CrapsScript().open();
    const b = ok.bet('P2', 'DONT_PASS', 5_000);
    ok.bet('P1', 'PASS_LINE', 5_000);
    ok.throw([6, 6]).settle(b, 'PUSH').settle('B-2', 'LOSE').close();
    given(ok).then([]);
    const bad = new CrapsScript().open();
    const d = bad.bet('P2', 'DONT_PASS', 5_000);
    bad.bet('P1', 'PASS_LINE', 5_000);
    bad.throw([6, 6]).settle(d, 'WIN', 5_000).settle('B-2', 'LOSE').close();
    given(bad).then(['CRAPS.PAYOUT.MISMATCH']);
  });

  it("Don't Pass odds on 4 pay 1:2: MOP 100 wins MOP 50 on a seven-out → nothing", () => {
    const s = new CrapsScript().open();
    s.bet('P1', 'PASS_LINE', 5_000);
    const d = s.bet('P2', 'DONT_PASS', 5_000);
    s.throw([1, 3]);
    const o = s.bet('P2', 'DONT_PASS_ODDS', 10_000, { behind: d });
    s.throw([3, 4]).settle('B-1', 'LOSE').settle(d, 'WIN', 5_000).settle(o, 'WIN', 5_000).close();
    given(s).then([]);
  });

  it('Horn (C2): MOP 200 on a 12 wins 27:4 = MOP 1,350; on a 3, 3:1 = MOP 600 → nothing', () => {
    const s = new CrapsScript().open();
    s.bet('P1', 'FIELD', 5_000);
    const h1 = s.bet('P2', 'HORN', 20_000);
    s.throw([6, 6]).settle('B-1', 'WIN', 10_000).settle(h1, 'WIN', 135_000);
    s.bet('P1', 'FIELD', 5_000);
    const h2 = s.bet('P2', 'HORN', 20_000);
    s.throw([1, 2]).settle('B-3', 'WIN', 5_000).settle(h2, 'WIN', 60_000).close();
    const r = given(s).then([]);
    assert.ok(r.units[0]!.record!.interpretationIds.includes('C2'));
  });

  it('Field: a 12 pays 3:1 at a table that chose 3:1, 2:1 paid there → PAYOUT.MISMATCH', () => {
    const ok = new CrapsScript('LP-CRAPS-02', { field12: 3 }).open();
    ok.bet('P1', 'FIELD', 5_000);
    ok.throw([6, 6]).settle('B-1', 'WIN', 15_000).close();
    given(ok).then([]);
    const bad = new CrapsScript('LP-CRAPS-02', { field12: 3 }).open();
    bad.bet('P1', 'FIELD', 5_000);
    bad.throw([6, 6]).settle('B-1', 'WIN', 10_000).close();
    given(bad).then(['CRAPS.PAYOUT.MISMATCH']);
  });

  it('Hard 6 stays on a 5 and an easy 8, wins 9:1 on 3-3; Hard 8 loses to 6-2 → nothing', () => {
    const s = new CrapsScript().open();
    s.bet('P1', 'BIG', 5_000);
    const h6 = s.bet('P2', 'HARD_WAY', 5_000, { number: 6 });
    const h8 = s.bet('P3', 'HARD_WAY', 5_000, { number: 8 });
    s.throw([2, 3]).settle('B-1', 'LOSE');
    s.bet('P1', 'BIG', 5_000);
    s.throw([6, 2]).settle('B-4', 'WIN', 5_000).settle(h8, 'LOSE');
    s.bet('P1', 'BIG', 5_000);
    s.throw([3, 3]).settle('B-5', 'LOSE').settle(h6, 'WIN', 45_000).close();
    given(s).then([]);
  });

  it('Big 6 (C3), minimum MOP 10: MOP 60 stays on other sums and wins 7:6 = MOP 70; settled as a tie on a 9 → PAYOUT.MISMATCH', () => {
    const ok = new CrapsScript('LP-CRAPS-02', { minimum: 1_000 }).open();
    ok.bet('P1', 'PASS_LINE', 5_000);
    const b6 = ok.bet('P2', 'BIG_NUMBER', 6_000, { number: 6 });
    ok.throw([4, 5]); // point 9; the Big 6 stays
    ok.throw([2, 4]).settle(b6, 'WIN', 7_000).close();
    const r = given(ok).then([]);
    assert.ok(r.units[1]!.record!.interpretationIds.includes('C3'));
    const bad = new CrapsScript('LP-CRAPS-02', { minimum: 1_000 }).open();
    bad.bet('P1', 'PASS_LINE', 5_000);
    const b = bad.bet('P2', 'BIG_NUMBER', 6_000, { number: 6 });
    bad.throw([4, 5]).settle(b, 'PUSH').close();
    given(bad).then(['CRAPS.PAYOUT.MISMATCH']);
  });

  it('a one-throw bet the croupier forgot to settle → PAYOUT.MISMATCH (expected LOSE, declared nothing)', () => {
    const s = new CrapsScript().open();
    s.bet('P1', 'PASS_LINE', 5_000);
    const a = s.bet('P2', 'ANY_SEVEN', 5_000);
    s.throw([2, 2]);
    s.close();
    const f = only(given(s).then(['CRAPS.PAYOUT.MISMATCH']), 'CRAPS.PAYOUT.MISMATCH');
    assert.deepEqual(f.declared, { betId: a, outcome: 'STAYS', payout: 0 });
  });
});
