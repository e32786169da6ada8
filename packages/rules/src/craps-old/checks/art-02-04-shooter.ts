/**
 * The shooter: only a player with at least the minimum bet throws (art. 2.º n.º 1); the shooter changes after the
 * seven-out (art. 4.º 2), read as interpretation C1) or on stopping betting (art. 4.º 1)), and not otherwise.
 */
import type { DiceThrown, ShooterChanged } from '@table-audit/schemas/events';
import { defineCheck, evidenceOf, type Evidence, type FindingInput } from '../../findings.ts';
import { formatMop } from '../../present.ts';
import { CRAPS_CITES } from '../rule-set.ts';

export const shooterNotChanged = defineCheck(
  'CRAPS.SHOOTER.NOT_CHANGED',
  'The shooter threw again after a seven-out',
  'medium',
  [CRAPS_CITES.sevenOut],
  ['C1'],
);
export const shooterWronglyChanged = defineCheck(
  'CRAPS.SHOOTER.WRONGLY_CHANGED',
  'The shooter was changed when art. 4.º did not call for it',
  'medium',
  [CRAPS_CITES.shooterChange],
  ['C1'],
);
export const shooterNoMinBet = defineCheck(
  'CRAPS.SHOOTER.NO_MIN_BET',
  'The shooter threw without at least the minimum bet on the table',
  'medium',
  [CRAPS_CITES.shooterMinimum],
);

/**
 * After a seven-out, the next throw must be a new shooter's (a ShooterChanged in between). `byCraps`: the throw
 * that called for the change was a come-out craps, which only the alternative reading of C1 counts.
 */
export function checkShooterKept(
  t: DiceThrown,
  sevenOut: Evidence | null,
  byCraps = false,
): FindingInput | null {
  if (!sevenOut) return null;
  return {
    check: shooterNotChanged,
    players: [t.shooterId],
    summary: byCraps
      ? `${t.shooterId} threw again after a come-out craps that lost the Pass Line; art. 4.º 2), read as the alternative of C1, passes the dice to the next shooter`
      : `${t.shooterId} threw again after sevening out; art. 4.º 2) passes the dice to the next shooter`,
    expected: { shooterChanged: true },
    declared: { shooterId: t.shooterId },
    evidence: [sevenOut, evidenceOf(t)],
  };
}

/** The table's state when a shooter change is declared: what art. 4.º (with C1) allows. */
export interface ShooterState {
  readonly shooter: string | null;
  /** the last valid throw was a seven-out and no change has followed */
  readonly sevenOut: boolean;
  /** a point is on */
  readonly pointOn: boolean;
  /** the stakes the outgoing shooter still has on the table, in avos */
  readonly outgoingStakes: number;
}

/** Why the change is wrong, or null when art. 4.º allows it for the reason given. */
export function wrongChangeReason(c: ShooterChanged, s: ShooterState): string | null {
  switch (c.reason) {
    case 'FIRST_SHOOTER':
      return s.shooter === null ? null : `the table already had a shooter (${s.shooter})`;
    case 'SEVEN_OUT':
      return s.sevenOut ? null : 'the last valid throw was not a seven-out';
    case 'STOPPED_BETTING':
      return s.outgoingStakes === 0
        ? null
        : `the outgoing shooter still had ${formatMop(s.outgoingStakes)} on the table`;
    case 'DECLINED':
      return s.pointOn ? 'a shooter cannot hand over the dice while a point is on' : null;
    default:
      return `reason ${c.reason} is not one art. 4.º knows`;
  }
}

export function checkShooterChange(c: ShooterChanged, s: ShooterState): FindingInput | null {
  if (s.sevenOut && c.reason !== 'SEVEN_OUT' && c.reason !== 'STOPPED_BETTING') return null;
  const why = wrongChangeReason(c, s);
  if (!why) return null;
  return {
    check: shooterWronglyChanged,
    discriminator: c.header.eventId,
    players: [c.shooterId, ...(c.previousShooterId ? [c.previousShooterId] : [])],
    summary: `the dice passed from ${c.previousShooterId ?? 'nobody'} to ${c.shooterId} (${c.reason}) but ${why}`,
    expected: { shooterChanged: false, shooter: s.shooter },
    declared: { shooterChanged: true, reason: c.reason, shooter: c.shooterId },
    evidence: [evidenceOf(c)],
  };
}

/** The shooter's stakes on the table at the throw must reach the minimum bet. */
export function checkShooterMinimum(
  t: DiceThrown,
  stakes: number,
  minimum: number,
  bets: readonly Evidence[],
): FindingInput | null {
  if (stakes >= minimum) return null;
  return {
    check: shooterNoMinBet,
    players: [t.shooterId],
    summary: `${t.shooterId} threw with ${formatMop(stakes)} on the table, less than the minimum of ${formatMop(minimum)}`,
    expected: { minimumStake: minimum },
    declared: { stake: stakes },
    evidence: [...bets, evidenceOf(t)],
  };
}
