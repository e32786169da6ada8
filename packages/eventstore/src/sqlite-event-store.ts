/**
 * The embedded event store: one SQLite file through better-sqlite3. Global position = the events table's rowid,
 * one unique index on event_id (idempotency), one on (stream, revision) (gap-free stream revisions).
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
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
  type PreparedEvent,
} from './append-input.ts';
import { InvalidArgument, StoreClosed } from './errors.ts';
import { attachStoredJson, GENESIS_HASH, hashedText, sha256Hex } from './hash-chain.ts';
import type {
  AppendOptions,
  AppendResult,
  EventData,
  EventStore,
  ExpectedRevision,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
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
  /** How long an append waits for another process's write lock before failing. Default 5000 ms. */
  busyTimeoutMs?: number;
}

/** 2: recorded_at is inside each event's hash (version 1 stores hashed without it and are not read). */
const SCHEMA_VERSION = 2;
/** Rows read per query: bounds memory, and never holds the connection busy across a yield. */
const PAGE = 512;

const SCHEMA = `
CREATE TABLE events (
  position      INTEGER PRIMARY KEY AUTOINCREMENT, -- AUTOINCREMENT: a position is never reused, even after a delete
  stream        TEXT    NOT NULL,
  revision      INTEGER NOT NULL,
  event_id      TEXT    NOT NULL,
  type          TEXT    NOT NULL,
  data          TEXT    NOT NULL,                  -- canonical JSON, exactly the bytes that were hashed
  metadata      TEXT,                              -- canonical JSON, NULL for none
  recorded_at   INTEGER NOT NULL,                  -- UTC ms
  previous_hash TEXT    NOT NULL,
  hash          TEXT    NOT NULL
);
CREATE UNIQUE INDEX events_by_event_id ON events (event_id);
CREATE UNIQUE INDEX events_by_stream_revision ON events (stream, revision);
CREATE TABLE checkpoints (
  name     TEXT    PRIMARY KEY,
  position INTEGER NOT NULL,
  saved_at INTEGER NOT NULL
) WITHOUT ROWID;
PRAGMA user_version = ${SCHEMA_VERSION};
`;

interface EventRow {
  position: number;
  stream: string;
  revision: number;
  event_id: string;
  type: string;
  data: string;
  metadata: string | null;
  recorded_at: number;
  previous_hash: string;
  hash: string;
}

const COLUMNS =
  'position, stream, revision, event_id, type, data, metadata, recorded_at, previous_hash, hash';

function toRecordedEvent(row: EventRow): RecordedEvent {
  const event: RecordedEvent = {
    stream: row.stream,
    revision: row.revision,
    position: BigInt(row.position),
    eventId: row.event_id,
    type: row.type,
    data: JSON.parse(row.data) as unknown,
    recordedAt: row.recorded_at,
    hash: row.hash,
    previousHash: row.previous_hash,
  };
  if (row.metadata !== null) event.metadata = JSON.parse(row.metadata) as Record<string, unknown>;
  attachStoredJson(event, row.data, row.metadata ?? undefined);
  return event;
}

