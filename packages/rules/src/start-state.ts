/**
 * A unit's start state (DerivedUnit.startState): the table's state as the unit began, written by the fold that
 * replayed the table (ReplayOptions.startStates) and read by GameModule.resumeTable, so that one round can be
 * derived again from its own events. The text is JSON with an envelope every game shares — the form's name, its
 * version, the game, the table, the round, and the id of the event it was taken before — and the game's own body.
 * Reading is bounded (MAX_START_STATE_BYTES before parsing) and every refusal is a StartStateError naming what is
 * wrong, so that a caller can fall back to folding the table from its start.
 */
import type { EventHeader, TableEvent, TableOpened } from '@table-audit/schemas/events';
import type { Citation } from './citations/citation.ts';
import type { CheckDefinition, Evidence, Finding, FindingContext, FindingInput } from './findings.ts';
import { StartStateError } from './game.ts';

/** Where a resumed fold must begin: the unit it resumed for, and the event its start state was taken before. */
export interface ResumedAt {
  readonly roundId: string;
  readonly before: string;
}

/** A resumed fold's first event must be the one its start state was taken before (`unit`: round, throw). */
export function checkResumedAt(at: ResumedAt, e: TableEvent, unit = 'round'): void {
  if (e.data.header.eventId !== at.before)
    throw new StartStateError(
      `the fold resumed for ${unit} ${at.roundId} must be given first event ${at.before}, the first that names the ${unit} (its start state was taken before it), not ${e.type} ${e.data.header.eventId}`,
    );
}

/** A start state resumes only under the alternative readings it was taken under: a reading can change what a table carries. */
export function checkSameReadings(taken: readonly string[], asked: readonly string[], unit = 'round'): void {
  if (taken.join(',') !== asked.join(','))
    throw new StartStateError(
      `the start state was taken under the alternative readings [${taken.join(', ')}], the fold is asked for [${asked.join(', ')}]: a reading can change what the table carries into the ${unit}, so fold the table from its start`,
    );
}

/** The largest start state read; anything longer is refused before it is parsed. */
export const MAX_START_STATE_BYTES = 64 * 1024;

/** The envelope of every start state; `body` is the game's own part. */
export interface StartStateEnvelope<B> {
  /** the form's name, e.g. 'round-fold' */
  readonly form: string;
  /** the form's version: a reader refuses a version it does not know */
  readonly v: number;
  /** TableOpened.game of the table (THIRTEEN_CARDS, MAHJONG, F3CP, CRAPS) */
  readonly game: string;
  readonly tableId: string;
  readonly roundId: string;
  /** the event the state was taken before: the first, in stored order, whose header names the round */
  readonly before: string;
  readonly body: B;
}

/** What a reader expects of a start state's envelope. */
export interface StartStateForm {
  readonly form: string;
  readonly v: number;
  readonly game: string;
}

/**
 * A start state's text: the envelope, and the body given as its JSON text (a game writes parts that repeat from
 * round to round — the TableOpened, a bet on the layout — once, and puts the same text in each round's body).
 */
export function writeStartState(
  form: StartStateForm,
  at: Omit<StartStateEnvelope<unknown>, 'form' | 'v' | 'game' | 'body'>,
  bodyJson: string,
): string {
  const envelope = JSON.stringify({
    form: form.form,
    v: form.v,
    game: form.game,
    tableId: at.tableId,
    roundId: at.roundId,
    before: at.before,
  });
  return `${envelope.slice(0, -1)},"body":${bodyJson}}`;
}

/** The JSON text of the last value given, kept while the same value (by identity) is given again. */
export class LastJson<T = unknown> {
  private of: T | undefined = undefined;
  private json = '';

  constructor(private readonly write: (value: T) => string = JSON.stringify) {}

  text(value: T): string {
    if (value !== this.of || this.json === '') {
      this.of = value;
      this.json = this.write(value);
    }
    return this.json;
  }
}

