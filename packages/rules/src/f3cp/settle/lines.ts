import { cite, type Citation } from '../../citations/citation.ts';
import type { Card } from '../../cards.ts';
import { INTERPRETATIONS } from '../../interpretations.ts';
import { winnings, type Avos, type Ratio } from '../../money.ts';
import type { FiveCardClass } from '../../poker/five-card.ts';
import type { ThreeCardClass } from '../../poker/three-card.ts';
import type { F3cpVoidReason } from '../facts.ts';
import type { F3cpRuleSet, JackpotHand } from '../rule-set.ts';

/**
 * What every part of the F3CP settlement shares: the result types, the citations of art. 4.º, 12.º, 13.º, 15.º
 * and 17.º, the line builders and line templates, and the interpretation ids a settlement depends on.
 */

export type F3cpBetLine = 'ante' | 'play' | 'anteBonus' | 'pairPlus' | 'sixCardBonus' | 'progressive';

/**
 * One bet's settlement. `payout` is what the player is paid on top of the stake; `stake` says what happens to the
 * stake: returned with the payout, collected by the house, or not applicable (the Ante bonus is paid on the Ante,
 * whose own line disposes of the stake). `net` is the player's gain (+) or loss (-) on the line.
 */
export interface SettlementLine {
  readonly seat: number;
  readonly bet: F3cpBetLine;
  readonly amount: Avos;
  readonly outcome: 'win' | 'lose' | 'push' | 'void';
  readonly payout: Avos;
  readonly stake: 'returned' | 'collected' | 'not-applicable';
  readonly net: Avos;
  readonly ratio?: Ratio;
  /** the hand that decided the line */
  readonly hand?: ThreeCardClass | FiveCardClass;
  /** why, in one sentence */
  readonly basis: string;
  readonly citations: readonly Citation[];
  readonly interpretations: readonly string[];
  /** Progressive bets of a round voided under art. 17.º n.º 1 1) or n.º 2 move to the next round (n.º 3) */
  readonly carriedOver?: boolean;
}

export interface SeatResult {
  readonly seat: number;
  readonly cards: readonly Card[];
  readonly hand: ThreeCardClass;
  /** comparable under the rule set's order */
  readonly handValue: number;
  readonly decision: 'play' | 'fold' | null;
  /** against a qualifying banker, for a hand that played */
  readonly versusBanker: 'higher' | 'lower' | 'equal' | null;
  readonly sixCardHand: FiveCardClass | null;
  readonly progressiveHand: FiveCardClass | null;
}

export interface JackpotPayment {
  /** 1-based order of payment */
  readonly order: number;
  readonly seat: number;
  readonly hand: JackpotHand;
  readonly amount: Avos;
  readonly fixedAmount: Avos;
  /** the percentage share of the pool the award was measured against (Royal 100%, Straight Flush 10%) */
  readonly share: Avos | null;
  readonly poolBefore: Avos;
  readonly poolAfter: Avos;
  readonly poolReset: boolean;
  readonly citations: readonly Citation[];
  readonly interpretations: readonly string[];
}

export interface JackpotResult {
  readonly communityRevealed: boolean;
  readonly poolBefore: Avos;
  readonly payments: readonly JackpotPayment[];
  readonly poolAfter: Avos;
  readonly citations: readonly Citation[];
}

export interface F3cpSettlement {
  readonly ruleSetId: F3cpRuleSet['id'];
  readonly voided: F3cpVoidReason | null;
  readonly banker: {
    readonly cards: readonly Card[];
    readonly hand: ThreeCardClass;
    readonly handValue: number;
    readonly qualifies: boolean;
    readonly citations: readonly Citation[];
    readonly interpretations: readonly string[];
  };
  readonly seats: readonly SeatResult[];
  readonly lines: readonly SettlementLine[];
  readonly jackpot: JackpotResult | null;
  readonly interpretations: readonly string[];
}

