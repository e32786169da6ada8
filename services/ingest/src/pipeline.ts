import { createHash } from 'node:crypto';
import { REJECTS_STREAM, tableStream } from '@table-audit/schemas/streams';
import {
  EventIdConflict,
  InvalidEventData,
  type AppendResult,
  type EventData,
  type EventStore,
  type StreamAppend,
} from '@table-audit/eventstore';
import type { AppendPreparer, PreparePart } from '@table-audit/eventstore/sqlite';
import type { TableEvent } from '@table-audit/schemas/events';
import type { Provenance } from '@table-audit/schemas';
import { meaningProblems } from './validate.ts';
import { SequenceTracker, type SequenceSummary } from './sequence.ts';

/** Where an input came from, precisely enough to find it again (`index` absent: a whole damaged block). */
export type InputSource =
  | { kind: 'kafka'; topic: string; partition: number; offset: string }
  | { kind: 'file'; path: string; block: number; index?: number }
  | { kind: 'in-process'; producer: string; index: number };

/**
 * One input: a decoded event, or bytes that could not be decoded and why. `code` is the stable kind of a decoding
 * failure (e.g. TRUNCATED_PAYLOAD, CORRUPT_BLOCK), used for the reject counts.
 */
export type IngestInput =
  | { source: InputSource; event: TableEvent; raw?: Uint8Array; provenance?: Provenance }
  | { source: InputSource; error: string; code?: string; raw: Uint8Array | null; rawRef?: RawReference };

/**
 * Where bytes too many to keep in a reject lie (a region of a file), with their SHA-256 when it was computed; for
 * a record of a compressed block, `dataRange` is where its bytes lie in the block's decompressed data.
 */
export interface RawReference {
  path: string;
  offset: number;
  length: number;
  sha256?: string;
  dataRange?: { start: number; end: number };
  /** why the file could not even be measured */
  error?: string;
}

export interface IngestResult {
  /** events newly stored */
  accepted: number;
  /** events that were already stored (a redelivery, a file ingested again): not stored twice */
  alreadyStored: number;
  /** inputs kept in the rejects stream */
  rejected: number;
}

export { REJECTS_STREAM } from '@table-audit/schemas/streams';
export const REJECT_EVENT_TYPE = 'InputRejected';

/** The kinds of reject, as counted in `IngestPipeline.totals.byReason` and stored in each reject's `code`. */
export const REJECT_CODES = {
  /** a meaning check failed (unknown table, no such card, an amount of 0, …) */
  invalidEvent: 'INVALID_EVENT',
  /** an event id already stored with other content */
  eventIdConflict: 'EVENT_ID_CONFLICT',
  /** the event store refused the event's data */
  invalidEventData: 'INVALID_EVENT_DATA',
  /** a message without a value */
  emptyMessage: 'EMPTY_MESSAGE',
  /** a message larger than MAX_MESSAGE_BYTES */
  tooLarge: 'MESSAGE_TOO_LARGE',
  /** a decoding failure without a code of its own */
  undecodable: 'UNDECODABLE',
} as const;

/** The data of an `InputRejected` event in the rejects stream. */
export interface RejectData {
  source: InputSource;
  sourceText: string;
  code: string;
  reason: string;
  /**
   * the bytes as received, base64; null when there were none (a tombstone), the reader does not expose them, or
   * they are too many to keep here: then `rawRef` says where they are
   */
  rawBase64: string | null;
  /** where the bytes lie when they are not kept here (a large damaged region of a file) */
  rawRef?: RawReference;
  /** the event as decoded, when it decoded but is not acceptable */
  decoded: TableEvent | null;
  /** the decoded event as JSON text, instead of `decoded`, when the store could not keep it as JSON data */
  decodedText?: string;
}

const jsonText = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x)) ?? String(v);

export const sourceText = (s: InputSource): string =>
  s.kind === 'kafka'
    ? `kafka ${s.topic}[${s.partition}]@${s.offset}`
    : s.kind === 'file'
      ? `file ${s.path} block ${s.block}${s.index === undefined ? '' : ` record ${s.index}`}`
      : `${s.producer} #${s.index}`;

/**
 * Where an event came from, as its stored metadata says it: the origin (a file, a Kafka partition, a producer) as one
 * string, the same for every event from it (the store keeps it once, in its dictionary), and apart from it the
 * position of the event there. sourceText gives the same facts as one line.
 */
