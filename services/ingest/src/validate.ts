import { F3CP_EVENT_TYPES, type F3cpEvent } from '@table-audit/schemas/events';

/** The games ingest knows, with the bets of each (what may be placed, and what may be paid). */
const GAMES: ReadonlyMap<string, { bets: ReadonlySet<string>; payouts: ReadonlySet<string> }> = new Map([
  [
    'F3CP',
    {
      bets: new Set(['ANTE', 'PLAY', 'PAIR_PLUS', 'SIX_CARD_BONUS', 'PROGRESSIVE']),
      payouts: new Set(['ANTE', 'PLAY', 'PAIR_PLUS', 'SIX_CARD_BONUS', 'PROGRESSIVE', 'ANTE_BONUS']),
    },
  ],
]);
const GAME_NAMES: Record<string, string> = { F3CP: 'Fortune 3 Card Poker' };

/**
 * The 52 cards as the contract spells them (rank 2-9, T, J, Q, K, A, then suit c, d, h, s): exactly these strings,
 * so that "as", "10h" or " Qh" — which a lenient parser would read — are refused rather than stored in a second
 * spelling that comparisons downstream would not match.
 */
const CARDS: ReadonlySet<string> = new Set(
  [...'23456789TJQKA'].flatMap((rank) => [...'cdhs'].map((suit) => rank + suit)),
);

/** Events that only make sense inside a round. */
const ROUND_EVENTS: ReadonlySet<string> = new Set([
  'RoundStarted',
  'BetPlaced',
  'CardDealt',
  'PlayDecision',
  'OutcomeDeclared',
  'PayoutMade',
  'RoundSettled',
  'RoundVoided',
]);

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
  } else if (!Number.isInteger(s) || s < 1 || s > 7) p.push(`${field} ${s} is not a seat (1 to 7)`);
}

function checkBetType(p: string[], game: string, betType: string, payout: boolean): void {
  const known = GAMES.get(game);
  if (known && !(payout ? known.payouts : known.bets).has(betType))
    p.push(`betType ${betType} is not a bet of ${GAME_NAMES[game] ?? game}`);
}

/**
 * Meaning checks after the schema: what Avro cannot say. Each problem names the field and what is wrong with it,
 * so whoever fixes the source knows what to fix. `knownTable` says whether the table has been opened; `game` is
 * the table's game (every table is Fortune 3 Card Poker for now).
 *
 * Deliberately conservative: a bet over the limit, a wrong payout or a card dealt twice are facts that replay must
 * see and turn into findings; only what cannot describe anything at a table (no such card, no such seat, a zero
 * amount, an event for a table never opened) is refused here.
 */
export function meaningProblems(e: F3cpEvent, knownTable: boolean, game = 'F3CP'): string[] {
  const p: string[] = [];
  const h = e.data.header;
  if (!h.eventId) p.push('header.eventId is empty');
  if (!h.tableId) p.push('header.tableId is empty');
  if (!Number.isSafeInteger(h.eventTime) || h.eventTime <= 0)
    p.push(`header.eventTime ${h.eventTime} is not a time in UTC milliseconds`);
  if (e.type !== 'TableOpened' && !knownTable)
    p.push(`table "${h.tableId}" is not known: no TableOpened has been received for it`);
  switch (e.type) {
    case 'TableOpened':
      if (!GAMES.has(e.data.game)) p.push(`game ${e.data.game} is not a game this pipeline knows`);
      if (e.data.seats < 5 || e.data.seats > 7)
        p.push(`seats ${e.data.seats}: a table has 5 to 7 player seats (art. 5.º n.º 2)`);
      for (const l of e.data.betLimits) {
        checkBetType(p, e.data.game, l.betType, false);
        if (l.minimum <= 0 || l.maximum < l.minimum)
          p.push(`betLimits ${l.betType}: minimum ${l.minimum}, maximum ${l.maximum}`);
      }
      break;
    case 'BetPlaced':
    case 'BetWithdrawn':
    case 'BetCollected':
    case 'BetReturned':
      checkBetType(p, game, e.data.betType, false);
      checkAmount(p, 'amount', e.data.amount);
      checkSeat(p, 'seat', e.data.seat, true);
      break;
    case 'PayoutMade':
      checkBetType(p, game, e.data.betType, true);
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
    case 'EventCorrected': {
      // a correction must say what it corrects in a form a reader can apply
      if (!(F3CP_EVENT_TYPES as readonly string[]).includes(e.data.correctedEventType))
        p.push(`correctedEventType "${e.data.correctedEventType}" is not an event type`);
      let corrections: unknown;
      try {
        corrections = JSON.parse(e.data.corrections);
      } catch (error) {
        p.push(`corrections is not JSON (${(error as Error).message})`);
      }
      if (
        corrections !== undefined &&
        (typeof corrections !== 'object' || corrections === null || Array.isArray(corrections))
      )
        p.push('corrections must be a JSON object of field name to corrected value');
      else if (corrections !== undefined && 'header' in corrections)
        p.push('corrections cannot change the header of the corrected event');
      if (!e.data.correctedEventId) p.push('correctedEventId is empty');
      if (!e.data.correctedBy) p.push('correctedBy is empty: a correction names who made it');
      break;
    }
    default:
      break;
  }
  if (h.roundId === null && ROUND_EVENTS.has(e.type)) p.push(`header.roundId is required for ${e.type}`);
  return p;
}
