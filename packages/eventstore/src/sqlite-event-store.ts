/**
 * The embedded event store: one SQLite file through better-sqlite3. Global position = the events table's rowid,
 * one unique index on event_id (idempotency), one on (stream, revision) (gap-free stream revisions).
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import {
  checkAppendManyArguments,
  checkCheckpointName,
  checkCount,
  checkExpectedRevision,
  checkExpectedRevisionArgument,
  checkPosition,
  checkSameEvent,
  checkStreamName,
  prepareEvents,
  streamPredicate,
  withoutRepeatsInCall,
  type PreparedEvent,
} from './append-input.ts';
import { canonicalJson } from './canonical-json.ts';
import {
  CompactFormatError,
  decodeCompact,
  encodeCompact,
  type DecodeDictionary,
  type EncodeDictionary,
} from './compact.ts';
import { InvalidArgument, StoreClosed } from './errors.ts';
import { GENESIS_HASH, hashedText, sha256Hex } from './hash-chain.ts';
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

export interface SqliteEventStoreOptions {
  /**
   * How often a live subscription looks for events appended by other processes (or other store instances);
   * appends through this instance wake its subscriptions at once. Default 50 ms.
   */
  pollIntervalMs?: number;
  /** Open an existing store for reading only (e.g. to verify it). Implies mustExist. */
  readOnly?: boolean;
  /** Refuse to create a new store file. */
  mustExist?: boolean;
  /**
   * How long an append waits for another process's write lock before failing. Default 30 s: ingest holds the lock
   * for one transaction per batch, which on a loaded machine can take seconds, and a live replay beside it must wait
   * for it, not fail.
   */
  busyTimeoutMs?: number;
}

/**
 * 4: data and metadata in the compact binary form (compact.ts), stream names, event types, object shapes and
 * repeated strings kept once in the dictionary table; the chain is unchanged (over the canonical JSON content), so a
 * version 3 store migrated to 4 keeps every hash. 3 kept canonical JSON text and hashes as 32-byte BLOBs; 2 kept
 * hashes as hex text; 1 hashed without recorded_at and is not read. 2 and 3 are refused with the command that
 * converts them.
 */
export const SCHEMA_VERSION = 4;
/** Rows read per query: bounds memory, and never holds the connection busy across a yield. */
const PAGE = 512;

/** The kinds of dictionary entries. */
export const DICTIONARY_KIND = { shape: 0, string: 1, stream: 2, type: 3 } as const;
type DictionaryKind = (typeof DICTIONARY_KIND)[keyof typeof DICTIONARY_KIND];

const SCHEMA = `
CREATE TABLE dictionary (
  id   INTEGER PRIMARY KEY,
  kind INTEGER NOT NULL,   -- 0 object shape (JSON array of sorted keys), 1 string, 2 stream name, 3 event type
  text TEXT    NOT NULL,
  UNIQUE (kind, text)
);
CREATE TABLE events (
  position      INTEGER PRIMARY KEY AUTOINCREMENT, -- AUTOINCREMENT: a position is never reused, even after a delete
  stream_id     INTEGER NOT NULL,                  -- dictionary id (kind 2)
  revision      INTEGER NOT NULL,
  event_id      TEXT    NOT NULL,
  type_id       INTEGER NOT NULL,                  -- dictionary id (kind 3)
  data          BLOB    NOT NULL,                  -- compact form (compact.ts)
  metadata      BLOB,                              -- compact form, NULL for none
  recorded_at   INTEGER NOT NULL,                  -- UTC ms
  previous_hash BLOB    NOT NULL,                  -- 32 bytes: the hash of revision - 1 (zeros for revision 0)
  hash          BLOB    NOT NULL                   -- 32 bytes: over the canonical JSON content (hash-chain.ts)
);
CREATE UNIQUE INDEX events_by_event_id ON events (event_id);
CREATE UNIQUE INDEX events_by_stream_revision ON events (stream_id, revision);
CREATE TABLE checkpoints (
  name     TEXT    PRIMARY KEY,
  position INTEGER NOT NULL,
  saved_at INTEGER NOT NULL
) WITHOUT ROWID;
-- what a migration from an older store verified there, so the copy can be checked against it (sqlite-migrate.ts)
CREATE TABLE migrations (
  id           INTEGER PRIMARY KEY,
  from_file    TEXT    NOT NULL,
  from_version INTEGER NOT NULL,
  events       INTEGER NOT NULL,
  merkle_root  TEXT    NOT NULL,                   -- of the old store's stream heads, as verify computes it
  heads        TEXT    NOT NULL,                   -- JSON [{stream, revision, hash}] of the old store
  migrated_at  INTEGER NOT NULL
);
PRAGMA user_version = ${SCHEMA_VERSION};
`;

