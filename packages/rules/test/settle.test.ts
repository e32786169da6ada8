import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { citationKey } from '../src/citations/citation.ts';
import { allProvisions } from '../src/citations/index.ts';
import type { F3cpRoundFacts, F3cpSeatFacts, JackpotConfig } from '../src/f3cp/facts.ts';
import { checkRoundFacts, InvalidRoundFacts, roundFactsAreValid } from '../src/f3cp/facts.ts';
import { F3CP_2025, F3CP_2025A, type F3cpRuleSet } from '../src/f3cp/rule-set.ts';
import { settleF3cpRound, type F3cpSettlement, type SettlementLine } from '../src/f3cp/settle/index.ts';
import { INTERPRETATIONS } from '../src/interpretations.ts';
import { cards } from './helpers.ts';

// Given / When / Then, in the spirit of emmett's decider specs: facts in, settlement out.
const given = (round: F3cpRoundFacts) => ({
  when: (rules: F3cpRuleSet = F3CP_2025A) => settleF3cpRound(round, rules),
});
const seat = (
  n: number,
  hand: string,
  bets: F3cpSeatFacts['bets'],
  decision?: 'play' | 'fold',
): F3cpSeatFacts => ({
  seat: n,
  cards: cards(hand),
  bets,
  ...(decision ? { decision } : {}),
});
const lineOf = (s: F3cpSettlement, seatNo: number, bet: SettlementLine['bet']) =>
  s.lines.find((l) => l.seat === seatNo && l.bet === bet);
const keys = (l: SettlementLine | undefined) => (l?.citations ?? []).map(citationKey);

const JACKPOT: JackpotConfig = {
  fixed: {
    'royal-flush': 10_000_000,
    'straight-flush': 1_000_000,
    'four-of-a-kind': 250_000,
    'full-house': 50_000,
    flush: 20_000,
  },
  resetAmount: 20_000_000,
  rounding: { unit: 1, mode: 'down' },
};

