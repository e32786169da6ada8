import { cite, type Citation } from '../citations/citation.ts';
import type { Ratio } from '../money.ts';
import { handOrder, type ThreeCardClass } from '../poker/three-card.ts';
import type { F3cpRuleSet, Pay } from './rule-set.ts';

/**
 * The 2008 rules of Fortune Poker de 3 Cartas: the Regulamento Oficial annexed to Despacho 78/2008 (rule set
 * f3cp-2008, rounds 2008-08-12 to 2008-12-15) and the same with art. 9.º in the wording of Despacho 97/2008
 * (f3cp-2008a, 2008-12-16 to 2025-11-10). Only two bets (art. 5.º): Ante and Pair Plus, with the Play bet of
 * art. 9.º 1); no Six Card Bonus, no Progressive Jackpot. Hand order of art. 8.º (Straight Flush, Three of a Kind,
 * Straight, Flush, Pair, three odd cards).
 */

/** The diploma of the 2008 rules, and the one that re-worded its art. 9.º. */
const D = '78/2008';
export const F3CP_2008_DIPLOMA = D;
export const F3CP_2008_AMENDMENT = '97/2008';

const x = (win: number): Ratio => Object.freeze({ win, per: 1 });
const pay = (win: number, ...citations: Citation[]): Pay => Object.freeze({ ratio: x(win), citations });

/**
 * Art. 9.º alínea `alinea` as it applies under the rule set: 97/2008 re-worded the whole article, but its text
 * survives only to alínea 1) (PT) and 6) (ZH); alíneas 7)–9) are cited in 78/2008's wording (H5).
 */
export function art9(amended: boolean, alinea: number, subalinea?: number): Citation {
  const wording = amended && alinea <= 6 ? { wording: F3CP_2008_AMENDMENT } : {};
  return cite(D, 9, { alinea, ...(subalinea === undefined ? {} : { subalinea }), ...wording });
}

const DESCENDING: ThreeCardClass[] = [
  'straight-flush',
  'three-of-a-kind',
  'straight',
  'flush',
  'pair',
  'high-card',
];

function ruleSet2008(id: 'f3cp-2008' | 'f3cp-2008a', title: string, amended: boolean): F3cpRuleSet {
  const classCitation = Object.fromEntries(
    DESCENDING.map((cls, i) => [cls, cite(D, 8, { alinea: i + 1 })]),
  ) as Record<ThreeCardClass, Citation>;
  return Object.freeze({
    id,
    game: 'f3cp',
    title,
    era: '2008',
    diploma: D,
    suitedAceKingQueen: 'straight-flush',
    handOrderDescending: Object.freeze([...DESCENDING]),
    handOrder: handOrder(DESCENDING),
    handOrderCitation: cite(D, 8),
    classCitation: Object.freeze(classCitation),
    anteBonus: Object.freeze({
      'straight-flush': pay(5, art9(amended, 8, 1)),
      'three-of-a-kind': pay(4, art9(amended, 8, 2)),
      straight: pay(1, art9(amended, 8, 3)),
    }),
    pairPlus: Object.freeze({
      'straight-flush': pay(40, cite(D, 10, { alinea: 1 })),
      'three-of-a-kind': pay(25, cite(D, 10, { alinea: 2 })),
      straight: pay(5, cite(D, 10, { alinea: 3 })),
      flush: pay(4, cite(D, 10, { alinea: 4 })),
      pair: pay(1, cite(D, 10, { alinea: 5 })),
    }),
    sixCardBonus: Object.freeze({}),
    jackpotHands: Object.freeze({}),
    interpretations: Object.freeze(amended ? ['H1', 'H5'] : ['H1']),
    alternatives: Object.freeze([]),
  });
}

/** 78/2008 as published in BO n.º 32/2008 (2008-08-11), in force the next day. */
export const F3CP_2008 = ruleSet2008('f3cp-2008', 'Fortune Poker de 3 Cartas, Despacho 78/2008', false);

/** 78/2008 with art. 9.º in the wording of 97/2008 (BO n.º 50/2008, 2008-12-15). */
export const F3CP_2008A = ruleSet2008(
  'f3cp-2008a',
  'Fortune Poker de 3 Cartas, Despacho 78/2008 with art. 9.º as re-worded by Despacho 97/2008',
  true,
);

export { F3CP_ALTERNATIVE_READINGS, withReadings } from './readings.ts';
