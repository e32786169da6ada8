import { cite, type Citation } from '../../citations/citation.ts';
import { winnings } from '../../money.ts';
import { classOfThree, valueUnder, type ThreeCardClass } from '../../poker/three-card.ts';
import type { F3cpRoundFacts, F3cpSeatFacts, F3cpVoidReason } from '../facts.ts';
import type { F3cpRuleSet } from '../rule-set.ts';
import { art9, F3CP_2008_DIPLOMA as D } from '../rule-set-2008.ts';
import { classifyUnder, comparedHand } from './compared-hand.ts';
import {
  altFlags,
  EVEN,
  interpretationsOf,
  line,
  type F3cpSettlement,
  type SeatResult,
  type SettlementLine,
} from './lines.ts';

/**
 * The settlement of a round under the 2008 rules (Despacho 78/2008, art. 9.º as re-worded by 97/2008): the
 * croupier's qualification (art. 9.º 4)), Ante and Play against the croupier (9.º 1), 2), 5)–7)), the Ante bonus
 * (9.º 8)) and Pair Plus (9.º 9), art. 10.º). Every line cites 78/2008 (97/2008's wording for art. 9.º 1)–6) in
 * f3cp-2008a) and never 89/2025. Interpretations H1–H5 and H7.
 */

/** The citations of the 2008 settlement, by the rule set's wording of art. 9.º. */
export function citations2008(rules: F3cpRuleSet) {
  const amended = rules.id === 'f3cp-2008a';
  return {
    playEqualsAnte: art9(amended, 1),
    fold: art9(amended, 2),
    playRequired: art9(amended, 3),
    qualifies: art9(amended, 4),
    notQualified: art9(amended, 5),
    playerHigher: art9(amended, 6),
    croupierHigher: art9(amended, 7),
    anteBonus: art9(amended, 8),
    pairPlus: art9(amended, 9),
    pairPlusTable: cite(D, 10),
    bets: cite(D, 5, { numero: 1 }),
    voidDealing: cite(D, 11, { alinea: 1 }),
    voidShuffler: cite(D, 11, { alinea: 4 }),
  } as const;
}

const CACHE = new WeakMap<F3cpRuleSet, ReturnType<typeof citations2008>>();
const citationsOf = (rules: F3cpRuleSet) => {
  let c = CACHE.get(rules);
  if (!c) CACHE.set(rules, (c = citations2008(rules)));
  return c;
};

const QUALIFY_READING = Object.freeze(['H7']);
const TIE_READING = Object.freeze(['H2']);
const BONUS_READING = Object.freeze(['H3']);
const FOLD_READING = Object.freeze(['H4']);

/** Settles one round under a 2008 rule set. Pure. The facts are checked by settleF3cpRound before it calls this. */
export function settleF3cp2008Round(facts: F3cpRoundFacts, rules: F3cpRuleSet): F3cpSettlement {
  const C = citationsOf(rules);
  const alt = altFlags(rules);
  if (
    alt.h5 &&
    !facts.voided &&
    facts.seats.some((s) => (s.bets.ante ?? 0) > 0 || (s.bets.pairPlus ?? 0) > 0)
  )
    throw new Error(
      'alternative reading of H5: art. 9.º 7)-9) as re-worded by 97/2008 are unknown, so Ante bonus and Pair Plus are not settled',
    );
  const order = rules.handOrder;
  const { classified: bc, value: bankerValue, qualifies } = comparedHand(rules, facts.banker);
  const banker: F3cpSettlement['banker'] = {
    cards: facts.banker,
    hand: classOfThree(bc),
    handValue: bankerValue,
    qualifies,
    citations: [qualifies ? C.qualifies : C.notQualified, rules.handOrderCitation],
    interpretations: QUALIFY_READING,
  };
  const seats = [...facts.seats].sort((a, b) => a.seat - b.seat);
  const lines: SettlementLine[] = [];
  const results: SeatResult[] = [];
  for (const s of seats) {
    const classified = classifyUnder(rules, s.cards[0]!, s.cards[1]!, s.cards[2]!);
    const hand = classOfThree(classified);
    const value = valueUnder(classified, order);
    const ante = s.bets.ante ?? 0;
    const decision = ante > 0 ? (s.decision ?? null) : null;
    let versus: SeatResult['versusBanker'] = null;
    if (facts.voided) voidSeat2008(s, facts.voided, C, lines);
    else {
      if (ante > 0) versus = antePlay(s, rules, C, hand, value, bankerValue, qualifies, lines);
      const pp = s.bets.pairPlus ?? 0;
      if (pp > 0) lines.push(pairPlus(rules, C, s.seat, pp, hand, decision === 'fold' && !alt.h4));
      for (const bet of ['sixCardBonus', 'progressive'] as const) {
        const amount = s.bets[bet] ?? 0;
        if (amount > 0)
          lines.push(
            line({
              seat: s.seat,
              bet,
              amount,
              outcome: 'void',
              basis: 'the 2008 rules have no such bet (art. 5.º: Ante and Pair Plus only): it is returned',
              citations: [C.bets],
            }),
          );
      }
    }
    results.push({
      seat: s.seat,
      cards: s.cards,
      hand,
      handValue: value,
      decision,
      versusBanker: versus,
      sixCardHand: null,
      progressiveHand: null,
    });
  }
  return {
    ruleSetId: rules.id,
    voided: facts.voided ?? null,
    banker,
    seats: results,
    lines,
    jackpot: null,
    interpretations: interpretationsOf(rules, lines),
  };
}

type Cites = ReturnType<typeof citations2008>;