describe('F3CP settlement: Ante and Play (art. 13.º 1)-3))', () => {
  it('banker below Q-high: the Ante pays 1 to 1 and the Play bet is returned', () => {
    const s = given({
      seats: [seat(1, 'Kh 7d 2c', { ante: 10_000, play: 10_000 }, 'play')],
      banker: cards('Jh Td 8s'),
    }).when();
    assert.equal(s.banker.qualifies, false);
    assert.deepEqual(pick(lineOf(s, 1, 'ante')), {
      outcome: 'win',
      payout: 10_000,
      net: 10_000,
      stake: 'returned',
    });
    assert.deepEqual(pick(lineOf(s, 1, 'play')), { outcome: 'push', payout: 0, net: 0, stake: 'returned' });
    assert.deepEqual(keys(lineOf(s, 1, 'ante')), ['89/2025 art.13 al.1']);
  });

  it('banker exactly Q-3-2 qualifies: a better player hand wins Ante and Play, a worse one loses both', () => {
    const s = given({
      seats: [
        seat(1, 'Kh 7d 2c', { ante: 10_000, play: 10_000 }, 'play'),
        seat(2, 'Jh 9d 5s', { ante: 5_000, play: 5_000 }, 'play'),
      ],
      banker: cards('Qc 3d 2s'),
    }).when();
    assert.equal(s.banker.qualifies, true);
    assert.deepEqual(pick(lineOf(s, 1, 'ante')), {
      outcome: 'win',
      payout: 10_000,
      net: 10_000,
      stake: 'returned',
    });
    assert.deepEqual(pick(lineOf(s, 1, 'play')), {
      outcome: 'win',
      payout: 10_000,
      net: 10_000,
      stake: 'returned',
    });
    assert.deepEqual(pick(lineOf(s, 2, 'ante')), {
      outcome: 'lose',
      payout: 0,
      net: -5_000,
      stake: 'collected',
    });
    assert.deepEqual(pick(lineOf(s, 2, 'play')), {
      outcome: 'lose',
      payout: 0,
      net: -5_000,
      stake: 'collected',
    });
    assert.ok(keys(lineOf(s, 1, 'play')).includes('89/2025 art.13 al.3'));
    assert.ok(
      keys(lineOf(s, 1, 'play')).includes('89/2025 art.7 n.1 [94/2025]'),
      'cites the amended hand order',
    );
  });

  it('J2: equal hands push Ante and Play', () => {
    const s = given({
      seats: [seat(1, 'Ah 9d 2s', { ante: 10_000, play: 10_000 }, 'play')],
      banker: cards('Ad 9c 2h'),
    }).when();
    for (const bet of ['ante', 'play'] as const) {
      assert.deepEqual(pick(lineOf(s, 1, bet)), { outcome: 'push', payout: 0, net: 0, stake: 'returned' });
      assert.deepEqual(lineOf(s, 1, bet)!.interpretations, ['J2']);
    }
    assert.equal(s.seats[0]!.versusBanker, 'equal');
  });

  it('a fold forfeits the Ante (art. 12.º n.º 2)', () => {
    const s = given({
      seats: [seat(1, 'Jh 9d 5s', { ante: 10_000 }, 'fold')],
      banker: cards('2c 3d 7s'),
    }).when();
    assert.deepEqual(pick(lineOf(s, 1, 'ante')), {
      outcome: 'lose',
      payout: 0,
      net: -10_000,
      stake: 'collected',
    });
    assert.equal(lineOf(s, 1, 'play'), undefined);
    assert.deepEqual(keys(lineOf(s, 1, 'ante')), ['89/2025 art.12 n.2']);
  });

  it('the hand order decides Three of a Kind against a Flush: the player wins under f3cp-2025a, loses under f3cp-2025', () => {
    const round = {
      seats: [seat(1, '5h 5d 5s', { ante: 10_000, play: 10_000 }, 'play')],
      banker: cards('Kc 9c 2c'),
    };
    assert.equal(lineOf(given(round).when(F3CP_2025A), 1, 'play')!.outcome, 'win');
    assert.equal(lineOf(given(round).when(F3CP_2025), 1, 'play')!.outcome, 'lose');
    assert.ok(keys(lineOf(given(round).when(F3CP_2025), 1, 'play')).includes('89/2025 art.7 n.1'));
  });
});

describe('F3CP settlement: Ante bonus (art. 13.º 4), J3)', () => {
  it('pays a hand that played and lost to the banker', () => {
    // f3cp-2025: the banker's flush beats the player's three of a kind, but the bonus is paid 4 to 1 on the Ante
    const s = given({
      seats: [seat(1, '5h 5d 5s', { ante: 10_000, play: 10_000 }, 'play')],
      banker: cards('Kc 9c 2c'),
    }).when(F3CP_2025);
    assert.equal(lineOf(s, 1, 'ante')!.outcome, 'lose');
    assert.deepEqual(pick(lineOf(s, 1, 'anteBonus')), {
      outcome: 'win',
      payout: 40_000,
      net: 40_000,
      stake: 'not-applicable',
    });
    assert.deepEqual(lineOf(s, 1, 'anteBonus')!.interpretations, ['J3']);
    assert.deepEqual(keys(lineOf(s, 1, 'anteBonus')), ['89/2025 art.13 al.4', '89/2025 art.13 al.4 sub.2']);
  });

  it('pays 5 to 1 for a straight flush and 1 to 1 for a straight, also against a non-qualifying banker', () => {
    const s = given({
      seats: [
        seat(1, '9s Ts Js', { ante: 1_000, play: 1_000 }, 'play'),
        seat(2, '3h 2d As', { ante: 1_000, play: 1_000 }, 'play'),
      ],
      banker: cards('Jh 7d 4c'),
    }).when();
    assert.equal(lineOf(s, 1, 'anteBonus')!.payout, 5_000);
    assert.equal(lineOf(s, 2, 'anteBonus')!.payout, 1_000);
  });

  it('is not paid to a folded hand', () => {
    const s = given({
      seats: [seat(1, '5h 5d 5s', { ante: 10_000 }, 'fold')],
      banker: cards('Kc 9c 2c'),
    }).when();
    assert.equal(lineOf(s, 1, 'anteBonus'), undefined);
  });
});