/** An object's JSON text with some fields' values given as JSON text already (`raw`, written first). */
export const jsonWith = (raw: Readonly<Record<string, string>>, rest: object): string => {
  let out = '{';
  for (const name in raw) out += `${out === '{' ? '' : ','}${JSON.stringify(name)}:${raw[name]}`;
  const r = JSON.stringify(rest);
  return r === '{}' ? `${out}}` : `${out === '{' ? '{' : `${out},`}${r.slice(1)}`;
};

/** Whether a start state's text is within MAX_START_STATE_BYTES (else the unit records none). */
export const withinBound = (text: string): boolean =>
  text.length * 3 <= MAX_START_STATE_BYTES || Buffer.byteLength(text) <= MAX_START_STATE_BYTES;

/** The fields of an event header that differ from `base` (a bet's header beside its table's TableOpened's). */
export function headerDiff(h: EventHeader, base: EventHeader | null): Partial<EventHeader> {
  if (!base) return h;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(h) as (keyof EventHeader)[]) if (h[k] !== base[k]) out[k] = h[k];
  return out as Partial<EventHeader>;
}

/** A start state's text parsed, bounded: refused over MAX_START_STATE_BYTES before parsing, or when not a JSON object. */
function parsedStartState(text: unknown): Obj {
  if (typeof text !== 'string') throw new StartStateError(`the start state is a ${typeof text}, not text`);
  // a UTF-16 length over the bound is over it in UTF-8 too; the exact byte length only for text near it
  if (text.length > MAX_START_STATE_BYTES || Buffer.byteLength(text, 'utf8') > MAX_START_STATE_BYTES)
    throw new StartStateError(
      `the start state is ${Buffer.byteLength(text, 'utf8')} bytes, over the ${MAX_START_STATE_BYTES} bytes a start state may have: it was not read`,
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new StartStateError(`the start state is not JSON: ${(error as Error).message}`);
  }
  return objectAt(parsed, 'the start state');
}

/**
 * Reads a start state's envelope: refuses text over MAX_START_STATE_BYTES, text that is not JSON, another form,
 * another version, another game or another table, each with what is wrong; the body is the game's to check.
 */
export function readStartState(
  text: unknown,
  form: StartStateForm,
  tableId: string,
): StartStateEnvelope<unknown> {
  const o = parsedStartState(text);
  const f = stringAt(o, 'form', 'the start state');
  if (f !== form.form)
    throw new StartStateError(
      `the start state is of form "${f}", not "${form.form}" (the ${form.game} fold's)`,
    );
  const v = o.v;
  if (v !== form.v)
    throw new StartStateError(
      `the start state is version ${JSON.stringify(v)} of form "${f}"; this version reads version ${form.v} only`,
    );
  const game = stringAt(o, 'game', 'the start state');
  if (game !== form.game)
    throw new StartStateError(`the start state is of a ${game} table, not of a ${form.game} table`);
  const table = stringAt(o, 'tableId', 'the start state');
  if (table !== tableId)
    throw new StartStateError(`the start state is of table ${table}, not of table ${tableId}`);
  const roundId = stringAt(o, 'roundId', 'the start state');
  const before = stringAt(o, 'before', 'the start state');
  if (!('body' in o)) throw new StartStateError('the start state has no field "body"');
  return { form: f, v, game, tableId: table, roundId, before, body: o.body };
}

/**
 * Where a start state says a resumed fold begins, read without the game: the unit's round and the id of the event
 * the state was taken before (the first that names the round: the caller reads the table's events from it). Throws
 * StartStateError as readStartState does for the envelope; the body is the game's to check (resumeTable).
 */
export function startStateAt(text: unknown): {
  roundId: string;
  before: string;
  game: string;
  tableId: string;
} {
  const o = parsedStartState(text);
  return {
    roundId: stringAt(o, 'roundId', 'the start state'),
    before: stringAt(o, 'before', 'the start state'),
    game: stringAt(o, 'game', 'the start state'),
    tableId: stringAt(o, 'tableId', 'the start state'),
  };
}

