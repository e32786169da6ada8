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
export function meaningProblems(
  e: TableEvent,
  game: string | null,
  table: TableLimits = NO_LIMITS,
): string[] {
  // sizes first: a reason never quotes an oversized value, and nothing else is looked at in an event that has one
  const found = scan(e.data, '', 0);
  if (found & OVERSIZED) return sizeProblems(e.data);
  const p: string[] = [];
  const h = e.data.header;
  if (!h.eventId) p.push('header.eventId is empty');
  if (!h.tableId) p.push('header.tableId is empty');
  if (!Number.isSafeInteger(h.eventTime) || h.eventTime <= 0)
    p.push(`header.eventTime ${h.eventTime} is not a time in UTC milliseconds`);
  else p.push(...timeProblems('header.eventTime', h.eventTime));
  if (h.receivedTime !== null) p.push(...timeProblems('header.receivedTime', h.receivedTime));
  if (!Number.isSafeInteger(h.sequence) || h.sequence < 0)
    p.push(`header.sequence ${h.sequence} is not a sequence number (a whole number from 0)`);
  p.push(
    ...amountProblems(
      e,
      e.type === 'TableOpened' ? null : table.largestBetMaximum,
      (found & OVER_MAX_AVOS) !== 0,
    ),
  );
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

/**
 * What ingest accepts as plausible, so that one absurd value (an event time of 8.7e15, a 1 MB table id) cannot
 * reach the store and break whatever reads it later. Generous on purpose: anything a table could really send is
 * inside, and what is merely wrong (a bet over the limit, a time hours off) is left for the replay to find.
 */
export const BOUNDS = {
  /**
   * No table event is older than this (UTC) or at or after `latestTime`. Fixed, not relative to the ingest clock:
   * whether an event is accepted must not depend on the clock of the machine that ingests it (the same file,
   * ingested again elsewhere, is judged the same). A time wrong within the window is the replay's to find
   * (F3CP.EVENT.TIME_OUT_OF_LINE).
   */
  earliestTime: Date.UTC(2000, 0, 1),
  latestTime: Date.UTC(2100, 0, 1),
  /** characters of an id (a field named *Id, the header's sourceDevice, casino, concessionaire) */
  idChars: 256,
  /** characters of any other string (descriptions, a correction's JSON) */
  textChars: 16_384,
  /** a stake more than this many times the table's largest bet maximum is not a stake this table could see */
  betLimitMultiple: 1_000,
  /** a payout more than this many times the table's largest bet maximum (1000 to 1 is the highest pay, ×100) */
  payoutLimitMultiple: 100_000,
  /** no amount, pool or limit above this many avos (10 trillion patacas) */
  maxAvos: 1e15,
} as const;

/** What ingest knows of the table an event is for, beyond its game: its limits (from its TableOpened). */
export interface TableLimits {
  /** the largest maximum of any bet type of the table's last TableOpened; null when not known */
  readonly largestBetMaximum: number | null;
}

const NO_LIMITS: TableLimits = { largestBetMaximum: null };

const HEADER_IDS: ReadonlySet<string> = new Set(['sourceDevice', 'casino', 'concessionaire']);
const MAX_SIZE_PROBLEMS = 5;

const idLimit = (key: string): boolean => key.endsWith('Id') || HEADER_IDS.has(key);

const OVERSIZED = 1;
const OVER_MAX_AVOS = 2;
const SIZE_DEPTH = 8;
const AMOUNT_DEPTH = 6;

/**
 * One walk of an event for both of what sizeProblems and amountProblems look for, without building a path or a
 * message (the usual event, with nothing wrong, costs no garbage): OVERSIZED if a value down to depth SIZE_DEPTH is
 * `oversized` (an array found so is not entered), OVER_MAX_AVOS if a value down to AMOUNT_DEPTH is `overMaxAvos`.
 * The paths are made only for an event that has a problem, by the walks of those two.
 */
function scan(v: unknown, key: string, depth: number): number {
  if (typeof v === 'string')
    return v.length > BOUNDS.idChars && v.length > (idLimit(key) ? BOUNDS.idChars : BOUNDS.textChars)
      ? OVERSIZED
      : 0;
  if (typeof v === 'number') return depth <= AMOUNT_DEPTH && overMaxAvos(v, key) ? OVER_MAX_AVOS : 0;
  if (v === null || typeof v !== 'object') return 0;
  let found = 0;
  if (Array.isArray(v)) {
    if (v.length > 1_000) return OVERSIZED;
    if (depth >= SIZE_DEPTH) return 0;
    for (let i = 0; i < v.length; i++) found |= scan(v[i], key, depth + 1);
  } else {
    if (depth >= SIZE_DEPTH) return 0;
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    for (let i = 0; i < keys.length; i++) found |= scan(o[keys[i]!], keys[i]!, depth + 1);
  }
  return found;
}

/**
 * Whether `found` holds for a value of a walk like those of sizeProblems and amountProblems (arrays and objects
 * entered down to maxDepth, each value with the key it is under; a value found is not entered), without building a
 * path or a message: the usual event (nothing wrong) costs no garbage, and the paths are made only for an event
 * that has a problem.
 */
function anyInWalk(
  v: unknown,
  key: string,
  depth: number,
  maxDepth: number,
  found: (v: unknown, key: string) => boolean,
): boolean {
  if (depth > maxDepth) return false;
  if (found(v, key)) return true;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (anyInWalk(v[i], key, depth + 1, maxDepth, found)) return true;
  } else if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    for (let i = 0; i < keys.length; i++)
      if (anyInWalk(o[keys[i]!], keys[i]!, depth + 1, maxDepth, found)) return true;
  }
  return false;
}

