import type { Citation } from '../../citations/citation.ts';
import type { Card } from '../../cards.ts';
import { classOfThree, THREE_CARD_CLASSES, type ThreeCardClass } from '../../poker/three-card.ts';
import type { F3cpSeatFacts } from '../facts.ts';
import type { F3cpRuleSet } from '../rule-set.ts';
import { comparedHand } from './compared-hand.ts';
import {
  BANKER_INTERPRETATIONS,
  C,
  EVEN,
  fromTemplate,
  line,
  type F3cpSettlement,
  type LineTemplate,
  type SeatResult,
  type SettlementLine,
  type Templates,
} from './lines.ts';

/**
 * The basic bets: the banker's qualification (art. 13.º 1) and 2)), the Ante and the Play against the banker
 * (art. 12.º n.º 2, art. 13.º 3)) and the Ante bonus (art. 13.º 4)).
 */

/** The banker's hand, its value under the rule set's order, and whether it qualifies (Q or higher). */
export function settleBanker(cards: readonly Card[], rules: F3cpRuleSet): F3cpSettlement['banker'] {
  const { classified, value, qualifies } = comparedHand(rules, cards);
  return {
    cards,
    hand: classOfThree(classified),
    handValue: value,
    qualifies,
    citations: [qualifies ? C.proceeds : C.notQualified, rules.handOrderCitation],
    interpretations: BANKER_INTERPRETATIONS,
  };
}

/** The citations of a comparison with a qualifying banker under the rule set's hand order. */
export const compareCitations = (rules: F3cpRuleSet): readonly Citation[] => [
  C.proceeds,
  C.compare,
  rules.handOrderCitation,
];

/** The Ante bonus line of each hand that earns one. */
export function anteBonusTemplates(rules: F3cpRuleSet): Partial<Record<ThreeCardClass, LineTemplate>> {
  const anteBonus: Partial<Record<ThreeCardClass, LineTemplate>> = {};
  for (const hand of THREE_CARD_CLASSES) {
    const b = rules.anteBonus[hand];
    if (b)
      anteBonus[hand] = {
        bet: 'anteBonus',
        outcome: 'win',
        ratio: b.ratio,
        stake: 'not-applicable',
        hand,
        basis: `Ante bonus: ${hand} pays ${b.ratio.win} to 1 on the Ante, whatever the banker holds`,
        citations: [C.anteBonus, ...b.citations],
        interpretations: Object.freeze(['J3']),
      };
  }
  return anteBonus;
}

/** The Ante and Play lines of a seat that bet the Ante, then its Ante bonus; how the hand stood against the banker. */
export function settleAntePlay(
  s: F3cpSeatFacts,
  t: Templates,
  hand: ThreeCardClass,
  value: number,
  bankerValue: number,
  qualifies: boolean,
  lines: SettlementLine[],
): SeatResult['versusBanker'] {
  const ante = s.bets.ante!;
  const seat = s.seat;
  if (s.decision === 'fold') {
    lines.push(
      line({
        seat,
        bet: 'ante',
        amount: ante,
        outcome: 'lose',
        hand,
        basis: 'folded: the Ante is forfeited',
        citations: FOLD_CITATIONS,
      }),
    );
    // the second alternative of J3: folded hands receive the Ante bonus too
    const foldedBonus = t.alt.j3 === 2 ? t.anteBonus[hand] : undefined;
    if (foldedBonus) lines.push(fromTemplate(foldedBonus, seat, ante));
    return null;
  }
  const play = s.bets.play!;
  let versus: SeatResult['versusBanker'] = null;
  if (!qualifies) {
    lines.push(
      line({
        seat,
        bet: 'ante',
        amount: ante,
        outcome: 'win',
        payout: ante,
        ratio: EVEN,
        hand,
        basis: 'the banker does not hold Q or higher: the Ante pays 1 to 1',
        citations: NOT_QUALIFIED_CITATIONS,
        interpretations: BANKER_INTERPRETATIONS,
      }),
    );
    lines.push(
      line({
        seat,
        bet: 'play',
        amount: play,
        outcome: 'push',
        hand,
        basis: 'the banker does not hold Q or higher: the Play bet is returned',
        citations: NOT_QUALIFIED_CITATIONS,
        interpretations: BANKER_INTERPRETATIONS,
      }),
    );
  } else if (value > bankerValue) {
    versus = 'higher';
    lines.push(
      line({
        seat,
        bet: 'ante',
        amount: ante,
        outcome: 'win',
        payout: ante,
        ratio: EVEN,
        hand,
        basis: PLAYER_HIGHER,
        citations: t.compare,
      }),
    );
    lines.push(
      line({
        seat,
        bet: 'play',
        amount: play,
        outcome: 'win',
        payout: play,
        ratio: EVEN,
        hand,
        basis: PLAYER_HIGHER,
        citations: t.compare,
      }),
    );
  } else if (value < bankerValue) {
    versus = 'lower';
    lines.push(
      line({
        seat,
        bet: 'ante',
        amount: ante,
        outcome: 'lose',
        hand,
        basis: BANKER_HIGHER,
        citations: t.compare,
      }),
    );
    lines.push(
      line({
        seat,
        bet: 'play',
        amount: play,
        outcome: 'lose',
        hand,
        basis: BANKER_HIGHER,
        citations: t.compare,
      }),
    );
  } else if (t.alt.j2) {
    // the alternative reading of J2: the banker wins ties
    versus = 'equal';
    for (const [bet, amount] of [
      ['ante', ante],
      ['play', play],
    ] as const)
      lines.push(
        line({
          seat,
          bet,
          amount,
          outcome: 'lose',
          hand,
          basis: EQUAL_HANDS_BANKER_WINS,
          citations: t.compare,
          interpretations: TIE_INTERPRETATIONS,
        }),
      );
  } else {
    versus = 'equal';
    lines.push(
      line({
        seat,
        bet: 'ante',
        amount: ante,
        outcome: 'push',
        hand,
        basis: EQUAL_HANDS,
        citations: t.compare,
        interpretations: TIE_INTERPRETATIONS,
      }),
    );
    lines.push(
      line({
        seat,
        bet: 'play',
        amount: play,
        outcome: 'push',
        hand,
        basis: EQUAL_HANDS,
        citations: t.compare,
        interpretations: TIE_INTERPRETATIONS,
      }),
    );
  }
  // the first alternative of J3: only a hand that beat a qualifying banker receives the Ante bonus
  const bonus = t.alt.j3 === 1 && versus !== 'higher' ? undefined : t.anteBonus[hand];
  if (bonus) lines.push(fromTemplate(bonus, seat, ante));
  return versus;
}

const FOLD_CITATIONS = Object.freeze([C.fold]);
const NOT_QUALIFIED_CITATIONS = Object.freeze([C.notQualified]);
const TIE_INTERPRETATIONS = Object.freeze(['J2']);
const PLAYER_HIGHER = "the player's hand beats the banker's qualifying hand: pays 1 to 1";
const BANKER_HIGHER = "the banker's qualifying hand beats the player's hand";
const EQUAL_HANDS = 'the hands are equal: the bet is returned';
const EQUAL_HANDS_BANKER_WINS =
  'the hands are equal: under the alternative reading of J2 the banker wins ties';
