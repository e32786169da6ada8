/**
 * Alternative readings (readings.ts), each as Given / When / Then: given a round's facts (or a unit's findings),
 * when it is settled under the register's reading and under the alternative, then the two differ where the
 * reading matters and agree where it does not.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Finding } from '../src/findings.ts';
import { WHAT_IF, INTERPRETATIONS } from '../src/interpretations.ts';
import {
  ALTERNATIVE_READINGS,
  findingsUnderReadings,
  parseWhatIf,
  WhatIfSpecError,
} from '../src/readings.ts';
import {
  F3CP_2008,
  F3CP_2008A,
  F3CP_2025,
  F3CP_2025A,
  readingsApplying,
  withReadings,
  type F3cpRuleSet,
} from '../src/f3cp/rule-set.ts';
import { settleF3cpRound, type F3cpSettlement } from '../src/f3cp/settle/index.ts';
import type { F3cpRoundFacts, JackpotConfig } from '../src/f3cp/facts.ts';
import { cards } from './helpers.ts';
import { CRAPS_2010, crapsReadings } from '../src/craps/rule-set.ts';
import { resolveThrow, type BetState } from '../src/craps/engine.ts';

const seat = (n: number, hand: string, bets: Record<string, number>, decision?: 'play' | 'fold') => ({
  seat: n,
  cards: cards(hand),
  bets: { ...bets, ...(bets.ante && decision !== 'fold' ? { play: bets.ante } : {}) },
  ...(decision ? { decision } : bets.ante ? { decision: 'play' as const } : {}),
});
/** what each line of a seat comes to: outcome, payout, what happens to the stake */
const money = (s: F3cpSettlement) => [
  ...s.lines.map((l) => `${l.seat} ${l.bet} ${l.outcome} ${l.payout} ${l.stake}`).sort(),
  `pool ${s.jackpot?.payments.map((p) => `${p.seat}:${p.poolBefore}→${p.poolAfter}`).join(' ') ?? '-'} after ${s.jackpot?.poolAfter ?? '-'}`,
];

const CONFIG: JackpotConfig = {
  fixed: {
    'royal-flush': 1_000_000,
    'straight-flush': 50_000,
    'four-of-a-kind': 20_000,
    'full-house': 10_000,
    flush: 5_000,
  },
  resetAmount: 10_000_000,
  rounding: { unit: 1, mode: 'down' },
};
const jackpot = (poolBefore: number) => ({
  jackpot: { config: CONFIG, poolBefore },
  community: cards('Jh Th'),
});

/** Given facts, when settled under `rules` and under `rules` with alternative `key`. */
function given(facts: F3cpRoundFacts, rules: F3cpRuleSet, key: string) {
  const chosen = settleF3cpRound(facts, rules);
  const alternative = settleF3cpRound(facts, withReadings(rules, [key]));
  return {
    chosen,
    alternative,
    thenDiffer() {
      assert.notDeepEqual(money(alternative), money(chosen), `${key} should change the settlement`);
      return this;
    },
    thenAgree() {
      assert.deepEqual(money(alternative), money(chosen), `${key} should change nothing here`);
      return this;
    },
  };
}
const line = (s: F3cpSettlement, seatNo: number, bet: string) =>
  s.lines.find((l) => l.seat === seatNo && l.bet === bet);

