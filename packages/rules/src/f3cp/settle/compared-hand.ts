/**
 * How the settlement compares three-card hands, under a rule set and its readings: the hand's class (H1 re-reads
 * A-K-Q suited in 2008), its comparable value (the rule set's hand order; J7 places 3-2-A among straights) and,
 * held by the banker (croupier), whether it qualifies (art. 13.º 1)-2) of 89/2025 as read in J11; art. 9.º 4) of
 * 78/2008 as read in H7). The settlement (ante-play.ts, 2008.ts) and the exact math that buckets banker hands by
 * them (math/house-edge.ts, math/play-oracle.ts) both read them here, so the math compares hands exactly as the
 * settlement of the same readings does.
 */
import { rankOf, type Card } from '../../cards.ts';
import { C3, classifyThree, qualifiesQueenHigh, valueUnder } from '../../poker/three-card.ts';
import type { F3cpRuleSet } from '../rule-set.ts';
import { altFlags } from './lines.ts';

/** A classifyThree result re-read under the rule set's reading of A-K-Q suited (H1). */
export function reclassify(rules: F3cpRuleSet, classified: number): number {
  if (
    rules.suitedAceKingQueen === 'flush' &&
    classified >> 12 === C3.straightFlush &&
    (classified & 0xfff) === 12
  )
    return (C3.flush << 12) | (12 * 256 + 11 * 16 + 10);
  return classified;
}

/**
 * Three cards classified under the rule set: as classifyThree, except that under the alternative reading of H1
 * A-K-Q of one suit is a Flush (ace high) and not a Straight Flush.
 */
export function classifyUnder(rules: F3cpRuleSet, a: Card, b: Card, c: Card): number {
  return reclassify(rules, classifyThree(a, b, c));
}

/**
 * A hand's comparable value under the rule set: valueUnder, except that under the alternative reading of J7
 * (literal PT: the straight with the highest card wins) 3-2-A ranks just below A-K-Q, above K-Q-J, among
 * straights and straight flushes (the straight's top card doubled, 3-2-A given the odd place 23).
 */
export function handValueUnder(classified: number, rules: F3cpRuleSet, literalStraights: boolean): number {
  if (!literalStraights) return valueUnder(classified, rules.handOrder);
  const cls = classified >> 12;
  if (cls !== C3.straight && cls !== C3.straightFlush) return valueUnder(classified, rules.handOrder);
  const top = classified & 0xfff;
  return (rules.handOrder[cls]! << 12) | (top === 1 ? 23 : top * 2);
}

/**
 * Whether a banker (croupier) hand qualifies: its value equal to or higher than Q (J11, H7), or, under their
 * alternative (literal ZH), holding a card of Q or higher.
 */
export function bankerQualifies(classified: number, cards: readonly Card[], literalCard: boolean): boolean {
  if (!literalCard) return qualifiesQueenHigh(classified);
  return rankOf(cards[0]!) >= 10 || rankOf(cards[1]!) >= 10 || rankOf(cards[2]!) >= 10;
}

/** A hand as the settlement of `rules` compares it (see the module's comment). */
export interface ComparedHand {
  readonly classified: number;
  readonly value: number;
  /** as the banker's (croupier's) hand */
  readonly qualifies: boolean;
}

/** Three cards as the settlement of `rules`, under its readings, compares them. */
export function comparedHand(rules: F3cpRuleSet, cards: readonly Card[]): ComparedHand {
  const alt = altFlags(rules);
  if (rules.era === '2008') {
    const classified = classifyUnder(rules, cards[0]!, cards[1]!, cards[2]!);
    return {
      classified,
      value: valueUnder(classified, rules.handOrder),
      qualifies: bankerQualifies(classified, cards, alt.h7),
    };
  }
  const classified = classifyThree(cards[0]!, cards[1]!, cards[2]!);
  return {
    classified,
    value: handValueUnder(classified, rules, alt.j7),
    qualifies: bankerQualifies(classified, cards, alt.j11),
  };
}
