import { evidenceOf, type FindingInput } from '../../findings.ts';
import { formatMop } from '../../present.ts';
import type { JudgedRound } from '../round.ts';
import { F3CP08 } from './f3cp08-definitions.ts';

/** Art. 5.º and 9.º of 78/2008: which bets exist, and the Play bet a Pair Plus bettor must make. */

const OFFERED_2008 = new Set(['ANTE', 'PLAY', 'PAIR_PLUS']);

/** Art. 5.º n.º 1: the players may choose the Ante and the Pair Plus (with the Play bet of art. 9.º 1)), nothing else. */
export function checkBetNotOffered(r: JudgedRound): FindingInput[] {
  return r.view.betEvents
    .filter((b) => !OFFERED_2008.has(b.betType))
    .map((b) => ({
      check: F3CP08.betNotOffered,
      discriminator: `${b.seat}:${b.betType}:${b.header.eventId}`,
      seats: [b.seat],
      players: [b.playerId],
      summary: `${b.betType} bet of ${formatMop(b.amount)} on seat ${b.seat}: the 2008 rules have only Ante, Play and Pair Plus`,
      expected: { betType: ['ANTE', 'PLAY', 'PAIR_PLUS'] },
      declared: { betType: b.betType, amount: b.amount },
      evidence: [evidenceOf(b)],
    }));
}

/**
 * Art. 9.º 3): a player who bet the Ante and the Pair Plus must make the Play bet. A recorded fold by such a
 * hand (or no decision at all in a round that was settled) is the finding; H4 says how its Pair Plus settles.
 */
export function checkPlayRequired(r: JudgedRound): FindingInput[] {
  if (r.voided) return [];
  const out: FindingInput[] = [];
  for (const s of r.betSeats) {
    if (s.ante <= 0 || s.pairPlus <= 0) continue;
    const d = r.view.decisions.get(s.seat);
    if (d?.decision === 'PLAY') continue;
    if (!d && !r.view.settled) continue;
    out.push({
      check: F3CP08.playRequired,
      discriminator: String(s.seat),
      seats: [s.seat],
      players: r.view.betEvents.filter((b) => b.seat === s.seat).map((b) => b.playerId),
      summary: `seat ${s.seat} bet Ante ${formatMop(s.ante)} and Pair Plus ${formatMop(s.pairPlus)} but ${d ? 'folded' : 'made no Play bet'}`,
      expected: { decision: 'PLAY', play: s.ante },
      declared: { decision: d?.decision ?? null },
      evidence: [
        ...r.view.betEvents.filter((b) => b.seat === s.seat && b.betType !== 'PLAY').map(evidenceOf),
        ...(d ? [evidenceOf(d)] : []),
      ],
    });
  }
  return out;
}
