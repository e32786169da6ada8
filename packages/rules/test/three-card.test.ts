import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { F3CP_2025, F3CP_2025A } from '../src/f3cp/rule-set.ts';
import { threeCardCounts } from '../src/f3cp/math/index.ts';
import {
  classifyThree,
  classOfThree,
  evaluateThree,
  handOrder,
  qualifiesQueenHigh,
} from '../src/poker/three-card.ts';
import { cards } from './helpers.ts';

const A = F3CP_2025A.handOrder;
const P = F3CP_2025.handOrder;
const value = (text: string, order = A) => evaluateThree(cards(text), order);
const cls = (text: string) => {
  const c = cards(text);
  return classOfThree(classifyThree(c[0]!, c[1]!, c[2]!));
};
const threeDistinct = fc.uniqueArray(fc.integer({ min: 0, max: 51 }), { minLength: 3, maxLength: 3 });

describe('three-card evaluator (art. 6.º, 7.º n.º 1)', () => {
  it('classifies all 22,100 hands into the published counts (48, 52, 720, 1096, 3744, 16440)', () => {
    assert.deepEqual(threeCardCounts(), {
      'straight-flush': 48,
      'three-of-a-kind': 52,
      straight: 720,
      flush: 1096,
      pair: 3744,
      'high-card': 16440,
    });
  });

  it('orders straights by art. 6.º 2): 3-2-A the lowest, A-K-Q the highest, K-A-2 no straight (J7)', () => {
    assert.equal(cls('3h 2d As'), 'straight');
    assert.equal(cls('Ah Kd Qs'), 'straight');
    assert.equal(cls('Kh Ad 2s'), 'high-card');
    assert.ok(value('3h 2d As') < value('4h 3d 2s'));
    assert.ok(value('Ah Kd Qs') > value('Kh Qd Js'));
    assert.ok(value('3s 2s As') < value('4h 3h 2h'), '3-2-A is also the lowest straight flush');
    assert.equal(value('Ah Kh Qh'), value('As Ks Qs'), 'equal straight flushes tie');
  });

  it('breaks ties inside a class as art. 7.º n.º 1 says', () => {
    assert.ok(value('Kh 9h 2h') > value('Ks 8s 7s'), 'flush card by card');
    assert.ok(value('Kh 9h 3h') > value('Ks 9s 2s'));
    assert.equal(value('Kh 9h 3h'), value('Kd 9d 3d'));
    assert.ok(value('8h 8d 2s') > value('7h 7d As'), 'pair by the pair');
    assert.ok(value('8h 8d 3s') > value('8s 8c 2h'), 'then the odd card');
    assert.ok(value('4h 4d 4s') > value('3h 3d 3s'));
    assert.ok(value('Ah 9d 2s') > value('Kh Qd 9s'));
    assert.equal(value('Ah 9d 2s'), value('Ad 9c 2h'), 'equal three odd cards tie (J2)');
  });

  it('puts Three of a Kind below Straight and Flush as published (f3cp-2025) and above them as amended (f3cp-2025a)', () => {
    const trips = '2h 2d 2s';
    const flush = '9h 5h 2h';
    const straight = '5d 4s 3h';
    assert.ok(value(trips, A) > value(straight, A) && value(straight, A) > value(flush, A));
    assert.ok(value(straight, P) > value(flush, P) && value(flush, P) > value(trips, P));
    assert.ok(value('Qh Jh Th', P) > value('Ah Ad As', P) && value('Ah Ad As', A) > value('Kh Qd Js', A));
  });

  it('qualifies the banker at Queen-high: Q-3-2 qualifies, J-10-8 does not, any pair does', () => {
    const q = (t: string) => {
      const c = cards(t);
      return qualifiesQueenHigh(classifyThree(c[0]!, c[1]!, c[2]!));
    };
    assert.equal(q('Qh 3d 2s'), true);
    assert.equal(q('Jh Td 8s'), false);
    assert.equal(q('2h 2d 3s'), true);
    assert.equal(q('4h 3d 2s'), true, 'a straight made of low cards qualifies (J11)');
    assert.equal(q('7h 4h 2h'), true, 'a flush made of low cards qualifies (J11)');
    assert.equal(q('Ah 4d 2s'), true);
  });

  it('property: the value ignores which suits the cards have, except for flushes (suit renaming changes nothing)', () => {
    fc.assert(
      fc.property(
        threeDistinct,
        fc.constantFrom([1, 0, 3, 2], [3, 2, 1, 0], [2, 3, 0, 1], [1, 2, 3, 0]),
        (hand, perm) => {
          const renamed = hand.map((c) => (c & ~3) | perm[c & 3]!);
          assert.equal(evaluateThree(renamed, A), evaluateThree(hand, A));
          assert.equal(evaluateThree(renamed, P), evaluateThree(hand, P));
        },
      ),
    );
  });

  it('property: the two orders agree on every pair of hands whose classes are both outside {three of a kind, straight, flush}', () => {
    const moved = new Set(['three-of-a-kind', 'straight', 'flush']);
    fc.assert(
      fc.property(threeDistinct, threeDistinct, (x, y) => {
        const cx = classOfThree(classifyThree(x[0]!, x[1]!, x[2]!));
        const cy = classOfThree(classifyThree(y[0]!, y[1]!, y[2]!));
        fc.pre(!(moved.has(cx) && moved.has(cy) && cx !== cy));
        assert.equal(
          Math.sign(evaluateThree(x, A) - evaluateThree(y, A)),
          Math.sign(evaluateThree(x, P) - evaluateThree(y, P)),
        );
      }),
    );
  });

  it('rejects a hand order that does not list every class once', () => {
    assert.throws(() =>
      handOrder(['straight-flush', 'straight-flush', 'straight', 'flush', 'pair', 'high-card']),
    );
  });
});
