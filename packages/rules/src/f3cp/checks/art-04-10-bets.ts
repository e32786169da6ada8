import type { BetPlaced, TableOpened } from '@table-audit/schemas/events';
import { cite } from '../../citations/citation.ts';
import { defineCheck, evidenceOf, type FindingInput } from '../../findings.ts';
import { formatMop } from '../../present.ts';
import { F3CP_2025_DIPLOMA as D } from '../rule-set.ts';
import type { JudgedRound } from '../round.ts';

/** Arts. 3.º–5.º and 10.º: which bets may be placed, where, how much, and until when. */

export const betLate = defineCheck('F3CP.BET.LATE', 'bet placed after the first card was dealt', 'high', [
  cite(D, 10, { alinea: 3 }),
]);

export const betLimits = defineCheck('F3CP.BET.LIMITS', "bet outside the table's posted limits", 'medium', [
  cite(D, 10, { alinea: 1 }),
]);

export const betOtherHand = defineCheck(
  'F3CP.BET.OTHER_HAND',
  "bet placed on a hand other than the player's own",
  'high',
  [cite(D, 10, { alinea: 2 })],
  ['J12'],
);

export const additionalWithoutBasic = defineCheck(
  'F3CP.BET.ADDITIONAL_WITHOUT_BASIC',
  'additional bet accepted without a basic bet',
  'medium',
  [cite(D, 3, { numero: 4 }), cite(D, 4, { numero: 2 }), cite(D, 4, { numero: 3 })],
);

export const noSuchSeat = defineCheck(
  'F3CP.BET.NO_SUCH_SEAT',
  'bet or card on a seat the table does not have',
  'high',
  [cite(D, 5, { numero: 2 })],
);

/** Art. 10.º 3): no bet after the first card (Play bets and re-stated carried-over bets excepted). */
export function checkBetLate(r: JudgedRound): FindingInput[] {
  const first = r.view.dealt[0];
  return r.view.lateBets.map((b) => ({
    check: betLate,
    discriminator: `${b.seat}:${b.betType}:${b.header.eventId}`,
    seats: [b.seat],
    players: [b.playerId],
    summary: `${b.betType} bet of ${formatMop(b.amount)} on seat ${b.seat} after the first card was dealt`,
    declared: { betType: b.betType, amount: b.amount },
    evidence: [evidenceOf(b), ...(first ? [evidenceOf(first)] : [])],
  }));
}

/** Art. 10.º 1): every bet within the minimum and maximum posted for its type. */
export function checkBetLimits(r: JudgedRound): FindingInput[] {
  const limits = limitsOf(r.view.context.config);
  const out: FindingInput[] = [];
  for (const b of r.view.betEvents) {
    const l = limits.get(b.betType);
    if (!l || (b.amount >= l.minimum && b.amount <= l.maximum)) continue;
    out.push({
      check: betLimits,
      discriminator: `${b.seat}:${b.betType}:${b.header.eventId}`,
      seats: [b.seat],
      players: [b.playerId],
      summary: `${b.betType} bet of ${formatMop(b.amount)} on seat ${b.seat} outside the limits ${formatMop(l.minimum)}–${formatMop(l.maximum)}`,
      expected: { minimum: l.minimum, maximum: l.maximum },
      declared: { amount: b.amount },
      evidence: [evidenceOf(b)],
    });
  }
  return out;
}

/**
 * Art. 10.º 2) (and J12): a player bets only on the hand of the seat they occupy, and never on several hands. A
 * player the seat sensors place at no seat has no seat to compare with; their bets on several hands are still joint.
 */
export function checkBetOtherHand(r: JudgedRound): FindingInput[] {
  if (r.ruleSet.alternatives.length && r.ruleSet.alternatives.includes('J12')) return checkBetOtherHandPt(r);
  const occupants = r.view.context.occupants;
  let seatOfPlayer: ReadonlyMap<string, number> | null = null;
  let handsOf: ReadonlyMap<string, ReadonlySet<number>> | null = null;
  const out: FindingInput[] = [];
  for (const b of r.view.betEvents) {
    if (!b.playerId) continue;
    const occupant = occupants.get(b.seat);
    seatOfPlayer ??= seatsOfPlayers(occupants);
    const seatOf = seatOfPlayer.get(b.playerId);
    const ownHand =
      (occupant === undefined || occupant === b.playerId) && (seatOf === undefined || seatOf === b.seat);
    let jointHands = 0;
    if (ownHand) {
      if (seatOf !== undefined) continue;
      handsOf ??= handsOfPlayers(r);
      jointHands = handsOf.get(b.playerId)!.size;
      if (jointHands < 2) continue;
    }
    out.push({
      check: betOtherHand,
      discriminator: `${b.seat}:${b.betType}:${b.playerId}`,
      seats: [b.seat, ...(seatOf !== undefined ? [seatOf] : [])],
      players: [b.playerId, occupant ?? null],
      summary: jointHands
        ? `player ${b.playerId}, seated at no seat, bet on ${jointHands} hands (seats ${[...handsOf!.get(b.playerId)!].sort((x, y) => x - y).join(', ')}) jointly`
        : `player ${b.playerId}${seatOf !== undefined ? ` seated at seat ${seatOf}` : ''} bet on seat ${b.seat}${occupant ? `, occupied by ${occupant}` : ''}`,
      expected: jointHands ? { hands: 1 } : { seat: seatOf ?? null },
      declared: jointHands ? { seat: b.seat, hands: jointHands } : { seat: b.seat },
      evidence: [evidenceOf(b)],
    });
  }
  return out;
}

