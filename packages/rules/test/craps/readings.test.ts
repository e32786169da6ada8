/**
 * The CRAPS alternative readings C1 and C2 (readings.ts; C3 and C5 are in ../readings.test.ts), as Given / When /
 * Then: given a table's events, when replayed under the register's reading and under the alternative, then the
 * findings or the expected settlement differ where the reading matters and agree where it does not.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CRAPS_2010, crapsReadings, HORN_ON_WINNING_UNIT } from '../../src/craps/rule-set.ts';
import { resolveThrow, winningsOf } from '../../src/craps/engine.ts';
import { CrapsScript, replay } from './spec.ts';

const ids = (s: CrapsScript, alternatives: readonly string[] = []) =>
  replay(s.events, alternatives)
    .findings.map((f) => f.checkId)
    .sort();

/** what each judged bet of the script was expected to come to: outcome and winnings */
const expected = (s: CrapsScript, alternatives: readonly string[] = []) =>
  replay(s.events, alternatives).units.flatMap((u) =>
    u.lines.filter((l) => l.judged).map((l) => `${l.bet} ${l.outcome ?? 'stays'} ${l.payout}`),
  );

/** P1 makes point 5 and wins it, then throws a come-out 12 (after the first throw) and `then` follows. */
function crapsAfterFirstThrow(then: (s: CrapsScript) => void): CrapsScript {
  const s = new CrapsScript().open();
  const a = s.bet('P1', 'PASS_LINE', 5_000);
  s.throw([2, 3]);
  s.throw([4, 1]).settle(a, 'WIN', 5_000);
  const b = s.bet('P1', 'PASS_LINE', 5_000);
  s.throw([6, 6]).settle(b, 'LOSE');
  then(s);
  return s.close();
}

describe('CRAPS alternatives: Given a table, When replayed under both readings, Then …', () => {
  it('C1: P1 throws on after a come-out 12 that was not the first throw — chosen: nothing; alternative: SHOOTER.NOT_CHANGED', () => {
    const s = crapsAfterFirstThrow((t) => {
      const c = t.bet('P1', 'PASS_LINE', 5_000);
      t.throw([5, 6]).settle(c, 'WIN', 5_000);
    });
    assert.deepEqual(ids(s), []);
    assert.deepEqual(ids(s, ['C1']), ['CRAPS.SHOOTER.NOT_CHANGED']);
    const f = replay(s.events, ['C1']).findings[0]!;
    assert.match(f.summary, /come-out craps/);
    assert.deepEqual(f.interpretations, ['C1']);
    assert.ok(f.citations.some((c) => /art\. 4\.º/.test(c.reference)));
  });
  it('C1: the dice passed as a seven-out after that come-out 12 — chosen: SHOOTER.WRONGLY_CHANGED; alternative: nothing', () => {
    const s = crapsAfterFirstThrow((t) => {
      t.shooter('P2', 'P1', 'SEVEN_OUT');
      const c = t.bet('P2', 'PASS_LINE', 5_000);
      t.throw([5, 6], { shooter: 'P2' }).settle(c, 'WIN', 5_000);
    });
    assert.deepEqual(ids(s), ['CRAPS.SHOOTER.WRONGLY_CHANGED']);
    assert.deepEqual(ids(s, ['C1']), []);
  });
  it('C1: a come-out craps on the shooter’s first throw, P1 throws on — agree (nothing: not "after the first throw")', () => {
    const s = new CrapsScript().open();
    const b = s.bet('P1', 'PASS_LINE', 5_000);
    s.throw([1, 1]).settle(b, 'LOSE');
    const c = s.bet('P1', 'PASS_LINE', 5_000);
    s.throw([5, 6]).settle(c, 'WIN', 5_000).close();
    assert.deepEqual(ids(s, ['C1']), ids(s));
    assert.deepEqual(ids(s), []);
  });

  it('C2: a MOP 200 Horn on 12 — chosen: 27:4 of the whole stake (MOP 1,350); alternative: the winning unit alone, 15:16 (MOP 187.50)', () => {
    const s = new CrapsScript().open();
    const p = s.bet('P1', 'PASS_LINE', 5_000);
    const h = s.bet('P1', 'HORN', 20_000);
    s.throw([6, 6]).settle(p, 'LOSE').settle(h, 'WIN', 135_000).close();
    assert.deepEqual(expected(s), ['PASS_LINE LOSE 0', 'HORN WIN 135000']);
    assert.deepEqual(expected(s, ['C2']), ['PASS_LINE LOSE 0', 'HORN WIN 18750']);
    assert.deepEqual(ids(s), []);
    assert.deepEqual(ids(s, ['C2']), ['CRAPS.PAYOUT.MISMATCH']);
  });
  it('C2: a Horn on 3 — chosen: 3:1; alternative: neither won nor lost (the unit’s 3:1 equals the three units lost)', () => {
    const s = new CrapsScript().open();
    const h = s.bet('P1', 'HORN', 20_000);
    s.throw([1, 2]).settle(h, 'WIN', 60_000).close();
    assert.deepEqual(expected(s), ['HORN WIN 60000']);
    assert.deepEqual(expected(s, ['C2']), ['HORN PUSH 0']);
  });
  it('C2: a Horn on 7 — agree (all four units lost)', () => {
    const s = new CrapsScript().open();
    const h = s.bet('P1', 'HORN', 20_000);
    s.throw([3, 4]).settle(h, 'LOSE').close();
    assert.deepEqual(expected(s, ['C2']), expected(s));
    assert.deepEqual(ids(s, ['C2']), []);
  });
  it('C2: the whole-stake ratio is the four units settled apart (a unit at 27:4 or 3:1, three units lost)', () => {
    const rules = crapsReadings(CRAPS_2010, ['C2']);
    assert.equal(rules.horn, HORN_ON_WINNING_UNIT);
    for (const unit of [1_000, 2_500, 12_500]) {
      const stake = 4 * unit;
      const onTwelve = resolveThrow(rules, { kind: 'HORN', number: null, point: null }, [6, 6], 2);
      assert.equal(winningsOf(stake, onTwelve.pays!, { unit: 1, mode: 'down' }), (unit * 27) / 4 - 3 * unit);
    }
    assert.equal(crapsReadings(CRAPS_2010, []), CRAPS_2010);
    assert.equal(crapsReadings(CRAPS_2010, ['T1', 'M1']), CRAPS_2010);
  });
});
