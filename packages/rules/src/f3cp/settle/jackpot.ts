import type { Citation } from '../../citations/citation.ts';
import type { Card } from '../../cards.ts';
import { proportion, type Avos } from '../../money.ts';
import { bestFiveClassId, FIVE_CARD_CLASSES, type FiveCardClass } from '../../poker/five-card.ts';
import { jackpotShare } from '../events.ts';
import type { F3cpRoundFacts } from '../facts.ts';
import type { F3cpRuleSet, JackpotHand } from '../rule-set.ts';
import { altFlags, C, line, type JackpotPayment, type JackpotResult, type SettlementLine } from './lines.ts';

/**
 * The Progressive Jackpot: each valid bet's hand from the player's three cards and the two community cards
 * (art. 15.º n.º 1), the winning hands paid in order with the pool before and after each (art. 13.º 7),
 * art. 15.º n.º 2 to 6, art. 16.º n.º 3).
 */

export interface JackpotClaim {
  seat: number;
  hand: JackpotHand;
  amount: Avos;
}

/** A valid Progressive bet whose hand wins nothing. */
export interface ProgressiveLoss {
  seat: number;
  amount: Avos;
  hand: FiveCardClass;
}

/** The hand of one valid Progressive bet: a claim when it is a jackpot hand, a loss otherwise. Returns the hand. */
export function evaluateProgressive(
  seat: number,
  cards: readonly Card[],
  community: readonly Card[],
  amount: Avos,
  rules: F3cpRuleSet,
  claims: JackpotClaim[],
  losers: ProgressiveLoss[],
): FiveCardClass {
  five[0] = cards[0]!;
  five[1] = cards[1]!;
  five[2] = cards[2]!;
  five[3] = community[0]!;
  five[4] = community[1]!;
  const progressiveHand = FIVE_CARD_CLASSES[bestFiveClassId(five, 5)]!;
  if (rules.jackpotHands[progressiveHand as JackpotHand] !== undefined)
    claims.push({ seat, hand: progressiveHand as JackpotHand, amount });
  else losers.push({ seat, amount, hand: progressiveHand });
  return progressiveHand;
}

/** Pays the claims (payJackpot), then collects the losing bets; every line is pushed onto `lines`. */
export function settleProgressive(
  jackpot: NonNullable<F3cpRoundFacts['jackpot']>,
  claims: JackpotClaim[],
  losers: readonly ProgressiveLoss[],
  rules: F3cpRuleSet,
  lines: SettlementLine[],
): JackpotResult {
  const anyValidBet = claims.length + losers.length > 0;
  const result = payJackpot(jackpot.poolBefore, jackpot.config, claims, rules, anyValidBet, lines);
  for (const l of losers) {
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
  return result;
}

// scratch for the five-card hand (settlement is synchronous: nothing survives a call)
const five: Card[] = [0, 0, 0, 0, 0];
const PROGRESSIVE_LOSS_BASIS =
  "Progressive Jackpot: the player's three cards and the two community cards make less than a flush";
const PROGRESSIVE_LOSS_CITATIONS = Object.freeze([C.progressive, C.jackpotHand]);

export function payJackpot(
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
  const alt = altFlags(rules);
  const ordered = royalAndStraight
    ? alt.j10
      ? straightFlushBeforeRoyal(claims)
      : [
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
      ...(rules.jackpotHands[c.hand]?.citations ?? []),
      C.jackpotOrder,
    ];
    const interpretations: string[] = ['J5'];
    if (royalAndStraight) {
      citations.push(C.jackpotSfFirst);
      interpretations.push('J10');
    }
    if (c.hand === 'royal-flush' || c.hand === 'straight-flush') {
      // J4 (first alternative): every share on the pool as the round began; J6 (alternative): 10% rounded half up
      const base = alt.j4 === 1 ? poolBefore : pool;
      share =
        alt.j6 && c.hand === 'straight-flush'
          ? Math.min(base, proportion(base, 10, 100, { unit: config.rounding.unit, mode: 'half-up' }))
          : jackpotShare(c.hand, base, config)!;
      // J4 (second alternative): the pool loses what was paid, the greater fixed amount included
      pool -= alt.j4 === 2 ? Math.min(pool, Math.max(fixedAmount, share)) : Math.min(pool, share);
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
        // J5 (alternative): the stake is returned with the award
        stake: alt.j5 ? 'returned' : 'collected',
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

/** The alternative reading of J10: claims in seat order, the Straight Flushes moved just ahead of the first Royal. */
function straightFlushBeforeRoyal<T extends { hand: JackpotHand }>(claims: readonly T[]): T[] {
  const sf = claims.filter((c) => c.hand === 'straight-flush');
  const rest = claims.filter((c) => c.hand !== 'straight-flush');
  const at = rest.findIndex((c) => c.hand === 'royal-flush');
  return [...rest.slice(0, at), ...sf, ...rest.slice(at)];
}