/** Strings longer than this are never put in the dictionary. */
const MAX_DICTIONARY_STRING = 96;
/**
 * A string is put in the dictionary when it is seen the third time (by this process): a string seen twice costs less
 * inline than as an entry (its row and its index entry) plus two references. How many strings not yet in the
 * dictionary are counted, at most; then the count starts again.
 */
const MAX_COUNTED = 100_000;
const SIGHTINGS_TO_KEEP = 3;

/**
 * The dictionary table with its caches. An entry never changes once written, so the caches stay true; entries added
 * by a transaction that rolls back are forgotten (rollback()). Another process's entries are found on a miss.
 */
export class StoreDictionary implements EncodeDictionary, DecodeDictionary {
  readonly #ids = [
    new Map<string, number>(),
    new Map<string, number>(),
    new Map<string, number>(),
    new Map<string, number>(),
  ];
  readonly #entries = new Map<number, { kind: DictionaryKind; text: string; keys?: readonly string[] }>();
  readonly #sightings = new Map<string, number>();
  #added: { kind: DictionaryKind; text: string; id: number }[] = [];
  readonly #find: Database.Statement<[number, string], { id: number }>;
  readonly #insert: Database.Statement<[number, string]>;
  readonly #byId: Database.Statement<[number], { kind: number; text: string }>;
  readonly #streamsAfter: Database.Statement<[number], { id: number; text: string }>;

  constructor(db: Database.Database) {
    this.#find = db.prepare('SELECT id FROM dictionary WHERE kind = ? AND text = ?');
    this.#insert = db.prepare('INSERT INTO dictionary (kind, text) VALUES (?, ?)');
    this.#byId = db.prepare('SELECT kind, text FROM dictionary WHERE id = ?');
    this.#streamsAfter = db.prepare(
      `SELECT id, text FROM dictionary WHERE kind = ${DICTIONARY_KIND.stream} AND id > ? ORDER BY id`,
    );
  }

  /** The id of an entry, or undefined if the store has none. */
  lookUp(kind: DictionaryKind, text: string): number | undefined {
    const cached = this.#ids[kind]!.get(text);
    if (cached !== undefined) return cached;
    const row = this.#find.get(kind, text);
    if (row !== undefined) this.#ids[kind]!.set(text, row.id);
    return row?.id;
  }

  /** The id of an entry, added if new: only inside a write transaction. */
  idOf(kind: DictionaryKind, text: string): number {
    const found = this.lookUp(kind, text);
    if (found !== undefined) return found;
    const id = Number(this.#insert.run(kind, text).lastInsertRowid);
    this.#ids[kind]!.set(text, id);
    this.#added.push({ kind, text, id });
    return id;
  }

  shape(keysJson: string): number {
    return this.idOf(DICTIONARY_KIND.shape, keysJson);
  }

  string(value: string): number | undefined {
    const cached = this.#ids[DICTIONARY_KIND.string]!.get(value);
    if (cached !== undefined) return cached;
    if (value.length > MAX_DICTIONARY_STRING) return undefined;
    const seen = (this.#sightings.get(value) ?? 0) + 1;
    if (seen < SIGHTINGS_TO_KEEP) {
      if (this.#sightings.size >= MAX_COUNTED) this.#sightings.clear();
      this.#sightings.set(value, seen);
      return undefined;
    }
    this.#sightings.delete(value);
    return this.idOf(DICTIONARY_KIND.string, value);
  }

  #entry(id: number, kind: DictionaryKind) {
    let entry = this.#entries.get(id);
    if (entry === undefined) {
      const row = this.#byId.get(id);
      if (row === undefined) throw new CompactFormatError(`dictionary entry ${id} does not exist`);
      entry = { kind: row.kind as DictionaryKind, text: row.text };
      this.#entries.set(id, entry);
    }
    if (entry.kind !== kind)
      throw new CompactFormatError(`dictionary entry ${id} is of kind ${entry.kind}, not ${kind}`);
    return entry;
  }

  text(id: number, kind: DictionaryKind): string {
    return this.#entry(id, kind).text;
  }

  stringAt(id: number): string {
    return this.#entry(id, DICTIONARY_KIND.string).text;
  }

  shapeKeys(id: number): readonly string[] {
    const entry = this.#entry(id, DICTIONARY_KIND.shape);
    if (entry.keys === undefined) {
      let keys: unknown;
      try {
        keys = JSON.parse(entry.text);
      } catch {
        keys = null;
      }
      if (!Array.isArray(keys) || !keys.every((k) => typeof k === 'string'))
        throw new CompactFormatError(
          `dictionary entry ${id} is not a list of keys: ${entry.text.slice(0, 80)}`,
        );
      entry.keys = keys as string[];
    }
    return entry.keys;
  }

  /** Stream names added since the id given, in id order. */
  streamsAfter(id: number): { id: number; text: string }[] {
    return this.#streamsAfter.all(id);
  }

  /** Called when a write transaction commits. */
  commit(): void {
    this.#added = [];
  }

  /** Called when a write transaction rolls back: its entries were never stored. */
  rollback(): void {
    for (const { kind, text, id } of this.#added) {
      this.#ids[kind]!.delete(text);
      this.#entries.delete(id);
    }
    this.#added = [];
  }
}

/**
 * A row as read, in COLUMNS order (raw mode: arrays are cheaper to build than objects). Hashes come as hex text made
 * by SQLite (hex()): no Buffer per hash, which the GC pays for.
 */
type EventRow = [
  position: number,
  streamId: number,
  revision: number,
  eventId: string,
  typeId: number,
  data: Uint8Array,
  metadata: Uint8Array | null,
  recordedAt: number,
  previousHash: string,
  hash: string,
];

const COLUMNS =
  'position, stream_id, revision, event_id, type_id, data, metadata, recorded_at, lower(hex(previous_hash)), lower(hex(hash))';

/**
 * A stored payload that cannot be decoded (damaged or edited bytes, a dictionary entry removed) is not dropped and
 * does not stop the read: the event is yielded with `{ undecodable: why }` in its place, which cannot match the
 * event's hash, so verify and every reader that checks links name it as a broken link.
 */
function decodeStored(bytes: Uint8Array, dict: StoreDictionary, what: string, row: EventRow): unknown {
  try {
    return decodeCompact(bytes, dict, row[3]);
  } catch (err) {
    if (err instanceof CompactFormatError)
      return {
        undecodable: `the stored ${what} of the event at position ${row[0]} cannot be read: ${err.message}`,
      };
    throw err;
  }
}

function toRecordedEvent(row: EventRow, dict: StoreDictionary): RecordedEvent {
  const [position, streamId, revision, eventId, typeId, data, metadata, recordedAt, previousHash, hash] = row;
  const event: RecordedEvent = {
    stream: dict.text(streamId, DICTIONARY_KIND.stream),
    revision,
    position: BigInt(position),
    eventId,
    type: dict.text(typeId, DICTIONARY_KIND.type),
    data: decodeStored(data, dict, 'data', row),
    recordedAt,
    hash,
    previousHash,
  };
  if (metadata !== null)
    event.metadata = decodeStored(metadata, dict, 'metadata', row) as Record<string, unknown>;
  return event;
}

function prepareStatements(db: Database.Database) {
  const rows = <P extends unknown[]>(sql: string) => db.prepare<P, EventRow>(sql).raw(true);
  return {
    tail: db.prepare<[number], { revision: number; hash: string; position: number }>(
      'SELECT revision, lower(hex(hash)) AS hash, position FROM events WHERE stream_id = ? ORDER BY revision DESC LIMIT 1',
    ),
    byEventId: db.prepare<
      [string],
      { stream_id: number; revision: number; type_id: number; data: Uint8Array; position: number }
    >('SELECT stream_id, revision, type_id, data, position FROM events WHERE event_id = ?'),
    // No probe per event: a stored id is skipped by the unique index (changes = 0), and only then looked up.
    insert: db.prepare(
      `INSERT INTO events (stream_id, revision, event_id, type_id, data, metadata, recorded_at, previous_hash, hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, unhex(?), unhex(?)) ON CONFLICT (event_id) DO NOTHING`,
    ),
    forwards: rows<[number, number, number]>(
      `SELECT ${COLUMNS} FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision LIMIT ?`,
    ),
    backwards: rows<[number, number, number]>(
      `SELECT ${COLUMNS} FROM events WHERE stream_id = ? AND revision <= ? ORDER BY revision DESC LIMIT ?`,
    ),
    all: rows<[bigint, number]>(`SELECT ${COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?`),
    // the selected stream ids as a JSON array: one statement whatever their number
    allOf: rows<[bigint, string, number]>(
      `SELECT ${COLUMNS} FROM events WHERE position > ? AND stream_id IN (SELECT value FROM json_each(?))
       ORDER BY position LIMIT ?`,
    ),
    saveCheckpoint: db.prepare(
      `INSERT INTO checkpoints (name, position, saved_at) VALUES (?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET position = excluded.position, saved_at = excluded.saved_at`,
    ),
    loadCheckpoint: db.prepare<[string], { position: number }>(
      'SELECT position FROM checkpoints WHERE name = ?',
    ),
  };
}

/**
 * The stream ids a selection picks, kept up to date as streams are added: the predicate is asked once per stream
 * name. The ids go to SQLite as one JSON array (json_each), rebuilt only when a new stream was selected.
 */
class StreamFilter {
  #lastId = 0;
  #selected: number[] = [];
  #json = '[]';
  constructor(
    private readonly dict: StoreDictionary,
    private readonly accepts: (stream: string) => boolean,
  ) {}

  idsJson(): string {
    const added = this.dict.streamsAfter(this.#lastId);
    let changed = false;
    for (const { id, text } of added) {
      this.#lastId = id;
      if (this.accepts(text)) {
        this.#selected.push(id);
        changed = true;
      }
    }
    if (changed) this.#json = JSON.stringify(this.#selected);
    return this.#json;
  }
}

/** What a failed open says about a store of another version: its file, its version and how to go on. */
export function unsupportedVersionMessage(path: string, version: number, tables: number): string {
  if (version === 0)
    return `${path} is not a table-audit event store (${tables === 0 ? 'it is empty' : 'it holds other tables'})`;
  if (version === 1)
    return (
      `${path} has event-store schema version 1, whose hashes do not cover recorded_at; this code knows ` +
      `version ${SCHEMA_VERSION} and does not convert it: ingest its sources into a new store (--store PATH) and ` +
      `keep this one as it is`
    );
  if (version === 2 || version === 3)
    return (
      `${path} has event-store schema version ${version}; this code reads version ${SCHEMA_VERSION}. Convert it into a new ` +
      `file with \`table-audit store migrate ${path} NEW.sqlite\` (every event and its hash chain are checked ` +
      `and copied; ${path} is left as it is), then use --store NEW.sqlite`
    );
  return `${path} has event-store schema version ${version}; this code knows version ${SCHEMA_VERSION}`;
}

export class SqliteEventStore implements EventStore {
  readonly path: string;
  readonly #db: Database.Database;
  readonly #pollIntervalMs: number;
  readonly #subscriptions = new Set<SqliteSubscription>();
  #closed = false;

  readonly #statements: ReturnType<typeof prepareStatements>;
  readonly #dictionary: StoreDictionary;
  readonly #appendInTransaction: Database.Transaction<
    (
      parts: readonly { stream: string; expected: ExpectedRevision; prepare: () => PreparedEvent[] }[],
      checkpoint: { name: string; position: bigint } | undefined,
    ) => AppendResult[]
  >;
  /** appendMany is one SQLite transaction, the checkpoint included. */
  readonly atomicAcrossStreams = true;

  /** @param path a file (created with its directory unless mustExist/readOnly), or ':memory:'. */
  constructor(path: string, options: SqliteEventStoreOptions = {}) {
    this.path = path;
    this.#pollIntervalMs = options.pollIntervalMs ?? 50;
    const inMemory = path === ':memory:' || path === '';
    const readOnly = options.readOnly ?? false;
    if (!inMemory && !readOnly && !options.mustExist) mkdirSync(dirname(path), { recursive: true });
    this.#db = new Database(path, {
      readonly: readOnly,
      fileMustExist: readOnly || (options.mustExist ?? false),
    });
    try {
      this.#db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 30_000}`);
      if (!readOnly) {
        // WAL: readers (subscriptions, verify, other processes) never block the writer, nor it them.
        this.#db.pragma('journal_mode = WAL');
        // FULL, not NORMAL: in WAL mode NORMAL skips the fsync at each commit, so a power cut can lose the last
        // commits. Callers act on a resolved append (ingest commits its Kafka offsets), so it must be on disk.
        this.#db.pragma('synchronous = FULL');
        // A batch of tens of thousands of events is one transaction: with SQLite's 2 MiB default its dirty pages
        // spill to the WAL mid-transaction and the index pages are written again and again. 64 MiB holds a batch.
        this.#db.pragma(`cache_size = -${64 * 1024}`);
      }
      this.#openSchema(readOnly);
    } catch (err) {
      this.#db.close();
      throw err;
    }

    this.#statements = prepareStatements(this.#db);
    this.#dictionary = new StoreDictionary(this.#db);
    this.#appendInTransaction = this.#db.transaction((parts, checkpoint) => {
      const results = parts.map((p) => this.#appendNow(p.stream, p.expected, p.prepare()));
      if (checkpoint) this.#statements.saveCheckpoint.run(checkpoint.name, checkpoint.position, Date.now());
      return results;
    });
  }

  #openSchema(readOnly: boolean): void {
    const read = () => ({
      version: this.#db.pragma('user_version', { simple: true }) as number,
      tables: (this.#db.prepare('SELECT count(*) AS n FROM sqlite_master').get() as { n: number }).n,
    });
    let { version, tables } = read();
    if (version === 0 && !readOnly) {
      // Two processes may open a new store at the same moment: the schema is created in one IMMEDIATE
      // transaction (the other waits on the write lock, busy_timeout), after looking again inside it, so the
      // second finds the schema the first made instead of failing with "table events already exists".
      ({ version, tables } = this.#db
        .transaction(() => {
          const now = read();
          if (now.version !== 0 || now.tables !== 0) return now;
          this.#db.exec(SCHEMA);
          return read();
        })
        .immediate());
    }
    if (version === SCHEMA_VERSION) return;
    throw new Error(unsupportedVersionMessage(this.path, version, tables));
  }

  #checkOpen(what: string): void {
    if (this.#closed) throw new StoreClosed(what);
  }

  async append(
    stream: string,
    events: readonly EventData[],
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    this.#checkOpen('append');
    checkStreamName(stream);
    const expected = options.expectedRevision ?? 'any';
    checkExpectedRevisionArgument(expected);
    const prepared = prepareEvents(events);
    return this.#write([{ stream, expected, prepare: () => prepared }], undefined)[0]!;
  }

  async appendMany(
    appends: readonly StreamAppend[],
    options: AppendManyOptions = {},
  ): Promise<AppendResult[]> {
    this.#checkOpen('appendMany');
    checkAppendManyArguments(appends, options);
    // each part's canonical JSON is made inside the transaction, just before it is written, so it dies young
    // (a whole batch prepared up front outlives the GC's young generation); a refusal still rolls everything back
    const parts = appends.map((a) => ({
      stream: a.stream,
      expected: a.expectedRevision ?? 'any',
      prepare: () => prepareEvents(a.events),
    }));
    return this.#write(parts, options.checkpoint);
  }

  #write(
    parts: { stream: string; expected: ExpectedRevision; prepare: () => PreparedEvent[] }[],
    checkpoint: { name: string; position: bigint } | undefined,
  ): AppendResult[] {
    // IMMEDIATE: take the write lock before reading the streams' tails, so two processes cannot both chain onto one.
    let results: AppendResult[];
    try {
      results = this.#appendInTransaction.immediate(parts, checkpoint);
    } catch (err) {
      this.#dictionary.rollback();
      throw err;
    }
    this.#dictionary.commit();
    if (results.some((r) => r.appended > 0)) for (const s of this.#subscriptions) s.wake();
    return results;
  }

  #appendNow(stream: string, expected: ExpectedRevision, prepared: PreparedEvent[]): AppendResult {
    const s = this.#statements;
    const { firsts, repeats } = withoutRepeatsInCall(stream, prepared);
    const dict = this.#dictionary;
    const knownStreamId = dict.lookUp(DICTIONARY_KIND.stream, stream);
    const tail = knownStreamId === undefined ? undefined : s.tail.get(knownStreamId);
    const actual = tail?.revision ?? -1;
    const expectationHolds = (() => {
      try {
        checkExpectedRevision(stream, expected, actual);
        return true;
      } catch {
        return false;
      }
    })();
    if (!expectationHolds || firsts.length === 0) {
      // Refused unless every event is already stored (a retry with a stale revision succeeds): look them up.
      const stored = this.#storedCopies(stream, firsts);
      if (stored.fresh > 0 || prepared.length === 0) checkExpectedRevision(stream, expected, actual);
      if (prepared.length > 0)
        return {
          nextExpectedRevision: actual,
          position: stored.latest,
          appended: 0,
          alreadyStored: repeats + stored.count,
        };
      return {
        nextExpectedRevision: actual,
        position: tail ? BigInt(tail.position) : -1n,
        appended: 0,
        alreadyStored: 0,
      };
    }

    const recordedAt = Date.now();
    const streamId = knownStreamId ?? dict.idOf(DICTIONARY_KIND.stream, stream);
    let previousHash = tail?.hash ?? GENESIS_HASH;
    let revision = actual;
    let position = -1;
    let appended = 0;
    const skipped: PreparedEvent[] = [];
    for (const e of firsts) {
      const hash = sha256Hex(previousHash + hashedText({ stream, revision: revision + 1, recordedAt, ...e }));
      const info = s.insert.run(
        streamId,
        revision + 1,
        e.eventId,
        dict.idOf(DICTIONARY_KIND.type, e.type),
        encodeCompact(e.data, dict, e.eventId),
        e.metadata === undefined ? null : encodeCompact(e.metadata, dict, e.eventId),
        recordedAt,
        previousHash,
        hash,
      );
      if (info.changes === 0) {
        skipped.push(e); // its id is stored: checked below, and the chain goes on from the previous event
        continue;
      }
      revision++;
      appended++;
      position = Number(info.lastInsertRowid);
      previousHash = hash;
    }
    const stored = this.#storedCopies(stream, skipped);
    if (appended === 0)
      return {
        nextExpectedRevision: actual,
        position: stored.latest,
        appended: 0,
        alreadyStored: repeats + stored.count,
      };
    return {
      nextExpectedRevision: revision,
      position: BigInt(position),
      appended,
      alreadyStored: repeats + stored.count,
    };
  }

  /**
   * Which of `events` are stored, each checked to be the same event (else EventIdConflict, which rolls the
   * transaction back); the latest position among them (-1n if none).
   */
  #storedCopies(
    stream: string,
    events: readonly PreparedEvent[],
  ): { count: number; fresh: number; latest: bigint } {
    let count = 0;
    let latest = -1;
    for (const e of events) {
      const stored = this.#statements.byEventId.get(e.eventId);
      if (stored === undefined) continue;
      const dict = this.#dictionary;
      checkSameEvent(e, stream, {
        stream: dict.text(stored.stream_id, DICTIONARY_KIND.stream),
        revision: stored.revision,
        type: dict.text(stored.type_id, DICTIONARY_KIND.type),
        dataJson: canonicalJson(decodeCompact(stored.data, dict, e.eventId), 'data'),
      });
      count++;
      if (stored.position > latest) latest = stored.position;
    }
    return { count, fresh: events.length - count, latest: BigInt(latest) };
  }

  readStream(stream: string, options: ReadStreamOptions = {}): AsyncIterable<RecordedEvent> {
    checkStreamName(stream);
    const { direction = 'forwards', fromRevision, maxCount } = options;
    if (direction !== 'forwards' && direction !== 'backwards')
      throw new InvalidArgument(
        `direction must be 'forwards' or 'backwards', got ${JSON.stringify(direction)}`,
      );
    checkCount('fromRevision', fromRevision);
    checkCount('maxCount', maxCount);
    const backwards = direction === 'backwards';
    const statement = backwards ? this.#statements.backwards : this.#statements.forwards;
    const checkOpen = () => this.#checkOpen('readStream');
    const dict = this.#dictionary;
    return {
      async *[Symbol.asyncIterator]() {
        checkOpen();
        const streamId = dict.lookUp(DICTIONARY_KIND.stream, stream);
        if (streamId === undefined) return;
        let next = fromRevision ?? (backwards ? Number.MAX_SAFE_INTEGER : 0);
        let remaining = maxCount ?? Number.POSITIVE_INFINITY;
        while (remaining > 0) {
          checkOpen();
          const limit = Math.min(PAGE, remaining);
          const rows = statement.all(streamId, next, limit);
          for (const row of rows) yield toRecordedEvent(row, dict);
          const last = rows.at(-1);
          if (rows.length < limit || last === undefined) return;
          remaining -= rows.length;
          next = backwards ? last[2] - 1 : last[2] + 1;
        }
      },
    };
  }

  readAll(options: ReadAllOptions = {}): AsyncIterable<RecordedEvent> {
    const { fromPosition = -1n, maxCount } = options;
    checkPosition('fromPosition', fromPosition);
    checkCount('maxCount', maxCount);
    const filter = this.#streamFilter(options.streams);
    const readPage = (after: bigint, limit: number) => this.#readAllPage(after, limit, filter);
    return {
      async *[Symbol.asyncIterator]() {
        let after = fromPosition;
        let remaining = maxCount ?? Number.POSITIVE_INFINITY;
        while (remaining > 0) {
          const limit = Math.min(PAGE, remaining);
          const page = readPage(after, limit);
          yield* page;
          const last = page.at(-1);
          if (page.length < limit || last === undefined) return;
          remaining -= page.length;
          after = last.position;
        }
      },
    };
  }

  #streamFilter(streams: unknown): StreamFilter | undefined {
    const accepts = streamPredicate(streams);
    return accepts === undefined ? undefined : new StreamFilter(this.#dictionary, accepts);
  }

  #readAllPage(after: bigint, limit: number, filter: StreamFilter | undefined): RecordedEvent[] {
    this.#checkOpen('readAll');
    const rows =
      filter === undefined
        ? this.#statements.all.all(after, limit)
        : this.#statements.allOf.all(after, filter.idsJson(), limit);
    const dict = this.#dictionary;
    return rows.map((row) => toRecordedEvent(row, dict));
  }

  subscribeToAll(options: SubscribeToAllOptions = {}): Subscription {
    this.#checkOpen('subscribeToAll');
    const { fromPosition = -1n } = options;
    checkPosition('fromPosition', fromPosition);
    const filter = this.#streamFilter(options.streams);
    const subscription = new SqliteSubscription(
      (after) => (this.#closed ? [] : this.#readAllPage(after, PAGE, filter)),
      fromPosition,
      this.#pollIntervalMs,
      (s) => this.#subscriptions.delete(s),
    );
    this.#subscriptions.add(subscription);
    return subscription;
  }

  async saveCheckpoint(name: string, position: bigint): Promise<void> {
    this.#checkOpen('saveCheckpoint');
    checkCheckpointName(name);
    checkPosition('position', position);
    this.#statements.saveCheckpoint.run(name, position, Date.now());
  }

  async loadCheckpoint(name: string): Promise<bigint | null> {
    this.#checkOpen('loadCheckpoint');
    checkCheckpointName(name);
    const row = this.#statements.loadCheckpoint.get(name);
    return row === undefined ? null : BigInt(row.position);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all([...this.#subscriptions].map((s) => s.close()));
    this.#db.close();
  }
}

/**
 * Catch-up then live, as one loop: read everything after the last position seen; when a page comes back short,
 * wait for a wake-up (an append through this instance) or the poll interval (another process's append).
 * `position > last` misses nothing because SQLite has one writer at a time and a row becomes visible only with its
 * whole transaction, in rowid order — unlike a sequence in a multi-writer database, no lower position can land late.
 */
class SqliteSubscription implements Subscription {
  #after: bigint;
  #closed = false;
  #started = false;
  /** Set by wake(); cleared before each read so a wake-up during a yield is not lost. */
  #woken = false;
  #stopWaiting: (() => void) | null = null;

  constructor(
    private readonly readPage: (after: bigint) => RecordedEvent[],
    after: bigint,
    private readonly pollIntervalMs: number,
    private readonly onClose: (s: SqliteSubscription) => void,
  ) {
    this.#after = after;
  }

  wake(): void {
    this.#woken = true;
    this.#stopWaiting?.();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.onClose(this);
    this.#stopWaiting?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    if (this.#started) throw new Error('a subscription can be iterated only once');
    this.#started = true;
    try {
      while (!this.#closed) {
        this.#woken = false;
        const page = this.readPage(this.#after);
        for (const event of page) {
          if (this.#closed) return;
          this.#after = event.position;
          yield event;
        }
        if (page.length === PAGE || this.#woken) continue;
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            this.#stopWaiting = null;
            resolve();
          };
          const timer = setTimeout(done, this.pollIntervalMs);
          this.#stopWaiting = done;
        });
      }
    } finally {
      await this.close();
    }
  }
}
