/** What a valid throw owes on each bet (art. 5.º and 6.º), against what the croupier settled. */
import type { CrapsBetResolved, DiceThrown } from '@table-audit/schemas/events';
import type { Citation } from '../../citations/citation.ts';
import { defineCheck, evidenceOf, type Evidence, type FindingInput } from '../../findings.ts';
import type { Resolution } from '../engine.ts';
import { formatMop } from '../../present.ts';
import { CRAPS_CITES } from '../rule-set.ts';

export const payoutMismatch = defineCheck(
  'CRAPS.PAYOUT.MISMATCH',
  'A bet settled otherwise than art. 5.º and 6.º say',
  'critical',
  [CRAPS_CITES.payouts],
);

/** One bet on one throw: what the rules say (null outcome: the throw does not decide it) and what was declared. */
export interface ExpectedLine {
  readonly betId: string;
  readonly playerId: string;
  readonly bet: string;
  readonly stake: number;
  readonly outcome: Resolution | null;
  readonly payout: number;
  readonly citations: readonly Citation[];
  readonly interpretations: readonly string[];
  readonly placed: Evidence | null;
}

export function checkPayout(
  t: DiceThrown,
  line: ExpectedLine,
  declared: CrapsBetResolved | null,
): FindingInput | null {
  const expectedOutcome = line.outcome ?? 'STAYS';
  const declaredOutcome = declared ? declared.outcome : 'STAYS';
  const declaredPayout = declared ? declared.payout : 0;
  if (expectedOutcome === declaredOutcome && line.payout === declaredPayout) return null;
  const sum = (t.faces[0] ?? 0) + (t.faces[1] ?? 0);
  return {
    check: payoutMismatch,
    discriminator: line.betId,
    players: [line.playerId],
    summary:
      `${line.bet} ${line.betId} (stake ${formatMop(line.stake)}) on a throw of ${t.faces.join('-')} (${sum}): ` +
      `the rules give ${expectedOutcome}${line.outcome === 'WIN' ? ` paying ${formatMop(line.payout)}` : ''}, ` +
      `the table declared ${declaredOutcome}${declared?.outcome === 'WIN' ? ` paying ${formatMop(declaredPayout)}` : ''}`,
    expected: { betId: line.betId, outcome: expectedOutcome, payout: line.payout },
    declared: { betId: line.betId, outcome: declaredOutcome, payout: declaredPayout },
    extraCitations: line.citations,
    extraInterpretations: line.interpretations,
    evidence: [
      ...(line.placed ? [line.placed] : []),
      evidenceOf(t),
      ...(declared ? [evidenceOf(declared)] : []),
    ],
    details: { stake: line.stake },
  };
}

/** A settlement of a bet that was not on the table at the throw. */
export function checkUnknownSettled(t: DiceThrown, declared: CrapsBetResolved): FindingInput {
  return {
    check: payoutMismatch,
    discriminator: declared.betId,
    summary: `bet ${declared.betId} was settled (${declared.outcome}, ${formatMop(declared.payout)}) on this throw but was not on the table when the dice were thrown`,
    expected: { betId: declared.betId, outcome: 'NO_SUCH_BET' },
    declared: { betId: declared.betId, outcome: declared.outcome, payout: declared.payout },
    evidence: [evidenceOf(t), evidenceOf(declared)],
  };
}
