import { cite } from '../../citations/citation.ts';
import { defineCheck, type FindingInput } from '../../findings.ts';
import { formatMop } from '../../present.ts';
import { THIRTEEN_CARDS_1989_DIPLOMA as D } from '../rule-set.ts';
import type { ThirteenRound } from '../round.ts';
import { ev } from './evidence.ts';

/** Art. 2.º c): once the dice are shaken, no bet is accepted, withdrawn or moved to another place. */

export const betAfterDice = defineCheck(
  'THIRTEEN.BET.AFTER_DICE',
  'a bet placed or withdrawn after the dice',
  'high',
  [cite(D, 2, { alinea: 3 })],
);
export const betTransferred = defineCheck(
  'THIRTEEN.BET.TRANSFERRED',
  'a bet moved to another place after the dice',
  'high',
  [cite(D, 2, { alinea: 3 })],
);

export function checkBetAfterDice(r: ThirteenRound): FindingInput[] {
  const out: FindingInput[] = [];
  for (const b of r.bets) {
    if (b.time <= r.dice.time) continue;
    out.push({
      check: betAfterDice,
      discriminator: `placed ${b.betId}`,
      seats: [b.place],
      players: [b.playerId],
      summary: `bet ${b.betId} of ${formatMop(b.amount)} on place ${b.place} accepted after the dice`,
      expected: { placedBefore: r.dice.time },
      declared: { placedAt: b.time },
      evidence: ev(r.dice, b),
    });
  }
  for (const c of r.betChanges) {
    if (c.kind !== 'withdrawn' || c.time <= r.dice.time) continue;
    const bet = r.bets.find((b) => b.betId === c.betId);
    out.push({
      check: betAfterDice,
      discriminator: `withdrawn ${c.betId}`,
      seats: bet ? [bet.place] : [],
      players: [bet?.playerId ?? null],
      summary: `bet ${c.betId} withdrawn after the dice`,
      expected: { withdrawnBefore: r.dice.time },
      declared: { withdrawnAt: c.time },
      evidence: ev(r.dice, c),
    });
  }
  return out;
}

export function checkBetTransferred(r: ThirteenRound): FindingInput[] {
  return r.betChanges
    .filter((c) => c.kind === 'moved' && c.time > r.dice.time)
    .map((c) => {
      const bet = r.bets.find((b) => b.betId === c.betId);
      return {
        check: betTransferred,
        discriminator: c.betId,
        seats: bet ? [bet.place] : [],
        players: [bet?.playerId ?? null],
        summary: `bet ${c.betId} moved from place ${bet?.place ?? '?'} to place ${c.toPlace ?? '?'} after the dice`,
        expected: { place: bet?.place ?? null },
        declared: { place: c.toPlace },
        evidence: ev(r.dice, c),
      };
    });
}
