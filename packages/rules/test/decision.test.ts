import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { playValue, PlayDecisionOracle } from '../src/f3cp/math/index.ts';
import { allThreeCardHands, handIndex, rankOfAscending } from '../src/f3cp/math/hands.ts';
import { F3CP_2025, F3CP_2025A } from '../src/f3cp/rule-set.ts';
import { cards } from './helpers.ts';

describe('the value of playing with other hands known (collusion baseline)', () => {
  const oracle = new PlayDecisionOracle(F3CP_2025A);

  it('follows the published strategy with no other card known: Q-6-4 plays, Q-6-3 folds', () => {
    assert.equal(oracle.plays(cards('Qh 6d 4c'), []), true);
    assert.equal(oracle.plays(cards('Qh 6d 3c'), []), false);
    assert.equal(playValue(F3CP_2025A, cards('Qh 6d 3c'), []).play, false);
  });

  it('changes when the banker cannot hold the high cards the group has seen', () => {
    // with three aces and three kings out of the banker's reach, fewer banker hands qualify: J-8-5 becomes worth playing
    assert.equal(oracle.plays(cards('Jh 8d 5c'), []), false);
    assert.equal(oracle.plays(cards('Jh 8d 5c'), cards('As Ad Ac Ks Kd Kc')), true);
    assert.equal(playValue(F3CP_2025A, cards('Jh 8d 5c'), cards('As Ad Ac Ks Kd Kc')).play, true);
  });

  it('ranks three ascending cards as the hand index does, for every hand', () => {
    const t = allThreeCardHands();
    const index = handIndex();
    let checked = 0;
    for (let a = 0; a < 52; a++)
      for (let b = a + 1; b < 52; b++)
        for (let c = b + 1; c < 52; c++) {
          const rank = rankOfAscending(a, b, c);
          assert.equal(rank, index[a * 2704 + b * 52 + c], `${a} ${b} ${c}`);
          assert.deepEqual([t.cards[rank * 3], t.cards[rank * 3 + 1], t.cards[rank * 3 + 2]], [a, b, c]);
          checked++;
        }
    assert.equal(checked, 22_100);
  });

  it('property: the fast oracle equals the brute-force enumeration exactly, for 0 to 6 known cards', () => {
    const deal = fc.uniqueArray(fc.integer({ min: 0, max: 51 }), { minLength: 9, maxLength: 9 });
    fc.assert(
      fc.property(
        deal,
        fc.integer({ min: 0, max: 6 }),
        fc.constantFrom(F3CP_2025, F3CP_2025A),
        (d, k, rules) => {
          const o = rules === F3CP_2025A ? oracle : new PlayDecisionOracle(rules);
          const player = d.slice(0, 3);
          const known = d.slice(3, 3 + k);
          const fast = o.value(player, known);
          const slow = playValue(rules, player, known);
          assert.equal(BigInt(fast.num) * slow.evPlay.den, slow.evPlay.num * BigInt(fast.den));
          assert.equal(o.plays(player, known), slow.play);
        },
      ),
      { numRuns: 300 },
    );
  });
});