describe('alternative readings: every interpretation is accounted for', () => {
  it('every register id says whether its alternative is selectable, and the selectable ones are the catalogue', () => {
    for (const i of INTERPRETATIONS) assert.ok(WHAT_IF[i.id], `${i.id} has no what-if status`);
    assert.deepEqual(Object.keys(WHAT_IF).sort(), INTERPRETATIONS.map((i) => i.id).sort());
    const implemented = Object.entries(WHAT_IF)
      .filter(([, w]) => w.status === 'implemented')
      .map(([id]) => id)
      .sort();
    assert.deepEqual([...new Set(ALTERNATIVE_READINGS.map((a) => a.id))].sort(), implemented);
    for (const [id, w] of Object.entries(WHAT_IF))
      if (w.status === 'implemented')
        assert.equal(ALTERNATIVE_READINGS.filter((a) => a.id === id).length, w.variants, id);
      else assert.ok(w.reason.length > 20, `${id} says why`);
  });

  it('parseWhatIf reads ID=ALT, ID=ALT2 and ID=CHOSEN, and refuses the rest naming the item', () => {
    assert.deepEqual(parseWhatIf('J2=ALT,J3=ALT2,J4=CHOSEN'), ['J2', 'J3:2']);
    assert.throws(
      () => parseWhatIf('J2=ALT,J99=ALT'),
      /item 2 \("J99=ALT"\): J99 is not in the interpretation register/,
    );
    assert.throws(() => parseWhatIf('J2'), /item 1 \("J2"\): expected ID=ALT/);
    assert.throws(() => parseWhatIf('J14=ALT'), /not selectable: the ZH alternative/);
    assert.throws(() => parseWhatIf('J2=ALT2'), /J2 has no second alternative/);
    assert.throws(() => parseWhatIf('J3=ALT,J3=ALT2'), /J3 is named twice/);
    assert.throws(() => parseWhatIf('x'.repeat(3000)), WhatIfSpecError);
  });

  it('readingsApplying keeps only the keys that govern the rule set, and the default readings give the same object', () => {
    assert.equal(readingsApplying(F3CP_2025A, []), F3CP_2025A);
    assert.equal(readingsApplying(F3CP_2025A, ['H2', 'C3']), F3CP_2025A);
    assert.deepEqual(readingsApplying(F3CP_2008A, ['J2', 'H2']).alternatives, ['H2']);
    assert.equal(readingsApplying(F3CP_2025A, ['J2']), readingsApplying(F3CP_2025A, ['J2']));
  });
});