describe('F3CP settlement: Pair Plus (art. 13.º 5), 16.º n.º 1)', () => {
  it('J1: a folded hand with a Pair Plus bet has it settled on its three cards', () => {
    const s = given({
      seats: [seat(1, '8h 8d 3s', { ante: 10_000, pairPlus: 5_000 }, 'fold')],
      banker: cards('Ac Kd 2s'),
    }).when();
    assert.equal(lineOf(s, 1, 'ante')!.outcome, 'lose');
    assert.deepEqual(pick(lineOf(s, 1, 'pairPlus')), {
      outcome: 'win',
      payout: 5_000,
      net: 5_000,
      stake: 'returned',
    });
    assert.deepEqual(lineOf(s, 1, 'pairPlus')!.interpretations, ['J1']);
    assert.ok(keys(lineOf(s, 1, 'pairPlus')).includes('89/2025 art.12 n.3'));
  });

  it('pays by the hand, whatever the banker: 40, 25, 5, 4, 1 to 1; less than a pair loses', () => {
    const expectations: [string, number][] = [
      ['9s Ts Js', 40],
      ['4h 4d 4s', 25],
      ['9h Td Js', 5],
      ['2h 7h Kh', 4],
      ['Qh Qd 3s', 1],
    ];
    for (const [hand, x] of expectations) {
      const s = given({ seats: [seat(1, hand, { pairPlus: 100 })], banker: cards('Ac Ad As') }).when();
      assert.equal(lineOf(s, 1, 'pairPlus')!.payout, 100 * x, hand);
    }
    const lost = given({ seats: [seat(1, 'Ah Kd 9s', { pairPlus: 100 })], banker: cards('2c 3d 7s') }).when();
    assert.deepEqual(pick(lineOf(lost, 1, 'pairPlus')), {
      outcome: 'lose',
      payout: 0,
      net: -100,
      stake: 'collected',
    });
  });
});

describe('F3CP settlement: Six Card Bonus (art. 14.º, 16.º n.º 2)', () => {
  it("pays on the best five of the player's and banker's six cards, also for a folded hand (art. 12.º n.º 4)", () => {
    const s = given({
      seats: [seat(1, 'Ah Kh 2c', { ante: 1_000, sixCardBonus: 1_000 }, 'fold')],
      banker: cards('Qh Jh Th'),
    }).when();
    assert.equal(lineOf(s, 1, 'sixCardBonus')!.hand, 'royal-flush');
    assert.equal(lineOf(s, 1, 'sixCardBonus')!.payout, 500_000);
    assert.ok(keys(lineOf(s, 1, 'sixCardBonus')).includes('89/2025 art.12 n.4'));
  });

  it('is void without a basic bet (art. 4.º n.º 2-3)', () => {
    const s = given({
      seats: [seat(1, 'Ah Kh 2c', { sixCardBonus: 1_000 })],
      banker: cards('Qh Jh Th'),
    }).when();
    assert.deepEqual(pick(lineOf(s, 1, 'sixCardBonus')), {
      outcome: 'void',
      payout: 0,
      net: 0,
      stake: 'returned',
    });
    assert.deepEqual(keys(lineOf(s, 1, 'sixCardBonus')), ['89/2025 art.4 n.2', '89/2025 art.4 n.3']);
  });
});

