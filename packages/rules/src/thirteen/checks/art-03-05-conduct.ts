import { cite } from '../../citations/citation.ts';
import { defineCheck, type FindingInput } from '../../findings.ts';
import { THIRTEEN_CARDS_1989_DIPLOMA as D } from '../rule-set.ts';
import type { ThirteenRound } from '../round.ts';
import { ev } from './evidence.ts';

/** Art. 3.º and 5.º: places, holding the cards, several bettors on one place. */

export const placeChanged = defineCheck(
  'THIRTEEN.CONDUCT.PLACE_CHANGED',
  'a player changed place during a round',
  'medium',
  [cite(D, 3)],
);
export const cardsOffTable = defineCheck(
  'THIRTEEN.CONDUCT.CARDS_OFF_TABLE',
  'cards held off the table, or another place’s cards held',
  'high',
  [cite(D, 3)],
);
export const wrongHolder = defineCheck(
  'THIRTEEN.CONDUCT.WRONG_HOLDER',
  'cards held by someone other than the highest seated bettor on the place',
  'medium',
  [cite(D, 5)],
);

export function checkPlaceChanged(r: ThirteenRound): FindingInput[] {
  return r.observations
    .filter((o) => o.kind === 'place-changed')
    .map((o) => ({
      check: placeChanged,
      discriminator: `${o.playerId}@${o.time}`,
      seats: [o.place],
      players: [o.playerId],
      summary: `player ${o.playerId} changed place during the round (to place ${o.place})`,
      expected: { placeChanged: false },
      declared: { place: o.place },
      evidence: ev(o),
    }));
}

export function checkCardsOffTable(r: ThirteenRound): FindingInput[] {
  return r.observations
    .filter((o) => o.kind === 'cards-off-table' || o.kind === 'other-place-cards')
    .map((o) => ({
      check: cardsOffTable,
      discriminator: `${o.kind} ${o.playerId}@${o.time}`,
      seats: [o.place],
      players: [o.playerId],
      summary:
        o.kind === 'cards-off-table'
          ? `player ${o.playerId} held place ${o.place}'s cards off the table`
          : `player ${o.playerId} held the cards of place ${o.place}, not their own`,
      expected: { kind: null },
      declared: { kind: o.kind },
      evidence: ev(o),
    }));
}

/**
 * Art. 5.º: the cards of a place are held by the seated player with the highest bet on it. Equal highest bets
 * leave the choice open, so any of them may hold.
 */
export function checkHolder(r: ThirteenRound): FindingInput[] {
  const out: FindingInput[] = [];
  for (const p of r.places) {
    if (p.place === 0 || p.holderPlayerId === null) continue;
    const total = new Map<string, number>();
    for (const b of r.bets)
      if (b.place === p.place && b.seated) total.set(b.playerId, (total.get(b.playerId) ?? 0) + b.amount);
    if (total.size === 0) continue;
    const top = Math.max(...total.values());
    const entitled = [...total]
      .filter(([, v]) => v === top)
      .map(([k]) => k)
      .sort();
    if (entitled.includes(p.holderPlayerId)) continue;
    out.push({
      check: wrongHolder,
      discriminator: String(p.place),
      seats: [p.place],
      players: [p.holderPlayerId, ...entitled],
      summary: `place ${p.place}'s cards held by ${p.holderPlayerId}; the highest seated bettor is ${entitled.join(' or ')}`,
      expected: { holder: entitled },
      declared: { holder: p.holderPlayerId },
      evidence: ev(...(p.cardsTakenAt ? [p.cardsTakenAt] : []), ...r.bets.filter((b) => b.place === p.place)),
    });
  }
  return out;
}
