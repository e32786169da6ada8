import type { F3cpEvent } from '@table-audit/schemas/events';
import { ruleSetFor } from '../registry.ts';

/** What may be placed, and what may be paid, at a Fortune 3 Card Poker table. */
const BETS: ReadonlySet<string> = new Set(['ANTE', 'PLAY', 'PAIR_PLUS', 'SIX_CARD_BONUS', 'PROGRESSIVE']);
const PAYOUTS: ReadonlySet<string> = new Set([...BETS, 'ANTE_BONUS']);

/** The most player seats any table has (art. 5.º n.º 2: six to eight hands, the banker's included). */
export const MAX_SEATS = 7;
export const MIN_SEATS = 5;

/**
 * The 52 cards as the contract spells them (rank 2-9, T, J, Q, K, A, then suit c, d, h, s): exactly these strings,
 * so that "as", "10h" or " Qh" — which a lenient parser would read — are refused rather than stored in a second
 * spelling that comparisons downstream would not match.
 */
const CARDS: ReadonlySet<string> = new Set(
  [...'23456789TJQKA'].flatMap((rank) => [...'cdhs'].map((suit) => rank + suit)),
);

function checkAmount(p: string[], field: string, v: number): void {
  if (!Number.isSafeInteger(v) || v <= 0) p.push(`${field} ${v} must be a positive whole number of avos`);
}

function checkCard(p: string[], field: string, c: string): void {
  if (!CARDS.has(c))
    p.push(
      `${field} ${JSON.stringify(c)} is not a card: expected a rank (2-9, T, J, Q, K, A) then a suit (c, d, h, s), e.g. "Qh" or "Ts"`,
    );
}

function checkSeat(p: string[], field: string, s: number | null, required: boolean): void {
  if (s === null) {
    if (required) p.push(`${field} is required`);
  } else if (!Number.isInteger(s) || s < 1 || s > MAX_SEATS)
    p.push(`${field} ${s} is not a seat (1 to ${MAX_SEATS})`);
}

/** This game's events that only make sense inside a round. */
const ROUND_EVENTS: ReadonlySet<string> = new Set([
  'BetPlaced',
  'CardDealt',
  'PlayDecision',
  'OutcomeDeclared',
  'PayoutMade',
]);

function checkBetType(p: string[], betType: string, payout: boolean): void {
  if (!(payout ? PAYOUTS : BETS).has(betType))
    p.push(`betType ${betType} is not a bet of Fortune 3 Card Poker`);
}

/** The bets of the 2008 rules (78/2008 art. 5.º n.º 1, with the Play bet of art. 9.º 1) and the Ante bonus of 9.º 8)). */
const BETS_2008: ReadonlySet<string> = new Set(['ANTE', 'PLAY', 'PAIR_PLUS', 'ANTE_BONUS']);

const DATED_FROM = Date.UTC(2008, 0, 1);
const DATED_TO = Date.UTC(2026, 0, 1);

/** The rule set id when the event's Macau date falls under the 2008 rules, else null. */
function rules2008(e: F3cpEvent): string | null {
  const t = e.data.header.eventTime;
  // outside the years any rule set covers: the time itself is refused elsewhere (ingest's plausible range)
  if (!Number.isFinite(t) || t < DATED_FROM || t >= DATED_TO) return null;
  const l = ruleSetFor('f3cp', t);
  return l.status === 'implemented' && l.rules.era === '2008' ? l.entry.id : null;
}

/**
 * A 2008 table (an event dated 2008-08-12 to 2025-11-10, Macau) offers only Ante, Play and Pair Plus (78/2008
 * art. 5.º n.º 1): a Six Card Bonus, a Progressive bet, a jackpot or community cards cannot describe such a table.
 */