describe('F3CP settlement: Progressive Jackpot (art. 15.º, 16.º n.º 3, J4, J5, J10)', () => {
  const progressive = (n: number, hand: string) =>
    seat(n, hand, { ante: 1_000, play: 1_000, progressive: 500 }, 'play');

  it('J4 and art. 15.º n.º 6: a Royal Flush takes the whole pool, which then restarts at the reset amount', () => {
    // community Kh Qh: seat 1 Ah Jh Th makes a royal flush; seat 2 three deuces and seat 3 four hearts do not qualify
    const s = given({
      seats: [progressive(1, 'Ah Jh Th'), progressive(2, '2c 2d 2s'), progressive(3, 'Jd 9h 2h')],
      banker: cards('3c 4d 6s'),
      community: cards('Kh Qh'),
      jackpot: { config: JACKPOT, poolBefore: 50_000_000 },
    }).when();
    assert.deepEqual(
      s.jackpot!.payments.map((p) => [p.order, p.seat, p.hand]),
      [[1, 1, 'royal-flush']],
    );
    assert.equal(s.jackpot!.payments[0]!.amount, 50_000_000);
    assert.equal(s.jackpot!.poolAfter, JACKPOT.resetAmount);
    assert.equal(s.jackpot!.payments[0]!.poolReset, true);
    assert.equal(lineOf(s, 2, 'progressive')!.outcome, 'lose');
    assert.equal(lineOf(s, 3, 'progressive')!.hand, 'high-card');
  });

  it('with a Royal Flush and a Straight Flush in one round, the Straight Flush holder is paid first (art. 15.º n.º 5)', () => {
    // community Jh Th: seat 1 Ah Kh Qh makes a royal flush, seat 4 9h 8h 7h a straight flush 7 to J
    const s = given({
      seats: [progressive(1, 'Ah Kh Qh'), progressive(2, '4c 4d 4s'), progressive(4, '9h 8h 7h')],
      banker: cards('3c 5d 6s'),
      community: cards('Jh Th'),
      jackpot: { config: JACKPOT, poolBefore: 50_000_000 },
    }).when();
    const p = s.jackpot!.payments;
    assert.deepEqual(
      p.map((x) => [x.order, x.seat, x.hand]),
      [
        [1, 4, 'straight-flush'],
        [2, 1, 'royal-flush'],
      ],
    );
    // SF: 10% of 50,000,000 = 5,000,000 > fixed 1,000,000; pool 45,000,000; RF: 100% of 45,000,000; pool reset
    assert.deepEqual(
      p.map((x) => [x.amount, x.poolBefore, x.poolAfter]),
      [
        [5_000_000, 50_000_000, 45_000_000],
        [45_000_000, 45_000_000, JACKPOT.resetAmount],
      ],
    );
    assert.ok(p[0]!.interpretations.includes('J10') && p[0]!.interpretations.includes('J4'));
    assert.ok(keys(lineOf(s, 4, 'progressive')).includes('89/2025 art.15 n.5'));
    assert.equal(lineOf(s, 2, 'progressive')!.outcome, 'lose', 'three of a kind does not qualify');
  });

  it('two Straight Flushes: left to right, each 10% of the pool at that moment; the pool falls by the share even when the fixed amount is paid', () => {
    // community 9h 8h: seat 2 Th Jh Qh makes 8-Q of hearts, seat 5 7h 6h 5h makes 5-9 of hearts
    const both = given({
      seats: [progressive(2, 'Th Jh Qh'), progressive(5, '7h 6h 5h')],
      banker: cards('Ac Ad 3c'),
      community: cards('9h 8h'),
      jackpot: { config: JACKPOT, poolBefore: 8_000_005 },
    }).when();
    const p = both.jackpot!.payments;
    assert.deepEqual(
      p.map((x) => [x.order, x.seat, x.hand]),
      [
        [1, 2, 'straight-flush'],
        [2, 5, 'straight-flush'],
      ],
    );
    // 10% of 8,000,005 = 800,000.5 -> share 800,000 (J6, rounded down); fixed 1,000,000 is greater and is paid;
    // the pool still falls by the share: 7,200,005; then 10% of that = 720,000 -> pool 6,480,005
    assert.deepEqual(
      p.map((x) => [x.share, x.amount, x.poolBefore, x.poolAfter]),
      [
        [800_000, 1_000_000, 8_000_005, 7_200_005],
        [720_000, 1_000_000, 7_200_005, 6_480_005],
      ],
    );
    assert.ok(p[0]!.interpretations.includes('J6'));
  });

  it('fixed-amount hands do not change the pool; the stake is collected with the award (J5)', () => {
    const s = given({
      seats: [progressive(1, 'Kd Kc 2h'), progressive(3, '2c 7c 9c')],
      banker: cards('Ah 4d 5s'),
      community: cards('Ks Kh'),
      jackpot: { config: JACKPOT, poolBefore: 30_000_000 },
    }).when();
    // seat 1: Kd Kc Ks Kh 2h = four of a kind; seat 3: 2c 7c 9c + Ks Kh = pair
    assert.deepEqual(
      s.jackpot!.payments.map((x) => [x.seat, x.hand, x.amount, x.poolAfter]),
      [[1, 'four-of-a-kind', 250_000, 30_000_000]],
    );
    assert.deepEqual(pick(lineOf(s, 1, 'progressive')), {
      outcome: 'win',
      payout: 250_000,
      net: 249_500,
      stake: 'collected',
    });
    assert.deepEqual(lineOf(s, 1, 'progressive')!.interpretations, ['J5']);
    assert.equal(s.jackpot!.poolAfter, 30_000_000);
  });

  it('a Royal Flush pays the fixed amount when it is greater than the pool, and the pool still resets', () => {
    const s = given({
      seats: [progressive(1, 'As Ks Qs')],
      banker: cards('2h 4d 5c'),
      community: cards('Js Ts'),
      jackpot: { config: JACKPOT, poolBefore: 3_000_000 },
    }).when();
    assert.deepEqual(
      s.jackpot!.payments.map((x) => [x.amount, x.share, x.poolAfter, x.poolReset]),
      [[10_000_000, 3_000_000, 20_000_000, true]],
    );
  });

  it('without Progressive bets the community cards are not revealed (art. 15.º n.º 2)', () => {
    const s = given({
      seats: [seat(1, 'Ah 9d 2s', { ante: 1_000, play: 1_000 }, 'play')],
      banker: cards('2c 3d 7s'),
      jackpot: { config: JACKPOT, poolBefore: 1_000 },
    }).when();
    assert.equal(s.jackpot!.communityRevealed, false);
    assert.deepEqual(s.jackpot!.citations.map(citationKey), ['89/2025 art.15 n.2']);
  });
});