// --- field readers: each names the field's path in what is wrong ------------------------------------------------

export type Obj = Record<string, unknown>;

export function objectAt(value: unknown, path: string): Obj {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new StartStateError(`${path} is ${describe(value)}, not an object`);
  return value as Obj;
}

function field(o: Obj, name: string, path: string): unknown {
  if (!Object.prototype.hasOwnProperty.call(o, name))
    throw new StartStateError(`${path} has no field "${name}"`);
  return o[name];
}

export function stringAt(o: Obj, name: string, path: string): string {
  const v = field(o, name, path);
  if (typeof v !== 'string') throw new StartStateError(`${path}.${name} is ${describe(v)}, not text`);
  return v;
}

export function nullableStringAt(o: Obj, name: string, path: string): string | null {
  const v = field(o, name, path);
  if (v !== null && typeof v !== 'string')
    throw new StartStateError(`${path}.${name} is ${describe(v)}, not text or null`);
  return v;
}

/** A whole number from `min` to `max` (the default: a safe integer of either sign). */
export function integerAt(
  o: Obj,
  name: string,
  path: string,
  min = Number.MIN_SAFE_INTEGER,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const v = field(o, name, path);
  if (typeof v !== 'number' || !Number.isSafeInteger(v))
    throw new StartStateError(`${path}.${name} is ${describe(v)}, not a whole number`);
  if (v < min || v > max) throw new StartStateError(`${path}.${name} is ${v}, outside ${min} to ${max}`);
  return v;
}

export function nullableIntegerAt(
  o: Obj,
  name: string,
  path: string,
  min?: number,
  max?: number,
): number | null {
  return field(o, name, path) === null ? null : integerAt(o, name, path, min, max);
}

export function booleanAt(o: Obj, name: string, path: string): boolean {
  const v = field(o, name, path);
  if (typeof v !== 'boolean')
    throw new StartStateError(`${path}.${name} is ${describe(v)}, not true or false`);
  return v;
}

export function oneOfAt<T extends string>(o: Obj, name: string, path: string, values: readonly T[]): T {
  const v = field(o, name, path);
  if (typeof v !== 'string' || !values.includes(v as T))
    throw new StartStateError(`${path}.${name} is ${describe(v)}, not one of ${values.join(', ')}`);
  return v as T;
}

/** A list of at most `max` items, each read by `item` with its index in the path. */
export function arrayAt<T>(
  o: Obj,
  name: string,
  path: string,
  max: number,
  item: (v: unknown, at: string) => T,
): T[] {
  const v = field(o, name, path);
  if (!Array.isArray(v)) throw new StartStateError(`${path}.${name} is ${describe(v)}, not a list`);
  if (v.length > max)
    throw new StartStateError(`${path}.${name} has ${v.length} items, over the ${max} it may have`);
  return v.map((x, i) => item(x, `${path}.${name}[${i}]`));
}

export function describe(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return `"${v.length > 40 ? `${v.slice(0, 40)}…` : v}"`;
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}

/**
 * Which rounds still wait for their start state: a round's is taken before the first event that names it, kept
 * until the fold returns the round, then written. A round whose id a unit already had gets none (null): its first
 * event is not its own. Bounded: the oldest waiting round is forgotten past PENDING_MEMORY (it then gets none), and
 * the ids of returned rounds past RETURNED_MEMORY — as many as the F3CP fold remembers closed rounds, so that an
 * event of a round it has forgotten, which the fold takes for a new round of that id, starts that round's state.
 * A state names the event it was taken before (`before`), so a round id seen again after that is still resumed
 * from the right event; a resumed fold given another event first refuses it.
 */
export class StartStateCapture<S> {
  private readonly pending = new Map<string, { before: string; state: S }>();
  private readonly returned = new Set<string>();

  static readonly PENDING_MEMORY = 256;
  static readonly RETURNED_MEMORY = 1_000;