const oversized = (v: unknown, key: string): boolean =>
  typeof v === 'string'
    ? v.length > (idLimit(key) ? BOUNDS.idChars : BOUNDS.textChars)
    : Array.isArray(v) && v.length > 1_000;

/** Strings longer than an id or a text may be, and arrays longer than any table needs, by path; never the value. */
function sizeProblems(data: unknown): string[] {
  if (!anyInWalk(data, '', 0, SIZE_DEPTH, oversized)) return [];
  const p: string[] = [];
  const walk = (v: unknown, path: string, key: string, depth: number): void => {
    if (p.length >= MAX_SIZE_PROBLEMS || depth > 8) return;
    if (typeof v === 'string') {
      const limit = idLimit(key) ? BOUNDS.idChars : BOUNDS.textChars;
      if (v.length > limit)
        p.push(
          `${path} is ${v.length.toLocaleString('en-US')} characters long: ${limit === BOUNDS.idChars ? 'an id' : 'a text'} is at most ${limit.toLocaleString('en-US')}`,
        );
    } else if (Array.isArray(v)) {
      if (v.length > 1_000) p.push(`${path} has ${v.length.toLocaleString('en-US')} items: at most 1,000`);
      else v.forEach((x, i) => walk(x, `${path}[${i}]`, key, depth + 1));
    } else if (v !== null && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) walk(x, path ? `${path}.${k}` : k, k, depth + 1);
  };
  walk(data, '', '', 0);
  return p;
}

function timeProblems(field: string, t: number): string[] {
  if (!Number.isSafeInteger(t)) return [`${field} ${t} is not a time in UTC milliseconds`];
  if (t < BOUNDS.earliestTime || t >= BOUNDS.latestTime)
    return [
      `${field} ${t} is outside ${new Date(BOUNDS.earliestTime).toISOString()} to ${new Date(BOUNDS.latestTime).toISOString()}: not a plausible time for a table event`,
    ];
  return [];
}

const BET_AMOUNT_EVENTS: ReadonlySet<string> = new Set([
  'CrapsBetPlaced',
  'BetPlaced',
  'BetWithdrawn',
  'BetCollected',
  'BetReturned',
]);

const AMOUNT_KEY = /amount|pool|minimum|maximum|royalFlush|straightFlush|fourOfAKind|fullHouse|flush/i;
/** Whether a key names an amount, by AMOUNT_KEY, remembered per key (the keys are the schemas' field names: few). */
const amountKeys = new Map<string, boolean>();
const isAmountKey = (key: string): boolean => {
  let is = amountKeys.get(key);
  if (is === undefined) {
    is = AMOUNT_KEY.test(key);
    if (amountKeys.size < 10_000) amountKeys.set(key, is);
  }
  return is;
};

const overMaxAvos = (v: unknown, key: string): boolean =>
  typeof v === 'number' && Math.abs(v) > BOUNDS.maxAvos && isAmountKey(key);

/** Amounts beyond any table (maxAvos), and stakes and payouts orders of magnitude over this table's limits. */
function amountProblems(e: TableEvent, largestBetMaximum: number | null, overMax: boolean): string[] {
  const p: string[] = [];
  const walk = (v: unknown, path: string, key: string, depth: number): void => {
    if (depth > 6) return;
    if (typeof v === 'number') {
      if (isAmountKey(key))
        if (Math.abs(v) > BOUNDS.maxAvos)
          p.push(
            `${path} ${v} avos is more than ${BOUNDS.maxAvos.toExponential()} avos: not a plausible amount`,
          );
    } else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`, key, depth + 1));
    else if (v !== null && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) walk(x, path ? `${path}.${k}` : k, k, depth + 1);
  };
  if (overMax) walk(e.data, '', '', 0);
  if (p.length || largestBetMaximum === null || largestBetMaximum <= 0) return p;
  const amount = (e.data as { amount?: unknown }).amount;
  if (typeof amount !== 'number') return p;
  const multiple = BET_AMOUNT_EVENTS.has(e.type)
    ? BOUNDS.betLimitMultiple
    : e.type === 'PayoutMade'
      ? BOUNDS.payoutLimitMultiple
      : null;
  if (multiple !== null && amount > largestBetMaximum * multiple)
    p.push(
      `amount ${amount} avos is more than ${multiple.toLocaleString('en-US')} times the table's largest bet maximum (${largestBetMaximum} avos, its TableOpened): not a ${e.type === 'PayoutMade' ? 'payout' : 'stake'} this table could see`,
    );
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