function prepareStatements(db: Database.Database) {
  return {
    tail: db.prepare<[string], { revision: number; hash: string; position: number }>(
      'SELECT revision, hash, position FROM events WHERE stream = ? ORDER BY revision DESC LIMIT 1',
    ),
    byEventId: db.prepare<
      [string],
      { stream: string; revision: number; type: string; data: string; position: number }
    >('SELECT stream, revision, type, data, position FROM events WHERE event_id = ?'),
    insert: db.prepare(
      `INSERT INTO events (stream, revision, event_id, type, data, metadata, recorded_at, previous_hash, hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    forwards: db.prepare<[string, number, number], EventRow>(
      `SELECT ${COLUMNS} FROM events WHERE stream = ? AND revision >= ? ORDER BY revision LIMIT ?`,
    ),
    backwards: db.prepare<[string, number, number], EventRow>(
      `SELECT ${COLUMNS} FROM events WHERE stream = ? AND revision <= ? ORDER BY revision DESC LIMIT ?`,
    ),
    all: db.prepare<[bigint, number], EventRow>(
      `SELECT ${COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?`,
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

export class SqliteEventStore implements EventStore {
  readonly path: string;
  readonly #db: Database.Database;
  readonly #pollIntervalMs: number;
  readonly #subscriptions = new Set<SqliteSubscription>();
  #closed = false;

  readonly #statements: ReturnType<typeof prepareStatements>;
  readonly #appendInTransaction: Database.Transaction<
    (stream: string, expected: ExpectedRevision, prepared: PreparedEvent[]) => AppendResult
  >;

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
      this.#db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
      if (!readOnly) {
        // WAL: readers (subscriptions, verify, other processes) never block the writer, nor it them.
        this.#db.pragma('journal_mode = WAL');
        // FULL, not NORMAL: in WAL mode NORMAL skips the fsync at each commit, so a power cut can lose the last
        // commits. Callers act on a resolved append (ingest commits its Kafka offsets), so it must be on disk.
        this.#db.pragma('synchronous = FULL');
      }
      this.#openSchema(readOnly);
    } catch (err) {
      this.#db.close();
      throw err;
    }

    this.#statements = prepareStatements(this.#db);
    this.#appendInTransaction = this.#db.transaction(this.#appendNow.bind(this));
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
    throw new Error(
      version === 0
        ? `${this.path} is not a table-audit event store (${tables === 0 ? 'it is empty' : 'it holds other tables'})`
        : version === 1
          ? `${this.path} has event-store schema version 1, whose hashes do not cover recorded_at; this code knows ` +
            `version ${SCHEMA_VERSION} and does not convert a store in place: ingest its sources into a new store ` +
            `(--store PATH) and keep this one as it is`
          : `${this.path} has event-store schema version ${version}; this code knows version ${SCHEMA_VERSION}`,
    );
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
    // IMMEDIATE: take the write lock before reading the stream's tail, so two processes cannot both chain onto it.
    const result = this.#appendInTransaction.immediate(stream, expected, prepared);
    if (result.appended > 0) for (const s of this.#subscriptions) s.wake();
    return result;
  }

  #appendNow(stream: string, expected: ExpectedRevision, prepared: PreparedEvent[]): AppendResult {
    const s = this.#statements;
    const { firsts, repeats } = withoutRepeatsInCall(stream, prepared);
    let alreadyStored = repeats;
    let latestStoredCopy = -1n;
    const fresh: PreparedEvent[] = [];
    for (const e of firsts) {
      const stored = s.byEventId.get(e.eventId);
      if (stored === undefined) {
        fresh.push(e);
        continue;
      }
      checkSameEvent(e, stream, { ...stored, dataJson: stored.data });
      alreadyStored++;
      if (BigInt(stored.position) > latestStoredCopy) latestStoredCopy = BigInt(stored.position);
    }

    const tail = s.tail.get(stream);
    const actual = tail?.revision ?? -1;
    // Only repeats: nothing to write, so no expectation to check (a retry with a stale revision succeeds).
    if (fresh.length === 0 && prepared.length > 0)
      return { nextExpectedRevision: actual, position: latestStoredCopy, appended: 0, alreadyStored };
    checkExpectedRevision(stream, expected, actual);
    if (fresh.length === 0)
      return {
        nextExpectedRevision: actual,
        position: tail ? BigInt(tail.position) : -1n,
        appended: 0,
        alreadyStored,
      };

    const recordedAt = Date.now();
    let previousHash = tail?.hash ?? GENESIS_HASH;
    let revision = actual;
    let position = -1n;
    for (const e of fresh) {
      revision++;
      const hash = sha256Hex(previousHash + hashedText({ stream, revision, recordedAt, ...e }));
      const info = s.insert.run(
        stream,
        revision,
        e.eventId,
        e.type,
        e.dataJson,
        e.metadataJson ?? null,
        recordedAt,
        previousHash,
        hash,
      );
      position = BigInt(info.lastInsertRowid);
      previousHash = hash;
    }
    return { nextExpectedRevision: revision, position, appended: fresh.length, alreadyStored };
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
    return {
      async *[Symbol.asyncIterator]() {
        let next = fromRevision ?? (backwards ? Number.MAX_SAFE_INTEGER : 0);
        let remaining = maxCount ?? Number.POSITIVE_INFINITY;
        while (remaining > 0) {
          checkOpen();
          const limit = Math.min(PAGE, remaining);
          const rows = statement.all(stream, next, limit);
          for (const row of rows) yield toRecordedEvent(row);
          const last = rows.at(-1);
          if (rows.length < limit || last === undefined) return;
          remaining -= rows.length;
          next = backwards ? last.revision - 1 : last.revision + 1;
        }
      },
    };
  }

  readAll(options: ReadAllOptions = {}): AsyncIterable<RecordedEvent> {
    const { fromPosition = -1n, maxCount } = options;
    checkPosition('fromPosition', fromPosition);
    checkCount('maxCount', maxCount);
    const readPage = (after: bigint, limit: number) => this.#readAllPage(after, limit);
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

  #readAllPage(after: bigint, limit: number): RecordedEvent[] {
    this.#checkOpen('readAll');
    return this.#statements.all.all(after, limit).map(toRecordedEvent);
  }

  subscribeToAll(options: SubscribeToAllOptions = {}): Subscription {
    this.#checkOpen('subscribeToAll');
    const { fromPosition = -1n } = options;
    checkPosition('fromPosition', fromPosition);
    const subscription = new SqliteSubscription(
      (after) => (this.#closed ? [] : this.#readAllPage(after, PAGE)),
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
