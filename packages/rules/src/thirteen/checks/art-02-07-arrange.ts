import { cite } from '../../citations/citation.ts';
import { defineCheck, type FindingInput } from '../../findings.ts';
import { formatArrangement } from '../arrangement.ts';
import { THIRTEEN_CARDS_1989_DIPLOMA as D, type ThirteenRuleSet } from '../rule-set.ts';
import type { ThirteenRound } from '../round.ts';
import type { SettledRound } from '../settle.ts';
import { arrangeDeadline } from '../settle.ts';
import { ev } from './evidence.ts';

/** Art. 2.º d) and 7.º: looking at the cards, arranging them in time, and the foul. */

export const foulNotPenalised = defineCheck(
  'THIRTEEN.ARRANGE.FOUL_NOT_PENALISED',
  'a foul hand whose bets were not lost',
  'critical',
  [cite(D, 7)],
  ['T4', 'T6'],
);
export const timeExceededNotPenalised = defineCheck(
  'THIRTEEN.ARRANGE.TIME_EXCEEDED_NOT_PENALISED',
  'a place that finished after the signal and did not lose',
  'high',
  [cite(D, 2, { alinea: 4 })],
);
export const playerBeforeBanker = defineCheck(
  'THIRTEEN.ARRANGE.PLAYER_BEFORE_BANKER',
  'a player took or looked at cards before the banker showed',
  'high',
  [cite(D, 2, { alinea: 4 })],
);

/** Art. 7.º: a place whose tiers do not rise loses its bets automatically. */
export function checkFoulPenalised(r: ThirteenRound, s: SettledRound): FindingInput[] {
  const out: FindingInput[] = [];
  for (const x of s.bets) {
    if (x.scored.reason !== 'place-foul') continue;
    const declared = r.settlements.find((d) => d.betId === x.bet.betId);
    if (!declared || declared.outcome === 'lose') continue;
    const place = s.places.get(x.bet.place);
    out.push({
      check: foulNotPenalised,
      discriminator: x.bet.betId,
      seats: [x.bet.place],
      players: [x.bet.playerId],
      summary: `place ${x.bet.place} fouled (${place?.judged ? formatArrangement(place.judged.arrangement) : '?'}) and bet ${x.bet.betId} was settled as a ${declared.outcome}`,
      expected: { outcome: 'lose', net: x.settlement.net },
      declared: { outcome: declared.outcome, net: declared.net },
      evidence: ev(...(place?.facts.arranged ? [place.facts.arranged] : []), declared),
    });
  }
  return out;
}

/** Art. 2.º d): a place that had not finished arranging when the five minutes ended loses the round. */
export function checkTimeExceeded(r: ThirteenRound, s: SettledRound, rules: ThirteenRuleSet): FindingInput[] {
  const out: FindingInput[] = [];
  const deadline = arrangeDeadline(r, rules);
  for (const x of s.bets) {
    if (x.scored.reason !== 'place-late') continue;
    const declared = r.settlements.find((d) => d.betId === x.bet.betId);
    if (!declared || declared.outcome === 'lose') continue;
    const arranged = s.places.get(x.bet.place)?.facts.arranged ?? null;
    out.push({
      check: timeExceededNotPenalised,
      discriminator: x.bet.betId,
      seats: [x.bet.place],
      players: [x.bet.playerId],
      summary: `place ${x.bet.place} finished arranging ${arranged ? `${Math.round((arranged.time - (deadline ?? 0)) / 1000)} s after` : 'never, before'} the end of the ${rules.arrangeMinutes} minutes, and bet ${x.bet.betId} was settled as a ${declared.outcome}`,
      expected: { outcome: 'lose', deadline },
      declared: { outcome: declared.outcome, finishedAt: arranged?.time ?? null },
      evidence: ev(...(r.signal ? [r.signal] : []), ...(arranged ? [arranged] : []), declared),
    });
  }
  return out;
}

/** Art. 2.º d): no player takes or looks at the cards before the banker has arranged and shown the banker's hand. */
export function checkPlayerBeforeBanker(r: ThirteenRound): FindingInput[] {
  const shown = r.bankerShown[0];
  return r.places
    .filter((p) => p.place !== 0 && p.cardsTakenAt && (!shown || p.cardsTakenAt.time < shown.time))
    .map((p) => ({
      check: playerBeforeBanker,
      discriminator: String(p.place),
      seats: [p.place],
      players: [p.holderPlayerId],
      summary: `place ${p.place}'s cards taken ${shown ? `${Math.round((shown.time - p.cardsTakenAt!.time) / 1000)} s before` : 'although'} the banker showed`,
      expected: { notBefore: shown?.time ?? null },
      declared: { takenAt: p.cardsTakenAt!.time },
      evidence: ev(p.cardsTakenAt!, ...(shown ? [shown] : [])),
    }));
}
