import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { playValue, PlayDecisionOracle } from '../src/f3cp/math/index.ts';
import { allThreeCardHands, cardsOf, handIndex, HANDS, rankOfAscending } from '../src/f3cp/math/hands.ts';
import { F3CP_2008A, F3CP_2025, F3CP_2025A, withReadings, type F3cpRuleSet } from '../src/f3cp/rule-set.ts';
import { settleF3cpRound } from '../src/f3cp/settle/index.ts';
import { formatCard, type Card } from '../src/cards.ts';
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

describe('the value of playing under the readings that change how hands compare (J7, J11, H1, H7)', () => {
  const t = allThreeCardHands();
  /** The Ante and Play of one hand settled against every banker hand the known cards leave, one by one. */
  const bruteForce = (rules: F3cpRuleSet, player: Card[], known: Card[]) => {
    const out = new Set([...player, ...known]);
    let sum = 0n;
    let n = 0n;
    for (let b = 0; b < HANDS; b++) {
      const banker = cardsOf(t, b);
      if (banker.some((c) => out.has(c))) continue;
      const s = settleF3cpRound(
        { seats: [{ seat: 1, cards: player, bets: { ante: 1, play: 1 }, decision: 'play' }], banker },
        rules,
      );
      for (const l of s.lines) sum += BigInt(l.net);
      n++;
    }
    return { num: sum, den: n };
  };
  const variants: [string, F3cpRuleSet][] = [
    ['f3cp-2025a', F3CP_2025A],
    ['f3cp-2025a J2', withReadings(F3CP_2025A, ['J2'])],
    ['f3cp-2025a J3:2', withReadings(F3CP_2025A, ['J3:2'])],
    ['f3cp-2025a J7', withReadings(F3CP_2025A, ['J7'])],
    ['f3cp-2025a J11', withReadings(F3CP_2025A, ['J11'])],
    ['f3cp-2025a J7 J11', withReadings(F3CP_2025A, ['J7', 'J11'])],
    ['f3cp-2008a', F3CP_2008A],
    ['f3cp-2008a H1', withReadings(F3CP_2008A, ['H1'])],
    ['f3cp-2008a H7', withReadings(F3CP_2008A, ['H7'])],
  ];
  // a 3-2-A straight and straight flush (J7), A-K-Q suited (H1), K-Q-J, a pair without a Q and hands without a
  // card of Q or higher (J11, H7), the published threshold Q-6-4 / Q-6-3
  const hands = [
    'Ah 2d 3c',
    'As 2s 3s',
    'As Ks Qs',
    'Kh Qd Jc',
    '2h 2d 5c',
    'Qh 6d 4c',
    'Qh 6d 3c',
    '9h 7d 4c',
  ];

  for (const [name, rules] of variants)
    it(`${name}: playValue and the fast oracle equal every banker hand settled one by one`, () => {
      const oracle = new PlayDecisionOracle(rules);
      const cases: [Card[], Card[]][] = [
        ...hands.map((h): [Card[], Card[]] => [cards(h), []]),
        [cards('Jh 8d 5c'), cards('As Ad Ac Ks Kd Kc')],
        [cards('2c 3d 5h'), cards('Qs Qd Kc')],
      ];
      for (const [player, known] of cases) {
        const exact = bruteForce(rules, player, known);
        const slow = playValue(rules, player, known);
        const what = `${name}, ${player.map(formatCard).join(' ')} with ${known.length} known`;
        assert.equal(slow.evPlay.num * exact.den, exact.num * slow.evPlay.den, `playValue: ${what}`);
        const fast = oracle.value(player, known);
        assert.equal(BigInt(fast.num) * exact.den, exact.num * BigInt(fast.den), `oracle: ${what}`);
        assert.equal(oracle.plays(player, known), exact.num > -exact.den, `decision: ${what}`);
      }
    });
});