function check2008(p: string[], e: F3cpEvent): void {
  const id = rules2008(e);
  if (!id) return;
  const why = `the 2008 rules (${id}, Despacho 78/2008 art. 5.º n.º 1) have only Ante, Play and Pair Plus bets`;
  switch (e.type) {
    case 'TableOpened':
      for (const l of e.data.betLimits)
        if (!BETS_2008.has(l.betType)) p.push(`betLimits ${l.betType}: ${why}`);
      if (e.data.jackpot) p.push(`jackpot must be null: ${why}, no Progressive Jackpot`);
      break;
    case 'BetPlaced':
    case 'BetWithdrawn':
    case 'BetCollected':
    case 'BetReturned':
    case 'PayoutMade':
      if (!BETS_2008.has(e.data.betType)) p.push(`betType ${e.data.betType}: ${why}`);
      break;
    case 'CardDealt':
    case 'CardExposed':
      if (e.data.target === 'COMMUNITY') p.push(`target COMMUNITY: ${why}, no community cards`);
      break;
    case 'CommunityCardsRevealed':
    case 'JackpotPaid':
    case 'JackpotPoolChanged':
      p.push(`${e.type}: ${why}, no Progressive Jackpot`);
      break;
    default:
      break;
  }
}

/**
 * What Avro cannot say about one Fortune 3 Card Poker event. Deliberately conservative: a bet over the limit, a
 * wrong payout, a card dealt twice or a seat the table does not have are facts the replay must see and turn
 * into findings; only what cannot describe anything at any such table (no such card, no such seat, a zero
 * amount) is refused.
 */
export function f3cpEventProblems(e: F3cpEvent): string[] {
  const p: string[] = [];
  switch (e.type) {
    case 'TableOpened':
      if (e.data.seats < MIN_SEATS || e.data.seats > MAX_SEATS)
        p.push(
          `seats ${e.data.seats}: a table has ${MIN_SEATS} to ${MAX_SEATS} player seats (art. 5.º n.º 2)`,
        );
      for (const l of e.data.betLimits) {
        checkBetType(p, l.betType, false);
        if (l.minimum <= 0 || l.maximum < l.minimum)
          p.push(`betLimits ${l.betType}: minimum ${l.minimum}, maximum ${l.maximum}`);
      }
      break;
    case 'BetPlaced':
    case 'BetWithdrawn':
    case 'BetCollected':
    case 'BetReturned':
      checkBetType(p, e.data.betType, false);
      checkAmount(p, 'amount', e.data.amount);
      checkSeat(p, 'seat', e.data.seat, true);
      break;
    case 'PayoutMade':
      checkBetType(p, e.data.betType, true);
      checkAmount(p, 'amount', e.data.amount);
      checkSeat(p, 'seat', e.data.seat, true);
      break;
    case 'CardDealt':
    case 'CardExposed':
      checkCard(p, 'card', e.data.card);
      checkSeat(p, 'seat', e.data.seat, e.data.target === 'SEAT');
      if (e.data.target !== 'SEAT' && e.data.seat !== null)
        p.push(`seat must be null for a card dealt to ${e.data.target}`);
      break;
    case 'CommunityCardsRevealed':
      for (let i = 0; i < e.data.cards.length; i++) checkCard(p, `cards[${i}]`, e.data.cards[i]!);
      break;
    case 'JackpotPaid':
      checkAmount(p, 'amount', e.data.amount);
      checkSeat(p, 'seat', e.data.seat, true);
      break;
    case 'PlayDecision':
    case 'SeatOccupied':
    case 'SeatVacated':
      checkSeat(p, 'seat', e.data.seat, true);
      break;
    case 'SurveillanceObservation':
      if (e.data.confidence < 0 || e.data.confidence > 100)
        p.push(`confidence ${e.data.confidence} must be 0 to 100`);
      checkSeat(p, 'seat', e.data.seat, false);
      break;
    default:
      break;
  }
  check2008(p, e);
  if (e.data.header.roundId === null && ROUND_EVENTS.has(e.type))
    p.push(`header.roundId is required for ${e.type}`);
  return p;
}