describe('F3CP settlement: voided rounds (art. 17.º)', () => {
  const round = (voided: F3cpRoundFacts['voided']): F3cpRoundFacts => ({
    seats: [seat(1, 'Ah 9d 2s', { ante: 1_000, pairPlus: 500, progressive: 500 }, 'fold')],
    banker: cards('2c 3d 7s'),
    voided,
  });

  it('returns every bet; Progressive bets carry over after a dealing error or a shuffler malfunction (n.º 3)', () => {
    for (const reason of ['dealing-rules-broken', 'shuffler-malfunction'] as const) {
      const s = given(round(reason)).when();
      assert.ok(s.lines.every((l) => l.outcome === 'void' && l.net === 0));
      assert.equal(lineOf(s, 1, 'progressive')!.carriedOver, true, reason);
      assert.ok(keys(lineOf(s, 1, 'progressive')).includes('89/2025 art.17 n.3'));
    }
  });

  it('does not carry Progressive bets over after an exposed banker card (n.º 1 2))', () => {
    const s = given(round('banker-card-exposed')).when();
    assert.equal(lineOf(s, 1, 'progressive')!.carriedOver, undefined);
    assert.ok(keys(lineOf(s, 1, 'ante')).includes('89/2025 art.17 n.1 al.2'));
  });
});