  /** whether an event naming this round is the first to name it (the state is to be taken before it) */
  wants(roundId: string): boolean {
    return !this.pending.has(roundId) && !this.returned.has(roundId);
  }

  take(roundId: string, before: string, state: S): void {
    this.pending.set(roundId, { before, state });
    if (this.pending.size > StartStateCapture.PENDING_MEMORY)
      this.pending.delete(this.pending.keys().next().value!);
  }

  /** A returned round's state and the event it was taken before; null when it has none (see above). */
  returnedRound(roundId: string): { before: string; state: S } | null {
    const p = this.pending.get(roundId) ?? null;
    this.pending.delete(roundId);
    const again = this.returned.has(roundId);
    this.returned.add(roundId);
    if (this.returned.size > StartStateCapture.RETURNED_MEMORY)
      this.returned.delete(this.returned.values().next().value!);
    return again ? null : p;
  }

  /** the states still waiting for their rounds (a fold notes in them what a round's span reads) */
  waiting(): IterableIterator<{ before: string; state: S }> {
    return this.pending.values();
  }

  /** whether any state waits */
  get size(): number {
    return this.pending.size;
  }
}

/** Sets a fresh unit's start state (units are read-only to their readers; the fold that made it writes it once). */
export function withStartState<U extends { startState?: string | null }>(unit: U, state: string | null): U {
  (unit as { startState?: string | null }).startState = state;
  return unit;
}

const SOURCE_KINDS = ['TABLE_CONTROLLER', 'SHUFFLER', 'SEAT_SENSOR', 'SURVEILLANCE', 'UNKNOWN'] as const;

/** An event header as a start state carries it (every field checked). */
export function readHeader(v: unknown, path: string, base: EventHeader | null = null): EventHeader {
  const o = base ? { ...base, ...objectAt(v, path) } : objectAt(v, path);
  return {
    eventId: stringAt(o, 'eventId', path),
    eventTime: integerAt(o, 'eventTime', path),
    receivedTime: nullableIntegerAt(o, 'receivedTime', path),
    sourceKind: oneOfAt(o, 'sourceKind', path, SOURCE_KINDS),
    sourceDevice: stringAt(o, 'sourceDevice', path),
    sequence: integerAt(o, 'sequence', path),
    casino: stringAt(o, 'casino', path),
    concessionaire: stringAt(o, 'concessionaire', path),
    tableId: stringAt(o, 'tableId', path),
    roundId: nullableStringAt(o, 'roundId', path),
    staffId: nullableStringAt(o, 'staffId', path),
  };
}

const AMOUNT = [0, Number.MAX_SAFE_INTEGER] as const;
const strings = (o: Obj, name: string, path: string) =>
  arrayAt(o, name, path, 1_000, (x, at) => {
    if (typeof x !== 'string') throw new StartStateError(`${at} is ${describe(x)}, not text`);
    return x;
  });

/**
 * A table's TableOpened as a start state carries it (the event's data), every field checked: the table's game
 * must be `game`, the table `tableId`.
 */
