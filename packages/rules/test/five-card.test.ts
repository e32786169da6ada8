import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { enumerateBestFive } from '../src/f3cp/math/index.ts';
import { bestFiveClass, bestFiveClassId } from '../src/poker/five-card.ts';
import { cards } from './helpers.ts';

/** Best of all five-card subsets, by the plain five-card evaluator: the definition art. 14.º uses. */
function bestBySubsets(hand: number[]): number {
  let best = -1;
  const n = hand.length;
  for (let mask = 0; mask < 1 << n; mask++) {
    let bits = 0;
    for (let i = 0; i < n; i++) if (mask & (1 << i)) bits++;
    if (bits !== 5) continue;
    best = Math.max(
      best,
      bestFiveClassId(
        hand.filter((_, i) => mask & (1 << i)),
        5,
      ),
    );
  }
  return best;
}

describe('five-card evaluator (art. 7.º n.º 2 and 3)', () => {
  it('counts all 2,598,960 five-card hands as published', () => {
    const { counts, total } = enumerateBestFive(5);
    assert.equal(total, 2_598_960);
    assert.deepEqual(counts, {
      'royal-flush': 4,
      'straight-flush': 36,
      'four-of-a-kind': 624,
      'full-house': 3744,
      flush: 5108,
      straight: 10200,
      'three-of-a-kind': 54912,
      'two-pair': 123552,
      pair: 1098240,
      'high-card': 1302540,
    });
  });

  it('counts the best five of all 20,358,520 six-card sets as published (Alspach; Durango Bill table)', () => {
    const { counts, total } = enumerateBestFive(6);
    assert.equal(total, 20_358_520);
    assert.deepEqual(counts, {
      'royal-flush': 188,
      'straight-flush': 1656,
      'four-of-a-kind': 14664,
      'full-house': 165984,
      flush: 205792,
      straight: 361620,
      'three-of-a-kind': 732160,
      'two-pair': 2532816,
      pair: 9730740,
      'high-card': 6612900,
    });
  });

  it('names the classes of known hands, wheel and broadway included', () => {
    assert.equal(bestFiveClass(cards('Ah Kh Qh Jh Th')), 'royal-flush');
    assert.equal(bestFiveClass(cards('5s 4s 3s 2s As')), 'straight-flush');
    assert.equal(bestFiveClass(cards('5s 4d 3s 2s Ah')), 'straight');
    assert.equal(bestFiveClass(cards('Ks Ad 2s 3c 4h')), 'high-card', 'K-A-2-3-4 does not wrap');
    assert.equal(bestFiveClass(cards('9h 9d 9s 4c 4h 4d')), 'full-house', 'two triples make a full house');
    assert.equal(bestFiveClass(cards('Ah Kh Qh Jh Th 9h')), 'royal-flush');
    assert.equal(bestFiveClass(cards('7h 7d 7s 7c 2h 3d')), 'four-of-a-kind');
    assert.equal(bestFiveClass(cards('2h 5h 8h Jh Kh 3h')), 'flush');
    assert.throws(() => bestFiveClass(cards('2h 5h 8h Jh')));
  });

  it('property: the direct evaluation of 6 and 7 cards equals the best of their five-card subsets', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 51 }), { minLength: 6, maxLength: 7 }), (hand) => {
        assert.equal(bestFiveClassId(hand), bestBySubsets(hand));
      }),
      { numRuns: 20_000 },
    );
  });

  it('property: suit-heavy six-card sets (flush and straight-flush candidates) agree with the subsets too', () => {
    const suited = fc
      .uniqueArray(fc.integer({ min: 0, max: 12 }), { minLength: 5, maxLength: 6 })
      .chain((ranks) =>
        fc.tuple(fc.constant(ranks), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 51 })),
      );
    fc.assert(
      fc.property(suited, ([ranks, suit, extra]) => {
        const hand = ranks.map((r) => r * 4 + suit);
        if (hand.length === 5 && !hand.includes(extra)) hand.push(extra);
        assert.equal(bestFiveClassId(hand), bestBySubsets(hand));
      }),
      { numRuns: 5_000 },
    );
  });
});
