import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toDecimal, type Fraction } from '../src/fraction.ts';
import { f3cp2008MathReport, pairPlusEdge, threeCardCounts } from '../src/f3cp/math/index.ts';
import { F3CP_2008A, withReadings } from '../src/f3cp/rule-set.ts';

// Published figures (docs/published-figures.md) for the pay tables of 78/2008, which are the classic Three Card
// Poker ones: Ante bonus 5/4/1 (art. 9.º 8)): optimal strategy Q-6-4 (reviewpokerrooms.com, "3 Card Poker - Ante
// and Play Analysis"; Casino City, "About Three Card Poker"), house edge 3.37% of the Ante and 2.01% of total
// action (John Grochowski, Casino City Times, "The Three Card Poker problem", 2017-12-28); three-card counts
// 48/52/720/1,096/3,744/16,440 (Wizard of Odds, "Three Card Poker"). No published house edge was found for the
// Pair Plus table of art. 10.º (40/25/5/4/1): it is checked against the published counts times that table.

const pct2 = (f: Fraction) => toDecimal({ num: f.num * 100n, den: f.den }, 2);
const report = f3cp2008MathReport(F3CP_2008A);

describe('exact math, f3cp-2008a (78/2008 with art. 9.º re-worded by 97/2008), from the engine', () => {
  it('gives the published three-card counts', () => {
    assert.deepEqual(report.threeCardHands.counts, {
      'high-card': 16_440,
      pair: 3_744,
      flush: 1_096,
      straight: 720,
      'three-of-a-kind': 52,
      'straight-flush': 48,
    });
  });

  it('finds the published optimal strategy (Q-6-4) and house edge 3.37% of the Ante, 2.01% of total action', () => {
    assert.equal(report.antePlay.weakestPlayed, 'Q-6-4');
    assert.equal(report.antePlay.thresholdIsClean, true);
    assert.equal(pct2(report.antePlay.houseEdge), '3.37');
    assert.equal(pct2(report.antePlay.elementOfRisk), '2.01');
    // exact: 13,733,780 / 407,170,400, reduced
    assert.deepEqual([report.antePlay.houseEdge.num, report.antePlay.houseEdge.den], [686_689n, 20_358_520n]);
  });

  it('Pair Plus 40/25/5/4/1 equals the art. 10.º table applied to the published counts: 1,492/22,100 = 6.7511%', () => {
    const published = 48 * 40 + 52 * 25 + 720 * 5 + 1_096 * 4 + 3_744 * 1 - 16_440;
    assert.equal(published, -1_492);
    assert.deepEqual([report.pairPlus.houseEdge.num, report.pairPlus.houseEdge.den], [373n, 5_525n]); // 1,492/22,100
    assert.equal(
      toDecimal({ num: report.pairPlus.houseEdge.num * 100n, den: report.pairPlus.houseEdge.den }, 4),
      '6.7511',
    );
  });

  it('H1 alternative (A-K-Q suited a Flush): 44 straight flushes, 1,100 flushes; Pair Plus edge 1,636/22,100', () => {
    const alt = withReadings(F3CP_2008A, ['H1']);
    const counts = threeCardCounts(alt);
    assert.equal(counts['straight-flush'], 44);
    assert.equal(counts.flush, 1_100);
    const edge = pairPlusEdge(alt);
    assert.deepEqual([(edge.num * 22_100n) / edge.den, (edge.num * 22_100n) % edge.den], [1_636n, 0n]);
  });
});