describe('F3CP 2025 alternatives: Given a round, When settled under both readings, Then …', () => {
  it('J1: a folded pair with Pair Plus — chosen: settled 1:1; alternative: forfeited', () => {
    const g = given(
      { seats: [seat(1, 'Kh Kd 4s', { ante: 100, pairPlus: 100 }, 'fold')], banker: cards('Qs Jd 3c') },
      F3CP_2025A,
      'J1',
    ).thenDiffer();
    assert.equal(line(g.chosen, 1, 'pairPlus')!.outcome, 'win');
    assert.equal(line(g.alternative, 1, 'pairPlus')!.outcome, 'lose');
  });
  it('J1: a hand that played — the readings agree', () => {
    given(
      { seats: [seat(1, 'Kh Kd 4s', { ante: 100, pairPlus: 100 })], banker: cards('Qs Jd 3c') },
      F3CP_2025A,
      'J1',
    ).thenAgree();
  });

  it('J2: equal hands against a qualifying banker — chosen: push; alternative: the banker wins', () => {
    const g = given(
      { seats: [seat(1, 'Qh Jc 3d', { ante: 100 })], banker: cards('Qs Jd 3c') },
      F3CP_2025A,
      'J2',
    ).thenDiffer();
    assert.equal(line(g.chosen, 1, 'play')!.outcome, 'push');
    assert.equal(line(g.alternative, 1, 'play')!.outcome, 'lose');
  });
  it('J2: unequal hands — agree', () => {
    given(
      { seats: [seat(1, 'Kh Kd 4s', { ante: 100 })], banker: cards('Qs Jd 3c') },
      F3CP_2025A,
      'J2',
    ).thenAgree();
  });

  it('J3 (first alternative): a straight beaten by a qualifying banker — chosen: Ante bonus paid; alternative: none', () => {
    const g = given(
      { seats: [seat(1, '5h 6c 7d', { ante: 100 })], banker: cards('9s 9d 9c') },
      F3CP_2025A,
      'J3',
    ).thenDiffer();
    assert.equal(line(g.chosen, 1, 'anteBonus')!.payout, 100);
    assert.equal(line(g.alternative, 1, 'anteBonus'), undefined);
  });
  it('J3 (first alternative): a straight that beats the banker — agree', () => {
    given(
      { seats: [seat(1, '5h 6c 7d', { ante: 100 })], banker: cards('Qs Jd 3c') },
      F3CP_2025A,
      'J3',
    ).thenAgree();
  });
  it('J3 (second alternative): a folded straight — chosen: no bonus; alternative: bonus paid', () => {
    const g = given(
      { seats: [seat(1, '5h 6c 7d', { ante: 100 }, 'fold')], banker: cards('9s 9d 9c') },
      F3CP_2025A,
      'J3:2',
    ).thenDiffer();
    assert.equal(line(g.alternative, 1, 'anteBonus')!.payout, 100);
  });
  it('J3 (second alternative): a folded pair (no bonus hand) — agree', () => {
    given(
      { seats: [seat(1, '5h 5c 7d', { ante: 100 }, 'fold')], banker: cards('9s 9d 9c') },
      F3CP_2025A,
      'J3:2',
    ).thenAgree();
  });

  const royalAndStraightFlush = (pool: number): F3cpRoundFacts => ({
    seats: [
      seat(1, 'Ah Kh Qh', { ante: 100, progressive: 100 }),
      seat(2, '9h 8h 7h', { ante: 100, progressive: 100 }),
    ],
    banker: cards('2c 3d 5s'),
    ...jackpot(pool),
  });
  it('J4 (first alternative): a Straight Flush paid before a Royal — chosen: the Royal gets the pool left; alternative: the pool at the start', () => {
    const g = given(royalAndStraightFlush(1_000_000), F3CP_2025A, 'J4').thenAgree();
    assert.equal(line(g.chosen, 1, 'progressive')!.payout, 1_000_000); // fixed 1,000,000 > either share
    const big = given(royalAndStraightFlush(5_000_000), F3CP_2025A, 'J4').thenDiffer();
    assert.equal(line(big.chosen, 1, 'progressive')!.payout, 4_500_000);
    assert.equal(line(big.alternative, 1, 'progressive')!.payout, 5_000_000);
  });
  it('J4 (first alternative): a single Royal Flush — agree', () => {
    given(
      {
        seats: [seat(1, 'Ah Kh Qh', { ante: 100, progressive: 100 })],
        banker: cards('2c 3d 5s'),
        ...jackpot(5_000_000),
      },
      F3CP_2025A,
      'J4',
    ).thenAgree();
  });
  it('J4 (second alternative): a Straight Flush paid its greater fixed amount — the pool loses what was paid', () => {
    const g = given(royalAndStraightFlush(2_000_000), F3CP_2025A, 'J4:2');
    // share 200,000 > fixed 50,000: the same either way
    g.thenAgree();
    const small = given(royalAndStraightFlush(200_000), F3CP_2025A, 'J4:2').thenDiffer();
    assert.equal(line(small.chosen, 2, 'progressive')!.payout, 50_000);
    assert.equal(small.chosen.jackpot!.payments[1]!.poolBefore, 180_000);
    assert.equal(small.alternative.jackpot!.payments[1]!.poolBefore, 150_000);
  });

  it('J5: a winning Progressive — chosen: stake collected; alternative: returned', () => {
    const g = given(
      {
        seats: [seat(1, 'Ah Kh Qh', { ante: 100, progressive: 100 })],
        banker: cards('2c 3d 5s'),
        ...jackpot(5_000_000),
      },
      F3CP_2025A,
      'J5',
    ).thenDiffer();
    assert.equal(line(g.alternative, 1, 'progressive')!.stake, 'returned');
  });
  it('J5: a losing Progressive — agree', () => {
    given(
      {
        seats: [seat(1, '2h 4d 6s', { ante: 100, progressive: 100 })],
        banker: cards('Kc Qd 9s'),
        ...jackpot(5_000_000),
      },
      F3CP_2025A,
      'J5',
    ).thenAgree();
  });

  const straightFlush = (pool: number): F3cpRoundFacts => ({
    seats: [seat(1, '9h 8h 7h', { ante: 100, progressive: 100 })],
    banker: cards('2c 3d 5s'),
    ...jackpot(pool),
  });
  it('J6: 10% of 1,000,005 avos — chosen: 100,000 (down); alternative: 100,001 (half up)', () => {
    const g = given(straightFlush(1_000_005), F3CP_2025A, 'J6').thenDiffer();
    assert.equal(line(g.chosen, 1, 'progressive')!.payout, 100_000);
    assert.equal(line(g.alternative, 1, 'progressive')!.payout, 100_001);
  });
  it('J6: 10% of a whole number of avos — agree', () => {
    given(straightFlush(1_000_000), F3CP_2025A, 'J6').thenAgree();
  });

  it('J7: 3-2-A against K-Q-J — chosen: K-Q-J higher; alternative: 3-2-A higher', () => {
    const g = given(
      { seats: [seat(1, 'Ah 2c 3d', { ante: 100 })], banker: cards('Kc Qd Js') },
      F3CP_2025A,
      'J7',
    ).thenDiffer();
    assert.equal(line(g.chosen, 1, 'ante')!.outcome, 'lose');
    assert.equal(line(g.alternative, 1, 'ante')!.outcome, 'win');
  });
  it('J7: 3-2-A against A-K-Q, and hands with no straight — agree', () => {
    given(
      { seats: [seat(1, 'Ah 2c 3d', { ante: 100 })], banker: cards('Ac Kd Qs') },
      F3CP_2025A,
      'J7',
    ).thenAgree();
    given(
      { seats: [seat(1, 'Kh Kd 4s', { ante: 100 })], banker: cards('Qs Jd 3c') },
      F3CP_2025A,
      'J7',
    ).thenAgree();
  });

  it('J8: a six-card Straight — chosen: 10 to 1; alternative: loses (no five-card Straight exists)', () => {
    const g = given(
      { seats: [seat(1, '5c 6d 7h', { ante: 100, sixCardBonus: 100 })], banker: cards('8s 9c 2d') },
      F3CP_2025A,
      'J8',
    ).thenDiffer();
    assert.equal(line(g.chosen, 1, 'sixCardBonus')!.payout, 1_000);
    assert.equal(line(g.alternative, 1, 'sixCardBonus')!.outcome, 'lose');
  });
  it('J8: a six-card Three of a Kind — agree', () => {
    given(
      { seats: [seat(1, '5c 5d 5h', { ante: 100, sixCardBonus: 100 })], banker: cards('8s 9c 2d') },
      F3CP_2025A,
      'J8',
    ).thenAgree();
  });

  it('J9: a f3cp-2025a round with a Six Card Bonus — chosen: settled; alternative: refused', () => {
    const facts = {
      seats: [seat(1, '5c 5d 5h', { ante: 100, sixCardBonus: 100 })],
      banker: cards('8s 9c 2d'),
    };
    assert.ok(settleF3cpRound(facts, F3CP_2025A));
    assert.throws(
      () => settleF3cpRound(facts, withReadings(F3CP_2025A, ['J9'])),
      /alternative reading of J9/,
    );
  });
  it('J9: no Six Card Bonus or Progressive bet, or the f3cp-2025 rules as published — agree', () => {
    given(
      { seats: [seat(1, '5c 5d 5h', { ante: 100 })], banker: cards('8s 9c 2d') },
      F3CP_2025A,
      'J9',
    ).thenAgree();
    given(
      { seats: [seat(1, '5c 5d 5h', { ante: 100, sixCardBonus: 100 })], banker: cards('8s 9c 2d') },
      F3CP_2025,
      'J9',
    ).thenAgree();
  });

  it('J10: a Flush seated before the Royal — chosen: the Straight Flush first; alternative: the Flush keeps its seat order', () => {
    const facts: F3cpRoundFacts = {
      seats: [
        seat(1, '2h 4h 6h', { ante: 100, progressive: 100 }),
        seat(2, 'Ah Kh Qh', { ante: 100, progressive: 100 }),
        seat(3, '9h 8h 7h', { ante: 100, progressive: 100 }),
      ],
      banker: cards('2c 3d 5s'),
      ...jackpot(5_000_000),
    };
    const g = given(facts, F3CP_2025A, 'J10');
    assert.deepEqual(
      g.chosen.jackpot!.payments.map((p) => p.seat),
      [3, 1, 2],
    );
    assert.deepEqual(
      g.alternative.jackpot!.payments.map((p) => p.seat),
      [1, 3, 2],
    );
    // the amounts do not depend on when a fixed amount is paid
    assert.deepEqual(money(g.alternative).slice(0, -1), money(g.chosen).slice(0, -1));
  });
  it('J10: no fixed-amount hand before the Royal — the same order', () => {
    const g = given(royalAndStraightFlush(5_000_000), F3CP_2025A, 'J10');
    assert.deepEqual(
      g.alternative.jackpot!.payments.map((p) => p.seat),
      g.chosen.jackpot!.payments.map((p) => p.seat),
    );
  });

  it('J11: banker 2-2-5 — chosen: qualifies (a pair); alternative: does not (no card of Q or higher)', () => {
    const g = given(
      { seats: [seat(1, 'Kh Jd 4s', { ante: 100 })], banker: cards('2c 2d 5h') },
      F3CP_2025A,
      'J11',
    ).thenDiffer();
    assert.equal(g.chosen.banker.qualifies, true);
    assert.equal(g.alternative.banker.qualifies, false);
  });
  it('J11: banker Q-5-2 — agree', () => {
    given(
      { seats: [seat(1, 'Kh Jd 4s', { ante: 100 })], banker: cards('Qd 5c 2h') },
      F3CP_2025A,
      'J11',
    ).thenAgree();
  });
});