export const sourceMetadata = (s: InputSource): Record<string, string | number> =>
  s.kind === 'kafka'
    ? { source: `kafka ${s.topic}[${s.partition}]`, offset: s.offset }
    : s.kind === 'file'
      ? s.index === undefined
        ? { source: fileOrigin(s.path), block: s.block }
        : { source: fileOrigin(s.path), block: s.block, record: s.index }
      : { source: s.producer, index: s.index };

/** `file PATH`, made once per file (not once per event: the same string object, hashed once by the dictionary). */
const fileOrigins = new Map<string, string>();
function fileOrigin(path: string): string {
  let origin = fileOrigins.get(path);
  if (origin === undefined) {
    if (fileOrigins.size >= 1024) fileOrigins.clear();
    fileOrigins.set(path, (origin = `file ${path}`));
  }
  return origin;
}

export { tableStream } from '@table-audit/schemas/streams';

/** A batch packed by IngestPipeline.prepare, and what is needed to count it once it is stored. */
export interface PreparedIngest {
  /** for SqliteEventStore.appendPrepared (transferable) */
  batch: ArrayBuffer;
  readonly tables: readonly (readonly [string, readonly Accepted[]])[];
  readonly rejects: readonly PendingReject[];
}

interface Accepted {
  data: EventData;
  input: IngestInput & { event: TableEvent };
}

interface PendingReject {
  input: IngestInput;
  code: string;
  reason: string;
}

/** What a table is, as far as the meaning checks need it (from the TableOpened that opened it). */
interface TableInfo {
  game: string;
  /** the largest maximum of its bet limits, null if it gives none */
  largestBetMaximum: number | null;
}

const tableInfo = (opened: {
  game: string;
  betLimits?: readonly { maximum: number }[];
  craps?: { maximumBet: number } | null;
}): TableInfo => ({
  game: opened.game,
  largestBetMaximum: opened.craps
    ? opened.craps.maximumBet
    : opened.betLimits?.length
      ? Math.max(...opened.betLimits.map((l) => l.maximum))
      : null,
});

/**
 * After a table's events were appended in one piece: counts them, tells `stored` about each (unless all of them were
 * already stored: a redelivery, nothing new to follow; a mix is sorted out by event id), and returns the table as
 * opened by the last TableOpened among them (null if none).
 */
function appendedWhole(
  accepted: readonly Accepted[],
  r: AppendResult,
  result: IngestResult,
  stored: (a: Accepted) => void,
): TableInfo | null {
  result.accepted += r.appended;
  result.alreadyStored += r.alreadyStored;
  let opened: TableInfo | null = null;
  for (const a of accepted) if (a.input.event.type === 'TableOpened') opened = tableInfo(a.input.event.data);
  if (r.alreadyStored < accepted.length) for (const a of accepted) stored(a);
  return opened;
}

/**
 * Validates and appends a batch of inputs: good events to their table's stream (idempotent by event id, so a
 * redelivery is stored once), every bad one to `ingest-rejects` with its raw bytes, source and reason. The
 * returned promise resolves only when everything is durable: only then may a Kafka offset be committed.
 *
 * A table is known once its TableOpened is stored: only ingest writes table streams, and it writes nothing else
 * to a table's stream before that, so a table is known exactly when its stream is not empty. That is looked up
 * in the store the first time a table is seen, and remembered.
 */
export class IngestPipeline {
  private readonly knownTables = new Map<string, TableInfo>();
  private readonly sequences = new SequenceTracker();
  readonly totals: IngestResult & { byReason: Map<string, number>; sequence: SequenceSummary } = {
    accepted: 0,
    alreadyStored: 0,
    rejected: 0,
    byReason: new Map(),
    sequence: this.sequences.summary,
  };

  constructor(
    private readonly store: EventStore,
    private readonly now: () => number = Date.now,
    private readonly options: {
      /**
       * Called at the end of every batch, once it is durable: signs an anchor of the store's heads (an Anchorer's
       * anchor()). A failure fails the batch's submit, so Kafka offsets are not committed past an unanchored store.
       */
      anchor?: () => Promise<unknown>;
    } = {},
  ) {}

  /**
   * Kept for callers written against the first version, which read the whole store here to find the opened tables.
   * Tables are now looked up in the store when first seen, so a restart costs nothing however large the store is.
   */
  async loadKnownTables(): Promise<void> {}

