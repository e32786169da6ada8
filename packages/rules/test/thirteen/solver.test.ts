import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { shuffledDeck, seededRng } from '../../src/rng.ts';
import {
  arrangeAlone,
  bestArrangementAgainst,
  judgeArrangement,
  marginOf,
  scorePlace,
  type Arrangement,
  type JudgedArrangement,
} from '../../src/thirteen/index.ts';
import { cards } from '../helpers.ts';

/**
 * The solver against brute force: every one of the 72,072 ways to split 13 cards into a back, a middle and a
 * front, judged by the plain code (judgeArrangement, scorePlace) without the solver's tables or bounds.
 */
function bruteForceBest(
  hand: readonly number[],
  banker: JudgedArrangement,
): { margin: number; splits: number } {
  let best = Number.NEGATIVE_INFINITY;
  let splits = 0;
  const idx = [...Array(13).keys()];
  for (let b = 0; b < 1 << 13; b++) {
    if (popcount(b) !== 5) continue;
    const rest = idx.filter((i) => !(b & (1 << i)));
    for (let m = 0; m < 1 << 8; m++) {
      if (popcount(m) !== 5) continue;
      splits++;
      const a: Arrangement = {
        back: idx.filter((i) => b & (1 << i)).map((i) => hand[i]!),
        middle: rest.filter((_, j) => m & (1 << j)).map((i) => hand[i]!),
        front: rest.filter((_, j) => !(m & (1 << j))).map((i) => hand[i]!),
      };
      const judged = judgeArrangement(a);
      if (judged.foul) continue;
      best = Math.max(best, marginOf(scorePlace(judged, banker)));
    }
  }
  return { margin: best, splits };
}

const popcount = (x: number): number => {
  let n = 0;
  for (let v = x; v; v &= v - 1) n++;
  return n;
};

function checkAgainstBruteForce(hand: number[], banker: JudgedArrangement): void {
  const solved = bestArrangementAgainst(hand, banker);
  const a = solved.arrangement;
  assert.equal(solved.judged.foul, false, 'the solver returned a foul');
  assert.deepEqual(
    [...a.front, ...a.middle, ...a.back].sort((x, y) => x - y),
    [...hand].sort((x, y) => x - y),
  );
  assert.equal(solved.margin, marginOf(scorePlace(judgeArrangement(a), banker)));
  const brute = bruteForceBest(hand, banker);
  assert.equal(brute.splits, 72_072);
  assert.equal(
    solved.margin,
    brute.margin,
    `hand ${hand.join(',')}: solver ${solved.margin}, best ${brute.margin}`,
  );
}

describe('13 Cards arrangement solver (art. 7.º–10.º, T1)', () => {
  it('finds a legal arrangement no other split beats, for 24 random deals (brute force over 72,072 splits)', () => {
    const r = seededRng(1989);
    for (let i = 0; i < 24; i++) {
      const deck = shuffledDeck(r);
      const banker = arrangeAlone(deck.slice(0, 13)).judged;
      assert.equal(banker.foul, false, 'the banker arranged alone must not foul');
      checkAgainstBruteForce(deck.slice(13 + 13 * (i % 3), 26 + 13 * (i % 3)), banker);
    }
  });

  it('finds three flushes (a natural) when that is the best the hand can do', () => {
    // clubs 2..7 (6), hearts 2,5,9,J,K (5) … arranged: front 3 spades, middle 5 hearts, back 5 clubs
    const hand = cards('2c 3c 5c 8c Tc 2h 5h 9h Jh Kh 3s 6s 9s');
    const banker = judgeArrangement({
      front: cards('Ad Ac 4d'),
      middle: cards('Qd Qs Qc 7d 7h'),
      back: cards('Kd Ks Kc 8d 8h'),
    });
    const solved = bestArrangementAgainst(hand, banker);
    assert.equal(solved.judged.natural, 'three-flushes');
    assert.equal(solved.margin, 3);
    checkAgainstBruteForce(hand, banker);
  });

  it('against a banker natural, only a natural avoids the loss', () => {
    const banker = judgeArrangement({
      front: cards('2c 2d 3c'),
      middle: cards('3d 4c 4d 5c 5d'),
      back: cards('6c 6d 7c 7d 8c'),
    });
    assert.equal(banker.natural, 'six-pairs-and-a-half');
    const hand = cards('Ah Kh Qh Jh 9h As Ks Qs Js 9s Ad Kd Qd');
    checkAgainstBruteForce(hand, banker);
  });

  it('a dragon wins 3 points whatever the arrangement', () => {
    const hand = cards('Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Jh Qs Kc');
    const banker = arrangeAlone(cards('Ad Ah As Kd Kh Ks Qd Qh Qc Jd Js Jc Tc')).judged;
    const solved = bestArrangementAgainst(hand, banker);
    assert.equal(solved.judged.natural, 'dragon');
    assert.equal(solved.margin, 3);
  });

  it('refuses a hand that is not 13 different cards, naming the problem', () => {
    const banker = arrangeAlone(cards('Ad Ah As Kd Kh Ks Qd Qh Qc Jd Js Jc Tc')).judged;
    assert.throws(() => bestArrangementAgainst(cards('2c 3c'), banker), /13 cards/);
    assert.throws(
      () => bestArrangementAgainst(cards('2c 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc'), banker),
      /twice/,
    );
    assert.throws(
      () => bestArrangementAgainst(cards('Ad 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc'), banker),
      /both in the hand and the banker's/,
    );
  });
});
