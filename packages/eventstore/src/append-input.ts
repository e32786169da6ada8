/**
 * What both adapters do with an append before touching storage: check the arguments, turn each event's data and
 * metadata into canonical JSON (refusing what cannot be hashed and kept exactly), and apply the expected-revision
 * rule. Shared so the adapters cannot drift apart on these rules.
 */
import { canonicalJson, NotCanonicalJson } from './canonical-json.ts';
import { EventIdConflict, InvalidArgument, InvalidEventData, WrongExpectedRevision } from './errors.ts';
import { metadataJson } from './hash-chain.ts';
import { explainProblem, FormWriter, noMetadata, NOT_IN_FORM } from './hash-form.ts';
import type { AppendManyOptions, EventData, ExpectedRevision, StreamAppend } from './port.ts';

/** An event checked and in canonical JSON, ready to be chained and stored. */
export interface PreparedEvent {
  eventId: string;
  type: string;
  dataJson: string;
  /** undefined: no metadata (also for an empty object). */
  metadataJson: string | undefined;
  /** The values themselves, for an adapter that stores another form of them (the SQLite store's compact form). */
  data: unknown;
  /** undefined exactly when metadataJson is. */
  metadata: Record<string, unknown> | undefined;
}

/** A lone surrogate cannot be stored as UTF-8 text: it would come back as U+FFFD and no longer match its hash. */
const LONE_SURROGATE = /\p{Cs}/u;

export function checkStreamName(stream: unknown): asserts stream is string {
  if (typeof stream !== 'string' || stream.length === 0 || LONE_SURROGATE.test(stream))
    throw new InvalidArgument(
      `stream name must be a non-empty, well-formed string, got ${JSON.stringify(stream)}`,
    );
}

export function checkExpectedRevisionArgument(expected: unknown): asserts expected is ExpectedRevision {
  if (expected === 'any' || expected === 'no-stream' || expected === 'stream-exists') return;
  if (typeof expected === 'number' && Number.isSafeInteger(expected) && expected >= -1) return;
  throw new InvalidArgument(
    `expectedRevision must be 'any', 'no-stream', 'stream-exists' or an integer >= -1, got ${JSON.stringify(expected)}`,
  );
}

/** Throws WrongExpectedRevision unless a stream whose last revision is `actual` (-1: none) satisfies `expected`. */
export function checkExpectedRevision(stream: string, expected: ExpectedRevision, actual: number): void {
  const holds =
    expected === 'any' ||
    (expected === 'no-stream' && actual === -1) ||
    (expected === 'stream-exists' && actual >= 0) ||
    expected === actual;
  if (!holds) throw new WrongExpectedRevision(stream, expected, actual);
}

/** checkEvent's checks, then the data and metadata as canonical JSON (InvalidEventData for what has none). */
export function prepareEvent(event: EventData, index: number): PreparedEvent {
  const checked = checkEvent(event, index);
  try {
    const meta = metadataJson(event.metadata, 'metadata');
    return {
      eventId: checked.eventId,
      type: checked.type,
      dataJson: canonicalJson(checked.data, 'data'),
      metadataJson: meta,
      data: checked.data,
      metadata: meta === undefined ? undefined : event.metadata,
    };
  } catch (err) {
    if (err instanceof NotCanonicalJson) throw new InvalidEventData(checked.eventId, err.path, err.reason);
    throw err;
  }
}

/**
 * An event whose id, type and metadata's kind were checked; its data and metadata are checked as an adapter encodes
 * them (the SQLite store, which writes no JSON). metadata: undefined when there is none (absent, or an object
 * without a defined member: stored and hashed as none).
 */
export interface CheckedEvent {
  eventId: string;
  type: string;
  data: unknown;
  metadata: Record<string, unknown> | undefined;
}

export function checkEvent(event: EventData, index: number): CheckedEvent {
  const e = event as Partial<EventData> | null;
  if (e === null || typeof e !== 'object')
    throw new InvalidArgument(`events[${index}] is not an event object`);
  if (typeof e.eventId !== 'string' || e.eventId.length === 0 || LONE_SURROGATE.test(e.eventId))
    throw new InvalidArgument(`events[${index}].eventId must be a non-empty, well-formed string`);
  const id = e.eventId;
  if (typeof e.type !== 'string' || e.type.length === 0 || LONE_SURROGATE.test(e.type))
    throw new InvalidEventData(id, 'type', 'must be a non-empty, well-formed string');
  if (!('data' in e) || e.data === undefined)
    throw new InvalidEventData(id, 'data', 'is missing (use null for no data)');
  const m = e.metadata;
  if (m !== undefined && (m === null || typeof m !== 'object' || Array.isArray(m)))
    throw new InvalidEventData(id, 'metadata', 'must be a plain object when present');
  return { eventId: id, type: e.type, data: e.data, metadata: noMetadata(m) ? undefined : m };
}

export function checkEvents(events: readonly EventData[]): CheckedEvent[] {
  if (!Array.isArray(events)) throw new InvalidArgument('events must be an array');
  return events.map(checkEvent);
}

export function prepareEvents(events: readonly EventData[]): PreparedEvent[] {
  if (!Array.isArray(events)) throw new InvalidArgument('events must be an array');
  return events.map(prepareEvent);
}

/**
 * Splits a call's events into first occurrences and repeats within the call. A repeat must be the same event (same
 * type and data; metadata may differ, the first copy wins), otherwise the call is refused with EventIdConflict.
 */
