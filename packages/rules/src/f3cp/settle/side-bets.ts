import type { Card } from '../../cards.ts';
import type { Avos } from '../../money.ts';
import { bestFiveClassId, FIVE_CARD_CLASSES, type FiveCardClass } from '../../poker/five-card.ts';
import { THREE_CARD_CLASSES, type ThreeCardClass } from '../../poker/three-card.ts';
import type { F3cpRuleSet } from '../rule-set.ts';
import { C, fromTemplate, NONE, type LineTemplate, type SettlementLine, type Templates } from './lines.ts';

/**
 * The side bets settled on the cards alone, whatever the banker's qualification and the player's decision: Pair
 * Plus (art. 13.º 5), art. 16.º n.º 1) and the Six Card Bonus (art. 13.º 6), art. 14.º, art. 16.º n.º 2).
 */

/** Pair Plus lines, [folded ? 1 : 0][class]. */
export function pairPlusTemplates(rules: F3cpRuleSet): Record<ThreeCardClass, LineTemplate>[] {
  const forfeit = rules.alternatives.includes('J1');
  return [false, true].map((folded) => {
    if (folded && forfeit) return foldForfeitsPairPlus();
    const extra = folded ? [C.pairPlus, C.foldKeepsCards] : [C.pairPlus];
    const interpretations = folded ? Object.freeze(['J1']) : NONE;
    return Object.fromEntries(
      THREE_CARD_CLASSES.map((hand): [ThreeCardClass, LineTemplate] => {
        const p = rules.pairPlus[hand];
        return [
          hand,
          p
            ? {
                bet: 'pairPlus',
                outcome: 'win',
                ratio: p.ratio,
                stake: 'returned',
                hand,
                basis: `Pair Plus: ${hand} pays ${p.ratio.win} to 1, whatever the banker holds`,
                citations: [...p.citations, ...extra],
                interpretations,
              }
            : {
                bet: 'pairPlus',
                outcome: 'lose',
                ratio: undefined,
                stake: 'collected',
                hand,
                basis: 'Pair Plus: less than a pair',
                citations: extra,
                interpretations,
              },
        ];
      }),
    ) as Record<ThreeCardClass, LineTemplate>;
  });
}

/** The alternative reading of J1: a fold forfeits the Pair Plus whatever the three cards hold. */
function foldForfeitsPairPlus(): Record<ThreeCardClass, LineTemplate> {
  return Object.fromEntries(
    THREE_CARD_CLASSES.map((hand): [ThreeCardClass, LineTemplate] => [
      hand,
      {
        bet: 'pairPlus',
        outcome: 'lose',
        ratio: undefined,
        stake: 'collected',
        hand,
        basis:
          'folded: under the alternative reading of J1 a fold forfeits the Pair Plus too (the Six Card Bonus and the Progressive stand: art. 12.º n.º 4)',
        citations: [C.fold, C.pairPlus],
        interpretations: J1_ONLY,
      },
    ]),
  ) as Record<ThreeCardClass, LineTemplate>;
}
const J1_ONLY = Object.freeze(['J1']);

/** Six Card Bonus lines, [folded ? 1 : 0][class]. */
export function sixCardTemplates(rules: F3cpRuleSet): Record<FiveCardClass, LineTemplate>[] {
  return [false, true].map((folded) => {
    const extra = folded ? [C.sixCard, C.sixCardBest, C.foldDoesNotAffect] : [C.sixCard, C.sixCardBest];
    return Object.fromEntries(
      FIVE_CARD_CLASSES.map((hand): [FiveCardClass, LineTemplate] => {
        const p = rules.sixCardBonus[hand];
        return [
          hand,
          p
            ? {
                bet: 'sixCardBonus',
                outcome: 'win',
                ratio: p.ratio,
                stake: 'returned',
                hand,
                basis: `Six Card Bonus: the best five of the player's and the banker's six cards is ${hand}, paying ${p.ratio.win} to 1`,
                citations: [...p.citations, ...extra],
                interpretations: NONE,
              }
            : {
                bet: 'sixCardBonus',
                outcome: 'lose',
                ratio: undefined,
                stake: 'collected',
                hand,
                basis: `Six Card Bonus: the best five of six is ${hand}, less than three of a kind`,
                citations: extra,
                interpretations: NONE,
              },
        ];
      }),
    ) as Record<FiveCardClass, LineTemplate>;
  });
}

/** Pair Plus: the player's three cards alone decide (J1: a folded hand's Pair Plus is still settled). */
export const pairPlusLine = (
  t: Templates,
  folded: number,
  hand: ThreeCardClass,
  seat: number,
  amount: Avos,
): SettlementLine => fromTemplate(t.pairPlus[folded]![hand], seat, amount);

/** Six Card Bonus: the best five of the player's and the banker's six cards. Pushes the line; returns the hand. */
export function settleSixCardBonus(
  cards: readonly Card[],
  banker: readonly Card[],
  t: Templates,
  folded: number,
  seat: number,
  amount: Avos,
  lines: SettlementLine[],
): FiveCardClass {
  six[0] = cards[0]!;
  six[1] = cards[1]!;
  six[2] = cards[2]!;
  six[3] = banker[0]!;
  six[4] = banker[1]!;
  six[5] = banker[2]!;
  const sixHand = FIVE_CARD_CLASSES[bestFiveClassId(six, 6)]!;
  if (sixHand === 'straight' && t.alt.j8) {
    // the alternative reading of J8: no five-card Straight exists; six cards holding five distinct ranks in
    // sequence hold at most a pair besides, which pays nothing
    const tpl = t.sixCard[folded]!['high-card'];
    lines.push({
      ...fromTemplate(tpl, seat, amount),
      hand: 'straight',
      basis:
        'Six Card Bonus: under the alternative reading of J8 no five-card Straight exists (its cards cannot all be of different suits): less than three of a kind',
      interpretations: J8_ONLY,
    });
    return sixHand;
  }
  lines.push(fromTemplate(t.sixCard[folded]![sixHand], seat, amount));
  return sixHand;
}

const J8_ONLY = Object.freeze(['J8']);

// scratch for the six-card hand (settlement is synchronous: nothing survives a call)
const six: Card[] = [0, 0, 0, 0, 0, 0];
