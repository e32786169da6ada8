import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CRAPS_2010, crapsHouseEdges, fraction, toDecimal, type Fraction } from '../../src/index.ts';

const edge = (bet: string): Fraction => {
  const e = crapsHouseEdges(CRAPS_2010).find((x) => x.bet === bet);
  assert.ok(e, bet);
  return e.houseEdge;
};
const pct = (f: Fraction, digits = 3): string => toDecimal({ num: f.num * 100n, den: f.den }, digits);

/** Published figures for these payouts (docs/published-figures.md names the sources). */
describe('craps-2010 house edges from the engine, against published figures', () => {
  it("Pass Line 7/495 = 1.414%, Don't Pass 3/220 = 1.364% (bar 12)", () => {
    assert.deepEqual(edge('PASS_LINE'), fraction(7, 495));
    assert.equal(pct(edge('PASS_LINE')), '1.414');
    assert.deepEqual(edge('DONT_PASS'), fraction(3, 220));
    assert.equal(pct(edge('DONT_PASS')), '1.363'); // 1.3636…%, published rounded as 1.364%
    assert.deepEqual(edge('COME'), edge('PASS_LINE'));
    assert.deepEqual(edge('DONT_COME'), edge('DONT_PASS'));
  });

  it('Any 7 at 4:1 is 1/6 = 16.67%', () => assert.deepEqual(edge('ANY_SEVEN'), fraction(1, 6)));

  it('Big 6 and Big 8 at 7:6 are 1/66 = 1.52% (read as C3: other sums decide nothing)', () => {
    assert.deepEqual(edge('BIG_NUMBER 6'), fraction(1, 66));
    assert.deepEqual(edge('BIG_NUMBER 8'), fraction(1, 66));
    assert.equal(pct(edge('BIG_NUMBER 6'), 2), '1.51'); // 1.5151…%, published as 1.52%
  });

  it('Field with the 12 at 2:1 is 1/18 = 5.56%, at 3:1 is 1/36 = 2.78%', () => {
    assert.deepEqual(edge('FIELD (12 pays 2:1)'), fraction(1, 18));
    assert.deepEqual(edge('FIELD (12 pays 3:1)'), fraction(1, 36));
  });

  it('Horn at 27:4 / 3:1 on the whole stake (C2) is 1/8 = 12.5%, the mean of Aces, Boxcars (5/36) and Ace-Deuce, Eleven (1/9)', () => {
    assert.deepEqual(edge('HORN'), fraction(1, 8));
    const parts = [edge('ACES'), edge('BOXCARS'), edge('ACE_DEUCE'), edge('ELEVEN')];
    const sum = parts.reduce((a, b) => fraction(a.num * b.den + b.num * a.den, a.den * b.den));
    assert.deepEqual(fraction(sum.num, sum.den * 4n), fraction(1, 8));
  });

  it('the odds bets pay true odds: 0 edge on every point', () => {
    for (const kind of ['PASS_ODDS', 'DONT_PASS_ODDS', 'COME_ODDS', 'DONT_COME_ODDS'])
      for (const p of [4, 5, 6, 8, 9, 10])
        assert.deepEqual(edge(`${kind} ${p}`), fraction(0), `${kind} ${p}`);
  });

  it('Hard 6/8 at 9:1 are 1/11, Hard 4/10 at 7:1 are 1/9; Big 5/9 at 7:5 1/25, Big 4/10 at 9:5 1/15', () => {
    assert.deepEqual(edge('HARD_WAY 6'), fraction(1, 11));
    assert.deepEqual(edge('HARD_WAY 4'), fraction(1, 9));
    assert.deepEqual(edge('BIG_NUMBER 5'), fraction(1, 25));
    assert.deepEqual(edge('BIG_NUMBER 4'), fraction(1, 15));
  });
});