  /** The table as opened, from memory or from the first event of its stream; null if it has not been opened. */
  private async lookUpTable(tableId: string): Promise<TableInfo | null> {
    const known = this.knownTables.get(tableId);
    if (known) return known;
    for await (const first of this.store.readStream(tableStream(tableId), { maxCount: 1 })) {
      if (first.type !== 'TableOpened') return null;
      const info = tableInfo(first.data as { game: string; betLimits?: { maximum: number }[] });
      this.knownTables.set(tableId, info);
      return info;
    }
    return null;
  }

  /**
   * Appends a table's events in one call. An event the store refuses (an id already stored with other content,
   * data it cannot keep) fails the whole call: then each event goes alone, and only those refused become rejects —
   * with, when the table was opened in this very batch and its TableOpened is refused, the table's events after it.
   * Returns the table as opened by this batch's last TableOpened that was stored (null if none was).
   */
  private async appendTable(
    tableId: string,
    accepted: readonly Accepted[],
    knownBefore: boolean,
    result: IngestResult,
    reject: (r: PendingReject) => void,
    stored: (a: Accepted) => void,
  ): Promise<TableInfo | null> {
    const stream = tableStream(tableId);
    const count = (r: AppendResult) => {
      result.accepted += r.appended;
      result.alreadyStored += r.alreadyStored;
    };
    let opened: TableInfo | null = null;
    try {
      const r = await this.store.append(
        stream,
        accepted.map((a) => a.data),
      );
      return appendedWhole(accepted, r, result, stored);
    } catch (err) {
      if (!(err instanceof EventIdConflict) && !(err instanceof InvalidEventData)) throw err;
    }
    let known = knownBefore;
    for (const a of accepted) {
      const e = a.input.event;
      if (!known && e.type !== 'TableOpened') {
        reject({
          input: a.input,
          code: REJECT_CODES.invalidEvent,
          reason: `invalid ${e.type}: table "${tableId}" is not known: its TableOpened in the same batch was refused (see the rejects)`,
        });
        continue;
      }
      try {
        const r = await this.store.append(stream, [a.data]);
        count(r);
        if (r.appended) stored(a);
        if (e.type === 'TableOpened') {
          opened = tableInfo(e.data);
          known = true;
        }
      } catch (one) {
        if (one instanceof EventIdConflict)
          reject({
            input: a.input,
            code: REJECT_CODES.eventIdConflict,
            reason: `event id ${a.data.eventId} is already stored with different ${one.difference} (in ${one.storedStream}): a source must not re-use event ids`,
          });
        else if (one instanceof InvalidEventData)
          reject({
            input: a.input,
            code: REJECT_CODES.invalidEventData,
            reason: `the event store cannot keep ${e.type} ${a.data.eventId}: ${one.message}`,
          });
        else throw one;
      }
    }
    return opened;
  }

  /** The reject event for an input: its id comes from where the input came from and its bytes, so a redelivery is kept once. */
  private rejectEvent({ input, code, reason }: PendingReject): EventData {
    const raw = input.raw ?? null;
    const where = sourceText(input.source);
    const data: RejectData = {
      source: input.source,
      sourceText: where,
      code,
      reason,
      rawBase64: raw ? Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('base64') : null,
      decoded: 'event' in input ? input.event : null,
    };
    const rawRef = 'rawRef' in input ? input.rawRef : undefined;
    if (rawRef) data.rawRef = rawRef;
    return {
      eventId: createHash('sha256')
        .update(where)
        .update(raw ?? (rawRef ? JSON.stringify(rawRef) : new Uint8Array()))
        .digest('hex')
        .slice(0, 32),
      type: REJECT_EVENT_TYPE,
      data,
      metadata: { receivedAt: this.now() },
    };
  }

  /**
   * Appends the rejects. The same input (same source, same bytes) has the same reject id: kept once, whatever the
   * reason given the second time (the first copy wins; a reason can depend on what was stored meanwhile).
   */
  private async appendRejects(rejects: readonly PendingReject[]): Promise<number> {
    const events = rejects.map((r) => this.rejectEvent(r));
    try {
      const r = await this.store.append(REJECTS_STREAM, events);
      return r.appended + r.alreadyStored;
    } catch (err) {
      if (!(err instanceof EventIdConflict) && !(err instanceof InvalidEventData)) throw err;
    }
    for (const e of events) {
      try {
        await this.appendOneReject(e);
      } catch (err) {
        if (!(err instanceof InvalidEventData)) throw err;
        // the decoded event holds something JSON cannot keep exactly (it is why the event was refused): as text
        const data = e.data as RejectData;
        await this.appendOneReject({
          ...e,
          data: { ...data, decoded: null, decodedText: jsonText(data.decoded) },
        });
      }
    }
    return events.length;
  }

