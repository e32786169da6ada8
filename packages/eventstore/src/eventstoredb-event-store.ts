/**
 * The production event store: EventStoreDB / KurrentDB through @eventstore/db-client (gRPC).
 *
 * Mapping of the port:
 * - stream, revision, type, data (JSON) map one to one. recordedAt is the adapter's clock at the append, kept in the
 *   chain metadata because it is hashed and the server's `created` is known only after the append (events written
 *   without the adapter fall back to `created`).
 * - position is the event's commit position in the transaction log ($all order). Requires a server that returns
 *   positions on stream reads (EventStoreDB >= 22.6, any KurrentDB), and assumes one commit position per event,
 *   which holds for gRPC appends (no explicit transactions).
 * - The chain (the writer's eventId, previousHash, hash) travels in the event's metadata under `$tableAudit`, next to
 *   the writer's own metadata. EventStoreDB needs UUID event ids: a UUID eventId is used as is, any other string is
 *   mapped to a UUID derived from its sha256 (eventUuid); the original is the one in the metadata.
 * - appendMany appends part by part in order, then saves the checkpoint: EventStoreDB has no transaction across
 *   streams (atomicAcrossStreams = false); a failure part-way leaves the earlier parts stored.
 * - Checkpoints are events in a dedicated stream per consumer, `<checkpointStreamPrefix><name>` (kept short with
 *   $maxCount); those streams and the server's `$` streams are left out of readAll and subscriptions.
 *
 * Idempotency (EventStoreDB itself drops a repeated event id only when the append states the exact expected
 * revision the earlier copy was written after, and otherwise only from a bounded cache): this adapter keeps, per
 * stream, the index of every event id stored in it, loaded by reading the stream once and then caught up from its
 * last known revision. Every append is sent with the exact revision of the tail the index has seen, so a write by
 * anyone else in between fails on the server; the adapter then catches up, filters again and retries. Hence:
 * GUARANTEED — an event id is never written twice to the same stream, whatever expectedRevision the caller gives,
 *   across retries, processes and restarts, provided every writer of the stream goes through this adapter.
 * LIMITS — uniqueness is per stream (the same id in two streams gives two events; the SQLite adapter refuses that);
 *   events removed by deletion, truncation ($maxCount, $tb) or scavenging are no longer seen, so their ids can be
 *   written again; a writer bypassing the adapter with expected revision 'any' can still add a duplicate (it would
 *   also break the hash chain, which verify reports). COST — the first append to a stream in a process reads the
 *   whole stream; the index holds the ids of up to `maxIndexedStreams` streams (least recently used are dropped and
 *   re-read when needed); each append reads its own events back (exact positions, and the index stays current).
 */
import { createHash } from 'node:crypto';
import {
  BACKWARDS,
  END,
  ErrorType,
  EventStoreDBClient,
  FORWARDS,
  jsonEvent,
  NO_STREAM,
  START,
  streamNameFilter,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type AllStreamSubscription,
  type EventData as EsdbEventData,
  type JSONType,
  type Position,
  type ReadPosition,
  type ReadRevision,
} from '@eventstore/db-client';
import {
  checkCheckpointName,
  checkCount,
  checkExpectedRevision,
  checkExpectedRevisionArgument,
  checkPosition,
  checkSameEvent,
  checkStreamName,
  prepareEvents,
  withoutRepeatsInCall,
  eventTypeSet,
  streamPredicate,
  type PreparedEvent,
} from './append-input.ts';
import { canonicalJson, NotCanonicalJson } from './canonical-json.ts';
import { InvalidArgument, InvalidEventData, StoreClosed } from './errors.ts';
import { eventHash, GENESIS_HASH } from './hash-chain.ts';
import { appendPartByPart } from './append-many.ts';
import type {
  AppendManyOptions,
  AppendOptions,
  AppendResult,
  EventData,
  EventStore,
  ExpectedRevision,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  StreamAppend,
  SubscribeToAllOptions,
  Subscription,
} from './port.ts';