/** player → the hands (seats) they bet on in the round */
function handsOfPlayers(r: JudgedRound): Map<string, Set<number>> {
  const hands = new Map<string, Set<number>>();
  for (const x of r.view.betEvents)
    if (x.playerId) {
      const set = hands.get(x.playerId) ?? new Set<number>();
      set.add(x.seat);
      hands.set(x.playerId, set);
    }
  return hands;
}

/**
 * Art. 10.º 2) under J12's alternative, the PT text alone: a bet is made "na própria mão" (on the player's own
 * hand, which PT ties to no seat) and never "em conjunto com outras mãos" (jointly with other hands). A bet on a
 * hand another player occupies, or one of several hands a player bets on, is the finding; a player who bets on a
 * single unoccupied hand is not, whichever seat the sensor shows them at (the ZH "正佔座的一門" is not read).
 */
export function checkBetOtherHandPt(r: JudgedRound): FindingInput[] {
  const occupants = r.view.context.occupants;
  const out: FindingInput[] = [];
  let handsOf: Map<string, Set<number>> | null = null;
  for (const b of r.view.betEvents) {
    if (!b.playerId) continue;
    const occupant = occupants.get(b.seat);
    const seatOf = seatsOfPlayers(occupants).get(b.playerId);
    if ((occupant === undefined || occupant === b.playerId) && (seatOf === undefined || seatOf === b.seat))
      continue;
    handsOf ??= handsOfPlayers(r);
    const hands = handsOf.get(b.playerId)!;
    const othersHand = occupant !== undefined && occupant !== b.playerId;
    if (!othersHand && hands.size < 2) continue;
    out.push({
      check: betOtherHand,
      discriminator: `${b.seat}:${b.betType}:${b.playerId}`,
      seats: [b.seat, ...(seatOf !== undefined ? [seatOf] : [])],
      players: [b.playerId, occupant ?? null],
      summary: othersHand
        ? `player ${b.playerId}${seatOf !== undefined ? ` seated at seat ${seatOf}` : ''} bet on seat ${b.seat}, occupied by ${occupant} (J12 alternative: the PT text)`
        : `player ${b.playerId} bet on ${hands.size} hands (seats ${[...hands].sort((x, y) => x - y).join(', ')}) jointly (J12 alternative: the PT text)`,
      expected: othersHand ? { seat: seatOf ?? null } : { hands: 1 },
      declared: othersHand ? { seat: b.seat } : { seat: b.seat, hands: hands.size },
      evidence: [evidenceOf(b)],
    });
  }
  return out;
}

/** player → seat, once per occupants map (the rounds between two seat changes share theirs) */
const SEATS_OF_PLAYERS = new WeakMap<ReadonlyMap<number, string>, ReadonlyMap<string, number>>();
function seatsOfPlayers(occupants: ReadonlyMap<number, string>): ReadonlyMap<string, number> {
  let m = SEATS_OF_PLAYERS.get(occupants);
  if (!m)
    SEATS_OF_PLAYERS.set(occupants, (m = new Map([...occupants].map(([seat, player]) => [player, seat]))));
  return m;
}

/** Arts. 3.º n.º 4 and 4.º n.º 2–3: Six Card Bonus and Progressive only beside an Ante or a Pair Plus. */
export function checkAdditionalWithoutBasic(r: JudgedRound): FindingInput[] {
  const out: FindingInput[] = [];
  for (const s of r.betSeats) {
    if (!((s.sixCardBonus > 0 || s.progressive > 0) && s.ante === 0 && s.pairPlus === 0)) continue;
    const which = [s.sixCardBonus ? 'a Six Card Bonus' : '', s.progressive ? 'a Progressive' : '']
      .filter(Boolean)
      .join(' and ');
    out.push({
      check: additionalWithoutBasic,
      discriminator: String(s.seat),
      seats: [s.seat],
      players: [...s.players],
      summary: `seat ${s.seat} has ${which} bet without an Ante or Pair Plus bet: invalid under art. 4.º n.º 3, so it may not be paid`,
      declared: { sixCardBonus: s.sixCardBonus, progressive: s.progressive },
      evidence: r.view.betEvents.filter((b) => b.seat === s.seat).map(evidenceOf),
    });
  }
  return out;
}

/**
 * Art. 5.º n.º 2: a table has the seats its TableOpened declares (5 to 7 player hands); a bet or a card on a seat
 * beyond them is on a hand that does not exist.
 */
export function checkNoSuchSeat(r: JudgedRound): FindingInput[] {
  const seats = r.view.context.config.seats;
  let wrong: Map<number, { eventId: string; eventTime: number }[]> | null = null; // made at the first
  const note = (seat: number | null, x: { header: { eventId: string; eventTime: number } }) => {
    if (seat === null || (seat >= 1 && seat <= seats)) return;
    wrong ??= new Map();
    wrong.set(seat, [...(wrong.get(seat) ?? []), evidenceOf(x)]);
  };
  for (const b of r.view.betEvents) note(b.seat, b);
  for (const d of r.view.dealt) if (d.target === 'SEAT') note(d.seat, d);
  if (!wrong) return [];
  return [...(wrong as Map<number, { eventId: string; eventTime: number }[]>)].map(([seat, evidence]) => ({
    check: noSuchSeat,
    discriminator: String(seat),
    seats: [seat],
    players: r.view.betEvents.filter((b: BetPlaced) => b.seat === seat).map((b) => b.playerId),
    summary: `seat ${seat} used on a table of ${seats} player seats`,
    expected: { seats: `1–${seats}` },
    declared: { seat },
    evidence,
  }));
}

const LIMITS = new WeakMap<TableOpened, Map<string, TableOpened['betLimits'][number]>>();
function limitsOf(config: TableOpened) {
  let l = LIMITS.get(config);
  if (!l) LIMITS.set(config, (l = new Map(config.betLimits.map((x) => [x.betType, x]))));
  return l;
}