export function withoutRepeatsInCall(
  stream: string,
  events: readonly PreparedEvent[],
): { firsts: PreparedEvent[]; repeats: number } {
  const seen = new Map<string, PreparedEvent>();
  for (const e of events) {
    const first = seen.get(e.eventId);
    if (first === undefined) seen.set(e.eventId, e);
    else if (first.type !== e.type) throw new EventIdConflict(e.eventId, stream, stream, null, 'type');
    else if (first.dataJson !== e.dataJson)
      throw new EventIdConflict(e.eventId, stream, stream, null, 'data');
  }
  return { firsts: [...seen.values()], repeats: events.length - seen.size };
}

/** Throws EventIdConflict if the stored copy of an id is not the same event as the one being appended. */
export function checkSameEvent(
  appending: PreparedEvent,
  stream: string,
  stored: { stream: string; revision: number; type: string; dataJson: string },
): void {
  const difference =
    stored.stream !== stream
      ? 'stream'
      : stored.type !== appending.type
        ? 'type'
        : stored.dataJson !== appending.dataJson
          ? 'data'
          : null;
  if (difference !== null)
    throw new EventIdConflict(appending.eventId, stream, stored.stream, stored.revision, difference);
}

export function checkCount(name: string, value: unknown): asserts value is number | undefined {
  if (value !== undefined && !(typeof value === 'number' && Number.isSafeInteger(value) && value >= 0))
    throw new InvalidArgument(`${name} must be a non-negative integer, got ${JSON.stringify(value)}`);
}

export function checkPosition(name: string, value: unknown): asserts value is bigint | undefined {
  if (value !== undefined && !(typeof value === 'bigint' && value >= -1n))
    throw new InvalidArgument(`${name} must be a bigint >= -1n, got ${String(value)}`);
}

/** Checks a streams option and returns it as a predicate (undefined: every stream). */
export function streamPredicate(streams: unknown): ((stream: string) => boolean) | undefined {
  if (streams === undefined) return undefined;
  if (typeof streams === 'function') return streams as (stream: string) => boolean;
  if (Array.isArray(streams) && streams.every((s) => typeof s === 'string')) {
    const set = new Set<string>(streams);
    return (stream) => set.has(stream);
  }
  throw new InvalidArgument('streams must be an array of stream names or a predicate on a stream name');
}

/** Checks an eventTypes option and returns it as a set (undefined: every type). */
export function eventTypeSet(eventTypes: unknown): ReadonlySet<string> | undefined {
  if (eventTypes === undefined) return undefined;
  if (Array.isArray(eventTypes) && eventTypes.every((t) => typeof t === 'string'))
    return new Set<string>(eventTypes);
  throw new InvalidArgument(
    `eventTypes must be an array of event type names, got ${typeof eventTypes === 'string' ? JSON.stringify(eventTypes) : typeof eventTypes}`,
  );
}

export function checkCheckpointName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || name.length === 0)
    throw new InvalidArgument(`checkpoint name must be a non-empty string, got ${JSON.stringify(name)}`);
}

/**
 * Checks appendMany's arguments as a whole before anything is written (the events themselves are checked as for
 * append): a malformed part or checkpoint must not leave the parts before it stored by a non-atomic store.
 */
export function checkAppendManyArguments(appends: readonly StreamAppend[], options: AppendManyOptions): void {
  if (!Array.isArray(appends)) throw new InvalidArgument('appends must be an array');
  appends.forEach((a: Partial<StreamAppend> | null, i) => {
    if (a === null || typeof a !== 'object') throw new InvalidArgument(`appends[${i}] is not an object`);
    try {
      checkStreamName(a.stream);
      if (a.expectedRevision !== undefined) checkExpectedRevisionArgument(a.expectedRevision);
      if (!Array.isArray(a.events)) throw new InvalidArgument('events must be an array');
    } catch (err) {
      if (err instanceof InvalidArgument) throw new InvalidArgument(`appends[${i}]: ${err.message}`);
      throw err;
    }
  });
  const checkpoint = (options as Partial<AppendManyOptions> | null)?.checkpoint;
  if (checkpoint !== undefined) {
    if (checkpoint === null || typeof checkpoint !== 'object')
      throw new InvalidArgument('checkpoint must be { name, position }');
    checkCheckpointName(checkpoint.name);
    checkPosition('checkpoint.position', checkpoint.position);
    if (checkpoint.position === undefined) throw new InvalidArgument('checkpoint.position is missing');
  }
}

/** An event's data in the hash form, written into `w` (from 0); InvalidEventData naming where if it has none. */
export function dataForm(w: FormWriter, data: unknown, eventId: string): Buffer {
  w.at = 0;
  try {
    w.value(data);
  } catch (e) {
    if (e === NOT_IN_FORM) {
      const problem = explainProblem(data, 'data');
      throw new InvalidEventData(eventId, problem.path, problem.reason);
    }
    throw e;
  }
  return w.buf.subarray(0, w.at);
}

/**
 * A call's first occurrence of each event id; a repeat must be the same event (same type and data; metadata may
 * differ, the first copy wins), otherwise the call is refused with EventIdConflict. `a` and `b` are the writers
 * the two copies' data are compared in.
 */
export function withoutRepeats(
  stream: string,
  events: readonly CheckedEvent[],
  a: FormWriter,
  b: FormWriter,
): { firsts: CheckedEvent[]; repeats: number } {
  const seen = new Map<string, CheckedEvent>();
  for (const e of events) {
    const first = seen.get(e.eventId);
    if (first === undefined) seen.set(e.eventId, e);
    else if (first.type !== e.type) throw new EventIdConflict(e.eventId, stream, stream, null, 'type');
    else if (!dataForm(a, first.data, first.eventId).equals(dataForm(b, e.data, e.eventId)))
      throw new EventIdConflict(e.eventId, stream, stream, null, 'data');
  }
  return {
    firsts: seen.size === events.length ? (events as CheckedEvent[]) : [...seen.values()],
    repeats: events.length - seen.size,
  };
}