describe('F3CP 2008 alternatives: Given a round, When settled under both readings, Then …', () => {
  it('H2: equal hands — chosen: push; alternative: the croupier wins', () => {
    const g = given(
      { seats: [seat(1, 'Qh Jc 3d', { ante: 100 })], banker: cards('Qs Jd 3c') },
      F3CP_2008A,
      'H2',
    ).thenDiffer();
    assert.equal(line(g.alternative, 1, 'ante')!.outcome, 'lose');
  });
  it('H2: unequal hands — agree', () => {
    given(
      { seats: [seat(1, 'Kh Kd 4s', { ante: 100 })], banker: cards('Qs Jd 3c') },
      F3CP_2008A,
      'H2',
    ).thenAgree();
  });
  it('H3 (first alternative): a straight beaten by the croupier — bonus only under the chosen reading', () => {
    given(
      { seats: [seat(1, '5h 6c 7d', { ante: 100 })], banker: cards('9s 9d 9c') },
      F3CP_2008A,
      'H3',
    ).thenDiffer();
  });
  it('H3 (first alternative): a straight that wins — agree', () => {
    given(
      { seats: [seat(1, '5h 6c 7d', { ante: 100 })], banker: cards('Qs Jd 3c') },
      F3CP_2008A,
      'H3',
    ).thenAgree();
  });
  it('H3 (second alternative): a straight that did not play — bonus only under the alternative', () => {
    const g = given(
      { seats: [seat(1, '5h 6c 7d', { ante: 100 }, 'fold')], banker: cards('9s 9d 9c') },
      F3CP_2008A,
      'H3:2',
    ).thenDiffer();
    assert.equal(line(g.alternative, 1, 'anteBonus')!.payout, 100);
  });
  it('H3 (second alternative): a pair that did not play — agree', () => {
    given(
      { seats: [seat(1, '5h 5c 7d', { ante: 100 }, 'fold')], banker: cards('9s 9d 9c') },
      F3CP_2008A,
      'H3:2',
    ).thenAgree();
  });
  it('H4: a pair with Pair Plus that did not play — chosen: collected; alternative: paid 1:1', () => {
    const g = given(
      { seats: [seat(1, 'Kh Kd 4s', { ante: 100, pairPlus: 100 }, 'fold')], banker: cards('Qs Jd 3c') },
      F3CP_2008A,
      'H4',
    ).thenDiffer();
    assert.equal(line(g.alternative, 1, 'pairPlus')!.payout, 100);
  });
  it('H4: a hand that played — agree', () => {
    given(
      { seats: [seat(1, 'Kh Kd 4s', { ante: 100, pairPlus: 100 })], banker: cards('Qs Jd 3c') },
      F3CP_2008A,
      'H4',
    ).thenAgree();
  });
  it('H5: a f3cp-2008a round with an Ante — alternative: refused; f3cp-2008 (before 97/2008) — agree', () => {
    const facts = { seats: [seat(1, 'Kh Kd 4s', { ante: 100 })], banker: cards('Qs Jd 3c') };
    assert.throws(
      () => settleF3cpRound(facts, withReadings(F3CP_2008A, ['H5'])),
      /alternative reading of H5/,
    );
    assert.deepEqual(
      money(settleF3cpRound(facts, withReadings(F3CP_2008, ['H5']))),
      money(settleF3cpRound(facts, F3CP_2008)),
    );
  });
  it('H7: croupier 2-2-5 — chosen: qualifies; alternative: does not', () => {
    given(
      { seats: [seat(1, 'Kh Jd 4s', { ante: 100 })], banker: cards('2c 2d 5h') },
      F3CP_2008A,
      'H7',
    ).thenDiffer();
  });
  it('H7: croupier K-5-2 — agree', () => {
    given(
      { seats: [seat(1, 'Kh Jd 4s', { ante: 100 })], banker: cards('Kd 5c 2h') },
      F3CP_2008A,
      'H7',
    ).thenAgree();
  });
  it('H1: A-K-Q suited against a straight — chosen: Straight Flush wins; alternative: a Flush, loses to the straight (2008 order)', () => {
    given(
      { seats: [seat(1, 'Ah Kh Qh', { ante: 100 })], banker: cards('9s Td Jc') },
      F3CP_2008A,
      'H1',
    ).thenDiffer();
  });
  it('H1: no suited A-K-Q — agree', () => {
    given(
      { seats: [seat(1, 'Kh Kd 4s', { ante: 100 })], banker: cards('Qs Jd 3c') },
      F3CP_2008A,
      'H1',
    ).thenAgree();
  });
});

