import { cite, type Citation } from '../../citations/citation.ts';
import type { Card } from '../../cards.ts';
import { winnings, type Avos, type Ratio } from '../../money.ts';
import { bestFiveClassId, FIVE_CARD_CLASSES, type FiveCardClass } from '../../poker/five-card.ts';
import {
  classifyThree,
  classOfThree,
  qualifiesQueenHigh,
  THREE_CARD_CLASSES,
  valueUnder,
  type ThreeCardClass,
} from '../../poker/three-card.ts';
import {
  checkRoundFacts,
  InvalidRoundFacts,
  roundFactsAreValid,
  type F3cpRoundFacts,
  type F3cpSeatFacts,
  type F3cpVoidReason,
} from '../facts.ts';
import { INTERPRETATIONS } from '../../interpretations.ts';
import { jackpotShare } from '../events.ts';
import type { F3cpRuleSet, JackpotHand } from '../rule-set.ts';

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
const C = {
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

const NONE: readonly string[] = Object.freeze([]);
const EVEN: Ratio = Object.freeze({ win: 1, per: 1 });

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

function line(i: LineInput): SettlementLine {
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
interface LineTemplate {
  readonly bet: F3cpBetLine;
  readonly outcome: 'win' | 'lose';
  readonly ratio: Ratio | undefined;
  readonly stake: SettlementLine['stake'];
  readonly hand: ThreeCardClass | FiveCardClass;
  readonly basis: string;
  readonly citations: readonly Citation[];
  readonly interpretations: readonly string[];
}

const fromTemplate = (t: LineTemplate, seat: number, amount: Avos): SettlementLine => {
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

interface Templates {
  /** [folded ? 1 : 0][class] */
  pairPlus: Record<ThreeCardClass, LineTemplate>[];
  sixCard: Record<FiveCardClass, LineTemplate>[];
  anteBonus: Partial<Record<ThreeCardClass, LineTemplate>>;
  compare: readonly Citation[];
}

const templateCache = new WeakMap<F3cpRuleSet, Templates>();

function templatesFor(rules: F3cpRuleSet): Templates {
  const cached = templateCache.get(rules);
  if (cached) return cached;
  const pairPlus = [false, true].map((folded) => {
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
  const sixCard = [false, true].map((folded) => {
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
  const t: Templates = {
    pairPlus,
    sixCard,
    anteBonus,
    compare: [C.proceeds, C.compare, rules.handOrderCitation],
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
  const templates = templatesFor(rules);
  const order = rules.handOrder;
  const bankerClassified = classifyThree(facts.banker[0]!, facts.banker[1]!, facts.banker[2]!);
  const bankerValue = valueUnder(bankerClassified, order);
  const qualifies = qualifiesQueenHigh(bankerClassified);
  const banker = {
    cards: facts.banker,
    hand: classOfThree(bankerClassified),
    handValue: bankerValue,
    qualifies,
    citations: [qualifies ? C.proceeds : C.notQualified, rules.handOrderCitation],
    interpretations: BANKER_INTERPRETATIONS,
  };
  const seats = isSortedBySeat(facts.seats) ? facts.seats : [...facts.seats].sort((a, b) => a.seat - b.seat);
  const seatResults: SeatResult[] = [];
  const lines: SettlementLine[] = [];
  const jackpotClaims: JackpotClaim[] = [];
  const progressiveLosers: { seat: number; amount: Avos; hand: FiveCardClass }[] = [];

  for (const s of seats) {
    const classified = classifyThree(s.cards[0]!, s.cards[1]!, s.cards[2]!);
    const hand = classOfThree(classified);
    const value = valueUnder(classified, order);
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
      if (pairPlus > 0) lines.push(fromTemplate(templates.pairPlus[folded]![hand], s.seat, pairPlus));
      if (sixBet > 0) {
        if (!hasBasic) lines.push(invalidAdditional(s.seat, 'sixCardBonus', sixBet));
        else {
          six[0] = s.cards[0]!;
          six[1] = s.cards[1]!;
          six[2] = s.cards[2]!;
          six[3] = facts.banker[0]!;
          six[4] = facts.banker[1]!;
          six[5] = facts.banker[2]!;
          sixHand = FIVE_CARD_CLASSES[bestFiveClassId(six, 6)]!;
          lines.push(fromTemplate(templates.sixCard[folded]![sixHand], s.seat, sixBet));
        }
      }
      if (progressive > 0) {
        if (!hasBasic) lines.push(invalidAdditional(s.seat, 'progressive', progressive));
        else {
          five[0] = s.cards[0]!;
          five[1] = s.cards[1]!;
          five[2] = s.cards[2]!;
          five[3] = facts.community![0]!;
          five[4] = facts.community![1]!;
          progressiveHand = FIVE_CARD_CLASSES[bestFiveClassId(five, 5)]!;
          if (rules.jackpotHands[progressiveHand as JackpotHand] !== undefined)
            jackpotClaims.push({ seat: s.seat, hand: progressiveHand as JackpotHand, amount: progressive });
          else progressiveLosers.push({ seat: s.seat, amount: progressive, hand: progressiveHand });
        }
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
  if (!facts.voided && facts.jackpot) {
    const anyValidBet = jackpotClaims.length + progressiveLosers.length > 0;
    jackpot = payJackpot(
      facts.jackpot.poolBefore,
      facts.jackpot.config,
      jackpotClaims,
      rules,
      anyValidBet,
      lines,
    );
    for (const l of progressiveLosers) {
      lines.push(
        line({
          seat: l.seat,
          bet: 'progressive',
          amount: l.amount,
          outcome: 'lose',
          hand: l.hand,
          basis: PROGRESSIVE_LOSS_BASIS,
          citations: PROGRESSIVE_LOSS_CITATIONS,
        }),
      );
    }
  }
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

const BANKER_INTERPRETATIONS = Object.freeze(['J11']);
// scratch for the six- and five-card hands (settlement is synchronous: nothing survives a call)
const six: Card[] = [0, 0, 0, 0, 0, 0];
const five: Card[] = [0, 0, 0, 0, 0];
const PROGRESSIVE_LOSS_BASIS =
  "Progressive Jackpot: the player's three cards and the two community cards make less than a flush";
const PROGRESSIVE_LOSS_CITATIONS = Object.freeze([C.progressive, C.jackpotHand]);

interface JackpotClaim {
  seat: number;
  hand: JackpotHand;
  amount: Avos;
}

function isSortedBySeat(seats: readonly F3cpSeatFacts[]): boolean {
  for (let i = 1; i < seats.length; i++) if (seats[i - 1]!.seat > seats[i]!.seat) return false;
  return true;
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
function interpretationsOf(rules: F3cpRuleSet, lines: readonly SettlementLine[]): readonly string[] {
  let mask = maskOf(rules.interpretations) | maskOf(BANKER_INTERPRETATIONS);
  for (const l of lines) if (l.interpretations.length > 0) mask |= maskOf(l.interpretations);
  let ids = idsByMask.get(mask);
  if (!ids) {
    const m = mask;
    ids = Object.freeze(INTERPRETATIONS.filter((_, bit) => (m >> BigInt(bit)) & 1n).map((i) => i.id));
    idsByMask.set(mask, ids);
  }
  return ids;
}

function settleAntePlay(
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
  const bonus = t.anteBonus[hand];
  if (bonus) lines.push(fromTemplate(bonus, seat, ante));
  return versus;
}

const FOLD_CITATIONS = Object.freeze([C.fold]);
const NOT_QUALIFIED_CITATIONS = Object.freeze([C.notQualified]);
const TIE_INTERPRETATIONS = Object.freeze(['J2']);
const PLAYER_HIGHER = "the player's hand beats the banker's qualifying hand: pays 1 to 1";
const BANKER_HIGHER = "the banker's qualifying hand beats the player's hand";
const EQUAL_HANDS = 'the hands are equal: the bet is returned';

function invalidAdditional(seat: number, bet: 'sixCardBonus' | 'progressive', amount: Avos): SettlementLine {
  return line({
    seat,
    bet,
    amount,
    outcome: 'void',
    basis: 'an additional bet without an Ante or Pair Plus bet is invalid and is returned',
    citations: [C.basicRequired, C.invalidWithoutBasic],
  });
}

function voidSeat(s: F3cpSeatFacts, reason: F3cpVoidReason, lines: SettlementLine[]): void {
  const why = {
    'dealing-rules-broken': [C.voidDealing],
    'banker-card-exposed': [C.voidBankerCard],
    'player-cards-exposed': [C.voidPlayerCards],
    'shuffler-malfunction': [C.shufflerMalfunction],
  }[reason];
  const carries = reason === 'dealing-rules-broken' || reason === 'shuffler-malfunction';
  const order = ['ante', 'play', 'pairPlus', 'sixCardBonus', 'progressive'] as const;
  for (const bet of order) {
    const amount = s.bets[bet] ?? 0;
    if (amount <= 0) continue;
    if (bet === 'progressive' && carries) {
      lines.push(
        line({
          seat: s.seat,
          bet,
          amount,
          outcome: 'void',
          basis: 'the round is invalid: the Progressive Jackpot bet moves to the next round',
          citations: [...why, C.carryOver],
          carriedOver: true,
        }),
      );
    } else {
      lines.push(
        line({
          seat: s.seat,
          bet,
          amount,
          outcome: 'void',
          basis: 'the round is invalid: the bet may be withdrawn',
          citations: [...why, C.voidInvalid],
        }),
      );
    }
  }
}

function payJackpot(
  poolBefore: Avos,
  config: NonNullable<F3cpRoundFacts['jackpot']>['config'],
  claims: { seat: number; hand: JackpotHand; amount: Avos }[],
  rules: F3cpRuleSet,
  anyBet: boolean,
  lines: SettlementLine[],
): JackpotResult {
  // Left to right (claims are in seat order); with a Royal and a Straight Flush in one round, Straight Flushes first.
  const royalAndStraight =
    claims.some((c) => c.hand === 'royal-flush') && claims.some((c) => c.hand === 'straight-flush');
  const ordered = royalAndStraight
    ? [
        ...claims.filter((c) => c.hand === 'straight-flush'),
        ...claims.filter((c) => c.hand !== 'straight-flush'),
      ]
    : claims;
  let pool = poolBefore;
  const payments: JackpotPayment[] = [];
  ordered.forEach((c, i) => {
    const fixedAmount = config.fixed[c.hand];
    const before = pool;
    let share: Avos | null = null;
    let reset = false;
    const citations: Citation[] = [
      C.progressive,
      C.jackpotHand,
      ...rules.jackpotHands[c.hand].citations,
      C.jackpotOrder,
    ];
    const interpretations: string[] = ['J5'];
    if (royalAndStraight) {
      citations.push(C.jackpotSfFirst);
      interpretations.push('J10');
    }
    if (c.hand === 'royal-flush' || c.hand === 'straight-flush') {
      share = jackpotShare(c.hand, pool, config)!;
      pool -= share;
      citations.push(C.jackpotPool);
      interpretations.push('J4');
      if (c.hand === 'straight-flush') interpretations.push('J6');
      if (pool === 0) {
        pool = config.resetAmount;
        reset = true;
      }
    }
    const amount = share === null ? fixedAmount : Math.max(fixedAmount, share);
    payments.push({
      order: i + 1,
      seat: c.seat,
      hand: c.hand,
      amount,
      fixedAmount,
      share,
      poolBefore: before,
      poolAfter: pool,
      poolReset: reset,
      citations,
      interpretations,
    });
    const basis =
      share === null
        ? `Progressive Jackpot: ${c.hand} pays the fixed amount`
        : `Progressive Jackpot: ${c.hand} pays the greater of the fixed amount and ${c.hand === 'royal-flush' ? '100%' : '10%'} of the pool`;
    lines.push(
      line({
        seat: c.seat,
        bet: 'progressive',
        amount: c.amount,
        outcome: 'win',
        payout: amount,
        stake: 'collected',
        hand: c.hand,
        basis,
        citations,
        interpretations,
      }),
    );
  });
  return {
    communityRevealed: anyBet,
    poolBefore,
    payments,
    poolAfter: pool,
    citations: anyBet ? [C.jackpotHand] : [C.jackpotNotRevealed],
  };
}