  /** Appends one reject; one already kept under the same id (the same input) is not kept again. */
  private async appendOneReject(e: EventData): Promise<void> {
    try {
      await this.store.append(REJECTS_STREAM, [e]);
    } catch (err) {
      if (!(err instanceof EventIdConflict)) throw err;
    }
  }

  /**
   * The meaning checks of a batch: each good event under its table, in order, with the metadata it is stored with;
   * each bad one (and each input that did not decode) as a reject with its reason.
   */
  private async classify(
    inputs: readonly IngestInput[],
  ): Promise<{ byTable: Map<string, Accepted[]>; rejects: PendingReject[] }> {
    const byTable = new Map<string, Accepted[]>();
    const rejects: PendingReject[] = [];
    /** tables opened in this batch, before their TableOpened is stored */
    const openedHere = new Map<string, TableInfo>();
    /** tables looked up in this batch and not opened (looked up again in the next batch: another process may open them) */
    const unknownHere = new Set<string>();
    for (const input of inputs) {
      if ('error' in input) {
        rejects.push({ input, code: input.code ?? REJECT_CODES.undecodable, reason: input.error });
        continue;
      }
      const e = input.event;
      const tableId = e.data.header.tableId;
      let table = openedHere.get(tableId) ?? this.knownTables.get(tableId) ?? null;
      if (!table && !unknownHere.has(tableId)) {
        table = await this.lookUpTable(tableId);
        if (!table) unknownHere.add(tableId);
      }
      const problems = meaningProblems(e, table?.game ?? null, {
        largestBetMaximum: table?.largestBetMaximum ?? null,
      });
      if (problems.length) {
        rejects.push({
          input,
          code: REJECT_CODES.invalidEvent,
          reason: `invalid ${e.type}: ${problems.join('; ')}`,
        });
        continue;
      }
      if (e.type === 'TableOpened') {
        openedHere.set(tableId, tableInfo(e.data));
        unknownHere.delete(tableId);
      }
      let list = byTable.get(tableId);
      if (!list) byTable.set(tableId, (list = []));
      // from where it arrived is metadata: a redelivery must carry identical data to be recognised. When it arrived
      // is the event's recorded time (the store's commit of this batch): not kept a second time per event.
      const metadata = sourceMetadata(input.source);
      const provenance = input.provenance;
      if (provenance) {
        metadata.writerSchemaId = provenance.writerSchemaId;
        if (provenance.defaultedFields.length)
          (metadata as Record<string, unknown>).defaultedFields = provenance.defaultedFields;
      }
      list.push({
        data: { eventId: e.data.header.eventId, type: e.type, data: e.data, metadata },
        input,
      });
    }
    return { byTable, rejects };
  }

  async submit(inputs: readonly IngestInput[]): Promise<IngestResult> {
    const { byTable, rejects } = await this.classify(inputs);
    const result: IngestResult = { accepted: 0, alreadyStored: 0, rejected: 0 };
    const observe = (tableId: string, { input }: Accepted) => {
      const h = input.event.data.header;
      this.sequences.observe(tableId, h.sourceDevice, h.sequence, h.eventId, sourceText, input.source);
    };
    if (await this.appendTogether(byTable, rejects, result, observe)) {
      await this.#count(result, rejects);
      return result;
    }
    for (const [tableId, accepted] of byTable) {
      const knownBefore = this.knownTables.has(tableId);
      const opened = await this.appendTable(
        tableId,
        accepted,
        knownBefore,
        result,
        (r) => rejects.push(r),
        (a) => observe(tableId, a),
      );
      // known from now on only once a TableOpened of it is in the store
      if (opened) this.knownTables.set(tableId, opened);
    }
    if (rejects.length) result.rejected += await this.appendRejects(rejects);
    await this.#count(result, rejects);
    return result;
  }

