/**
 * The event-store port: what the services need from an event store, and nothing about casino events. Adapters
 * (SQLite, EventStoreDB) implement it; `conformance.ts` is the one definition of how they must behave.
 */

/** An event as a writer hands it over. */
export interface EventData {
  /** The writer's id for the event; appends are idempotent by it. Any non-empty string. */
  eventId: string;
  type: string;
  /** JSON: null, booleans, strings, safe integers, arrays and plain objects (no floats: money is in avos). */
  data: unknown;
  /** JSON object as for `data`. An empty object is stored as no metadata. */
  metadata?: Record<string, unknown>;
}

/** An event as the store recorded it. */
export interface RecordedEvent extends EventData {
  stream: string;
  /** 0-based, gap-free within its stream. */
  revision: number;
  /** The store's global order: strictly increasing across all streams, not necessarily contiguous. */
  position: bigint;
  /** When the store recorded it, UTC milliseconds. */
  recordedAt: number;
  /**
   * sha256 of the event's hash form (hash-form.ts: data, metadata, stream, revision, recordedAt, eventId, type and
   * the previous hash, in one byte-exact binary spelling), hex: over the content, whatever form an adapter stores it
   * in, so every adapter's chain of the same events is the same.
   */
  hash: string;
  /** The hash of the previous event of the same stream; 64 zeros for revision 0. */
  previousHash: string;
}

/**
 * What the writer believes about the stream before its append:
 * 'any' — nothing checked; 'no-stream' — the stream has no events; 'stream-exists' — it has at least one;
 * a number — the revision of its last event (-1 is the same as 'no-stream').
 */
export type ExpectedRevision = 'any' | 'no-stream' | 'stream-exists' | number;

export interface AppendOptions {
  /** Default 'any'. */
  expectedRevision?: ExpectedRevision;
}

export interface AppendResult {
  /** The revision of the stream's last event after the append (-1 if it still has none). */
  nextExpectedRevision: number;
  /**
   * The global position of the last event of this call as stored: the last one written, or, when every event was
   * already stored, the latest of their stored copies. -1n when the call held no events and the stream is empty.
   */
  position: bigint;
  /** Events written by this call. */
  appended: number;
  /** Events of this call that were already stored (earlier, or earlier in this same call) and not written again. */
  alreadyStored: number;
}

/** One stream's part of an appendMany. */
export interface StreamAppend {
  stream: string;
  events: readonly EventData[];
  /** Default 'any'; checked as for append. */
  expectedRevision?: ExpectedRevision;
}

export interface AppendManyOptions {
  /** A consumer's checkpoint saved with the events (atomically with them where the store is atomicAcrossStreams). */
  checkpoint?: { name: string; position: bigint };
}

export interface ReadStreamOptions {
  /** Default 'forwards'. */
  direction?: 'forwards' | 'backwards';
  /** Inclusive. Default: the first revision forwards, the last backwards. */
  fromRevision?: number;
  maxCount?: number;
}

/**
 * Which streams a read of the global log yields: a list of names, or a predicate on a stream's name. A predicate is
 * asked once per stream name (not per event) and must give the same answer every time: the SQLite store turns it
 * into the set of stream ids it selects and leaves the rest in SQLite, unread and undecoded. The events yielded keep
 * their global positions and order; the others are skipped (maxCount counts only the events yielded).
 */
export type StreamSelection = readonly string[] | ((stream: string) => boolean);

export interface ReadAllOptions {
  /** Exclusive: the events after this position. Default: from the beginning. */
  fromPosition?: bigint;
  maxCount?: number;
  /** Only these streams' events. Default: every stream. */
  streams?: StreamSelection;
  /** Only events of these types (see EventTypeSelection). Default: every type. */
  eventTypes?: EventTypeSelection;
}

/**
 * Which event types a read of the global log yields: exact type names. With `streams`, an event must be of a
 * selected stream and of a selected type. The events yielded keep their global positions and order, and their
 * `previousHash` is still the stored hash of the revision before them in their stream, whether that event was
 * yielded or not; maxCount counts only the events yielded. The SQLite store selects by type inside SQLite (the type
 * is a column: the skipped events are neither read into JavaScript nor decoded); EventStoreDB's adapter drops them
 * as they arrive. A reader that checks links can check each yielded event's own hash against its previous hash, but
 * not the links of the events it skipped: the whole chain is `verify`'s to check (docs/integrity.md).
 */