export interface EventStoreDbEventStoreOptions {
  /** Streams with this prefix hold checkpoints; reserved for them. Default 'table-audit-checkpoint-'. */
  checkpointStreamPrefix?: string;
  /** How many streams' event-id indexes stay in memory. Default 1000. */
  maxIndexedStreams?: number;
  /** Attempts of one append while other writers keep appending to the same stream. Default 10. */
  maxAttempts?: number;
}

/** The metadata key under which the adapter keeps an event's place in its stream's hash chain. */
export const CHAIN_METADATA_KEY = '$tableAudit';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PAGE = 512;

/** EventStoreDB's id for an event: its eventId if that is a UUID, else a UUID (version 8) from its sha256. */
export function eventUuid(eventId: string): string {
  if (UUID.test(eventId)) return eventId.toLowerCase();
  const b = createHash('sha256').update(`table-audit event id\0${eventId}`, 'utf8').digest();
  b[6] = (b[6]! & 0x0f) | 0x80;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.subarray(0, 16).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The fields of the client's recorded event this adapter reads (the client's own type is a deep generic union). */
interface ServerEvent {
  streamId: string;
  id: string;
  revision: bigint;
  type: string;
  created: Date;
  data: unknown;
  metadata: unknown;
  isJson: boolean;
  position?: Position;
}

interface ChainMetadata {
  eventId: string;
  previousHash: string;
  hash: string;
  /** UTC ms, inside the hash */
  recordedAt: number;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);

/** Maps a server event to the port's. Events written without the adapter keep their UUID and an empty hash. */
function toRecordedEvent(e: ServerEvent): RecordedEvent {
  if (e.position === undefined)
    throw new Error(
      `EventStoreDB returned event ${e.streamId}@${e.revision} without its position: the server is older than 22.6`,
    );
  const { [CHAIN_METADATA_KEY]: chainValue, ...own } = isRecord(e.metadata) ? e.metadata : {};
  const chain = isRecord(chainValue) ? (chainValue as Partial<ChainMetadata>) : {};
  const event: RecordedEvent = {
    stream: e.streamId,
    revision: Number(e.revision),
    position: e.position.commit,
    eventId: typeof chain.eventId === 'string' ? chain.eventId : e.id,
    type: e.type,
    data: e.isJson ? e.data : Buffer.from(e.data as Uint8Array).toString('base64'),
    recordedAt: typeof chain.recordedAt === 'number' ? chain.recordedAt : e.created.getTime(),
    hash: typeof chain.hash === 'string' ? chain.hash : '',
    previousHash: typeof chain.previousHash === 'string' ? chain.previousHash : '',
  };
  if (Object.keys(own).length > 0) event.metadata = own;
  return event;
}

interface ServerReadOptions {
  fromRevision: ReadRevision;
  direction: typeof FORWARDS | typeof BACKWARDS;
  maxCount?: number;
}

/** What the adapter knows of one stream: its tail, and the revision of every event id in it. */
interface StreamIndex {
  revision: number;
  hash: string;
  position: bigint;
  ids: Map<string, number>;
}

export class EventStoreDbEventStore implements EventStore {
  readonly #client: EventStoreDBClient;
  readonly #checkpointPrefix: string;
  readonly #maxIndexedStreams: number;
  readonly #maxAttempts: number;
  readonly #indexes = new Map<string, StreamIndex>();
  /** Appends to one stream run one after the other in this process, so they share its index safely. */
  readonly #streamQueues = new Map<string, Promise<unknown>>();
  readonly #checkpointStreamsSetUp = new Set<string>();
  readonly #subscriptions = new Set<EventStoreDbSubscription>();
  #closed = false;

  static connect(
    connectionString: string,
    options: EventStoreDbEventStoreOptions = {},
  ): EventStoreDbEventStore {
    return new EventStoreDbEventStore(EventStoreDBClient.connectionString(connectionString), options);
  }

  constructor(client: EventStoreDBClient, options: EventStoreDbEventStoreOptions = {}) {
    this.#client = client;
    this.#checkpointPrefix = options.checkpointStreamPrefix ?? 'table-audit-checkpoint-';
    this.#maxIndexedStreams = options.maxIndexedStreams ?? 1000;
    this.#maxAttempts = options.maxAttempts ?? 10;
  }