  /**
   * The pipeline over two threads (parallel-ingest.ts), preparing side: the batch checked as submit checks it and
   * packed for SqliteEventStore.appendPrepared as appendTogether would append it, without waiting for the batch
   * before it to be stored. The tables it opens are taken as known from now on (the writer stores batches in
   * order; if it refuses one, forget() is called and the refused batch goes through submit). Null when the store
   * would refuse the batch (an id repeated with other content, data it cannot keep): it goes through submit, alone.
   */
  async prepare(inputs: readonly IngestInput[], preparer: AppendPreparer): Promise<PreparedIngest | null> {
    const { byTable, rejects } = await this.classify(inputs);
    const tables = [...byTable];
    const parts: PreparePart[] = tables.map(([tableId, accepted]) => ({
      stream: tableStream(tableId),
      events: accepted.map((a) => a.data),
    }));
    if (rejects.length)
      parts.push({ stream: REJECTS_STREAM, events: rejects.map((r) => this.rejectEvent(r)) });
    let batch: ArrayBuffer;
    try {
      batch = preparer.prepare(parts);
    } catch (err) {
      if (!(err instanceof EventIdConflict) && !(err instanceof InvalidEventData)) throw err;
      return null;
    }
    for (const [tableId, accepted] of tables) {
      let opened: TableInfo | null = null;
      for (const a of accepted)
        if (a.input.event.type === 'TableOpened') opened = tableInfo(a.input.event.data);
      if (opened) this.knownTables.set(tableId, opened);
    }
    return { batch, tables, rejects };
  }

  /**
   * The preparing side, once the writer stored a prepared batch: its results counted and its stored events followed
   * (sequence checks), as submit does after appendTogether.
   */
  applyPrepared(
    prepared: PreparedIngest,
    results: readonly Pick<AppendResult, 'appended' | 'alreadyStored'>[],
  ): IngestResult {
    const result: IngestResult = { accepted: 0, alreadyStored: 0, rejected: 0 };
    const sequences = this.sequences;
    for (let i = 0; i < prepared.tables.length; i++) {
      const [tableId, accepted] = prepared.tables[i]!;
      const r = results[i]!;
      result.accepted += r.appended;
      result.alreadyStored += r.alreadyStored;
      if (r.alreadyStored < accepted.length)
        for (let k = 0; k < accepted.length; k++) {
          const input = accepted[k]!.input;
          const h = input.event.data.header;
          sequences.observe(tableId, h.sourceDevice, h.sequence, h.eventId, sourceText, input.source);
        }
    }
    if (prepared.rejects.length) result.rejected += results.at(-1)!.appended + results.at(-1)!.alreadyStored;
    for (const r of prepared.rejects)
      this.totals.byReason.set(r.code, (this.totals.byReason.get(r.code) ?? 0) + 1);
    this.totals.accepted += result.accepted;
    this.totals.alreadyStored += result.alreadyStored;
    this.totals.rejected += result.rejected;
    return result;
  }

  /** The tables taken as known from batches not stored: forgotten (looked up in the store again). */
  forgetTables(): void {
    this.knownTables.clear();
  }

  /** Adds a batch to the totals, then signs an anchor if asked: the batch is durable by now. */
  async #count(result: IngestResult, rejects: readonly PendingReject[]): Promise<void> {
    for (const r of rejects) this.totals.byReason.set(r.code, (this.totals.byReason.get(r.code) ?? 0) + 1);
    this.totals.accepted += result.accepted;
    this.totals.alreadyStored += result.alreadyStored;
    this.totals.rejected += result.rejected;
    if (this.options.anchor) await this.options.anchor();
  }

  /**
   * The whole batch — every table's events and the rejects — in one transaction, when the store can make one
   * (one fsync per batch instead of one per table). False when the store cannot, or refused an event (an id stored
   * with other content, data it cannot keep): nothing was written, and the batch goes table by table, event by
   * event where needed, to find which ones to reject.
   */
  private async appendTogether(
    byTable: ReadonlyMap<string, Accepted[]>,
    rejects: readonly PendingReject[],
    result: IngestResult,
    observe: (tableId: string, a: Accepted) => void,
  ): Promise<boolean> {
    if (this.store.atomicAcrossStreams !== true || !this.store.appendMany) return false;
    const tables = [...byTable];
    const parts: StreamAppend[] = tables.map(([tableId, accepted]) => ({
      stream: tableStream(tableId),
      events: accepted.map((a) => a.data),
    }));
    if (rejects.length)
      parts.push({ stream: REJECTS_STREAM, events: rejects.map((r) => this.rejectEvent(r)) });
    let results: AppendResult[];
    try {
      results = await this.store.appendMany(parts);
    } catch (err) {
      if (!(err instanceof EventIdConflict) && !(err instanceof InvalidEventData)) throw err;
      return false;
    }
    tables.forEach(([tableId, accepted], i) => {
      const opened = appendedWhole(accepted, results[i]!, result, (a) => observe(tableId, a));
      if (opened) this.knownTables.set(tableId, opened);
    });
    if (rejects.length) result.rejected += results.at(-1)!.appended + results.at(-1)!.alreadyStored;
    return true;
  }
}
