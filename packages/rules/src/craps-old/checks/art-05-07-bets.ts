/**
 * Placing bets: Come and Don't Come only once a Pass Line point is made (art. 5.º n.º 2 5), 6)); odds only on a
 * line or come bet with a point (n.º 2 2), 4)–6)); every stake a multiple of the posted minimum (n.º 6); no bet
 * outside the regulation without a DICJ authorisation (art. 7.º).
 */
import type { CrapsBetPlaced } from '@table-audit/schemas/events';
import { defineCheck, evidenceOf, type FindingInput } from '../../findings.ts';
import { formatMop } from '../../present.ts';
import { CRAPS_CITES } from '../rule-set.ts';
import { CRAPS_BETS, type CrapsBetKind } from '../rule-set.ts';

export const betComeBeforePoint = defineCheck(
  'CRAPS.BET.COME_BEFORE_POINT',
  "A Come or Don't Come bet was placed before a Pass Line point was made",
  'medium',
  [CRAPS_CITES.comeAfterPoint, CRAPS_CITES.dontComeAfterPoint],
);
export const betNotMultipleOfMin = defineCheck(
  'CRAPS.BET.NOT_MULTIPLE_OF_MIN',
  'A stake is not a multiple of the posted minimum',
  'low',
  [CRAPS_CITES.multipleOfMinimum],
);
export const betNotAuthorised = defineCheck(
  'CRAPS.BET.NOT_AUTHORISED',
  'A bet neither in the regulation nor authorised by the DICJ for the table',
  'high',
  [CRAPS_CITES.extraBets],
);
export const betOddsWithoutLine = defineCheck(
  'CRAPS.BET.ODDS_WITHOUT_LINE',
  'An odds bet with no line or come bet with a point behind it',
  'medium',
  [
    CRAPS_BETS.PASS_ODDS.defined,
    CRAPS_BETS.DONT_PASS_ODDS.defined,
    CRAPS_BETS.COME_ODDS.defined,
    CRAPS_BETS.DONT_COME_ODDS.defined,
  ],
);

export function checkComeBeforePoint(b: CrapsBetPlaced, tablePoint: number | null): FindingInput | null {
  if ((b.betType !== 'COME' && b.betType !== 'DONT_COME') || tablePoint !== null) return null;
  return {
    check: betComeBeforePoint,
    discriminator: b.betId,
    players: [b.playerId],
    summary: `${b.betType} bet ${b.betId} was accepted while no Pass Line point was on`,
    expected: { pointOn: true },
    declared: { pointOn: false, betId: b.betId, betType: b.betType },
    evidence: [evidenceOf(b)],
  };
}

export function checkMultipleOfMinimum(b: CrapsBetPlaced, minimum: number): FindingInput | null {
  if (minimum <= 0 || b.amount % minimum === 0) return null;
  return {
    check: betNotMultipleOfMin,
    discriminator: b.betId,
    players: [b.playerId],
    summary: `stake of ${formatMop(b.amount)} on ${b.betType} (${b.betId}) is not a multiple of the minimum of ${formatMop(minimum)}`,
    expected: { multipleOf: minimum },
    declared: { amount: b.amount, betId: b.betId },
    evidence: [evidenceOf(b)],
  };
}

export function checkAuthorised(b: CrapsBetPlaced, authorised: readonly string[]): FindingInput | null {
  if (b.betType !== 'EXTRA') return null;
  if (b.extraBetName !== null && authorised.includes(b.extraBetName)) return null;
  return {
    check: betNotAuthorised,
    discriminator: b.betId,
    players: [b.playerId],
    summary: `bet "${b.extraBetName ?? '(unnamed)'}" (${b.betId}) is not in the regulation nor in the table's DICJ authorisations (${authorised.length ? authorised.join(', ') : 'none'})`,
    expected: { authorised },
    declared: { extraBetName: b.extraBetName, betId: b.betId },
    evidence: [evidenceOf(b)],
  };
}

/** The line bet each odds bet must back. */
export const ODDS_BACKS: Readonly<Partial<Record<CrapsBetKind, CrapsBetKind>>> = {
  PASS_ODDS: 'PASS_LINE',
  DONT_PASS_ODDS: 'DONT_PASS',
  COME_ODDS: 'COME',
  DONT_COME_ODDS: 'DONT_COME',
};

/** What the bet an odds bet names is, on the table now (null: no such bet is on the table). */
export interface BackedBet {
  readonly kind: string;
  readonly playerId: string;
  readonly point: number | null;
}

/** Why an odds bet has no line behind it, or null when it has. */
export function oddsWithoutLineReason(b: CrapsBetPlaced, behind: BackedBet | null): string | null {
  const needs = ODDS_BACKS[b.betType as CrapsBetKind];
  if (!needs) return null;
  if (b.behindBetId === null) return 'it names no bet behind it';
  if (!behind) return `bet ${b.behindBetId} is not on the table`;
  if (behind.kind !== needs) return `bet ${b.behindBetId} is a ${behind.kind}, not a ${needs}`;
  if (behind.playerId !== b.playerId)
    return `bet ${b.behindBetId} is ${behind.playerId}'s, not ${b.playerId}'s`;
  if (behind.point === null) return `bet ${b.behindBetId} has no point yet`;
  return null;
}

export function checkOddsWithoutLine(b: CrapsBetPlaced, behind: BackedBet | null): FindingInput | null {
  const why = oddsWithoutLineReason(b, behind);
  if (!why) return null;
  return {
    check: betOddsWithoutLine,
    discriminator: b.betId,
    players: [b.playerId],
    summary: `${b.betType} bet ${b.betId} was accepted but ${why}`,
    expected: { backs: ODDS_BACKS[b.betType as CrapsBetKind], withPoint: true },
    declared: { behindBetId: b.behindBetId, behind },
    evidence: [evidenceOf(b)],
  };
}