const D = '89/2025';
export const C = {
  notQualified: cite(D, 13, { alinea: 1 }),
  proceeds: cite(D, 13, { alinea: 2 }),
  compare: cite(D, 13, { alinea: 3 }),
  anteBonus: cite(D, 13, { alinea: 4 }),
  pairPlus: cite(D, 13, { alinea: 5 }),
  sixCard: cite(D, 13, { alinea: 6 }),
  sixCardBest: cite(D, 14),
  progressive: cite(D, 13, { alinea: 7 }),
  fold: cite(D, 12, { numero: 2 }),
  foldKeepsCards: cite(D, 12, { numero: 3 }),
  foldDoesNotAffect: cite(D, 12, { numero: 4 }),
  basicRequired: cite(D, 4, { numero: 2 }),
  invalidWithoutBasic: cite(D, 4, { numero: 3 }),
  jackpotHand: cite(D, 15, { numero: 1 }),
  jackpotNotRevealed: cite(D, 15, { numero: 2 }),
  jackpotOrder: cite(D, 15, { numero: 3 }),
  jackpotSfFirst: cite(D, 15, { numero: 5 }),
  jackpotPool: cite(D, 15, { numero: 6 }),
  voidDealing: cite(D, 17, { numero: 1, alinea: 1 }),
  voidBankerCard: cite(D, 17, { numero: 1, alinea: 2 }),
  voidPlayerCards: cite(D, 17, { numero: 1, alinea: 3 }),
  voidInvalid: cite(D, 17, { numero: 1 }),
  shufflerMalfunction: cite(D, 17, { numero: 2 }),
  carryOver: cite(D, 17, { numero: 3 }),
} as const;

export const NONE: readonly string[] = Object.freeze([]);
export const EVEN: Ratio = Object.freeze({ win: 1, per: 1 });
/** the banker's qualification (art. 13.º 1) and 2)) as read in J11; part of every settlement */
export const BANKER_INTERPRETATIONS = Object.freeze(['J11']);
/** the croupier's qualification under 78/2008 art. 9.º 4) as read in H7 */
export const BANKER_INTERPRETATIONS_2008 = Object.freeze(['H7']);

interface LineInput {
  seat: number;
  bet: F3cpBetLine;
  amount: Avos;
  outcome: SettlementLine['outcome'];
  payout?: Avos;
  stake?: SettlementLine['stake'];
  ratio?: Ratio;
  hand?: ThreeCardClass | FiveCardClass;
  basis: string;
  citations: readonly Citation[];
  interpretations?: readonly string[];
  carriedOver?: boolean;
}

export function line(i: LineInput): SettlementLine {
  const payout = i.payout ?? 0;
  const stake = i.stake ?? (i.outcome === 'lose' ? 'collected' : 'returned');
  // Every line has the same fields in the same order (absent ones undefined) so V8 keeps one object shape.
  return {
    seat: i.seat,
    bet: i.bet,
    amount: i.amount,
    outcome: i.outcome,
    payout,
    stake,
    net: payout - (stake === 'collected' ? i.amount : 0),
    ratio: i.ratio,
    hand: i.hand,
    basis: i.basis,
    citations: i.citations,
    interpretations: i.interpretations ?? NONE,
    carriedOver: i.carriedOver,
  };
}

/** The part of a line fixed by the rule set, the bet, the hand and whether the hand folded: built once, reused. */
export interface LineTemplate {
  readonly bet: F3cpBetLine;
  readonly outcome: 'win' | 'lose';
  readonly ratio: Ratio | undefined;
  readonly stake: SettlementLine['stake'];
  readonly hand: ThreeCardClass | FiveCardClass;
  readonly basis: string;
  readonly citations: readonly Citation[];
  readonly interpretations: readonly string[];
}

export const fromTemplate = (t: LineTemplate, seat: number, amount: Avos): SettlementLine => {
  const payout = t.ratio ? winnings(amount, t.ratio) : 0;
  return {
    seat,
    bet: t.bet,
    amount,
    outcome: t.outcome,
    payout,
    stake: t.stake,
    net: payout - (t.stake === 'collected' ? amount : 0),
    ratio: t.ratio,
    hand: t.hand,
    basis: t.basis,
    citations: t.citations,
    interpretations: t.interpretations,
    carriedOver: undefined,
  };
};

