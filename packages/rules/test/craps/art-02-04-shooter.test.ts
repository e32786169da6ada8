import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CrapsScript, given, only } from './spec.ts';

/** A shooter's hand: P1 makes point 5, then sevens out. */
function sevenOut(): CrapsScript {
  const s = new CrapsScript().open();
  const b = s.bet('P1', 'PASS_LINE', 5_000);
  s.throw([2, 3]);
  s.throw([3, 4]).settle(b, 'LOSE');
  return s;
}

describe('art. 2.º and 4.º: the shooter', () => {
  it('art. 4.º 2) (C1): after the seven-out the dice pass to P2 → nothing', () => {
    const s = sevenOut().shooter('P2', 'P1', 'SEVEN_OUT');
    const b = s.bet('P2', 'PASS_LINE', 5_000);
    s.throw([5, 6], { shooter: 'P2' }).settle(b, 'WIN', 5_000).close();
    given(s).then([]);
  });

  it('art. 4.º 2) (C1): P1 throws again after sevening out → SHOOTER.NOT_CHANGED', () => {
    const s = sevenOut();
    const b = s.bet('P1', 'PASS_LINE', 5_000);
    s.throw([5, 6]).settle(b, 'WIN', 5_000).close();
    const f = only(given(s).then(['CRAPS.SHOOTER.NOT_CHANGED']), 'CRAPS.SHOOTER.NOT_CHANGED');
    assert.deepEqual(f.interpretations, ['C1']);
  });

  it('C1: a come-out craps (2) does not change the shooter; P1 throws on → nothing', () => {
    const s = new CrapsScript().open();
    const b = s.bet('P1', 'PASS_LINE', 5_000);
    s.throw([1, 1]).settle(b, 'LOSE');
    const c = s.bet('P1', 'PASS_LINE', 5_000);
    s.throw([5, 6]).settle(c, 'WIN', 5_000).close();
    given(s).then([]);
  });

  it('C1: the dice passed as a "seven-out" after a come-out craps → SHOOTER.WRONGLY_CHANGED', () => {
    const s = new CrapsScript().open();
    const b = s.bet('P1', 'PASS_LINE', 5_000);
    s.throw([1, 1]).settle(b, 'LOSE');
    s.shooter('P2', 'P1', 'SEVEN_OUT');
    const c = s.bet('P2', 'PASS_LINE', 5_000);
    s.throw([5, 6], { shooter: 'P2' }).settle(c, 'WIN', 5_000).close();
    given(s).then(['CRAPS.SHOOTER.WRONGLY_CHANGED']);
  });

  it('art. 4.º 1): P1 stops betting (nothing on the layout) and hands over → nothing; with a bet still on → WRONGLY_CHANGED', () => {
    const ok = new CrapsScript().open();
    const b = ok.bet('P1', 'PASS_LINE', 5_000);
    ok.throw([5, 6]).settle(b, 'WIN', 5_000);
    ok.shooter('P2', 'P1', 'STOPPED_BETTING');
    const c = ok.bet('P2', 'PASS_LINE', 5_000);
    ok.throw([5, 6], { shooter: 'P2' }).settle(c, 'WIN', 5_000).close();
    given(ok).then([]);
    const bad = new CrapsScript().open();
    bad.bet('P1', 'PASS_LINE', 5_000);
    bad.throw([2, 2]); // point 4: the Pass Line rides
    bad.shooter('P2', 'P1', 'STOPPED_BETTING');
    bad.bet('P2', 'FIELD', 5_000);
    bad.throw([2, 6], { shooter: 'P2' }).settle('B-2', 'LOSE').close();
    given(bad).then(['CRAPS.SHOOTER.WRONGLY_CHANGED']);
  });

  it('art. 2.º n.º 1: P1 throws with MOP 50 on the layout at a MOP 50 table → nothing; with nothing → SHOOTER.NO_MIN_BET', () => {
    const ok = new CrapsScript().open();
    const b = ok.bet('P1', 'PASS_LINE', 5_000);
    ok.throw([5, 6]).settle(b, 'WIN', 5_000).close();
    given(ok).then([]);
    const bad = new CrapsScript().open();
    const f = bad.bet('P2', 'FIELD', 5_000);
    bad.throw([5, 6]).settle(f, 'WIN', 5_000).close();
    const x = only(given(bad).then(['CRAPS.SHOOTER.NO_MIN_BET']), 'CRAPS.SHOOTER.NO_MIN_BET');
    assert.deepEqual(x.declared, { stake: 0 });
  });
});