export function readTableOpened(v: unknown, path: string, game: string, tableId: string): TableOpened {
  const o = objectAt(v, path);
  const header = readHeader(o.header, `${path}.header`);
  if (header.tableId !== tableId)
    throw new StartStateError(`${path}.header.tableId is ${header.tableId}, not ${tableId}`);
  const g = stringAt(o, 'game', path);
  if (g !== game) throw new StartStateError(`${path}.game is ${g}, not ${game}`);
  const nullable = <T>(name: string, read: (x: Obj, at: string) => T): T | null =>
    o[name] === null ? null : read(objectAt(o[name], `${path}.${name}`), `${path}.${name}`);
  const rounding = objectAt(o.rounding, `${path}.rounding`);
  return {
    header,
    game: g as TableOpened['game'],
    seats: integerAt(o, 'seats', path, 0, 100),
    betLimits: arrayAt(o, 'betLimits', path, 100, (x, at) => {
      const b = objectAt(x, at);
      return {
        betType: oneOfAt(b, 'betType', at, [
          'ANTE',
          'PLAY',
          'PAIR_PLUS',
          'SIX_CARD_BONUS',
          'PROGRESSIVE',
          'UNKNOWN',
        ]),
        minimum: integerAt(b, 'minimum', at, ...AMOUNT),
        maximum: integerAt(b, 'maximum', at, ...AMOUNT),
      };
    }),
    shuffleMode: oneOfAt(o, 'shuffleMode', path, ['MANUAL', 'AUTOMATIC', 'UNKNOWN']),
    jackpot: nullable('jackpot', (j, at) => {
      const f = objectAt(j.fixedAmounts, `${at}.fixedAmounts`);
      const fat = `${at}.fixedAmounts`;
      return {
        fixedAmounts: {
          royalFlush: integerAt(f, 'royalFlush', fat, ...AMOUNT),
          straightFlush: integerAt(f, 'straightFlush', fat, ...AMOUNT),
          fourOfAKind: integerAt(f, 'fourOfAKind', fat, ...AMOUNT),
          fullHouse: integerAt(f, 'fullHouse', fat, ...AMOUNT),
          flush: integerAt(f, 'flush', fat, ...AMOUNT),
        },
        resetAmount: integerAt(j, 'resetAmount', at, ...AMOUNT),
        initialPool: integerAt(j, 'initialPool', at, ...AMOUNT),
      };
    }),
    rounding: {
      unitAvos: integerAt(rounding, 'unitAvos', `${path}.rounding`, 1, 1_000_000),
      mode: oneOfAt(rounding, 'mode', `${path}.rounding`, ['DOWN', 'HALF_UP', 'UP', 'UNKNOWN']),
    },
    currency: stringAt(o, 'currency', path),
    craps: nullable('craps', (c, at) => ({
      minimumBet: integerAt(c, 'minimumBet', at, ...AMOUNT),
      maximumBet: integerAt(c, 'maximumBet', at, ...AMOUNT),
      field12PaysToOne: integerAt(c, 'field12PaysToOne', at, 0, 100),
      dieIds: strings(c, 'dieIds', at),
      authorisedExtraBets: strings(c, 'authorisedExtraBets', at),
    })),
    thirteenCards: nullable('thirteenCards', (t, at) => ({
      unitsMeaning: oneOfAt(t, 'unitsMeaning', at, ['STAKE_PER_POINT', 'UNITS_RECORDED', 'UNKNOWN']),
      commissionBase: oneOfAt(t, 'commissionBase', at, ['WIN', 'STAKE', 'UNKNOWN']),
      commissionPercent: integerAt(t, 'commissionPercent', at, 0, 100),
    })),
  };
}

// --- findings and their parts, as start states carry them ------------------------------------------------------

const LIST = 10_000;

/** A finding waiting for its round, as JSON: its check by id; null when the check is not one of `checks`. */
export function findingInputJson(
  f: FindingInput,
  checks: ReadonlyMap<string, CheckDefinition>,
): object | null {
  if (checks.get(f.check.id) !== f.check) return null;
  const { check, ...rest } = f;
  return { checkId: check.id, ...rest };
}

export function readEvidence(x: unknown, at: string): Evidence {
  const e = objectAt(x, at);
  return { eventId: stringAt(e, 'eventId', at), eventTime: integerAt(e, 'eventTime', at) };
}

export function readContext(x: unknown, at: string): FindingContext {
  const c = objectAt(x, at);
  return {
    ruleSet: stringAt(c, 'ruleSet', at),
    casino: stringAt(c, 'casino', at),
    concessionaire: stringAt(c, 'concessionaire', at),
    tableId: stringAt(c, 'tableId', at),
    roundId: nullableStringAt(c, 'roundId', at),
  };
}

const textList = (o: Obj, name: string, at: string) =>
  arrayAt(o, name, at, LIST, (x, i) => {
    if (typeof x !== 'string') throw new StartStateError(`${i} is ${describe(x)}, not text`);
    return x;
  });