describe('F3CP settlement: facts that cannot be a real round', () => {
  it('is refused with every problem named', () => {
    const bad: F3cpRoundFacts = {
      seats: [
        seat(1, 'Ah 9d 2s', { ante: 1_000 }),
        seat(1, 'Ah Kd', { play: 100 }),
        seat(9, '3c 4c 5c', { pairPlus: -5 }),
      ],
      banker: cards('2c 3d 7s'),
    };
    assert.throws(
      () => settleF3cpRound(bad, F3CP_2025A),
      (e: unknown) => {
        assert.ok(e instanceof InvalidRoundFacts);
        const all = e.problems.join('\n');
        for (const expected of [
          'seat 1 has an Ante but no play/fold decision',
          'seat 1 appears twice',
          'seat 1 must have 3 cards, has 2',
          'seat 1 has a Play bet without an Ante',
          'seat 9: seats are numbered 1 to 7',
          'pairPlus bet -5',
          'cards dealt twice from one deck: Ah',
        ]) {
          assert.ok(all.includes(expected), `missing: ${expected}\n${all}`);
        }
        return true;
      },
    );
  });

  it('requires community cards and the jackpot pool when a hand bets the Progressive Jackpot', () => {
    const problems = checkRoundFacts({
      seats: [seat(1, 'Ah 9d 2s', { ante: 1_000, play: 1_000, progressive: 500 }, 'play')],
      banker: cards('2c 3d 7s'),
    });
    assert.deepEqual(problems, [
      'the community area must have 2 cards, has 0',
      'a Progressive Jackpot bet needs the jackpot configuration and the pool',
    ]);
  });
});

// --- properties over random rounds -------------------------------------------------------------------------

const arbRound = fc
  .record({
    deck: fc.shuffledSubarray([...Array(52).keys()], { minLength: 52, maxLength: 52 }),
    seats: fc.integer({ min: 1, max: 7 }),
    bets: fc.array(
      fc.record({
        ante: fc.constantFrom(0, 1_000, 20_000),
        pairPlus: fc.constantFrom(0, 500),
        sixCardBonus: fc.constantFrom(0, 100),
        progressive: fc.constantFrom(0, 500),
        play: fc.boolean(),
      }),
      { minLength: 7, maxLength: 7 },
    ),
    pool: fc.integer({ min: 0, max: 100_000_000 }),
  })
  .map(({ deck, seats, bets, pool }): F3cpRoundFacts => {
    let next = 0;
    const list: F3cpSeatFacts[] = [];
    for (let i = 0; i < seats; i++) {
      const b = bets[i]!;
      const ante = b.ante;
      list.push({
        seat: i + 1,
        cards: [deck[next++]!, deck[next++]!, deck[next++]!],
        bets: {
          ante,
          ...(ante && b.play ? { play: ante } : {}),
          pairPlus: b.pairPlus,
          sixCardBonus: b.sixCardBonus,
          progressive: b.progressive,
        },
        ...(ante ? { decision: b.play ? 'play' : 'fold' } : {}),
      });
    }
    return {
      seats: list,
      banker: [deck[next++]!, deck[next++]!, deck[next++]!],
      community: [deck[next++]!, deck[next++]!],
      jackpot: { config: JACKPOT, poolBefore: pool },
    };
  });

