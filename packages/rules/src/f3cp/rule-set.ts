import { cite, type Citation } from '../citations/citation.ts';
import type { Ratio } from '../money.ts';
import { handOrder, type HandOrder, type ThreeCardClass } from '../poker/three-card.ts';
import type { FiveCardClass } from '../poker/five-card.ts';

/** A pay-table row: the ratio and the provision that sets it. */
export interface Pay {
  readonly ratio: Ratio;
  readonly citations: readonly Citation[];
}

export type JackpotHand = 'royal-flush' | 'straight-flush' | 'four-of-a-kind' | 'full-house' | 'flush';

/** Everything that distinguishes one Fortune 3 Card Poker rule set from another. */
export interface F3cpRuleSet {
  readonly id: 'f3cp-2008' | 'f3cp-2008a' | 'f3cp-2025' | 'f3cp-2025a';
  readonly game: 'f3cp';
  readonly title: string;
  /**
   * Which regulation the rule set belongs to: '2008' (Despacho 78/2008, art. 9.º re-worded by 97/2008: Ante and
   * Pair Plus only, irregularities of art. 11.º) or '2025' (Despacho 89/2025). The settlement and the checks
   * of a round follow it.
   */
  readonly era: '2008' | '2025';
  /** the diploma every citation of the rule set's own provisions names */
  readonly diploma: string;
  /**
   * How A-K-Q of one suit counts (interpretation H1 for the 2008 rules): 'straight-flush' (art. 4.º 2): A-K-Q is
   * the highest sequence) or 'flush' (the alternative, art. 8.º 1) literally: K-Q-J is the highest straight flush).
   * Always 'straight-flush' for 2025.
   */
  readonly suitedAceKingQueen: 'straight-flush' | 'flush';
  /** descending, as art. 7.º n.º 1 lists them in this rule set's wording */
  readonly handOrderDescending: readonly ThreeCardClass[];
  readonly handOrder: HandOrder;
  /** art. 7.º n.º 1 in this rule set's wording, and the alínea of each class */
  readonly handOrderCitation: Citation;
  readonly classCitation: Readonly<Record<ThreeCardClass, Citation>>;
  readonly anteBonus: Readonly<Partial<Record<ThreeCardClass, Pay>>>;
  readonly pairPlus: Readonly<Partial<Record<ThreeCardClass, Pay>>>;
  readonly sixCardBonus: Readonly<Partial<Record<FiveCardClass, Pay>>>;
  /** qualifying Progressive Jackpot hands, in art. 7.º n.º 3 / 16.º n.º 3 order */
  readonly jackpotHands: Readonly<Partial<Record<JackpotHand, { readonly citations: readonly Citation[] }>>>;
  /** interpretation ids this rule set depends on everywhere (e.g. the partly lost amendment) */
  readonly interpretations: readonly string[];
  /**
   * The alternative readings selected in this variant (readings.ts keys: 'J2', 'J3:2', …); empty for the
   * register's chosen readings. Made by withReadings / readingsApplying (f3cp/readings.ts), never by hand.
   */
  readonly alternatives: readonly string[];
}

const D = '89/2025';
/** The diploma of the 2025 rules: every 2025 citation names it (the amended wording names 94/2025 as well). */
export const F3CP_2025_DIPLOMA = D;
const x = (win: number): Ratio => Object.freeze({ win, per: 1 });
const pay = (win: number, ...citations: Citation[]): Pay => Object.freeze({ ratio: x(win), citations });

const ANTE_BONUS = {
  'straight-flush': pay(5, cite(D, 13, { alinea: 4, subalinea: 1 })),
  'three-of-a-kind': pay(4, cite(D, 13, { alinea: 4, subalinea: 2 })),
  straight: pay(1, cite(D, 13, { alinea: 4, subalinea: 3 })),
} as const;

const PAIR_PLUS = {
  'straight-flush': pay(40, cite(D, 16, { numero: 1, alinea: 1 })),
  'three-of-a-kind': pay(25, cite(D, 16, { numero: 1, alinea: 2 })),
  straight: pay(5, cite(D, 16, { numero: 1, alinea: 3 })),
  flush: pay(4, cite(D, 16, { numero: 1, alinea: 4 })),
  pair: pay(1, cite(D, 16, { numero: 1, alinea: 5 })),
} as const;