const numberList = (o: Obj, name: string, at: string) =>
  arrayAt(o, name, at, LIST, (x, i) => integerAt({ n: x }, 'n', i).valueOf());

function readCitation(x: unknown, at: string): Citation {
  const c = objectAt(x, at);
  const optional = (name: string) =>
    name in c ? { [name]: integerAt(c, name, at, 0, 10_000) } : ({} as Record<string, number>);
  return {
    diploma: stringAt(c, 'diploma', at),
    article: integerAt(c, 'article', at, 0, 10_000),
    ...optional('numero'),
    ...optional('alinea'),
    ...optional('subalinea'),
    ...('wording' in c ? { wording: stringAt(c, 'wording', at) } : {}),
  };
}

/** The fields a JSON value may hold as it is (expected, declared, details): anything JSON, kept as read. */
const optionalAs = (o: Obj, name: string) => (name in o ? { [name]: o[name] } : {});

export function readFindingInput(
  x: unknown,
  at: string,
  checks: ReadonlyMap<string, CheckDefinition>,
): FindingInput {
  const f = objectAt(x, at);
  const id = stringAt(f, 'checkId', at);
  const check = checks.get(id);
  if (!check) throw new StartStateError(`${at}.checkId ${id} is not a check of this game`);
  return {
    check,
    ...('discriminator' in f ? { discriminator: stringAt(f, 'discriminator', at) } : {}),
    ...('seats' in f ? { seats: numberList(f, 'seats', at) } : {}),
    ...('players' in f
      ? {
          players: arrayAt(f, 'players', at, LIST, (p, i) => {
            if (p !== null && typeof p !== 'string')
              throw new StartStateError(`${i} is ${describe(p)}, not text or null`);
            return p;
          }),
        }
      : {}),
    summary: stringAt(f, 'summary', at),
    ...('handled' in f ? { handled: booleanAt(f, 'handled', at) } : {}),
    ...('handledReading' in f ? { handledReading: stringAt(f, 'handledReading', at) } : {}),
    ...optionalAs(f, 'expected'),
    ...optionalAs(f, 'declared'),
    ...('extraCitations' in f ? { extraCitations: arrayAt(f, 'extraCitations', at, 100, readCitation) } : {}),
    ...('extraInterpretations' in f ? { extraInterpretations: textList(f, 'extraInterpretations', at) } : {}),
    evidence: arrayAt(f, 'evidence', at, LIST, readEvidence),
    ...('details' in f ? { details: objectAt(f.details, `${at}.details`) } : {}),
  };
}

export function readFinding(x: unknown, at: string): Finding {
  const f = objectAt(x, at);
  return {
    findingId: stringAt(f, 'findingId', at),
    checkId: stringAt(f, 'checkId', at),
    title: stringAt(f, 'title', at),
    severity: oneOfAt(f, 'severity', at, ['critical', 'high', 'medium', 'low']),
    ruleSet: stringAt(f, 'ruleSet', at),
    casino: stringAt(f, 'casino', at),
    concessionaire: stringAt(f, 'concessionaire', at),
    tableId: stringAt(f, 'tableId', at),
    roundId: nullableStringAt(f, 'roundId', at),
    seats: numberList(f, 'seats', at),
    players: textList(f, 'players', at),
    summary: stringAt(f, 'summary', at),
    handled: booleanAt(f, 'handled', at),
    expected: f.expected ?? null,
    declared: f.declared ?? null,
    citations: arrayAt(f, 'citations', at, 100, (c, i) => {
      const o = objectAt(c, i);
      return { key: stringAt(o, 'key', i), reference: stringAt(o, 'reference', i) };
    }),
    interpretations: textList(f, 'interpretations', at),
    evidenceEventIds: textList(f, 'evidenceEventIds', at),
    eventTime: integerAt(f, 'eventTime', at),
    ...('details' in f ? { details: objectAt(f.details, `${at}.details`) } : {}),
  };
}
