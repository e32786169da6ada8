import { classifyThree, classOfThree } from '../../poker/three-card.ts';
import type { FiveCardClass } from '../../poker/five-card.ts';
import {
  checkRoundFacts,
  InvalidRoundFacts,
  roundFactsAreValid,
  type F3cpRoundFacts,
  type F3cpSeatFacts,
} from '../facts.ts';
import type { F3cpRuleSet } from '../rule-set.ts';
import { anteBonusTemplates, compareCitations, settleAntePlay, settleBanker } from './ante-play.ts';
import { handValueUnder } from './compared-hand.ts';
import {
  evaluateProgressive,
  settleProgressive,
  type JackpotClaim,
  type ProgressiveLoss,
} from './jackpot.ts';
import {
  altFlags,
  interpretationsOf,
  type F3cpSettlement,
  type JackpotResult,
  type SeatResult,
  type SettlementLine,
  type Templates,
} from './lines.ts';
import { pairPlusLine, pairPlusTemplates, settleSixCardBonus, sixCardTemplates } from './side-bets.ts';
import { invalidAdditional, voidSeat } from './void.ts';
import { settleF3cp2008Round } from './2008.ts';

export { settleF3cp2008Round } from './2008.ts';
export {
  bankerQualifies,
  classifyUnder,
  comparedHand,
  handValueUnder,
  reclassify,
  type ComparedHand,
} from './compared-hand.ts';

export type {
  F3cpBetLine,
  F3cpSettlement,
  JackpotPayment,
  JackpotResult,
  SeatResult,
  SettlementLine,
} from './lines.ts';

/*
 * The settlement of a round, by concern: lines.ts (result types, citations, line builders, interpretation ids),
 * ante-play.ts (banker, Ante and Play, Ante bonus), side-bets.ts (Pair Plus, Six Card Bonus), jackpot.ts
 * (Progressive Jackpot), void.ts (voided rounds, invalid additional bets). This file composes them.
 */

const templateCache = new WeakMap<F3cpRuleSet, Templates>();

function templatesFor(rules: F3cpRuleSet): Templates {
  const cached = templateCache.get(rules);
  if (cached) return cached;
  const t: Templates = {
    alt: altFlags(rules),
    pairPlus: pairPlusTemplates(rules),
    sixCard: sixCardTemplates(rules),
    anteBonus: anteBonusTemplates(rules),
    compare: compareCitations(rules),
  };
  templateCache.set(rules, t);
  return t;
}

/**
 * Settles one round of Fortune 3 Card Poker under `rules`: every bet's outcome and amount, the Ante bonus, the
 * banker's qualification, and the Progressive Jackpot payments in payment order with the pool before and after
 * each (art. 13.º to 16.º; interpretations J1–J8, J10, J11). Pure: the same facts always give the same settlement.
 * Throws InvalidRoundFacts when the facts cannot describe a real round.
 */
export function settleF3cpRound(facts: F3cpRoundFacts, rules: F3cpRuleSet): F3cpSettlement {
  if (!roundFactsAreValid(facts)) throw new InvalidRoundFacts(checkRoundFacts(facts));
  if (rules.era === '2008') return settleF3cp2008Round(facts, rules);
  const templates = templatesFor(rules);
  const alt = templates.alt;
  if (alt.j9 && facts.seats.some((s) => (s.bets.sixCardBonus ?? 0) > 0 || (s.bets.progressive ?? 0) > 0))
    throw new Error(
      'alternative reading of J9: art. 7.º n.º 2-3 as amended by 94/2025 are unknown, so Six Card Bonus and Progressive bets are not settled',
    );
  const banker = settleBanker(facts.banker, rules);
  const bankerValue = banker.handValue;
  const qualifies = banker.qualifies;
  const seats = isSortedBySeat(facts.seats) ? facts.seats : [...facts.seats].sort((a, b) => a.seat - b.seat);
  const seatResults: SeatResult[] = [];
  const lines: SettlementLine[] = [];
  const jackpotClaims: JackpotClaim[] = [];
  const progressiveLosers: ProgressiveLoss[] = [];

  for (const s of seats) {
    const classified = classifyThree(s.cards[0]!, s.cards[1]!, s.cards[2]!);
    const hand = classOfThree(classified);
    const value = handValueUnder(classified, rules, alt.j7);
    const bets = s.bets;
    const ante = bets.ante ?? 0;
    const pairPlus = bets.pairPlus ?? 0;
    const sixBet = bets.sixCardBonus ?? 0;
    const progressive = bets.progressive ?? 0;
    const hasBasic = ante > 0 || pairPlus > 0;
    const decision = ante > 0 ? (s.decision ?? null) : null;
    const folded = decision === 'fold' ? 1 : 0;
    let versus: SeatResult['versusBanker'] = null;
    let sixHand: FiveCardClass | null = null;
    let progressiveHand: FiveCardClass | null = null;

    if (facts.voided) {
      voidSeat(s, facts.voided, lines);
    } else {
      if (ante > 0) versus = settleAntePlay(s, templates, hand, value, bankerValue, qualifies, lines);
      if (pairPlus > 0) lines.push(pairPlusLine(templates, folded, hand, s.seat, pairPlus));
      if (sixBet > 0) {
        if (!hasBasic) lines.push(invalidAdditional(s.seat, 'sixCardBonus', sixBet));
        else sixHand = settleSixCardBonus(s.cards, facts.banker, templates, folded, s.seat, sixBet, lines);
      }
      if (progressive > 0) {
        if (!hasBasic) lines.push(invalidAdditional(s.seat, 'progressive', progressive));
        else
          progressiveHand = evaluateProgressive(
            s.seat,
            s.cards,
            facts.community!,
            progressive,
            rules,
            jackpotClaims,
            progressiveLosers,
          );
      }
    }
    seatResults.push({
      seat: s.seat,
      cards: s.cards,
      hand,
      handValue: value,
      decision,
      versusBanker: versus,
      sixCardHand: sixHand,
      progressiveHand,
    });
  }

  let jackpot: JackpotResult | null = null;
  if (!facts.voided && facts.jackpot)
    jackpot = settleProgressive(facts.jackpot, jackpotClaims, progressiveLosers, rules, lines);
  return {
    ruleSetId: rules.id,
    voided: facts.voided ?? null,
    banker,
    seats: seatResults,
    lines,
    jackpot,
    interpretations: interpretationsOf(rules, lines),
  };
}

function isSortedBySeat(seats: readonly F3cpSeatFacts[]): boolean {
  for (let i = 1; i < seats.length; i++) if (seats[i - 1]!.seat > seats[i]!.seat) return false;
  return true;
}