describe('finding-level alternatives (J19, H8, J20): Given a unit’s findings, When read under the alternative, Then …', () => {
  const finding = (checkId: string, ruleSet: string, handled: boolean): Finding =>
    ({ checkId, ruleSet, handled, findingId: `${checkId}-${ruleSet}-${handled}` }) as unknown as Finding;
  const handled2025 = finding('F3CP.DEAL.ORDER', 'f3cp-2025a', true);
  const open2025 = finding('F3CP.DEAL.ORDER', 'f3cp-2025a', false);
  const handled2008 = finding('F3CP08.DEAL.ORDER', 'f3cp-2008a', true);
  const revealed = finding('F3CP.JACKPOT.COMMUNITY_REVEALED_WITHOUT_BETS', 'f3cp-2025a', false);

  it('J19: a handled 2025 breach disappears; an unhandled one and a 2008 one stay', () => {
    assert.deepEqual(findingsUnderReadings([handled2025, open2025, handled2008], ['J19']), [
      open2025,
      handled2008,
    ]);
  });
  it('J19: no handled breach — agree (the same array)', () => {
    const list = [open2025];
    assert.equal(findingsUnderReadings(list, ['J19']), list);
  });
  it('H8: a handled 2008 breach disappears', () => {
    assert.deepEqual(findingsUnderReadings([handled2025, handled2008], ['H8']), [handled2025]);
  });
  it('H8: no handled 2008 breach — agree', () => {
    const list = [handled2025, open2025];
    assert.equal(findingsUnderReadings(list, ['H8']), list);
  });
  it('J20: community cards revealed with no Progressive bet is no breach under the ZH reading', () => {
    assert.deepEqual(findingsUnderReadings([revealed, open2025], ['J20']), [open2025]);
  });
  it('J20: other findings — agree', () => {
    const list = [open2025, handled2025];
    assert.equal(findingsUnderReadings(list, ['J20']), list);
  });
});