const SIX_CARD_BONUS = {
  'royal-flush': pay(500, cite(D, 16, { numero: 2, alinea: 1 }), cite(D, 7, { numero: 2, alinea: 1 })),
  'straight-flush': pay(100, cite(D, 16, { numero: 2, alinea: 2 }), cite(D, 7, { numero: 2, alinea: 2 })),
  'four-of-a-kind': pay(50, cite(D, 16, { numero: 2, alinea: 3 }), cite(D, 7, { numero: 2, alinea: 3 })),
  'full-house': pay(20, cite(D, 16, { numero: 2, alinea: 4 }), cite(D, 7, { numero: 2, alinea: 4 })),
  flush: pay(15, cite(D, 16, { numero: 2, alinea: 5 }), cite(D, 7, { numero: 2, alinea: 5 })),
  straight: pay(10, cite(D, 16, { numero: 2, alinea: 6 }), cite(D, 7, { numero: 2, alinea: 6 })),
  'three-of-a-kind': pay(7, cite(D, 16, { numero: 2, alinea: 7 }), cite(D, 7, { numero: 2, alinea: 7 })),
} as const;

const JACKPOT_HANDS = {
  'royal-flush': { citations: [cite(D, 16, { numero: 3, alinea: 1 }), cite(D, 7, { numero: 3, alinea: 1 })] },
  'straight-flush': {
    citations: [
      cite(D, 16, { numero: 3, alinea: 2 }),
      cite(D, 7, { numero: 3, alinea: 2 }),
      cite(D, 15, { numero: 4 }),
    ],
  },
  'four-of-a-kind': {
    citations: [cite(D, 16, { numero: 3, alinea: 3 }), cite(D, 7, { numero: 3, alinea: 3 })],
  },
  'full-house': { citations: [cite(D, 16, { numero: 3, alinea: 4 }), cite(D, 7, { numero: 3, alinea: 4 })] },
  flush: { citations: [cite(D, 16, { numero: 3, alinea: 5 }), cite(D, 7, { numero: 3, alinea: 5 })] },
} as const;

function ruleSet(
  id: F3cpRuleSet['id'],
  title: string,
  descending: ThreeCardClass[],
  wording: string | undefined,
  interpretations: string[],
): F3cpRuleSet {
  const at = (alinea?: number): Citation =>
    cite(D, 7, {
      numero: 1,
      ...(alinea === undefined ? {} : { alinea }),
      ...(wording === undefined ? {} : { wording }),
    });
  const classCitation = Object.fromEntries(descending.map((cls, i) => [cls, at(i + 1)])) as Record<
    ThreeCardClass,
    Citation
  >;
  return Object.freeze({
    id,
    game: 'f3cp',
    title,
    era: '2025',
    diploma: D,
    suitedAceKingQueen: 'straight-flush',
    handOrderDescending: Object.freeze([...descending]),
    handOrder: handOrder(descending),
    handOrderCitation: at(),
    classCitation: Object.freeze(classCitation),
    anteBonus: ANTE_BONUS,
    pairPlus: PAIR_PLUS,
    sixCardBonus: SIX_CARD_BONUS,
    jackpotHands: JACKPOT_HANDS,
    interpretations: Object.freeze(interpretations),
    alternatives: NO_ALTERNATIVES,
  });
}

/** The chosen readings: no alternative selected. */
export const NO_ALTERNATIVES: readonly string[] = Object.freeze([]);

/** 89/2025 as published in BO n.º 45 (2025-11-10): Straight and Flush above Three of a Kind. */
export const F3CP_2025 = ruleSet(
  'f3cp-2025',
  'Fortune 3 Card Poker, Despacho 89/2025 as published',
  ['straight-flush', 'straight', 'flush', 'three-of-a-kind', 'pair', 'high-card'],
  undefined,
  [],
);

/** 89/2025 with art. 7.º n.º 1 re-worded by 94/2025 (BO n.º 46, 2025-11-17). */
export const F3CP_2025A = ruleSet(
  'f3cp-2025a',
  'Fortune 3 Card Poker, Despacho 89/2025 as amended by Despacho 94/2025',
  ['straight-flush', 'three-of-a-kind', 'straight', 'flush', 'pair', 'high-card'],
  '94/2025',
  ['J9'],
);

export { F3CP_2008, F3CP_2008A, F3CP_2008_DIPLOMA, F3CP_2008_AMENDMENT } from './rule-set-2008.ts';
export { withReadings, readingsApplying, F3CP_ALTERNATIVE_READINGS } from './readings.ts';
import { F3CP_2008, F3CP_2008A } from './rule-set-2008.ts';

export const F3CP_RULE_SETS: readonly F3cpRuleSet[] = [F3CP_2008, F3CP_2008A, F3CP_2025, F3CP_2025A];
