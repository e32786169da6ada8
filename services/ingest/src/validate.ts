import { gameModuleFor } from '@table-audit/rules';
import { unknownEnumValues } from '@table-audit/schemas';
import { TABLE_EVENT_TYPES, type TableEvent } from '@table-audit/schemas/events';

/** The round's own lifecycle events (common to every game): they only make sense inside a round. */
const ROUND_EVENTS: ReadonlySet<string> = new Set(['RoundStarted', 'RoundSettled', 'RoundVoided']);

/**
 * Meaning checks after the schema: what Avro cannot say. Each problem names the field and what is wrong with it,
 * so whoever fixes the source knows what to fix. `game` is the game the table declared when it was opened (null
 * when it has not been opened); the game's own module judges its own events.
 *
 * Deliberately conservative: a bet over the limit, a wrong payout or a card dealt twice are facts that replay must
 * see and turn into findings; only what cannot describe anything at a table (no such card, no such seat, a zero
 * amount, an event for a table never opened, a game no module knows, an enum value read as its UNKNOWN default
 * because the producer wrote a symbol added after these schemas) is refused here.
 */
export function meaningProblems(e: TableEvent, game: string | null): string[] {
  const p: string[] = [];
  const h = e.data.header;
  if (!h.eventId) p.push('header.eventId is empty');
  if (!h.tableId) p.push('header.tableId is empty');
  if (!Number.isSafeInteger(h.eventTime) || h.eventTime <= 0)
    p.push(`header.eventTime ${h.eventTime} is not a time in UTC milliseconds`);
  if (h.roundId === null && ROUND_EVENTS.has(e.type)) p.push(`header.roundId is required for ${e.type}`);
  // an enum value read as its UNKNOWN default (a symbol added after these schemas) describes nothing known: refused
  // (the game has its own message below)
  p.push(...unknownEnumValues(e.type, e.data).filter((problem) => !problem.startsWith('game ')));
  const tableGame = e.type === 'TableOpened' ? e.data.game : game;
  if (tableGame === null) {
    p.push(`table "${h.tableId}" is not known: no TableOpened has been received for it`);
    return p;
  }
  const module = gameModuleFor(tableGame);
  if (!module) {
    p.push(`game ${tableGame} is not a game this pipeline knows`);
    return p;
  }
  if (e.type === 'EventCorrected') p.push(...correctionProblems(e.data));
  else p.push(...module.validate(e));
  return p;
}

/** A correction must say what it corrects in a form a reader can apply. */
function correctionProblems(c: Extract<TableEvent, { type: 'EventCorrected' }>['data']): string[] {
  const p: string[] = [];
  if (!TABLE_EVENT_TYPES.has(c.correctedEventType))
    p.push(`correctedEventType "${c.correctedEventType}" is not an event type`);
  let corrections: unknown;
  try {
    corrections = JSON.parse(c.corrections);
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
  if (!c.correctedEventId) p.push('correctedEventId is empty');
  if (!c.correctedBy) p.push('correctedBy is empty: a correction names who made it');
  return p;
}