describe('CRAPS alternatives: Given a bet on the layout, When a throw is resolved under both readings, Then …', () => {
  const resolve = (key: string | null, bet: BetState, faces: [number, number]) =>
    resolveThrow(key ? crapsReadings(CRAPS_2010, [key]) : CRAPS_2010, bet, faces, 2);
  const big6: BetState = { kind: 'BIG_NUMBER', number: 6, point: null };
  const dontPass: BetState = { kind: 'DONT_PASS', number: null, point: null };

  it('C3: a Big 6 and a 5 thrown — chosen: the bet stays; alternative: returned (push)', () => {
    assert.equal(resolve(null, big6, [2, 3]).resolution, null);
    assert.equal(resolve('C3', big6, [2, 3]).resolution, 'PUSH');
  });
  it('C3: a Big 6 and a 6 or a 7 thrown — agree', () => {
    assert.deepEqual(resolve('C3', big6, [3, 3]), resolve(null, big6, [3, 3]));
    assert.deepEqual(resolve('C3', big6, [3, 4]), resolve(null, big6, [3, 4]));
  });
  it('C5: a Don’t Pass and a come-out 12 — chosen: push; alternative: stays for the next come-out', () => {
    assert.equal(resolve(null, dontPass, [6, 6]).resolution, 'PUSH');
    assert.deepEqual(resolve('C5', dontPass, [6, 6]), { resolution: null, pays: null, point: null });
  });
  it('C5: a Don’t Pass and a come-out 2 or 7 — agree', () => {
    assert.deepEqual(resolve('C5', dontPass, [1, 1]), resolve(null, dontPass, [1, 1]));
    assert.deepEqual(resolve('C5', dontPass, [3, 4]), resolve(null, dontPass, [3, 4]));
  });
  it('the default readings give the same rule set object', () => {
    assert.equal(crapsReadings(CRAPS_2010, []), CRAPS_2010);
    assert.equal(crapsReadings(CRAPS_2010, ['J2']), CRAPS_2010);
  });
});
