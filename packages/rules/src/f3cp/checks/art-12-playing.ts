import { cite } from '../../citations/citation.ts';
import { defineCheck, evidenceOf, type FindingInput } from '../../findings.ts';
import { formatMop } from '../../present.ts';
import { F3CP_2025_DIPLOMA as D } from '../rule-set.ts';
import type { JudgedRound } from '../round.ts';
import { judgeObservation, observed, type ObservationRule } from './observations.ts';

/** Art. 12.º: who holds the cards, and the Play bet made after seeing them. */

export const playNotEqualAnte = defineCheck(
  'F3CP.BET.PLAY_NOT_EQUAL_ANTE',
  'Play bet not equal to the Ante',
  'high',
  [cite(D, 12, { numero: 2 })],
);

export const playBeforeDeal = defineCheck(
  'F3CP.BET.PLAY_BEFORE_DEAL',
  'Play bet placed before the hand was dealt',
  'high',
  [cite(D, 12, { numero: 1 }), cite(D, 12, { numero: 2 })],
);

export const nonSeatedHandling = defineCheck(
  'F3CP.CONDUCT.NON_SEATED_HANDLING',
  'cards held or viewed by someone not seated at that hand',
  'high',
  [cite(D, 12, { numero: 1 })],
  ['J13'],
);

/** Art. 12.º n.º 2: to play on, the player doubles with a Play bet of exactly the Ante. */
export function checkPlayNotEqualAnte(r: JudgedRound): FindingInput[] {
  const out: FindingInput[] = [];
  for (const b of r.view.betEvents) {
    if (b.betType !== 'PLAY') continue;
    const ante = r.view.bets.get(b.seat)?.ante ?? 0;
    if (b.amount === ante) continue;
    out.push({
      check: playNotEqualAnte,
      discriminator: String(b.seat),
      seats: [b.seat],
      players: [b.playerId],
      summary: `seat ${b.seat} Play bet ${formatMop(b.amount)}, Ante ${formatMop(ante)}`,
      expected: { play: ante },
      declared: { play: b.amount },
      evidence: [
        evidenceOf(b),
        ...r.view.betEvents.filter((x) => x.seat === b.seat && x.betType === 'ANTE').map(evidenceOf),
      ],
    });
  }
  return out;
}

/**
 * Art. 12.º n.º 1–2: the Play bet is the decision of a seated player who has seen the hand's cards, so it cannot
 * come before the hand's third card was dealt.
 */
export function checkPlayBeforeDeal(r: JudgedRound): FindingInput[] {
  const out: FindingInput[] = [];
  for (const b of r.view.playBets) {
    if (b.cardsDealtToSeat >= 3) continue;
    out.push({
      check: playBeforeDeal,
      discriminator: `${b.bet.seat}:${b.bet.header.eventId}`,
      seats: [b.bet.seat],
      players: [b.bet.playerId],
      summary: `seat ${b.bet.seat} Play bet of ${formatMop(b.bet.amount)} placed when the hand had ${b.cardsDealtToSeat} of its 3 cards`,
      expected: 'Play bet after the hand is dealt',
      declared: { cardsDealtToSeat: b.cardsDealtToSeat },
      evidence: [evidenceOf(b.bet), ...r.view.dealt.slice(0, 1).map(evidenceOf)],
    });
  }
  return out;
}

export const NON_SEATED_OBSERVED: ObservationRule = {
  check: nonSeatedHandling,
  kinds: new Set(['NON_SEATED_HANDLING']),
};

export const checkNonSeatedHandling = (r: JudgedRound): FindingInput[] =>
  r.ruleSet.alternatives.length && r.ruleSet.alternatives.includes('J13')
    ? checkNonSeatedHandlingPt(r)
    : observed(r, NON_SEATED_OBSERVED);

/**
 * Art. 12.º n.º 1 under J13's alternative, the PT text: "apenas os jogadores sentados" (only seated players) may
 * hold and see the cards, any hand's. An observation names the hand (its seat) and the player concerned: when
 * that player is seated at another seat of the table (when the round started), a seated player held or saw
 * another hand's cards, which this reading allows; every other observation (the hand's own player named, or no
 * one: the handler unidentified, or not seated) is a finding, as under the register's reading.
 */
export function checkNonSeatedHandlingPt(r: JudgedRound): FindingInput[] {
  const occupants = r.view.context.occupants;
  const seatedElsewhere = (player: string | null, seat: number | null) => {
    if (player === null) return false;
    for (const [s, p] of occupants) if (p === player && s !== seat) return true;
    return false;
  };
  const out: FindingInput[] = [];
  for (const o of r.view.observations) {
    if (seatedElsewhere(o.playerId, o.seat)) continue;
    const f = judgeObservation(o, NON_SEATED_OBSERVED);
    if (f) out.push(f);
  }
  return out;
}