describe('F3CP settlement properties', () => {
  const known = new Set(allProvisions().map((p) => p.key));
  const registered = new Set(INTERPRETATIONS.map((i) => i.id));

  it('every line cites provisions whose text we hold, names registered interpretations, and adds up', () => {
    fc.assert(
      fc.property(arbRound, fc.constantFrom(F3CP_2025, F3CP_2025A), (round, rules) => {
        const s = settleF3cpRound(round, rules);
        for (const l of s.lines) {
          assert.ok(l.citations.length > 0, `${l.bet} has a citation`);
          for (const c of l.citations) assert.ok(known.has(citationKey(c)), citationKey(c));
          for (const id of l.interpretations) assert.ok(registered.has(id), id);
          assert.equal(l.net, l.payout - (l.stake === 'collected' ? l.amount : 0));
          assert.ok(Number.isSafeInteger(l.payout) && l.payout >= 0);
          if (l.outcome === 'lose') assert.equal(l.net, -l.amount);
          if (l.outcome === 'push' || l.outcome === 'void') assert.equal(l.net, 0);
        }
        for (const id of s.interpretations) assert.ok(registered.has(id));
      }),
      { numRuns: 2_000 },
    );
  });

  it('every bet placed is settled exactly once (and the Ante bonus at most once)', () => {
    fc.assert(
      fc.property(arbRound, (round) => {
        const s = settleF3cpRound(round, F3CP_2025A);
        for (const st of round.seats) {
          for (const bet of ['ante', 'play', 'pairPlus', 'sixCardBonus', 'progressive'] as const) {
            const placed = (st.bets[bet] ?? 0) > 0;
            assert.equal(
              s.lines.filter((l) => l.seat === st.seat && l.bet === bet).length,
              placed ? 1 : 0,
              `seat ${st.seat} ${bet}`,
            );
          }
          assert.ok(s.lines.filter((l) => l.seat === st.seat && l.bet === 'anteBonus').length <= 1);
        }
      }),
      { numRuns: 1_000 },
    );
  });

  it('the pool after = the pool before less every percentage share, restarting at the reset amount when emptied', () => {
    fc.assert(
      fc.property(arbRound, (round) => {
        const j = settleF3cpRound(round, F3CP_2025A).jackpot!;
        let pool = j.poolBefore;
        for (const p of j.payments) {
          assert.equal(p.poolBefore, pool);
          pool -= p.share ?? 0;
          if (pool === 0 && p.share !== null) pool = JACKPOT.resetAmount;
          assert.equal(p.poolAfter, pool);
          assert.ok(p.amount >= p.fixedAmount);
        }
        assert.equal(j.poolAfter, pool);
      }),
      { numRuns: 1_000 },
    );
  });

  it('is deterministic and does not depend on the order the seats are listed in', () => {
    fc.assert(
      fc.property(arbRound, (round) => {
        const a = settleF3cpRound(round, F3CP_2025A);
        const b = settleF3cpRound({ ...round, seats: [...round.seats].reverse() }, F3CP_2025A);
        assert.deepEqual(a, b);
      }),
      { numRuns: 300 },
    );
  });

  it('the fast validity check agrees with the detailed one', () => {
    const anyFacts = fc.record({
      seats: fc.array(
        fc.record({
          seat: fc.integer({ min: 0, max: 8 }),
          cards: fc.array(fc.integer({ min: -1, max: 52 }), { minLength: 2, maxLength: 4 }),
          bets: fc.record(
            {
              ante: fc.constantFrom(undefined, 0, 100, -1),
              play: fc.constantFrom(undefined, 0, 100),
              progressive: fc.constantFrom(undefined, 0, 100),
            },
            { requiredKeys: [] },
          ),
          decision: fc.constantFrom(undefined, 'play' as const, 'fold' as const),
        }),
        { maxLength: 3 },
      ),
      banker: fc.array(fc.integer({ min: 0, max: 51 }), { minLength: 2, maxLength: 3 }),
    });
    fc.assert(
      fc.property(anyFacts, (facts) => {
        const f = facts as unknown as F3cpRoundFacts;
        assert.equal(
          roundFactsAreValid(f),
          checkRoundFacts(f).length === 0,
          JSON.stringify(checkRoundFacts(f)),
        );
      }),
      { numRuns: 5_000 },
    );
  });
});

function pick(l: SettlementLine | undefined) {
  assert.ok(l, 'line exists');
  return { outcome: l.outcome, payout: l.payout, net: l.net, stake: l.stake };
}