  #checkOpen(what: string): void {
    if (this.#closed) throw new StoreClosed(what);
  }

  /** Streams that are not the port's: the server's own ($…) and the checkpoint streams. */
  #hidden(stream: string): boolean {
    return stream.startsWith('$') || stream.startsWith(this.#checkpointPrefix);
  }

  #checkUserStream(stream: string): void {
    checkStreamName(stream);
    if (this.#hidden(stream))
      throw new InvalidArgument(
        `stream "${stream}" is reserved (names starting with "$" or "${this.#checkpointPrefix}")`,
      );
  }

  async append(
    stream: string,
    events: readonly EventData[],
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    this.#checkOpen('append');
    this.#checkUserStream(stream);
    const expected = options.expectedRevision ?? 'any';
    checkExpectedRevisionArgument(expected);
    const prepared = prepareEvents(events);
    for (const e of prepared)
      if (e.metadataJson !== undefined && CHAIN_METADATA_KEY in (JSON.parse(e.metadataJson) as object))
        throw new InvalidEventData(
          e.eventId,
          `metadata.${CHAIN_METADATA_KEY}`,
          'is reserved for the hash chain',
        );
    return this.#inStreamQueue(stream, () => this.#appendInQueue(stream, expected, prepared));
  }

  /** EventStoreDB has no transaction across streams: appendMany appends part by part, then the checkpoint. */
  readonly atomicAcrossStreams = false;

  appendMany(appends: readonly StreamAppend[], options: AppendManyOptions = {}): Promise<AppendResult[]> {
    this.#checkOpen('appendMany');
    return appendPartByPart(this, appends, options);
  }

  async #inStreamQueue<T>(stream: string, work: () => Promise<T>): Promise<T> {
    const before = this.#streamQueues.get(stream) ?? Promise.resolve();
    const run = before.then(work, work);
    const settled = run.catch(() => undefined);
    this.#streamQueues.set(stream, settled);
    try {
      return await run;
    } finally {
      if (this.#streamQueues.get(stream) === settled) this.#streamQueues.delete(stream);
    }
  }