export type EventTypeSelection = readonly string[];

export interface SubscribeToAllOptions {
  /** Exclusive, as for readAll: typically a saved checkpoint. Default: from the beginning. */
  fromPosition?: bigint;
  /** Only these streams' events, as for readAll. Default: every stream. */
  streams?: StreamSelection;
  /** Only events of these types, as for readAll. Default: every type. */
  eventTypes?: EventTypeSelection;
}

/** Catch-up subscription: yields every stored event after the start position, then each new one as it lands. */
export interface Subscription extends AsyncIterable<RecordedEvent> {
  /** Ends the iteration (a pending `next()` resolves as done). Idempotent. */
  close(): Promise<void>;
}

export interface EventStore {
  /**
   * Appends atomically (all of the call's new events or none) and durably (stored when the promise resolves).
   *
   * Idempotent by event id: an event whose id is already stored — or appears earlier in the same call — is not
   * written again and counts in `alreadyStored`. The expected revision is checked only if the call writes
   * something, so re-sending events that are all stored succeeds even with a stale expected revision. A stored id
   * arriving with a different stream, type or data is not a duplicate but an error (EventIdConflict).
   *
   * @throws WrongExpectedRevision when the call has new events and the stream is not as expected.
   * @throws EventIdConflict, InvalidEventData, InvalidArgument.
   */
  append(stream: string, events: readonly EventData[], options?: AppendOptions): Promise<AppendResult>;

  /**
   * Whether appendMany is one transaction across streams. When false, each stream's part is atomic on its own, in
   * order, then the checkpoint: a failure part-way leaves the earlier parts stored (each is idempotent to re-send).
   * Absent: false.
   */
  readonly atomicAcrossStreams?: boolean;

  /**
   * Appends to several streams, each part with the rules of append (idempotent by event id, expected revision), and
   * saves the checkpoint if given; one result per part, in order. With atomicAcrossStreams, all of it is one durable
   * transaction: a refused part (WrongExpectedRevision, EventIdConflict, InvalidEventData) leaves nothing written.
   * A stream may appear in several parts; they apply in order.
   *
   * Optional on the port only so that decorators written before it still type-check: use `appendToStreams`, which
   * falls back to append per part and saveCheckpoint on a store without it.
   */
  appendMany?(appends: readonly StreamAppend[], options?: AppendManyOptions): Promise<AppendResult[]>;

  /**
   * The revision of a stream's last event, -1 for a stream without events: what `readStream(stream, {direction:
   * 'backwards', maxCount: 1})` yields first, without reading or decoding the event (an API asks it per request to
   * know whether what it keeps is current). Optional on the port only so that decorators written before it still
   * type-check: use `streamHead(store, stream)`, which falls back to that read on a store without it.
   */
  streamHead?(stream: string): Promise<number>;

  /** A stream's events in revision order. A stream that does not exist yields nothing (no error). */
  readStream(stream: string, options?: ReadStreamOptions): AsyncIterable<RecordedEvent>;

  /** Every stream's events in global order (forwards). */
  readAll(options?: ReadAllOptions): AsyncIterable<RecordedEvent>;

  /**
   * The position of the last event stored (-1n when none is). Every event at or before it was stored when the
   * promise resolved: a reader that selects streams or types can read on from it, past the events it left out,
   * instead of from its last selected event. Optional: a store without it (EventStoreDB's adapter, decorators)
   * gives such a reader no way past the events it skipped.
   */
  headPosition?(): Promise<bigint>;

  subscribeToAll(options?: SubscribeToAllOptions): Subscription;

  /** Durably records how far a named consumer got (a global position). */
  saveCheckpoint(name: string, position: bigint): Promise<void>;

  /** The position last saved under `name`, or null if none was. */
  loadCheckpoint(name: string): Promise<bigint | null>;

  /** Ends subscriptions and releases the store; later calls reject with StoreClosed. Idempotent. */
  close(): Promise<void>;
}
