import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { citationKey } from '../src/citations/citation.ts';
import { F3CP_2008, F3CP_2008A, F3CP_2025A, withReadings } from '../src/f3cp/rule-set.ts';
import { settleF3cpRound, type F3cpSettlement } from '../src/f3cp/settle/index.ts';
import type { F3cpRoundFacts } from '../src/f3cp/facts.ts';
import { cards } from './helpers.ts';

const seat = (n: number, hand: string, bets: Record<string, number>, decision?: 'play' | 'fold') => ({
  seat: n,
  cards: cards(hand),
  bets: { ...bets, ...(bets.ante && decision !== 'fold' ? { play: bets.ante } : {}) },
  ...(decision ? { decision } : bets.ante ? { decision: 'play' as const } : {}),
});
const lines = (s: F3cpSettlement, n: number) =>
  Object.fromEntries(s.lines.filter((l) => l.seat === n).map((l) => [l.bet, [l.outcome, l.payout]]));
const keys = (s: F3cpSettlement) => [...new Set(s.lines.flatMap((l) => l.citations.map(citationKey)))];

describe('settlement under the 2008 rules (78/2008 art. 9.º–10.º, art. 9.º as re-worded by 97/2008)', () => {
  it('croupier below Queen-high (J-9-4): Ante 1:1, Play returned, Ante bonus and Pair Plus whatever the croupier holds (9.º 5), 8), 9))', () => {
    const facts: F3cpRoundFacts = {
      seats: [seat(1, 'Ah Kh Qh', { ante: 10_000, pairPlus: 10_000 })],
      banker: cards('Jc 9d 4s'),
    };
    const s = settleF3cpRound(facts, F3CP_2008A);
    assert.equal(s.banker.qualifies, false);
    assert.deepEqual(lines(s, 1), {
      ante: ['win', 10_000],
      play: ['push', 0],
      anteBonus: ['win', 50_000],
      pairPlus: ['win', 400_000],
    });
    assert.ok(keys(s).includes('78/2008 art.9 al.5 [97/2008]'));
    assert.ok(keys(s).includes('78/2008 art.9 al.8 sub.1'), 'alínea 8) kept in 78/2008 wording (H5)');
    assert.ok(
      keys(s).every((k) => k.startsWith('78/2008 ')),
      keys(s).join(', '),
    );
  });

  it('f3cp-2008 (before 97/2008) settles alike but cites 78/2008’s own wording of art. 9.º', () => {
    const facts: F3cpRoundFacts = {
      seats: [seat(1, 'Kh Kd 4s', { ante: 10_000 })],
      banker: cards('Qs Jd 3c'),
    };
    const a = settleF3cpRound(facts, F3CP_2008);
    const b = settleF3cpRound(facts, F3CP_2008A);
    assert.deepEqual(lines(a, 1), lines(b, 1));
    assert.ok(keys(a).includes('78/2008 art.9 al.6'));
    assert.ok(keys(b).includes('78/2008 art.9 al.6 [97/2008]'));
    assert.deepEqual(a.interpretations, ['H1', 'H7']);
    assert.deepEqual(b.interpretations, ['H1', 'H5', 'H7']);
  });

  it('qualifying croupier: higher player wins both 1:1 (9.º 6)), lower loses both (9.º 7)), equal pushes (H2)', () => {
    const facts: F3cpRoundFacts = {
      seats: [
        seat(1, 'Kh Kd 4s', { ante: 10_000 }),
        seat(2, '7c 5d 2h', { ante: 10_000 }),
        seat(3, 'Qh Jc 3d', { ante: 10_000 }),
      ],
      banker: cards('Qs Jd 3c'),
    };
    const s = settleF3cpRound(facts, F3CP_2008A);
    assert.deepEqual(lines(s, 1), { ante: ['win', 10_000], play: ['win', 10_000] });
    assert.deepEqual(lines(s, 2), { ante: ['lose', 0], play: ['lose', 0] });
    assert.deepEqual(lines(s, 3), { ante: ['push', 0], play: ['push', 0] });
    assert.ok(s.interpretations.includes('H2'));
  });

  it('a fold of a hand with a Pair Plus (forbidden by 9.º 3)): Ante and Pair Plus collected (H4), whatever the cards', () => {
    const facts: F3cpRoundFacts = {
      seats: [seat(1, 'Kh Kd 4s', { ante: 10_000, pairPlus: 10_000 }, 'fold')],
      banker: cards('Qs Jd 3c'),
    };
    const s = settleF3cpRound(facts, F3CP_2008A);
    assert.deepEqual(lines(s, 1), { ante: ['lose', 0], pairPlus: ['lose', 0] });
    assert.ok(s.interpretations.includes('H4'));
  });

  it('Pair Plus table of art. 10.º: 40, 25, 5, 4, 1 to 1; less than a pair loses', () => {
    const pays = (hand: string) =>
      settleF3cpRound({ seats: [seat(1, hand, { pairPlus: 100 })], banker: cards('2c 7d Tc') }, F3CP_2008A)
        .lines[0]!.payout;
    assert.deepEqual(
      ['5h 6h 7h', '9c 9d 9s', '5h 6d 7c', '2h 9h Jh', '8c 8d Ks', 'Ah Jd 4c'].map(pays),
      [4_000, 2_500, 500, 400, 100, 0],
    );
  });

  it('H1: A-K-Q of one suit is the highest Straight Flush (art. 4.º 2)); the alternative reading (art. 8.º 1) literally) makes it a Flush', () => {
    const facts: F3cpRoundFacts = {
      seats: [seat(1, 'Ah Kh Qh', { ante: 10_000, pairPlus: 10_000 })],
      banker: cards('Ks Qs Js'),
    };
    const chosen = settleF3cpRound(facts, F3CP_2008A);
    assert.equal(chosen.seats[0]!.hand, 'straight-flush');
    assert.deepEqual(lines(chosen, 1), {
      ante: ['win', 10_000],
      play: ['win', 10_000],
      anteBonus: ['win', 50_000],
      pairPlus: ['win', 400_000],
    });
    const alt = settleF3cpRound(facts, withReadings(F3CP_2008A, ['H1']));
    assert.equal(alt.seats[0]!.hand, 'flush');
    assert.deepEqual(lines(alt, 1), { ante: ['lose', 0], play: ['lose', 0], pairPlus: ['win', 40_000] });
  });

  it('the alternative of H1 is refused for the 2025 rules, and an unknown id is refused by name', () => {
    assert.throws(() => withReadings(F3CP_2025A, ['H1']), /H1 does not apply to rule set f3cp-2025a/);
    assert.throws(() => withReadings(F3CP_2008A, ['J2']), /J2 does not apply to rule set f3cp-2008a/);
  });

  it('a Six Card Bonus or Progressive stake in a 2008 round is returned: the 2008 rules have no such bet (art. 5.º n.º 1)', () => {
    const facts: F3cpRoundFacts = {
      seats: [seat(1, 'Kh Kd 4s', { ante: 10_000, sixCardBonus: 5_000 })],
      banker: cards('Qs Jd 3c'),
    };
    const l = settleF3cpRound(facts, F3CP_2008A).lines.find((x) => x.bet === 'sixCardBonus')!;
    assert.deepEqual([l.outcome, l.net, l.citations.map(citationKey)], ['void', 0, ['78/2008 art.5 n.1']]);
  });
});