  async #appendInQueue(
    stream: string,
    expected: ExpectedRevision,
    prepared: PreparedEvent[],
  ): Promise<AppendResult> {
    const { firsts, repeats } = withoutRepeatsInCall(stream, prepared);
    const loaded = await this.#indexOf(stream);
    const index = loaded.index;
    let current = loaded.current; // whether the index is known to include every write so far
    for (let attempt = 1; ; attempt++) {
      const fresh: PreparedEvent[] = [];
      const stored: Array<{ event: PreparedEvent; revision: number }> = [];
      for (const event of firsts) {
        const revision = index.ids.get(event.eventId);
        if (revision === undefined) fresh.push(event);
        else stored.push({ event, revision });
      }
      const latestStoredCopy = await this.#checkStoredCopies(stream, stored);
      const alreadyStored = repeats + stored.length;
      // Only repeats: nothing to write, so no expectation to check (a retry with a stale revision succeeds).
      if (fresh.length === 0 && prepared.length > 0)
        return {
          nextExpectedRevision: index.revision,
          position: latestStoredCopy,
          appended: 0,
          alreadyStored,
        };

      // A cached index may be behind another process's appends: catch up before refusing or answering from it.
      try {
        checkExpectedRevision(stream, expected, index.revision);
      } catch (err) {
        if (!current) {
          await this.#catchUp(stream, index);
          current = true;
          continue;
        }
        throw err;
      }
      if (fresh.length === 0) {
        if (!current) {
          await this.#catchUp(stream, index);
          current = true;
          continue;
        }
        return {
          nextExpectedRevision: index.revision,
          position: index.position,
          appended: 0,
          alreadyStored: 0,
        };
      }

      const before = index.revision;
      let previousHash = index.hash;
      const recordedAt = Date.now();
      const toSend: EsdbEventData[] = fresh.map((e, i) => {
        const revision = before + 1 + i;
        let hash: string;
        try {
          hash = eventHash(previousHash, { stream, revision, recordedAt, ...e });
        } catch (err) {
          if (err instanceof NotCanonicalJson) throw new InvalidEventData(e.eventId, err.path, err.reason);
          throw err;
        }
        const chain: ChainMetadata = { eventId: e.eventId, previousHash, hash, recordedAt };
        previousHash = hash;
        const own =
          e.metadataJson === undefined ? {} : (JSON.parse(e.metadataJson) as Record<string, unknown>);
        return jsonEvent({
          id: eventUuid(e.eventId),
          type: e.type,
          data: JSON.parse(e.dataJson) as JSONType, // any JSON; the client sends JSON.stringify(data)
          metadata: { ...own, [CHAIN_METADATA_KEY]: chain },
        });
      });
      try {
        // Always the exact revision the chain was built on: a concurrent writer makes the server refuse this.
        await this.#client.appendToStream(stream, toSend, {
          expectedRevision: before === -1 ? NO_STREAM : BigInt(before),
        });
      } catch (err) {
        if (!(err instanceof WrongExpectedVersionError)) throw err;
        await this.#catchUp(stream, index);
        current = true;
        if (attempt >= this.#maxAttempts)
          throw new Error(
            `stream "${stream}": ${attempt} attempts to append were each overtaken by another writer (now at revision ${index.revision}); nothing was appended`,
          );
        continue;
      }
      const readBack = await this.#catchUp(stream, index);
      const last = readBack.find((e) => e.revision === before + fresh.length);
      return {
        nextExpectedRevision: before + fresh.length,
        position: last?.position ?? index.position,
        appended: fresh.length,
        alreadyStored,
      };
    }
  }

  /** Reads the stored copies of repeated ids and refuses a different event under a stored id; latest position. */
  async #checkStoredCopies(
    stream: string,
    stored: Array<{ event: PreparedEvent; revision: number }>,
  ): Promise<bigint> {
    if (stored.length === 0) return -1n;
    const byRevision = new Map(stored.map((s) => [s.revision, s.event]));
    const revisions = [...byRevision.keys()].sort((a, b) => a - b);
    let latest = -1n;
    // Repeats are usually one contiguous run (a retried batch): one read per run.
    for (let i = 0; i < revisions.length;) {
      let j = i;
      while (j + 1 < revisions.length && revisions[j + 1] === revisions[j]! + 1) j++;
      const from = revisions[i]!;
      for await (const copy of this.#readServerStream(stream, {
        fromRevision: BigInt(from),
        maxCount: j - i + 1,
        direction: FORWARDS,
      })) {
        const event = byRevision.get(copy.revision);
        if (event === undefined) continue;
        checkSameEvent(event, stream, {
          stream: copy.stream,
          revision: copy.revision,
          type: copy.type,
          dataJson: canonicalJson(copy.data),
        });
        if (copy.position > latest) latest = copy.position;
      }
      i = j + 1;
    }
    return latest;
  }

  async #indexOf(stream: string): Promise<{ index: StreamIndex; current: boolean }> {
    const cached = this.#indexes.get(stream);
    if (cached !== undefined) {
      this.#indexes.delete(stream); // re-insert: Map order is the LRU order
      this.#indexes.set(stream, cached);
      return { index: cached, current: false };
    }
    const index: StreamIndex = { revision: -1, hash: GENESIS_HASH, position: -1n, ids: new Map() };
    await this.#catchUp(stream, index);
    this.#indexes.set(stream, index);
    for (const oldest of this.#indexes.keys()) {
      if (this.#indexes.size <= this.#maxIndexedStreams) break;
      this.#indexes.delete(oldest);
    }
    return { index, current: true };
  }

  /** Reads the stream after the index's tail into the index; returns what it read. */
  async #catchUp(stream: string, index: StreamIndex): Promise<RecordedEvent[]> {
    const read: RecordedEvent[] = [];
    for await (const e of this.#readServerStream(stream, {
      fromRevision: BigInt(index.revision + 1),
      direction: FORWARDS,
    })) {
      index.ids.set(e.eventId, e.revision);
      index.revision = e.revision;
      index.hash = e.hash;
      index.position = e.position;
      read.push(e);
    }
    return read;
  }

  /** One stream read; a stream that does not exist yields nothing. */
  async *#readServerStream(stream: string, options: ServerReadOptions): AsyncGenerator<RecordedEvent> {
    const read = this.#client.readStream(stream, options);
    try {
      for await (const resolved of read) {
        const event = resolved.event as ServerEvent | undefined;
        if (event !== undefined) yield toRecordedEvent(event);
      }
    } catch (err) {
      if (
        err instanceof StreamNotFoundError ||
        (err as { type?: unknown }).type === ErrorType.STREAM_NOT_FOUND
      )
        return;
      throw err;
    } finally {
      await read.cancel(); // ends the gRPC call if the caller stopped early; a no-op once it has ended
    }
  }

  async streamHead(stream: string): Promise<number> {
    this.#checkUserStream(stream);
    this.#checkOpen('streamHead');
    for await (const e of this.#readServerStream(stream, {
      direction: BACKWARDS,
      fromRevision: END,
      maxCount: 1,
    }))
      return e.revision;
    return -1;
  }

  readStream(stream: string, options: ReadStreamOptions = {}): AsyncIterable<RecordedEvent> {
    this.#checkUserStream(stream);
    const { direction = 'forwards', fromRevision, maxCount } = options;
    if (direction !== 'forwards' && direction !== 'backwards')
      throw new InvalidArgument(
        `direction must be 'forwards' or 'backwards', got ${JSON.stringify(direction)}`,
      );
    checkCount('fromRevision', fromRevision);
    checkCount('maxCount', maxCount);
    const backwards = direction === 'backwards';
    const serverOptions: ServerReadOptions = {
      direction: backwards ? BACKWARDS : FORWARDS,
      fromRevision: fromRevision === undefined ? (backwards ? END : START) : BigInt(fromRevision),
      ...(maxCount === undefined ? {} : { maxCount }),
    };
    const read = () => this.#readServerStream(stream, serverOptions);
    const checkOpen = () => this.#checkOpen('readStream');
    return {
      async *[Symbol.asyncIterator]() {
        checkOpen();
        if (maxCount === 0) return;
        yield* read();
      },
    };
  }

  readAll(options: ReadAllOptions = {}): AsyncIterable<RecordedEvent> {
    const { fromPosition = -1n, maxCount } = options;
    checkPosition('fromPosition', fromPosition);
    checkCount('maxCount', maxCount);
    const client = this.#client;
    const selected = selection(options.streams);
    const types = eventTypeSet(options.eventTypes);
    // the server has no list of streams to read in global order: the selection is applied here, as events arrive
    // (and so is a selection of types: the server filters by type or by stream name, not both, and the stream-name
    // filter keeps its own streams out)
    const hidden = (s: string) => this.#hidden(s) || !selected(s);
    const checkOpen = () => this.#checkOpen('readAll');
    return {
      async *[Symbol.asyncIterator]() {
        checkOpen();
        let remaining = maxCount ?? Number.POSITIVE_INFINITY;
        // The server's fromPosition is inclusive, the port's exclusive: skip what is at or before it.
        let skipThrough = fromPosition;
        let from: ReadPosition = fromPosition < 0n ? START : { commit: fromPosition, prepare: fromPosition };
        while (remaining > 0) {
          const read = client.readAll({ fromPosition: from, maxCount: PAGE, direction: FORWARDS });
          let seen = 0;
          let last: Position | undefined;
          try {
            for await (const resolved of read) {
              seen++;
              const event = resolved.event as ServerEvent | undefined;
              if (event?.position === undefined) continue;
              last = event.position;
              if (event.position.commit <= skipThrough || hidden(event.streamId)) continue;
              if (types !== undefined && !types.has(event.type)) continue;
              yield toRecordedEvent(event);
              if (--remaining === 0) return;
            }
          } finally {
            await read.cancel();
          }
          if (seen < PAGE || last === undefined) return;
          from = last;
          skipThrough = last.commit;
        }
      },
    };
  }

  subscribeToAll(options: SubscribeToAllOptions = {}): Subscription {
    this.#checkOpen('subscribeToAll');
    const { fromPosition = -1n } = options;
    checkPosition('fromPosition', fromPosition);
    const selected = selection(options.streams);
    const types = eventTypeSet(options.eventTypes);
    const server = this.#client.subscribeToAll({
      fromPosition: fromPosition < 0n ? START : { commit: fromPosition, prepare: fromPosition },
      filter: streamNameFilter({ regex: '^[^$]' }), // the server's own streams stay on the server
    });
    const subscription = new EventStoreDbSubscription(
      server,
      fromPosition,
      (s) => this.#hidden(s) || !selected(s),
      (s) => this.#subscriptions.delete(s),
      types,
    );
    this.#subscriptions.add(subscription);
    return subscription;
  }

  async saveCheckpoint(name: string, position: bigint): Promise<void> {
    this.#checkOpen('saveCheckpoint');
    checkCheckpointName(name);
    checkPosition('position', position);
    const stream = this.#checkpointPrefix + name;
    if (!this.#checkpointStreamsSetUp.has(stream)) {
      // Only the latest checkpoint matters; the server may scavenge the older ones.
      await this.#client.setStreamMetadata(stream, { maxCount: 10 });
      this.#checkpointStreamsSetUp.add(stream);
    }
    await this.#client.appendToStream(
      stream,
      jsonEvent({ type: 'checkpoint', data: { name, position: position.toString() } }),
    );
  }

  async loadCheckpoint(name: string): Promise<bigint | null> {
    this.#checkOpen('loadCheckpoint');
    checkCheckpointName(name);
    for await (const e of this.#readServerStream(this.#checkpointPrefix + name, {
      direction: BACKWARDS,
      fromRevision: END,
      maxCount: 1,
    })) {
      const position = isRecord(e.data) ? e.data.position : undefined;
      if (typeof position !== 'string' || !/^-?\d+$/.test(position))
        throw new Error(`checkpoint "${name}" holds no position: ${JSON.stringify(e.data)}`);
      return BigInt(position);
    }
    return null;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all([...this.#subscriptions].map((s) => s.close()));
    await this.#client.dispose();
  }
}