/**
 * The alternative readings a rule set variant selects (f3cp/readings.ts), as flags the settlement reads; all off
 * for the register's chosen readings. 0 = chosen, 1 = the first alternative, 2 = the second.
 */
export interface AltFlags {
  readonly j1: boolean;
  readonly j2: boolean;
  readonly j3: 0 | 1 | 2;
  readonly j4: 0 | 1 | 2;
  readonly j5: boolean;
  readonly j6: boolean;
  readonly j7: boolean;
  readonly j8: boolean;
  readonly j9: boolean;
  readonly j10: boolean;
  readonly j11: boolean;
  readonly h2: boolean;
  readonly h3: 0 | 1 | 2;
  readonly h4: boolean;
  readonly h5: boolean;
  readonly h7: boolean;
}

const flagCache = new WeakMap<F3cpRuleSet, AltFlags>();

/** The flags of a rule set's alternatives (cached per rule set object). */
export function altFlags(rules: F3cpRuleSet): AltFlags {
  let f = flagCache.get(rules);
  if (!f) {
    const a = rules.alternatives;
    const which = (id: string): 0 | 1 | 2 => (a.includes(id) ? 1 : a.includes(`${id}:2`) ? 2 : 0);
    f = Object.freeze({
      j1: a.includes('J1'),
      j2: a.includes('J2'),
      j3: which('J3'),
      j4: which('J4'),
      j5: a.includes('J5'),
      j6: a.includes('J6'),
      j7: a.includes('J7'),
      j8: a.includes('J8'),
      j9: a.includes('J9') && rules.id === 'f3cp-2025a',
      j10: a.includes('J10'),
      j11: a.includes('J11'),
      h2: a.includes('H2'),
      h3: which('H3'),
      h4: a.includes('H4'),
      h5: a.includes('H5') && rules.id === 'f3cp-2008a',
      h7: a.includes('H7'),
    });
    flagCache.set(rules, f);
  }
  return f;
}

/** Every template of one rule set (built once per rule set by templatesFor in index.ts). */
export interface Templates {
  /** the alternative readings selected */
  alt: AltFlags;
  /** [folded ? 1 : 0][class] */
  pairPlus: Record<ThreeCardClass, LineTemplate>[];
  sixCard: Record<FiveCardClass, LineTemplate>[];
  anteBonus: Partial<Record<ThreeCardClass, LineTemplate>>;
  compare: readonly Citation[];
}

// Interpretation ids as bits of a bigint (the register grows with every game, past any fixed width), so a
// settlement's id list is an OR of masks and one cached, frozen array per mask.
const ID_BIT = new Map(INTERPRETATIONS.map((i, bit) => [i.id, BigInt(bit)]));
const listMask = new WeakMap<readonly string[], bigint>();
const idsByMask = new Map<bigint, readonly string[]>();

function maskOf(list: readonly string[]): bigint {
  let mask = listMask.get(list);
  if (mask === undefined) {
    mask = 0n;
    for (const id of list) {
      const bit = ID_BIT.get(id);
      if (bit === undefined) throw new Error(`interpretation ${id} is not in the register`);
      mask |= 1n << bit;
    }
    if (Object.isFrozen(list)) listMask.set(list, mask);
  }
  return mask;
}

/** Every interpretation id the settlement depends on, in register order. */
export function interpretationsOf(rules: F3cpRuleSet, lines: readonly SettlementLine[]): readonly string[] {
  let mask =
    maskOf(rules.interpretations) |
    maskOf(rules.era === '2008' ? BANKER_INTERPRETATIONS_2008 : BANKER_INTERPRETATIONS);
  for (const l of lines) if (l.interpretations.length > 0) mask |= maskOf(l.interpretations);
  let ids = idsByMask.get(mask);
  if (!ids) {
    const m = mask;
    ids = Object.freeze(INTERPRETATIONS.filter((_, bit) => (m >> BigInt(bit)) & 1n).map((i) => i.id));
    idsByMask.set(mask, ids);
  }
  return ids;
}
