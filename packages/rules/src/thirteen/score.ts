import type { JudgedArrangement } from './arrangement.ts';
import { tierPoints, type Tier } from './hands.ts';
import type { ThirteenPayout } from './rule-set.ts';

/**
 * Art. 7.º–11.º: one place's arrangement against the banker's, and the settlement of a bet on that place.
 * Interpretation T1 (art. 8.º): the winner of each tier scores that tier's points for its own formation; the
 * place with more points over the three tiers wins, equal points tie. Art. 10.º: a tier whose formations are of
 * equal value goes to the banker.
 */
export type Outcome = 'win' | 'lose' | 'tie';

export type OutcomeReason =
  /** art. 7.º: the place's tiers do not rise; it loses its bets automatically */
  | 'place-foul'
  /** art. 2.º d): the place had not finished arranging at the five-minute signal */
  | 'place-late'
  /** the banker's own tiers do not rise: the banker's place is the one at fault (T6) */
  | 'banker-foul'
  /** art. 9.º I: a natural beats a hand without one; two naturals tie */
  | 'natural'
  /** art. 8.º under T1: points over the three tiers */
  | 'points';

export interface TierResult {
  readonly tier: Tier;
  readonly winner: 'place' | 'banker';
  /** the points the winner scores for its own formation in this tier */
  readonly points: number;
  /** art. 10.º: equal formations, given to the banker */
  readonly bankerByEquality: boolean;
}

export interface ScoredPlace {
  readonly outcome: Outcome;
  readonly reason: OutcomeReason;
  readonly placePoints: number;
  readonly bankerPoints: number;
  /** per tier, when decided by points (reason 'points') */
  readonly tiers: readonly TierResult[];
}

export interface PlaceConduct {
  /** art. 2.º d): the place finished arranging after the signal */
  readonly late?: boolean;
}

const NO_ALTERNATIVES: readonly string[] = Object.freeze([]);

/**
 * One place's arrangement against the banker's. `alternatives`: the alternative readings selected (readings.ts), of
 * which these act here: T1 (each tier won scores one point), T1:2 (each side scores its own formations' points in
 * every tier, whoever wins the tier), T6 (a natural is judged whatever the tiers, before the foul; a fouled banker
 * re-arranges, so settle.ts settles no bet against a fouled banker without a natural).
 */
export function scorePlace(
  place: JudgedArrangement,
  banker: JudgedArrangement,
  conduct: PlaceConduct = {},
  alternatives: readonly string[] = NO_ALTERNATIVES,
): ScoredPlace {
  const none = { placePoints: 0, bankerPoints: 0, tiers: [] };
  const t6 = alternatives.length > 0 && alternatives.includes('T6');
  if (!t6 && place.foul) return { outcome: 'lose', reason: 'place-foul', ...none };
  if (conduct.late) return { outcome: 'lose', reason: 'place-late', ...none };
  if (!t6 && banker.foul) return { outcome: 'win', reason: 'banker-foul', ...none };
  if (place.natural || banker.natural) {
    const p = place.natural ? 3 : 0;
    const b = banker.natural ? 3 : 0;
    const outcome: Outcome = p > b ? 'win' : p < b ? 'lose' : 'tie';
    return { outcome, reason: 'natural', placePoints: p, bankerPoints: b, tiers: [] };
  }
  // the alternative reading of T6: the foul is judged after the naturals
  if (place.foul) return { outcome: 'lose', reason: 'place-foul', ...none };
  if (banker.foul) return { outcome: 'win', reason: 'banker-foul', ...none };
  const perTier = alternatives.length > 0 && alternatives.includes('T1');
  const both = alternatives.length > 0 && alternatives.includes('T1:2');
  let placePoints = 0;
  let bankerPoints = 0;
  const tiers: TierResult[] = [];
  for (const tier of [0, 1, 2] as const) {
    const pk = place.keys[tier];
    const bk = banker.keys[tier];
    if (both) {
      // the second alternative of T1: the points of both formations are added whatever the result
      placePoints += tierPoints(pk, tier);
      bankerPoints += tierPoints(bk, tier);
    }
    if (pk > bk) {
      const points = perTier ? 1 : tierPoints(pk, tier);
      if (!both) placePoints += points;
      tiers.push({ tier, winner: 'place', points, bankerByEquality: false });
    } else {
      const points = perTier ? 1 : tierPoints(bk, tier);
      if (!both) bankerPoints += points;
      tiers.push({ tier, winner: 'banker', points, bankerByEquality: pk === bk });
    }
  }
  const outcome: Outcome = placePoints > bankerPoints ? 'win' : placePoints < bankerPoints ? 'lose' : 'tie';
  return { outcome, reason: 'points', placePoints, bankerPoints, tiers };
}

