import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareAntePlay, f3cpMathReport, type F3cpMathReport } from '../src/f3cp/math/index.ts';
import { F3CP_2025, F3CP_2025A } from '../src/f3cp/rule-set.ts';
import { fraction, toDecimal } from '../src/fraction.ts';

// Published figures (docs/published-figures.md): Q-6-4 strategy; Ante/Play house edge 3.37% of the Ante and
// 2.01% of total action for the 5/4/1 Ante bonus (Grochowski, Casino City Times); three-card counts (Wizard of Odds).
const amended: F3cpMathReport = f3cpMathReport(F3CP_2025A);
const published: F3cpMathReport = f3cpMathReport(F3CP_2025);
const pct2 = (f: { num: bigint; den: bigint }) => toDecimal({ num: f.num * 100n, den: f.den }, 2);

describe('exact math, f3cp-2025a (standard hand order)', () => {
  it('finds the published optimal strategy: play Q-6-4 or better, with no exception', () => {
    assert.equal(amended.antePlay.weakestPlayed, 'Q-6-4');
    assert.equal(amended.antePlay.thresholdIsClean, true);
    const q63 = amended.antePlay.groups.filter(
      (g) => g.description.startsWith('Q-6-3') && g.hand === 'high-card',
    );
    assert.ok(q63.length === 4 && q63.every((g) => !g.play), 'Q-6-3 folds (Q-6-3 suited is a flush)');
  });

  it('gives the published Ante house edge 3.37% and element of risk 2.01%', () => {
    assert.equal(pct2(amended.antePlay.houseEdge), '3.37');
    assert.equal(pct2(amended.antePlay.elementOfRisk), '2.01');
    assert.deepEqual(amended.antePlay.houseEdge, fraction(13_733_780n, 407_170_400n));
    assert.equal(amended.antePlay.comparisons, 407_170_400);
    assert.deepEqual(amended.antePlay.playProbability, fraction(14_900, 22_100));
  });

  it('has 1,755 suit-pattern groups covering all 22,100 hands', () => {
    assert.equal(amended.antePlay.groups.length, 1755);
    assert.equal(
      amended.antePlay.groups.reduce((s, g) => s + g.hands, 0),
      22_100,
    );
  });

  it('Pair Plus 40/25/5/4/1 edge equals the pay table applied to the class counts', () => {
    const c = amended.threeCardHands.counts;
    const ev =
      40 * c['straight-flush'] +
      25 * c['three-of-a-kind'] +
      5 * c.straight +
      4 * c.flush +
      1 * c.pair -
      c['high-card'];
    assert.deepEqual(amended.pairPlus.houseEdge, fraction(-ev, 22_100));
    assert.equal(pct2(amended.pairPlus.houseEdge), '6.75');
  });

  it('Six Card Bonus 500/100/50/20/15/10/7 edge equals the pay table applied to the published six-card counts', () => {
    const c = amended.sixCardBonus.counts;
    const wins =
      500 * c['royal-flush'] +
      100 * c['straight-flush'] +
      50 * c['four-of-a-kind'] +
      20 * c['full-house'] +
      15 * c.flush +
      10 * c.straight +
      7 * c['three-of-a-kind'];
    const losses = c['two-pair'] + c.pair + c['high-card'];
    assert.deepEqual(amended.sixCardBonus.houseEdge, fraction(losses - wins, 20_358_520));
    assert.equal(pct2(amended.sixCardBonus.houseEdge), '13.43');
  });

  it('counts the Progressive Jackpot qualifying hands among all 2,598,960 five-card hands', () => {
    assert.deepEqual(amended.progressiveJackpot.qualifying, {
      'royal-flush': 4,
      'straight-flush': 36,
      'four-of-a-kind': 624,
      'full-house': 3744,
      flush: 5108,
    });
  });
});

describe('exact math, f3cp-2025 (89/2025 as published: Straight and Flush above Three of a Kind)', () => {
  it('changes individual hands, not the total: the Ante edge is equal by symmetry, per-hand values differ', () => {
    assert.deepEqual(published.antePlay.houseEdge, amended.antePlay.houseEdge);
    const diffs = compareAntePlay(published.antePlay, amended.antePlay);
    assert.ok(diffs.length > 0);
    // three of a kind loses to straights and flushes under the published order: worth less there
    const trips = diffs.filter((d) => d.description.startsWith('A-A-A'));
    assert.equal(trips.length, 1);
    assert.ok(trips[0]!.evPlayA.num * trips[0]!.evPlayB.den < trips[0]!.evPlayB.num * trips[0]!.evPlayA.den);
    // a high-card hand meets no comparison the orders disagree on: Q-6-4 offsuit keeps its value; Q-6-4 suited is a flush
    assert.ok(!diffs.some((d) => d.description === 'Q-6-4 offsuit'));
    assert.ok(diffs.some((d) => d.description === 'Q-6-4 suited'));
    assert.equal(published.antePlay.weakestPlayed, 'Q-6-4');
  });
});
