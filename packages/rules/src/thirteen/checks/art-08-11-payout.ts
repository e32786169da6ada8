import { cite } from '../../citations/citation.ts';
import { defineCheck, type FindingInput } from '../../findings.ts';
import { formatMop } from '../../present.ts';
import { THIRTEEN_CARDS_1989_DIPLOMA as D } from '../rule-set.ts';
import type { ThirteenRound } from '../round.ts';
import type { SettledRound } from '../settle.ts';
import { ev } from './evidence.ts';

/** Art. 8.º–11.º: each bet settled as the points over the three tiers and art. 11.º's payment give it. */

export const payoutMismatch = defineCheck(
  'THIRTEEN.PAYOUT.MISMATCH',
  'a bet settled otherwise than the rules',
  'critical',
  [cite(D, 8), cite(D, 9), cite(D, 10), cite(D, 11)],
  ['T1', 'T2'],
);

/**
 * A bet whose declared result differs from the expected one. Fouled and late places are left to their own checks
 * (art. 7.º, 2.º d)) when the table did not make them lose; a bet never settled is reported here too.
 */
export function checkPayout(r: ThirteenRound, s: SettledRound): FindingInput[] {
  const out: FindingInput[] = [];
  for (const x of s.bets) {
    const declared = r.settlements.find((d) => d.betId === x.bet.betId);
    const penalty = x.scored.reason === 'place-foul' || x.scored.reason === 'place-late';
    if (declared && penalty && declared.outcome !== 'lose') continue;
    if (declared && declared.outcome === x.settlement.outcome && declared.net === x.settlement.net) continue;
    out.push({
      check: payoutMismatch,
      discriminator: x.bet.betId,
      seats: [x.bet.place],
      players: [x.bet.playerId],
      summary: declared
        ? `bet ${x.bet.betId} on place ${x.bet.place}: ${declared.outcome} ${formatMop(declared.net)} declared, ${x.settlement.outcome} ${formatMop(x.settlement.net)} expected (${x.scored.reason}: place ${x.scored.placePoints} points, banker ${x.scored.bankerPoints})`
        : `bet ${x.bet.betId} on place ${x.bet.place} was never settled; ${x.settlement.outcome} ${formatMop(x.settlement.net)} expected`,
      expected: { outcome: x.settlement.outcome, net: x.settlement.net, commission: x.settlement.commission },
      declared: declared ? { outcome: declared.outcome, net: declared.net } : null,
      evidence: ev(x.bet, ...(declared ? [declared] : [])),
      details: { reason: x.scored.reason, tiers: x.scored.tiers },
    });
  }
  return out;
}