/** A place's points minus the banker's (what the solver maximises); a lost place by foul or lateness is -∞. */
export function marginOf(s: ScoredPlace): number {
  if (s.reason === 'place-foul' || s.reason === 'place-late') return Number.NEGATIVE_INFINITY;
  if (s.reason === 'banker-foul') return Number.POSITIVE_INFINITY;
  return s.placePoints - s.bankerPoints;
}

export interface BetSettlement {
  readonly outcome: Outcome;
  /** the sum at risk, avos (amount × units under 'stake-per-point') */
  readonly atRisk: number;
  /** the House's commission taken from a win, avos */
  readonly commission: number;
  /** what the bettor gains (+) or loses (−), avos; 0 for a tie (the stake returned) */
  readonly net: number;
}

export class PayoutConfigError extends Error {
  override readonly name = 'PayoutConfigError';
}

/**
 * Art. 11.º under T2: a bet in units of 1, 2 or 3 points; a winner is paid half the sum at risk (rounded down to
 * whole avos) less the House's commission (percent of the configured base, rounded to the nearest avo, halves
 * up); a loser loses the sum at risk; a tie returns it.
 */
export function settleBet(
  outcome: Outcome,
  amount: number,
  units: number,
  payout: ThirteenPayout,
): BetSettlement {
  if (!Number.isSafeInteger(amount) || amount <= 0)
    throw new PayoutConfigError(`bet amount ${amount} is not a positive whole number of avos`);
  if (units !== 1 && units !== 2 && units !== 3)
    throw new PayoutConfigError(`bet units ${units}: art. 11.º allows 1, 2 or 3 points`);
  if (
    !Number.isInteger(payout.commissionPercent) ||
    payout.commissionPercent < 0 ||
    payout.commissionPercent > 100
  )
    throw new PayoutConfigError(
      `commissionPercent ${payout.commissionPercent} is not a whole percent 0..100`,
    );
  const atRisk = payout.units === 'stake-per-point' ? amount * units : amount;
  if (outcome === 'lose') return { outcome, atRisk, commission: 0, net: -atRisk };
  if (outcome === 'tie') return { outcome, atRisk, commission: 0, net: 0 };
  const half = Math.floor(atRisk / 2);
  const base = payout.commissionBase === 'win' ? half : atRisk;
  const commission = Math.floor((base * payout.commissionPercent + 50) / 100);
  return { outcome, atRisk, commission, net: half - commission };
}

/**
 * Art. 11.º under the alternative reading of T2: the bet's amount is a stake per point, and the units (1, 2 or 3)
 * multiply the payment by the points difference, up to the units bet: the sum at risk is amount × min(units,
 * difference); a natural's difference is 3; a place lost by foul or lateness, or won by the banker's foul, counts
 * no points and settles the whole units. The commission is taken from that sum at risk (the stake), not the win.
 */
export function settleBetByPoints(
  scored: ScoredPlace,
  amount: number,
  units: number,
  payout: ThirteenPayout,
): BetSettlement {
  const byPoints = scored.reason === 'points' || scored.reason === 'natural';
  const difference = Math.abs(scored.placePoints - scored.bankerPoints);
  const multiplier = byPoints && scored.outcome !== 'tie' ? Math.min(units, Math.max(1, difference)) : units;
  if (units !== 1 && units !== 2 && units !== 3)
    throw new PayoutConfigError(`bet units ${units}: art. 11.º allows 1, 2 or 3 points`);
  return settleBet(scored.outcome, amount, multiplier, {
    units: 'stake-per-point',
    commissionBase: 'stake',
    commissionPercent: payout.commissionPercent,
  });
}
