import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CrapsScript, given, only } from './spec.ts';

describe('art. 5.º and 7.º: placing bets', () => {
  it('art. 5.º n.º 2 5): a Come bet once the point is on, and its own point made → nothing', () => {
    const s = new CrapsScript().open();
    const line = s.bet('P1', 'PASS_LINE', 5_000);
    s.throw([2, 2]); // point 4
    const come = s.bet('P2', 'COME', 5_000);
    s.throw([4, 4]); // the Come moves to 8
    const odds = s.bet('P2', 'COME_ODDS', 5_000, { behind: come });
    s.throw([5, 3]).settle(come, 'WIN', 5_000).settle(odds, 'WIN', 6_000);
    s.throw([1, 3]).settle(line, 'WIN', 5_000).close();
    given(s).then([]);
  });

  it('art. 5.º n.º 2 5): a Come bet at the come-out → BET.COME_BEFORE_POINT', () => {
    const s = new CrapsScript().open();
    const line = s.bet('P1', 'PASS_LINE', 5_000);
    const come = s.bet('P2', 'COME', 5_000);
    s.throw([5, 6]).settle(line, 'WIN', 5_000).settle(come, 'WIN', 5_000).close();
    const f = only(given(s).then(['CRAPS.BET.COME_BEFORE_POINT']), 'CRAPS.BET.COME_BEFORE_POINT');
    assert.equal(f.roundId, 'T-1');
  });

  it('art. 5.º n.º 6: MOP 75 at a MOP 50 table → BET.NOT_MULTIPLE_OF_MIN; MOP 150 → nothing', () => {
    const bad = new CrapsScript().open();
    const b = bad.bet('P1', 'PASS_LINE', 7_500);
    bad.throw([5, 6]).settle(b, 'WIN', 7_500).close();
    given(bad).then(['CRAPS.BET.NOT_MULTIPLE_OF_MIN']);
    const ok = new CrapsScript().open();
    const c = ok.bet('P1', 'PASS_LINE', 15_000);
    ok.throw([5, 6]).settle(c, 'WIN', 15_000).close();
    given(ok).then([]);
  });

  it('art. 7.º: the table\'s authorised "Fire Bet" → nothing; an unauthorised "Lucky Shooter" → BET.NOT_AUTHORISED', () => {
    const ok = new CrapsScript().open();
    const b = ok.bet('P1', 'PASS_LINE', 5_000);
    const x = ok.bet('P2', 'EXTRA', 5_000, { extra: 'Fire Bet' });
    ok.throw([5, 6]).settle(b, 'WIN', 5_000).settle(x, 'LOSE').close();
    given(ok).then([]);
    const bad = new CrapsScript().open();
    const c = bad.bet('P1', 'PASS_LINE', 5_000);
    bad.bet('P2', 'EXTRA', 5_000, { extra: 'Lucky Shooter' });
    bad.throw([5, 6]).settle(c, 'WIN', 5_000).close();
    given(bad).then(['CRAPS.BET.NOT_AUTHORISED']);
  });

  it('art. 5.º n.º 2 2): odds behind a Pass Line without a point, or behind no bet → BET.ODDS_WITHOUT_LINE (twice)', () => {
    const s = new CrapsScript().open();
    const line = s.bet('P1', 'PASS_LINE', 5_000);
    s.bet('P1', 'PASS_ODDS', 10_000, { behind: line });
    s.bet('P2', 'DONT_PASS_ODDS', 10_000, { behind: 'B-99' });
    s.throw([5, 6]).settle(line, 'WIN', 5_000).close();
    given(s).then(['CRAPS.BET.ODDS_WITHOUT_LINE', 'CRAPS.BET.ODDS_WITHOUT_LINE']);
  });

  it("art. 5.º n.º 2 4): Don't Pass odds behind the player's own Don't Pass with a point → nothing", () => {
    const s = new CrapsScript().open();
    s.bet('P1', 'PASS_LINE', 5_000);
    const d = s.bet('P2', 'DONT_PASS', 5_000);
    s.throw([4, 5]); // point 9
    const o = s.bet('P2', 'DONT_PASS_ODDS', 15_000, { behind: d });
    s.throw([4, 5]).settle('B-1', 'WIN', 5_000).settle(d, 'LOSE').settle(o, 'LOSE').close();
    given(s).then([]);
  });
});