function antePlay(
  s: F3cpSeatFacts,
  rules: F3cpRuleSet,
  C: Cites,
  hand: ThreeCardClass,
  value: number,
  bankerValue: number,
  qualifies: boolean,
  lines: SettlementLine[],
): SeatResult['versusBanker'] {
  const seat = s.seat;
  const ante = s.bets.ante!;
  if (s.decision === 'fold') {
    lines.push(
      line({
        seat,
        bet: 'ante',
        amount: ante,
        outcome: 'lose',
        hand,
        basis: 'did not play against the croupier: the hand is lost and the Ante collected',
        citations: [C.fold],
      }),
    );
    // the second alternative of H3: a hand that did not play receives the Ante bonus too
    if (altFlags(rules).h3 === 2) anteBonus(rules, C, seat, ante, hand, lines);
    return null;
  }
  const play = s.bets.play ?? 0;
  const both = (
    outcome: 'win' | 'lose' | 'push',
    basis: string,
    citations: readonly Citation[],
    interpretations?: readonly string[],
    playOutcome: 'win' | 'lose' | 'push' = outcome,
  ) => {
    const win = (amount: number, o: 'win' | 'lose' | 'push') =>
      o === 'win' ? { payout: amount, ratio: EVEN } : {};
    lines.push(
      line({
        seat,
        bet: 'ante',
        amount: ante,
        outcome,
        hand,
        basis,
        citations,
        interpretations,
        ...win(ante, outcome),
      }),
    );
    if (play > 0)
      lines.push(
        line({
          seat,
          bet: 'play',
          amount: play,
          outcome: playOutcome,
          hand,
          basis,
          citations,
          interpretations,
          ...win(play, playOutcome),
        }),
      );
  };
  let versus: SeatResult['versusBanker'] = null;
  if (!qualifies)
    both(
      'win',
      "the croupier's hand is below Queen-high: the Ante pays 1 to 1, the Play bet is returned",
      [C.qualifies, C.notQualified],
      QUALIFY_READING,
      'push',
    );
  else if (value > bankerValue) {
    versus = 'higher';
    both('win', "the player's hand beats the croupier's qualifying hand: Ante and Play pay 1 to 1", [
      C.qualifies,
      C.playerHigher,
      rules.handOrderCitation,
    ]);
  } else if (value < bankerValue) {
    versus = 'lower';
    both('lose', "the croupier's qualifying hand beats the player's hand: the croupier collects", [
      C.qualifies,
      C.croupierHigher,
      rules.handOrderCitation,
    ]);
  } else if (altFlags(rules).h2) {
    versus = 'equal';
    both(
      'lose',
      'the hands are equal: under the alternative reading of H2 the croupier wins ties',
      [C.playerHigher, C.croupierHigher, rules.handOrderCitation],
      TIE_READING,
    );
  } else {
    versus = 'equal';
    both(
      'push',
      'the hands are equal: the bets are returned',
      [C.playerHigher, C.croupierHigher, rules.handOrderCitation],
      TIE_READING,
    );
  }
  // the first alternative of H3: only a hand that beat a qualifying croupier receives the Ante bonus
  if (altFlags(rules).h3 !== 1 || versus === 'higher') anteBonus(rules, C, seat, ante, hand, lines);
  return versus;
}

function anteBonus(
  rules: F3cpRuleSet,
  C: Cites,
  seat: number,
  ante: number,
  hand: ThreeCardClass,
  lines: SettlementLine[],
): void {
  const bonus = rules.anteBonus[hand];
  if (bonus)
    lines.push(
      line({
        seat,
        bet: 'anteBonus',
        amount: ante,
        outcome: 'win',
        payout: winnings(ante, bonus.ratio),
        ratio: bonus.ratio,
        stake: 'not-applicable',
        hand,
        basis: `Ante bonus: ${hand} pays ${bonus.ratio.win} to 1 on the Ante, whatever the croupier holds`,
        citations: [C.anteBonus, ...bonus.citations],
        interpretations: BONUS_READING,
      }),
    );
}

function pairPlus(
  rules: F3cpRuleSet,
  C: Cites,
  seat: number,
  amount: number,
  hand: ThreeCardClass,
  folded: boolean,
): SettlementLine {
  if (folded)
    return line({
      seat,
      bet: 'pairPlus',
      amount,
      outcome: 'lose',
      hand,
      basis:
        'the hand did not play (which art. 9.º 3) forbids with a Pair Plus bet): its cards and bets are collected',
      citations: [C.fold, C.playRequired],
      interpretations: FOLD_READING,
    });
  const p = rules.pairPlus[hand];
  if (!p)
    return line({
      seat,
      bet: 'pairPlus',
      amount,
      outcome: 'lose',
      hand,
      basis: 'Pair Plus: less than a pair',
      citations: [C.pairPlus, C.pairPlusTable],
    });
  return line({
    seat,
    bet: 'pairPlus',
    amount,
    outcome: 'win',
    payout: winnings(amount, p.ratio),
    ratio: p.ratio,
    hand,
    basis: `Pair Plus: ${hand} pays ${p.ratio.win} to 1, whatever the croupier holds`,
    citations: [C.pairPlus, ...p.citations],
  });
}

/** Art. 11.º 1) and 4): the bets of an invalid round are void (returned); new bets, new cards. */
function voidSeat2008(s: F3cpSeatFacts, reason: F3cpVoidReason, C: Cites, lines: SettlementLine[]): void {
  const why = reason === 'shuffler-malfunction' ? C.voidShuffler : C.voidDealing;
  for (const bet of ['ante', 'play', 'pairPlus'] as const) {
    const amount = s.bets[bet] ?? 0;
    if (amount <= 0) continue;
    lines.push(
      line({
        seat: s.seat,
        bet,
        amount,
        outcome: 'void',
        basis: 'the round is invalid: its bets are void and returned',
        citations: [why],
      }),
    );
  }
}
