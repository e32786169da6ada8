import { parseCard } from '@table-audit/rules';
import type { F3cpEvent } from '@table-audit/schemas/events';

const BET_TYPES = new Set(['ANTE', 'PLAY', 'PAIR_PLUS', 'SIX_CARD_BONUS', 'PROGRESSIVE']);
const PAYOUT_TYPES = new Set([...BET_TYPES, 'ANTE_BONUS']);

/**
 * Meaning checks after the schema: what Avro cannot say. Each problem names the field and what is wrong with it,
 * so whoever fixes the source knows what to fix. `knownTable` says whether the table has been opened.
 */
export function meaningProblems(e: F3cpEvent, knownTable: boolean): string[] {
  const p: string[] = [];
  const h = e.data.header;
  if (!h.eventId) p.push('header.eventId is empty');
  if (!h.tableId) p.push('header.tableId is empty');
  if (!Number.isSafeInteger(h.eventTime) || h.eventTime <= 0)
    p.push(`header.eventTime ${h.eventTime} is not a time in UTC milliseconds`);
  if (e.type !== 'TableOpened' && !knownTable)
    p.push(`table "${h.tableId}" is not known: no TableOpened has been received for it`);
  const amount = (field: string, v: number) => {
    if (!Number.isSafeInteger(v) || v <= 0) p.push(`${field} ${v} must be a positive whole number of avos`);
  };
  const card = (field: string, c: string) => {
    try {
      parseCard(c);
    } catch (err) {
      p.push(`${field}: ${(err as Error).message}`);
    }
  };
  const seat = (field: string, s: number | null, required: boolean) => {
    if (s === null) {
      if (required) p.push(`${field} is required`);
    } else if (!Number.isInteger(s) || s < 1 || s > 7) p.push(`${field} ${s} is not a seat (1 to 7)`);
  };
  switch (e.type) {
    case 'TableOpened':
      if (e.data.seats < 5 || e.data.seats > 7)
        p.push(`seats ${e.data.seats}: a table has 5 to 7 player seats (art. 5.º n.º 2)`);
      for (const l of e.data.betLimits)
        if (l.minimum <= 0 || l.maximum < l.minimum)
          p.push(`betLimits ${l.betType}: minimum ${l.minimum}, maximum ${l.maximum}`);
      break;
    case 'BetPlaced':
    case 'BetWithdrawn':
    case 'BetCollected':
    case 'BetReturned':
      if (!BET_TYPES.has(e.data.betType))
        p.push(`betType ${e.data.betType} is not a bet of Fortune 3 Card Poker`);
      amount('amount', e.data.amount);
      seat('seat', e.data.seat, true);
      break;
    case 'PayoutMade':
      if (!PAYOUT_TYPES.has(e.data.betType))
        p.push(`betType ${e.data.betType} is not a bet of Fortune 3 Card Poker`);
      amount('amount', e.data.amount);
      seat('seat', e.data.seat, true);
      break;
    case 'CardDealt':
    case 'CardExposed':
      card('card', e.data.card);
      seat('seat', e.data.seat, e.data.target === 'SEAT');
      if (e.data.target !== 'SEAT' && e.data.seat !== null)
        p.push(`seat must be null for a card dealt to ${e.data.target}`);
      break;
    case 'CommunityCardsRevealed':
      e.data.cards.forEach((c, i) => card(`cards[${i}]`, c));
      break;
    case 'JackpotPaid':
      amount('amount', e.data.amount);
      seat('seat', e.data.seat, true);
      break;
    case 'PlayDecision':
    case 'SeatOccupied':
    case 'SeatVacated':
      seat('seat', e.data.seat, true);
      break;
    case 'SurveillanceObservation':
      if (e.data.confidence < 0 || e.data.confidence > 100)
        p.push(`confidence ${e.data.confidence} must be 0 to 100`);
      seat('seat', e.data.seat, false);
      break;
    default:
      break;
  }
  if (
    h.roundId === null &&
    [
      'RoundStarted',
      'BetPlaced',
      'CardDealt',
      'PlayDecision',
      'OutcomeDeclared',
      'PayoutMade',
      'RoundSettled',
      'RoundVoided',
    ].includes(e.type)
  ) {
    p.push(`header.roundId is required for ${e.type}`);
  }
  return p;
}