/** A streams option as a predicate asked once per stream name (every stream when absent). */
function selection(streams: unknown): (stream: string) => boolean {
  const accepts = streamPredicate(streams);
  if (accepts === undefined) return () => true;
  const answers = new Map<string, boolean>();
  return (stream) => {
    let answer = answers.get(stream);
    if (answer === undefined) answers.set(stream, (answer = accepts(stream) === true));
    return answer;
  };
}

/** Wraps the client's catch-up subscription: port events, hidden streams left out, and a close() that ends it. */
class EventStoreDbSubscription implements Subscription {
  #closed = false;
  #started = false;
  #signalClosed!: () => void;
  readonly #whenClosed = new Promise<void>((resolve) => (this.#signalClosed = resolve));

  constructor(
    private readonly server: AllStreamSubscription,
    private readonly fromPosition: bigint,
    private readonly hidden: (stream: string) => boolean,
    private readonly onClose: (s: EventStoreDbSubscription) => void,
    /** Only events of these types (the eventTypes option), left out here as they arrive; undefined: every type. */
    private readonly types?: ReadonlySet<string>,
  ) {}

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.onClose(this);
    this.#signalClosed();
    await this.server.unsubscribe();
    this.server.destroy();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    if (this.#started) throw new Error('a subscription can be iterated only once');
    this.#started = true;
    const events = this.server[Symbol.asyncIterator]();
    const closed = this.#whenClosed.then(() => ({ done: true as const, value: undefined }));
    try {
      while (!this.#closed) {
        // The client's stream does not reliably end on unsubscribe: race it against close().
        const next = await Promise.race([events.next(), closed]);
        if (next.done) return;
        const event = next.value.event as ServerEvent | undefined;
        if (event?.position === undefined || this.hidden(event.streamId)) continue;
        if (event.position.commit <= this.fromPosition) continue; // the port's start is exclusive
        if (this.types !== undefined && !this.types.has(event.type)) continue;
        yield toRecordedEvent(event);
      }
    } finally {
      await this.close();
    }
  }
}
