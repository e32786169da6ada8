/**
 * The embedded event store: one SQLite file through better-sqlite3. Global position = the events table's rowid,
 * one unique index on event_id (idempotency), one on (stream, revision) (gap-free stream revisions).
 */
import crypto, { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import {
  checkAppendManyArguments,
  checkCheckpointName,
  checkCount,
  checkEvents,
  checkExpectedRevision,
  checkExpectedRevisionArgument,
  checkPosition,
  checkStreamName,
  dataForm,
  eventTypeSet,
  streamPredicate,
  withoutRepeats,
  type CheckedEvent,
} from './append-input.ts';
import {
  CompactFormatError,
  decodeCompact,
  encodeWithHashForm,
  expandToHashForm,
  type DecodeDictionary,
  type DualDictionary,
  type EncodeDictionary,
  type ExpandDictionary,
} from './compact.ts';
import { EventIdConflict, InvalidArgument, InvalidEventData, StoreClosed } from './errors.ts';
import { AppendPreparer, PREPARED_FORMAT, PreparedOutOfDate, PreparedReader } from './prepared-append.ts';
export { AppendPreparer, PreparedOutOfDate, type PreparePart } from './prepared-append.ts';
import { attachStoredForm, GENESIS_HASH, type StoredForm } from './hash-chain.ts';
import {
  explainProblem,
  FORM_TAG,
  FormWriter,
  HASH_FORM_VERSION,
  NOT_IN_FORM,
  sha256Bytes,
  writeHeaderAndPrevious,
} from './hash-form.ts';
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
  /**
   * SQLite's page cache for this connection, MiB. Default 64 for a connection that writes (a large ingest batch is
   * one transaction, see below) and SQLite's default for a read-only one (16,000 KiB in this build of
   * better-sqlite3). A reader that reads the log once and writes little (a bulk replay's shard) needs few pages
   * kept: with 64 MiB its cache fills with pages it never reads again.
   */
  cacheMiB?: number;
  /**
   * Dictionary entries read at once when one is missing from the cache, the missing one first (default 64, see
   * StoreDictionary.#readAhead). A reader in position order meets entries in about id order and gains from it; one
   * that reads a few events here and there (an API's first replay of a round: its strings are scattered among every
   * table's) reads mostly entries it never uses, and is better served by 1 (the entry alone).
   */
  dictionaryReadAhead?: number;
}

/**
 * 6: as 5, and a string that begins with a dictionary string may be kept as that entry and the rest (compact.ts tag
 * 10); the hash form, and so every hash, is the same as in 5. A version 5 store is read and appended to as it is
 * (this code writes no tag 10 into it): it needs no conversion, and the code that made it can still read it.
 * 5: the hash chain over the stored bytes (hash-form.ts: the compact payload with its dictionary references written
 * out, then stream, revision, recorded time, id, type and the previous hash), no canonical JSON on append or on
 * read; the previous hash is not stored (it is the hash of the stream's previous row).
 * 4: data and metadata in the compact binary form (compact.ts), names and repeated strings in the dictionary; its
 * chain was over canonical JSON. 3 kept canonical JSON text and hashes as 32-byte BLOBs; 2 kept hashes as hex text;
 * 1 hashed without recorded_at and is not read. 2, 3 and 4 are refused with the command that converts them.
 */
export const SCHEMA_VERSION = 6;
/** The versions this code opens (and appends to, each in its own form): the current one and 5. */
export const OPENED_SCHEMA_VERSIONS: readonly number[] = [SCHEMA_VERSION, 5];
/** Rows read per query: bounds memory, and never holds the connection busy across a yield. */
const PAGE = 512;
const GENESIS_BYTES = Buffer.alloc(32);

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
  hash          BLOB    NOT NULL                   -- 32 bytes: sha256 of the hash form (hash-form.ts), which ends
                                                   -- with the hash of revision - 1 of the stream (zeros for 0)
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
  migrated_at  INTEGER NOT NULL,
  new_merkle_root TEXT,                            -- of this store's heads right after the copy (chain version 5)
  new_heads    TEXT                                -- JSON [{stream, revision, hash}] of this store then
);
PRAGMA user_version = ${SCHEMA_VERSION};
`;

interface OwnKeysShape {
  own: readonly string[];
  id: number;
  sorted: readonly string[];
  order: readonly number[];
  form: Uint8Array;
}
const sameKeys = (a: readonly string[], b: readonly string[]): boolean => {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
};

/**
 * A copy of bytes kept for as long as the store is open (a dictionary entry's form) in memory of its own: a small
 * Buffer.from is a slice of Node's shared 8 KiB pool, and one kept slice keeps its whole slab alive (with an entry
 * per round, tens of MiB at a few hundred thousand events).
 */
const ownCopy = (bytes: Uint8Array): Uint8Array => new Uint8Array(bytes);

/**
 * How many entries each of the dictionary's caches keeps (id → entry for reading, text → id for writing). A store
 * holds a few string entries per round (round ids, bet ids), so a cache of every entry met would grow with the
 * history read: a bulk replay of 20,000 rounds kept 46,000 entries (about 20 MiB). Past the bound the oldest
 * quarter is forgotten; a miss reads the entry again (one indexed lookup).
 */
export const MAX_CACHED_ENTRIES = 16_384;

/** Forgets the oldest quarter of a cache (a Map keeps insertion order) once it holds more than `max`. */
function boundCache(cache: Map<unknown, unknown>, max: number): void {
  if (cache.size < max) return;
  let drop = cache.size - Math.floor((max * 3) / 4);
  for (const key of cache.keys()) {
    if (drop-- <= 0) break;
    cache.delete(key);
  }
}

/** Dictionary entries read with one that is missing from the cache (see StoreDictionary.#readAhead). */
const READ_AHEAD = 64;

/** Strings longer than this are never put in the dictionary. */
const MAX_DICTIONARY_STRING = 96;
/**
 * A string is put in the dictionary when it is seen the third time (by this process): a string seen twice costs less
 * inline than as an entry (its row and its index entry) plus two references. How many strings not yet in the
 * dictionary are counted, at most; then the count starts again.
 */
const MAX_COUNTED = 100_000;
const SIGHTINGS_TO_KEEP = 3;
/** A dictionary string kept as the beginning of another (compact tag 10) is at least this many characters long. */
const MIN_PREFIX = 6;
/** How many separators of a string are tried, from its end, for a dictionary string it begins with. */
const PREFIX_TRIES = 3;

/**
 * The dictionary table with its caches. An entry never changes once written, so the caches stay true; entries added
 * by a transaction that rolls back are forgotten (rollback()). Another process's entries are found on a miss.
 */
interface DictionaryEntry {
  kind: DictionaryKind;
  text: string;
  keys?: readonly string[];
  /** the entry in the hash form: a string's bytes, or a shape's key count and keys */
  form?: Uint8Array;
  /** a shape's key count and form (shapeForm), made once */
  shapeForm?: { keys: number; bytes: Uint8Array };
  /** a string's UTF-8 bytes, within its form (stringBytes), made once */
  bytes?: Uint8Array;
}

export class StoreDictionary implements EncodeDictionary, DecodeDictionary, DualDictionary, ExpandDictionary {
  readonly #ids = [
    new Map<string, number>(),
    new Map<string, number>(),
    new Map<string, number>(),
    new Map<string, number>(),
  ];
  readonly #entries = new Map<number, DictionaryEntry>();
  readonly #formWriter = new FormWriter();
  readonly #sightings = new Map<string, number>();
  #added: { kind: DictionaryKind; text: string; id: number }[] = [];
  readonly #find: Database.Statement<[number, string], { id: number }>;
  readonly #insert: Database.Statement<[number, string]>;
  readonly #insertAt: Database.Statement<[number, number, string]>;
  readonly #byId: Database.Statement<[number], { kind: number; text: string }>;
  readonly #byIdFrom: Database.Statement<[number, number], { id: number; kind: number; text: string }>;
  readonly #streamsAfter: Database.Statement<[number], { id: number; text: string }>;
  readonly #maxId: Database.Statement<[], { id: number | null }>;

  constructor(db: Database.Database) {
    this.#find = db.prepare('SELECT id FROM dictionary WHERE kind = ? AND text = ?');
    this.#insert = db.prepare('INSERT INTO dictionary (kind, text) VALUES (?, ?)');
    this.#insertAt = db.prepare('INSERT INTO dictionary (id, kind, text) VALUES (?, ?, ?)');
    this.#byId = db.prepare('SELECT kind, text FROM dictionary WHERE id = ?');
    this.#byIdFrom = db.prepare('SELECT id, kind, text FROM dictionary WHERE id >= ? ORDER BY id LIMIT ?');
    this.#streamsAfter = db.prepare(
      `SELECT id, text FROM dictionary WHERE kind = ${DICTIONARY_KIND.stream} AND id > ? ORDER BY id`,
    );
    this.#maxId = db.prepare('SELECT max(id) AS id FROM dictionary');
  }

  /** The id of an entry, or undefined if the store has none. */
  lookUp(kind: DictionaryKind, text: string): number | undefined {
    const cached = this.#ids[kind]!.get(text);
    if (cached !== undefined) return cached;
    const row = this.#find.get(kind, text);
    if (row !== undefined) this.#cacheId(kind, text, row.id);
    return row?.id;
  }

  /**
   * Set for a dictionary that prepares appends another connection writes (prepared-append.ts): a new entry is not
   * written but given the id SQLite will give it when it is (the largest id + 1, then on), and handed over with the
   * prepared batch (takeAdded). Null: entries are written as they are added.
   */
  #provisionalNext: number | null = null;

  /** Makes this a preparing dictionary (see #provisionalNext) whose next new entry gets `nextId`. */
  startProvisional(nextId: number): void {
    this.#provisionalNext = nextId;
  }

  /** The id the next new entry of a preparing dictionary gets. */
  get provisionalNext(): number | null {
    return this.#provisionalNext;
  }

  /** A preparing dictionary's entries added since the last call (or commit), in id order; forgotten here. */
  takeAdded(): { kind: DictionaryKind; text: string; id: number }[] {
    const added = this.#added;
    this.#added = [];
    return added;
  }

  /**
   * Writes an entry with the id a preparing dictionary gave it (SqliteEventStore.appendPrepared), inside a write
   * transaction; PreparedOutOfDate if that id or that text is taken (the dictionary changed since). Forgotten on
   * rollback, like an entry added here.
   */
  insertGiven(kind: DictionaryKind, text: string, id: number): void {
    try {
      this.#insertAt.run(id, kind, text);
    } catch (err) {
      if ((err as { code?: string }).code?.startsWith('SQLITE_CONSTRAINT'))
        throw new PreparedOutOfDate(
          `dictionary entry ${id} (${JSON.stringify(text.slice(0, 80))}) cannot be written: the dictionary changed since the batch was prepared`,
        );
      throw err;
    }
    this.#added.push({ kind, text, id });
  }

  /** The id of an entry, added if new: only inside a write transaction (or given provisionally, see above). */
  idOf(kind: DictionaryKind, text: string): number {
    const found = this.lookUp(kind, text);
    if (found !== undefined) return found;
    // a preparing dictionary's entry the bounded caches forget before the writer has stored it is given a second id
    // when seen again: the writer then refuses the batch (PreparedOutOfDate) and it goes the ordinary way
    const id =
      this.#provisionalNext === null
        ? Number(this.#insert.run(kind, text).lastInsertRowid)
        : this.#provisionalNext++;
    this.#cacheId(kind, text, id);
    this.#cacheEntry(id, { kind, text });
    this.#added.push({ kind, text, id });
    return id;
  }

  /** Both caches are bounded (MAX_CACHED_ENTRIES), except once an in-memory store is closed: then all is kept. */
  #maxCached = MAX_CACHED_ENTRIES;

  #cacheId(kind: DictionaryKind, text: string, id: number): void {
    const ids = this.#ids[kind]!;
    boundCache(ids, this.#maxCached);
    ids.set(text, id);
  }

  #cacheEntry(id: number, entry: DictionaryEntry): void {
    boundCache(this.#entries, this.#maxCached);
    this.#entries.set(id, entry);
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

  /**
   * The store is closing: events already read decode their payload on first access, possibly later, so a file
   * store's entries are then read through a connection of their own; an in-memory store's are all cached now.
   */
  detach(db: Database.Database, path: string | null): void {
    if (path === null) {
      this.#maxCached = Number.POSITIVE_INFINITY; // no connection is left to read an entry forgotten
      for (const row of db.prepare('SELECT id, kind, text FROM dictionary').all() as {
        id: number;
        kind: number;
        text: string;
      }[])
        if (!this.#entries.has(row.id))
          this.#entries.set(row.id, { kind: row.kind as DictionaryKind, text: row.text });
    } else this.#afterClose = path;
  }
  #afterClose: string | null = null;

  /**
   * A miss reads the entry and the next READ_AHEAD ones with one statement: entries are added in the order the
   * events that first use them are stored, so a reader in position order meets them in about id order (a bulk
   * replay met 24,000 string entries one lookup each). Entries already cached are kept as they are.
   */
  #readAhead(id: number): void {
    for (const row of this.#byIdFrom.all(id, this.readAhead))
      if (!this.#entries.has(row.id))
        this.#cacheEntry(row.id, { kind: row.kind as DictionaryKind, text: row.text });
  }

  #row(id: number): { kind: number; text: string } | undefined {
    if (this.#afterClose === null) return this.#byId.get(id);
    const db = new Database(this.#afterClose, { readonly: true, fileMustExist: true });
    try {
      return db.prepare('SELECT kind, text FROM dictionary WHERE id = ?').get(id) as
        { kind: number; text: string } | undefined;
    } finally {
      db.close();
    }
  }

  /** Entries read at once on a miss, the missing one first (READ_AHEAD unless the store was opened with another). */
  readAhead = READ_AHEAD;

  #entry(id: number, kind: DictionaryKind) {
    let entry = this.#entries.get(id);
    if (entry === undefined) {
      if (this.#afterClose === null && this.readAhead > 1) this.#readAhead(id);
      entry = this.#entries.get(id);
    }
    if (entry === undefined) {
      const row = this.#row(id);
      if (row === undefined) throw new CompactFormatError(`dictionary entry ${id} does not exist`);
      entry = { kind: row.kind as DictionaryKind, text: row.text };
      this.#cacheEntry(id, entry);
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

  /**
   * Shapes by an object's own key order (see DualDictionary.shapeOfKeys), found by the last key and then compared
   * key by key (no string is made per object); forgotten when a transaction rolls back.
   */
  readonly #byOwnKeys = new Map<string, OwnKeysShape[]>();
  #ownKeysCached = 0;

  shapeOfKeys(ownKeys: readonly string[]): OwnKeysShape {
    const last = ownKeys.length ? ownKeys[ownKeys.length - 1]! : '';
    let candidates = this.#byOwnKeys.get(last);
    if (candidates !== undefined)
      for (let i = 0; i < candidates.length; i++)
        if (sameKeys(candidates[i]!.own, ownKeys)) return candidates[i]!;
    const shape = this.#shapeNow(ownKeys);
    if (this.#ownKeysCached >= MAX_COUNTED) {
      this.#byOwnKeys.clear();
      this.#ownKeysCached = 0;
      candidates = undefined;
    }
    if (candidates === undefined) this.#byOwnKeys.set(last, (candidates = []));
    // a last key shared by very many key lists: the list stays short, the cache is only a cache
    if (candidates.length < 64) {
      candidates.push(shape);
      this.#ownKeysCached++;
    }
    return shape;
  }

  #shapeNow(ownKeys: readonly string[]): OwnKeysShape {
    const sorted = [...ownKeys].sort();
    const form = this.#formWriter;
    form.at = 0;
    form.varint(sorted.length);
    for (const k of sorted) form.string(k); // NOT_IN_FORM for a lone surrogate: the caller explains it
    return {
      own: [...ownKeys],
      id: this.shape(JSON.stringify(sorted)),
      sorted,
      order: sorted.map((k) => ownKeys.indexOf(k)),
      form: ownCopy(form.buf.subarray(0, form.at)),
    };
  }

  /** A stream name's or an event type's entry as a string of the hash form (cached: a read writes them per event). */
  nameForm(id: number, kind: typeof DICTIONARY_KIND.stream | typeof DICTIONARY_KIND.type): Uint8Array {
    const entry = this.#entry(id, kind);
    if (entry.form === undefined) entry.form = this.#form((w) => w.string(entry.text));
    return entry.form;
  }

  stringForm(id: number): Uint8Array {
    const entry = this.#entry(id, DICTIONARY_KIND.string);
    if (entry.form === undefined) entry.form = this.#form((w) => w.string(entry.text));
    return entry.form;
  }

  stringBytes(id: number): Uint8Array {
    const form = this.stringForm(id);
    const entry = this.#entries.get(id)!;
    if (entry.bytes === undefined) {
      // the form is tag 5, the byte length as a varint, the bytes: skip the tag and the varint
      let at = 1;
      while (form[at]! >= 0x80) at++;
      entry.bytes = form.subarray(at + 1);
    }
    return entry.bytes;
  }

  /**
   * Whether strings may be kept as a dictionary entry and the rest (compact tag 10): only in a store of version 6,
   * so that a version 5 store written by this code stays readable by the code that made it.
   */
  prefixes = false;

  /**
   * The longest string of the dictionary (among those this process has met) that `value` begins with, ended right
   * before a separator ("/", "-", ":", "_", "." or a space) and at least MIN_PREFIX characters long; at most
   * PREFIX_TRIES separators are tried, from the end.
   */
  prefixOf(value: string): { id: number; chars: number } | undefined {
    if (!this.prefixes || value.length <= MIN_PREFIX || value.length > MAX_DICTIONARY_STRING * 2)
      return undefined;
    const ids = this.#ids[DICTIONARY_KIND.string]!;
    let tries = 0;
    for (let i = value.length - 1; i >= MIN_PREFIX; i--) {
      const c = value.charCodeAt(i);
      if (c === 0x2f || c === 0x2d || c === 0x3a || c === 0x5f || c === 0x2e || c === 0x20) {
        const id = ids.get(value.slice(0, i));
        if (id !== undefined) return { id, chars: i };
        if (++tries === PREFIX_TRIES) return undefined;
      }
    }
    return undefined;
  }

  shapeForm(id: number): { keys: number; bytes: Uint8Array } {
    const made = this.#entry(id, DICTIONARY_KIND.shape).shapeForm;
    if (made !== undefined) return made;
    const keys = this.shapeKeys(id);
    const entry = this.#entries.get(id)!;
    if (entry.form === undefined)
      entry.form = this.#form((w) => {
        w.varint(keys.length);
        for (const k of keys) w.string(k);
      });
    // kept with the entry: the link check of every event asks for its objects' shapes
    return (entry.shapeForm ??= { keys: keys.length, bytes: entry.form });
  }

  #form(write: (w: FormWriter) => void): Uint8Array {
    const w = this.#formWriter;
    w.at = 0;
    try {
      write(w);
    } catch (e) {
      if (e === NOT_IN_FORM) throw new CompactFormatError('a dictionary entry holds a lone surrogate');
      throw e;
    }
    return ownCopy(w.buf.subarray(0, w.at));
  }

  /** Stream names added since the id given, in id order. */
  streamsAfter(id: number): { id: number; text: string }[] {
    return this.#streamsAfter.all(id);
  }

  /** The largest id of the dictionary as stored (0 when empty): unchanged, no entry was added since. */
  maxId(): number {
    return this.#maxId.get()?.id ?? 0;
  }

  /** Called when a write transaction commits. */
  commit(): void {
    this.#added = [];
  }

  /** Called when a write transaction rolls back: its entries were never stored. */
  rollback(): void {
    if (this.#added.length > 0) {
      this.#byOwnKeys.clear();
      this.#ownKeysCached = 0;
    }
    for (const { kind, text, id } of this.#added) {
      this.#ids[kind]!.delete(text);
      this.#entries.delete(id);
    }
    if (this.#provisionalNext !== null && this.#added.length > 0) this.#provisionalNext = this.#added[0]!.id;
    this.#added = [];
  }
}

/**
 * A row as read, in COLUMNS order (raw mode: arrays are cheaper to build than objects). The hash comes as hex text
 * made by SQLite (hex()): no Buffer per hash, which the GC pays for. Only what the port's event needs is read.
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
  hash: string,
];

const COLUMNS =
  'position, stream_id, revision, event_id, type_id, data, metadata, recorded_at, lower(hex(hash))';

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

/** What an event read from the store keeps to decode its payload on first access and to re-make its hash form. */
const UNREAD = Symbol('not decoded yet');
class StoredRow implements StoredForm {
  data: unknown = UNREAD;
  metadata: unknown = UNREAD;
  constructor(
    readonly row: EventRow,
    readonly dict: StoreDictionary,
    readonly stream: string,
    readonly type: string,
  ) {}

  /**
   * Writes the hash form into the shared writer from the stored bytes: with `previousHash`, all of it; without, up
   * to the previous hash, with the names' forms from the dictionary's cache (as writeHeaderAndPrevious spells them).
   * False for bytes that are not one value: they have no hash form, and a form no hash matches stands for them
   * (verify then says why).
   */
  private writeForm(w: FormWriter, previousHash: Uint8Array | null): boolean {
    const [, streamId, revision, eventId, typeId, data, metadata, recordedAt] = this.row;
    w.at = 0;
    w.byte(HASH_FORM_VERSION);
    try {
      expandToHashForm(data, this.dict, eventId, w);
      if (metadata === null) w.byte(FORM_TAG.null);
      else expandToHashForm(metadata, this.dict, eventId, w);
      if (previousHash) {
        const header = { stream: this.stream, revision, recordedAt, eventId, type: this.type };
        writeHeaderAndPrevious(w, header, previousHash);
      } else {
        w.bytes(this.dict.nameForm(streamId, DICTIONARY_KIND.stream));
        w.int(revision);
        w.int(recordedAt);
        w.string(eventId);
        w.bytes(this.dict.nameForm(typeId, DICTIONARY_KIND.type));
      }
      return true;
    } catch (err) {
      if (!(err instanceof CompactFormatError) && err !== NOT_IN_FORM) throw err;
      return false;
    }
  }

  hashForm(previousHash: Uint8Array): Uint8Array {
    const w = expandWriter;
    return this.writeForm(w, previousHash) ? w.buf.subarray(0, w.at) : UNDECODABLE_FORM;
  }

  /**
   * The hash (hex) of the same form, made for a reader checking links as it reads: the names' forms come from the
   * dictionary's cache and the previous hash is written from its hex, so nothing is allocated but the result.
   */
  hashHex(previousHash: string): string {
    const w = expandWriter;
    if (!this.writeForm(w, null)) return sha256Hex(UNDECODABLE_FORM);
    // as hashBytes: 64 lower-case hex digits, or 32 bytes of 0xff (a hash no form has)
    w.room(32);
    if (HEX_HASH.test(previousHash)) w.buf.write(previousHash, w.at, 32, 'hex');
    else w.buf.fill(0xff, w.at, w.at + 32);
    w.at += 32;
    return sha256Hex(w.buf.subarray(0, w.at));
  }
}
const expandWriter = new FormWriter();
const UNDECODABLE_FORM = Buffer.from('undecodable');
const HEX_HASH = /^[0-9a-f]{64}$/;
const oneShotHash = (crypto as { hash?: (algorithm: string, data: Uint8Array, encoding: 'hex') => string })
  .hash;
/** sha256 of bytes, hex (the one-shot digest where Node has it). */
const sha256Hex: (bytes: Uint8Array) => string = oneShotHash
  ? (bytes) => oneShotHash('sha256', bytes, 'hex')
  : (bytes) => createHash('sha256').update(bytes).digest('hex');

/** The stored row of an event read: the same property attachStoredForm sets (hash-chain.ts), so one per event. */
const ROW = Symbol.for('table-audit.eventstore.storedForm');
interface LazyEvent extends RecordedEvent {
  [ROW]: StoredRow;
}
const settle = (event: object, key: string, value: unknown) =>
  Object.defineProperty(event, key, { value, writable: true, enumerable: true, configurable: true });
/**
 * data and metadata: decoded on first access and kept by the stored row (the accessor stays: redefining a property
 * per event costs more than the decoding); what a caller assigns replaces the accessor with a plain property.
 */
const LAZY_DATA: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: LazyEvent) {
    const s = this[ROW];
    if (s.data === UNREAD) s.data = decodeStored(s.row[5], s.dict, 'data', s.row);
    return s.data;
  },
  set(this: LazyEvent, value: unknown) {
    settle(this, 'data', value);
  },
};
const LAZY_METADATA: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: LazyEvent) {
    const s = this[ROW];
    if (s.metadata === UNREAD) s.metadata = decodeStored(s.row[6]!, s.dict, 'metadata', s.row);
    return s.metadata;
  },
  set(this: LazyEvent, value: unknown) {
    settle(this, 'metadata', value);
  },
};

function toRecordedEvent(row: EventRow, dict: StoreDictionary, previousHash: string): RecordedEvent {
  const [position, streamId, revision, eventId, typeId, , metadata, recordedAt, hash] = row;
  const stream = dict.text(streamId, DICTIONARY_KIND.stream);
  const type = dict.text(typeId, DICTIONARY_KIND.type);
  const event = {
    stream,
    revision,
    position: BigInt(position),
    eventId,
    type,
    recordedAt,
    hash,
    previousHash,
  } as RecordedEvent;
  const stored = new StoredRow(row, dict, stream, type);
  Object.defineProperty(event, 'data', LAZY_DATA);
  if (metadata !== null) Object.defineProperty(event, 'metadata', LAZY_METADATA);
  attachStoredForm(event, stored);
  return event;
}

/**
 * The previous hash of each event read: the hash of the event before it in its stream, which a read in order has
 * usually just seen; otherwise looked up (the first event of a stream in a read). An event whose previous revision
 * is not in the store gets '' (no hash): its link is broken, and readers say so by the missing revision.
 */
class PreviousHashes {
  readonly #last = new Map<number, { revision: number; hash: string }>();
  constructor(private readonly lookUp: Database.Statement<[number, number], { hash: string }>) {}

  of(streamId: number, revision: number): string {
    if (revision === 0) return GENESIS_HASH;
    const last = this.#last.get(streamId);
    if (last !== undefined && last.revision === revision - 1) return last.hash;
    return this.lookUp.get(streamId, revision - 1)?.hash ?? '';
  }

  saw(streamId: number, revision: number, hash: string): void {
    const last = this.#last.get(streamId);
    if (last === undefined) this.#last.set(streamId, { revision, hash });
    else {
      last.revision = revision;
      last.hash = hash;
    }
  }

  /** Events in forwards order (by position or by revision within one stream). */
  events(rows: readonly EventRow[], dict: StoreDictionary): RecordedEvent[] {
    const out = new Array<RecordedEvent>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      out[i] = toRecordedEvent(row, dict, this.of(row[1], row[2]));
      this.saw(row[1], row[2], row[8]);
    }
    return out;
  }
}

function prepareStatements(db: Database.Database) {
  const rows = <P extends unknown[]>(sql: string) => db.prepare<P, EventRow>(sql).raw(true);
  return {
    tail: db.prepare<[number], { revision: number; hash: Buffer; position: number }>(
      'SELECT revision, hash, position FROM events WHERE stream_id = ? ORDER BY revision DESC LIMIT 1',
    ),
    hashAt: db.prepare<[number, number], { hash: string }>(
      'SELECT lower(hex(hash)) AS hash FROM events WHERE stream_id = ? AND revision = ?',
    ),
    byEventId: db.prepare<
      [string],
      { stream_id: number; revision: number; type_id: number; data: Uint8Array; position: number }
    >('SELECT stream_id, revision, type_id, data, position FROM events WHERE event_id = ?'),
    // No probe per event: a stored id is skipped by the unique index (changes = 0), and only then looked up.
    insert: db.prepare(
      `INSERT INTO events (stream_id, revision, event_id, type_id, data, metadata, recorded_at, hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING`,
    ),
    insertAt: db.prepare(
      `INSERT INTO events (position, stream_id, revision, event_id, type_id, data, metadata, recorded_at, hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    forwards: rows<[number, number, number]>(
      `SELECT ${COLUMNS} FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision LIMIT ?`,
    ),
    backwards: rows<[number, number, number]>(
      `SELECT ${COLUMNS} FROM events WHERE stream_id = ? AND revision <= ? ORDER BY revision DESC LIMIT ?`,
    ),
    all: rows<[bigint, number]>(`SELECT ${COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?`),
    // the selected stream ids as a JSON array: one statement whatever their number. A few streams: found by the
    // (stream, revision) index, then sorted by position; each page sorts all of their events after it, so it is for
    // selections that are a small part of the store
    allOf: rows<[bigint, string, number]>(
      `SELECT ${COLUMNS} FROM events WHERE position > ? AND stream_id IN (SELECT value FROM json_each(?))
       ORDER BY position LIMIT ?`,
    ),
    // many streams (a replay shard: half the tables or more): the log in position order, the others' rows skipped
    // inside SQLite (`+stream_id` keeps the planner off the stream index, whose sort would cost every page the whole
    // selection after it: the shard's read was 12 times slower than reading every event)
    allOfInOrder: rows<[bigint, string, number]>(
      `SELECT ${COLUMNS} FROM events WHERE position > ? AND +stream_id IN (SELECT value FROM json_each(?))
       ORDER BY position LIMIT ?`,
    ),
    // a read by event type (the type ids as a JSON array): the log in position order, the other types' rows skipped
    // inside SQLite, never read into JavaScript nor decoded; with a selection of streams too, both in one pass
    // a selection of nearly every stream (all but a few, e.g. every stream but the access log): the few left out,
    // as a list sent to SQLite at each page is built into a lookup at each page (thousands of selected ids at each
    // page of 512 cost more than the read itself); ids above the last one the filter looked at are not selected
    // (a stream added since: the filter asks about it at the next page)
    allButInOrder: rows<[bigint, string, number, number]>(
      `SELECT ${COLUMNS} FROM events WHERE position > ? AND +stream_id NOT IN (SELECT value FROM json_each(?))
       AND +stream_id <= ? ORDER BY position LIMIT ?`,
    ),
    allOfTypes: rows<[bigint, string, number]>(
      `SELECT ${COLUMNS} FROM events WHERE position > ? AND +type_id IN (SELECT value FROM json_each(?))
       ORDER BY position LIMIT ?`,
    ),
    allOfStreamsOfTypes: rows<[bigint, string, string, number]>(
      `SELECT ${COLUMNS} FROM events WHERE position > ? AND +stream_id IN (SELECT value FROM json_each(?))
       AND +type_id IN (SELECT value FROM json_each(?)) ORDER BY position LIMIT ?`,
    ),
    head: db.prepare<[], { position: number | null }>('SELECT max(position) AS position FROM events'),
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
  /** the dictionary's largest id when the streams were last looked for (-1: never) */
  #lastMaxId = -1;
  #selected: number[] = [];
  /** the streams looked at and not selected */
  #left: number[] = [];
  #streams = 0;
  #json = '[]';
  #leftJson = '[]';
  constructor(
    private readonly dict: StoreDictionary,
    private readonly accepts: (stream: string) => boolean,
  ) {}

  idsJson(): string {
    // streams are looked for only when the dictionary has grown: the look-up scans every stream entry (a page of a
    // shard's read at 400 tables spent 3 % of a bulk replay in it), the largest id is one step down the table
    const maxId = this.dict.maxId();
    if (maxId === this.#lastMaxId) return this.#json;
    this.#lastMaxId = maxId;
    const added = this.dict.streamsAfter(this.#lastId);
    let changed = false;
    let left = false;
    for (const { id, text } of added) {
      this.#lastId = id;
      this.#streams++;
      if (this.accepts(text)) {
        this.#selected.push(id);
        changed = true;
      } else {
        this.#left.push(id);
        left = true;
      }
    }
    if (changed) this.#json = JSON.stringify(this.#selected);
    if (left) this.#leftJson = JSON.stringify(this.#left);
    return this.#json;
  }

  /**
   * The streams left out, when they are far fewer than the selected ones (a sixteenth or less, after idsJson), as a
   * JSON array with the largest dictionary id looked at: a read may send them instead of the selected ones.
   */
  leftOut(): { readonly json: string; readonly upTo: number } | null {
    return this.#left.length * 16 <= this.#selected.length
      ? { json: this.#leftJson, upTo: Math.max(this.#lastMaxId, this.#lastId) }
      : null;
  }

  /** Whether the selection is a large part of the store's streams (an eighth or more, after idsJson). */
  get wide(): boolean {
    return this.#selected.length * 8 >= this.#streams;
  }
}

/**
 * The type ids a read by event type selects: a name not yet in the dictionary is looked up again at each page (a
 * live subscription may see its first event of that type later).
 */
class TypeFilter {
  #missing: string[];
  readonly #ids: number[] = [];
  #json = '[]';
  constructor(
    private readonly dict: StoreDictionary,
    names: ReadonlySet<string>,
  ) {
    this.#missing = [...names];
  }

  idsJson(): string {
    if (this.#missing.length === 0) return this.#json;
    const missing: string[] = [];
    for (const name of this.#missing) {
      const id = this.dict.lookUp(DICTIONARY_KIND.type, name);
      if (id === undefined) missing.push(name);
      else this.#ids.push(id);
    }
    if (missing.length < this.#missing.length) this.#json = JSON.stringify(this.#ids);
    this.#missing = missing;
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
  if (version === 2 || version === 3 || version === 4)
    return (
      `${path} has event-store schema version ${version}; this code reads version ${SCHEMA_VERSION}. Convert it into a new ` +
      `file with \`table-audit store migrate ${path} NEW.sqlite\` (every event and its hash chain are checked ` +
      `and copied; ${path} is left as it is), then use --store NEW.sqlite`
    );
  return `${path} has event-store schema version ${version}; this code knows version ${SCHEMA_VERSION}`;
}

export class SqliteEventStore implements EventStore {
  readonly path: string;
  /** The store's schema version (one of OPENED_SCHEMA_VERSIONS): what its payloads may hold. */
  /** SQLite's page cache of this connection, KiB (see SqliteEventStoreOptions.cacheMiB). */
  readonly pageCacheKiB: number;
  readonly schemaVersion: number;
  readonly #db: Database.Database;
  readonly #pollIntervalMs: number;
  readonly #subscriptions = new Set<SqliteSubscription>();
  #closed = false;

  readonly #statements: ReturnType<typeof prepareStatements>;
  readonly #dictionary: StoreDictionary;
  readonly #appendInTransaction: Database.Transaction<
    (
      parts: readonly { stream: string; expected: ExpectedRevision; events: readonly CheckedEvent[] }[],
      checkpoint: { name: string; position: bigint } | undefined,
    ) => AppendResult[]
  >;
  readonly #appendPreparedInTransaction: Database.Transaction<(batch: Uint8Array) => AppendResult[]>;
  /** The hash form of the event being appended (hash-form.ts); its content part is written once per event. */
  readonly #form = new FormWriter();
  /** Two more, to compare an event's content with another copy of it (a repeat, a stored copy). */
  readonly #compareA = new FormWriter();
  readonly #compareB = new FormWriter();
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
      const cacheMiB = options.cacheMiB;
      if (cacheMiB !== undefined) {
        if (!Number.isSafeInteger(cacheMiB) || cacheMiB < 1 || cacheMiB > 4096)
          throw new InvalidArgument(`cacheMiB is a whole number of MiB from 1 to 4096, got ${cacheMiB}`);
        this.#db.pragma(`cache_size = -${cacheMiB * 1024}`);
      }
      // cache_size: negative in KiB, positive in pages
      const size = this.#db.pragma('cache_size', { simple: true }) as number;
      this.pageCacheKiB =
        size < 0 ? -size : (size * (this.#db.pragma('page_size', { simple: true }) as number)) / 1024;
      this.schemaVersion = this.#openSchema(readOnly);
    } catch (err) {
      this.#db.close();
      throw err;
    }

    this.#statements = prepareStatements(this.#db);
    this.#dictionary = new StoreDictionary(this.#db);
    this.#dictionary.prefixes = this.schemaVersion >= 6;
    const readAhead = options.dictionaryReadAhead;
    if (readAhead !== undefined) {
      if (!Number.isSafeInteger(readAhead) || readAhead < 1 || readAhead > 4096)
        throw new InvalidArgument(`dictionaryReadAhead is a whole number from 1 to 4096, got ${readAhead}`);
      this.#dictionary.readAhead = readAhead;
    }
    this.#appendInTransaction = this.#db.transaction((parts, checkpoint) => {
      const results = parts.map((p) => this.#appendNow(p.stream, p.expected, p.events));
      if (checkpoint) this.#statements.saveCheckpoint.run(checkpoint.name, checkpoint.position, Date.now());
      return results;
    });
    this.#appendPreparedInTransaction = this.#db.transaction((batch: Uint8Array) =>
      this.#appendPreparedNow(batch),
    );
  }

  #openSchema(readOnly: boolean): number {
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
    if (OPENED_SCHEMA_VERSIONS.includes(version)) return version;
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
    // the content is checked as it is encoded, inside the transaction: a refusal rolls everything back
    return this.#write([{ stream, expected, events: checkEvents(events) }], undefined)[0]!;
  }

  async appendMany(
    appends: readonly StreamAppend[],
    options: AppendManyOptions = {},
  ): Promise<AppendResult[]> {
    this.#checkOpen('appendMany');
    checkAppendManyArguments(appends, options);
    const parts = appends.map((a) => ({
      stream: a.stream,
      expected: a.expectedRevision ?? 'any',
      events: checkEvents(a.events),
    }));
    return this.#write(parts, options.checkpoint);
  }

  #write(
    parts: { stream: string; expected: ExpectedRevision; events: readonly CheckedEvent[] }[],
    checkpoint: { name: string; position: bigint } | undefined,
  ): AppendResult[] {
    // IMMEDIATE: take the write lock before reading the streams' tails, so two processes cannot both chain onto one.
    return this.#committed(() => this.#appendInTransaction.immediate(parts, checkpoint));
  }

  /**
   * Runs a write transaction; the dictionary's entries added in it are kept when it commits and forgotten when it
   * fails; subscribers are woken when it appended anything.
   */
  #committed(transaction: () => AppendResult[]): AppendResult[] {
    let results: AppendResult[];
    try {
      results = transaction();
    } catch (err) {
      this.#dictionary.rollback();
      throw err;
    }
    this.#dictionary.commit();
    if (results.some((r) => r.appended > 0)) for (const s of this.#subscriptions) s.wake();
    return results;
  }

  #appendNow(stream: string, expected: ExpectedRevision, checked: readonly CheckedEvent[]): AppendResult {
    const s = this.#statements;
    const { firsts, repeats } = withoutRepeats(stream, checked, this.#compareA, this.#compareB);
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
      const stored = this.#storedCopies(stream, firsts, this.#dataFormOf);
      if (stored.fresh > 0 || checked.length === 0) checkExpectedRevision(stream, expected, actual);
      if (checked.length > 0)
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
    let previousHash: Buffer = tail?.hash ?? GENESIS_BYTES;
    let revision = actual;
    let position = -1;
    let appended = 0;
    const skipped: CheckedEvent[] = [];
    const w = this.#form;
    for (const e of firsts) {
      // data and metadata: the stored bytes and, in the same pass, the hash form's content part
      w.at = 0;
      w.byte(HASH_FORM_VERSION);
      const { data, metadata } = this.#encode(e, w);
      writeHeaderAndPrevious(
        w,
        { stream, revision: revision + 1, recordedAt, eventId: e.eventId, type: e.type },
        previousHash,
      );
      const hash = sha256Bytes(w.buf.subarray(0, w.at));
      const info = s.insert.run(
        streamId,
        revision + 1,
        e.eventId,
        dict.idOf(DICTIONARY_KIND.type, e.type),
        data,
        metadata,
        recordedAt,
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
    const stored = this.#storedCopies(stream, skipped, this.#dataFormOf);
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
  #storedCopies<E extends { eventId: string; type: string }>(
    stream: string,
    events: readonly E[],
    dataFormOf: (e: E) => Uint8Array,
  ): { count: number; fresh: number; latest: bigint } {
    let count = 0;
    let latest = -1;
    const dict = this.#dictionary;
    for (const e of events) {
      const stored = this.#statements.byEventId.get(e.eventId);
      if (stored === undefined) continue;
      const storedStream = dict.text(stored.stream_id, DICTIONARY_KIND.stream);
      const difference =
        storedStream !== stream
          ? 'stream'
          : dict.text(stored.type_id, DICTIONARY_KIND.type) !== e.type
            ? 'type'
            : this.#storedDataIs(stored.data, e.eventId, dataFormOf(e))
              ? null
              : 'data';
      if (difference !== null)
        throw new EventIdConflict(e.eventId, stream, storedStream, stored.revision, difference);
      count++;
      if (stored.position > latest) latest = stored.position;
    }
    return { count, fresh: events.length - count, latest: BigInt(latest) };
  }

  /**
   * An event's data and metadata in the compact form, and their hash form appended to `w`; InvalidEventData (path
   * and reason) for content that has none.
   */
  #encode(e: CheckedEvent, w: FormWriter): { data: Buffer; metadata: Buffer | null } {
    const dict = this.#dictionary;
    let part: 'data' | 'metadata' = 'data';
    try {
      const data = encodeWithHashForm(e.data, dict, e.eventId, w);
      if (e.metadata === undefined) {
        w.byte(FORM_TAG.null);
        return { data, metadata: null };
      }
      part = 'metadata';
      return { data, metadata: encodeWithHashForm(e.metadata, dict, e.eventId, w) };
    } catch (err) {
      if (err !== NOT_IN_FORM) throw err;
      const problem = explainProblem(part === 'data' ? e.data : e.metadata, part);
      throw new InvalidEventData(e.eventId, problem.path, problem.reason);
    }
  }

  /**
   * A preparer of appends into this store (prepared-append.ts), for a thread with a connection of its own to this
   * store's file: it reads the dictionary through this store and gives new entries ids without writing them.
   */
  preparer(): AppendPreparer {
    this.#checkOpen('preparer');
    const maxId = this.#db.prepare<[], { n: number }>('SELECT coalesce(max(id), 0) + 1 AS n FROM dictionary');
    return new AppendPreparer(() => {
      const dict = new StoreDictionary(this.#db);
      dict.prefixes = this.schemaVersion >= 6;
      return { dict, nextId: maxId.get()!.n };
    });
  }

  /**
   * Stores a batch prepared by a preparer of this store (possibly in another thread, see prepared-append.ts), in one
   * transaction: as appendMany of its parts with expected revision 'any' would, with exactly the same bytes and
   * hashes. PreparedOutOfDate (nothing stored) when the dictionary changed since it was prepared; EventIdConflict
   * (nothing stored) as append. Synchronous: the transaction is done when it returns.
   */
  appendPrepared(batch: Uint8Array): AppendResult[] {
    this.#checkOpen('appendPrepared');
    return this.#committed(() => this.#appendPreparedInTransaction.immediate(batch));
  }

  #appendPreparedNow(batch: Uint8Array): AppendResult[] {
    const r = new PreparedReader(batch);
    if (r.byte() !== PREPARED_FORMAT) r.fail('not a prepared batch of this format');
    const dict = this.#dictionary;
    for (let n = r.varint(); n > 0; n--) {
      const id = r.varint();
      const kind = r.byte();
      if (kind > DICTIONARY_KIND.type) r.fail(`dictionary kind ${kind}`);
      dict.insertGiven(kind as DictionaryKind, r.string(), id);
    }
    const s = this.#statements;
    const w = this.#form;
    const types = new Map<number, string>();
    const results: AppendResult[] = [];
    for (let parts = r.varint(); parts > 0; parts--) {
      const stream = r.string();
      const streamId = r.varint();
      const repeats = r.varint();
      const count = r.varint();
      if (count === 0) {
        const known = dict.lookUp(DICTIONARY_KIND.stream, stream);
        const tail = known === undefined ? undefined : s.tail.get(known);
        results.push({
          nextExpectedRevision: tail?.revision ?? -1,
          position: tail ? BigInt(tail.position) : -1n,
          appended: 0,
          alreadyStored: repeats,
        });
        continue;
      }
      if (dict.lookUp(DICTIONARY_KIND.stream, stream) !== streamId)
        throw new PreparedOutOfDate(`stream "${stream}" is not dictionary entry ${streamId}`);
      const tail = s.tail.get(streamId);
      const actual = tail?.revision ?? -1;
      const recordedAt = Date.now();
      let previousHash: Buffer = tail?.hash ?? GENESIS_BYTES;
      let revision = actual;
      let position = -1;
      let appended = 0;
      const skipped: { eventId: string; type: string; dataForm: Buffer }[] = [];
      for (let i = 0; i < count; i++) {
        const eventId = r.string();
        const type = r.string();
        const typeId = r.varint();
        const data = r.bytes();
        const m = r.varint();
        const metadata = m === 0 ? null : r.view(m - 1);
        const form = r.bytes();
        const dataEnd = r.varint();
        if (types.get(typeId) !== type) {
          if (dict.lookUp(DICTIONARY_KIND.type, type) !== typeId)
            throw new PreparedOutOfDate(`event type "${type}" is not dictionary entry ${typeId}`);
          types.set(typeId, type);
        }
        w.at = 0;
        w.bytes(form);
        writeHeaderAndPrevious(
          w,
          { stream, revision: revision + 1, recordedAt, eventId, type },
          previousHash,
        );
        const hash = sha256Bytes(w.buf.subarray(0, w.at));
        const info = s.insert.run(streamId, revision + 1, eventId, typeId, data, metadata, recordedAt, hash);
        if (info.changes === 0) {
          skipped.push({ eventId, type, dataForm: form.subarray(1, dataEnd) });
          continue;
        }
        revision++;
        appended++;
        position = Number(info.lastInsertRowid);
        previousHash = hash;
      }
      const { count: storedCount, latest } = this.#storedCopies(stream, skipped, (e) => e.dataForm);
      results.push(
        appended === 0
          ? {
              nextExpectedRevision: actual,
              position: latest,
              appended: 0,
              alreadyStored: repeats + storedCount,
            }
          : {
              nextExpectedRevision: revision,
              position: BigInt(position),
              appended,
              alreadyStored: repeats + storedCount,
            },
      );
    }
    if (!r.done) r.fail('bytes left after the last part');
    return results;
  }

  /** An event's data in the hash form, to compare with a stored copy's (a view into a scratch buffer). */
  readonly #dataFormOf = (e: CheckedEvent): Uint8Array => dataForm(this.#compareB, e.data, e.eventId);

  /** Whether stored data bytes hold the content whose hash form is `form`. */
  #storedDataIs(bytes: Uint8Array, eventId: string, form: Uint8Array): boolean {
    const a = this.#compareA;
    a.at = 0;
    try {
      expandToHashForm(bytes, this.#dictionary, eventId, a);
    } catch (err) {
      if (err instanceof CompactFormatError) return false;
      throw err;
    }
    return a.buf.subarray(0, a.at).equals(form);
  }

  /**
   * FOR sqlite-migrate.ts ONLY: stores an event at a given position, chained onto its stream's tail in this store,
   * with the recorded time it had in the store it is copied from. Not part of the port.
   */
  importEvent(
    position: number,
    stream: string,
    revision: number,
    e: CheckedEvent,
    recordedAt: number,
  ): string {
    const s = this.#statements;
    const dict = this.#dictionary;
    const streamId = dict.idOf(DICTIONARY_KIND.stream, stream);
    const tail = s.tail.get(streamId);
    if ((tail?.revision ?? -1) !== revision - 1)
      throw new Error(
        `stream "${stream}": revision ${revision} does not follow ${tail?.revision ?? 'nothing'}`,
      );
    const w = this.#form;
    w.at = 0;
    w.byte(HASH_FORM_VERSION);
    const { data, metadata } = this.#encode(e, w);
    writeHeaderAndPrevious(
      w,
      { stream, revision, recordedAt, eventId: e.eventId, type: e.type },
      tail?.hash ?? GENESIS_BYTES,
    );
    const hash = sha256Bytes(w.buf.subarray(0, w.at));
    s.insertAt.run(
      position,
      streamId,
      revision,
      e.eventId,
      dict.idOf(DICTIONARY_KIND.type, e.type),
      data,
      metadata,
      recordedAt,
      hash,
    );
    return hash.toString('hex');
  }

  /** FOR sqlite-migrate.ts ONLY: runs `work` in one write transaction of this store. */
  importTransaction<T>(work: () => T): T {
    try {
      const result = this.#db.transaction(work).immediate();
      this.#dictionary.commit();
      return result;
    } catch (err) {
      this.#dictionary.rollback();
      throw err;
    }
  }

  async streamHead(stream: string): Promise<number> {
    checkStreamName(stream);
    this.#checkOpen('streamHead');
    const streamId = this.#dictionary.lookUp(DICTIONARY_KIND.stream, stream);
    return streamId === undefined ? -1 : (this.#statements.tail.get(streamId)?.revision ?? -1);
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
    const hashAt = this.#statements.hashAt;
    return {
      async *[Symbol.asyncIterator]() {
        checkOpen();
        const streamId = dict.lookUp(DICTIONARY_KIND.stream, stream);
        if (streamId === undefined) return;
        const previous = new PreviousHashes(hashAt);
        let next = fromRevision ?? (backwards ? Number.MAX_SAFE_INTEGER : 0);
        let remaining = maxCount ?? Number.POSITIVE_INFINITY;
        while (remaining > 0) {
          checkOpen();
          const limit = Math.min(PAGE, remaining);
          const rows = statement.all(streamId, next, limit);
          if (backwards) {
            // each row's previous is the next row of the page when it is there
            for (let i = 0; i < rows.length; i++) {
              const row = rows[i]!;
              const after = rows[i + 1];
              const previousHash =
                row[2] === 0
                  ? GENESIS_HASH
                  : after !== undefined && after[2] === row[2] - 1
                    ? after[8]
                    : (hashAt.get(streamId, row[2] - 1)?.hash ?? '');
              yield toRecordedEvent(row, dict, previousHash);
            }
          } else yield* previous.events(rows, dict);
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
    const types = this.#typeFilter(options.eventTypes);
    const hashAt = this.#statements.hashAt;
    const readPage = (after: bigint, limit: number, previous: PreviousHashes) =>
      this.#readAllPage(after, limit, filter, previous, types);
    // a read that starts where the last one of the same selection stopped (a processor's catch-up, one bounded read
    // per batch) goes on with its previous hashes, as one long read would: each stream's first event of the batch
    // then needs no look-up of the hash before it (the hashes are kept by stream and revision, so a read by type,
    // which skips revisions, looks up what it skipped)
    const key = options.streams ?? null;
    const continued = this.#lastRead;
    const stopped = (at: { key: unknown; after: bigint; previous: PreviousHashes } | null) =>
      void (this.#lastRead = at);
    return {
      async *[Symbol.asyncIterator]() {
        let after = fromPosition;
        let remaining = maxCount ?? Number.POSITIVE_INFINITY;
        const previous =
          continued !== null && continued.key === key && continued.after === fromPosition
            ? continued.previous
            : new PreviousHashes(hashAt);
        stopped(null);
        while (remaining > 0) {
          const limit = Math.min(PAGE, remaining);
          const page = readPage(after, limit, previous);
          const last = page.at(-1);
          if (last !== undefined) after = last.position;
          if (page.length < limit || last === undefined) remaining = 0;
          else remaining -= page.length;
          // before the page is yielded: a read ended by its maxCount goes on from here
          stopped({ key, after, previous });
          yield* page;
        }
      },
    };
  }

  /** Where the last readAll stopped, its selection and its previous hashes (see readAll). */
  #lastRead: { key: unknown; after: bigint; previous: PreviousHashes } | null = null;

  #streamFilter(streams: unknown): StreamFilter | undefined {
    const accepts = streamPredicate(streams);
    return accepts === undefined ? undefined : new StreamFilter(this.#dictionary, accepts);
  }

  #typeFilter(eventTypes: unknown): TypeFilter | undefined {
    const names = eventTypeSet(eventTypes);
    return names === undefined ? undefined : new TypeFilter(this.#dictionary, names);
  }

  #readAllPage(
    after: bigint,
    limit: number,
    filter: StreamFilter | undefined,
    previous: PreviousHashes,
    types?: TypeFilter,
  ): RecordedEvent[] {
    this.#checkOpen('readAll');
    const rows =
      types !== undefined
        ? this.#readOfTypes(after, limit, filter, types)
        : filter === undefined
          ? this.#statements.all.all(after, limit)
          : this.#readSelected(after, limit, filter);
    return previous.events(rows, this.#dictionary);
  }

  #readOfTypes(
    after: bigint,
    limit: number,
    filter: StreamFilter | undefined,
    types: TypeFilter,
  ): EventRow[] {
    const typeIds = types.idsJson();
    return filter === undefined
      ? this.#statements.allOfTypes.all(after, typeIds, limit)
      : this.#statements.allOfStreamsOfTypes.all(after, filter.idsJson(), typeIds, limit);
  }

  #readSelected(after: bigint, limit: number, filter: StreamFilter): EventRow[] {
    const ids = filter.idsJson();
    const left = filter.leftOut();
    if (left !== null) return this.#statements.allButInOrder.all(after, left.json, left.upTo, limit);
    return (filter.wide ? this.#statements.allOfInOrder : this.#statements.allOf).all(after, ids, limit);
  }

  subscribeToAll(options: SubscribeToAllOptions = {}): Subscription {
    this.#checkOpen('subscribeToAll');
    const { fromPosition = -1n } = options;
    checkPosition('fromPosition', fromPosition);
    const filter = this.#streamFilter(options.streams);
    const types = this.#typeFilter(options.eventTypes);
    const previous = new PreviousHashes(this.#statements.hashAt);
    const subscription = new SqliteSubscription(
      (after) => (this.#closed ? [] : this.#readAllPage(after, PAGE, filter, previous, types)),
      fromPosition,
      this.#pollIntervalMs,
      (s) => this.#subscriptions.delete(s),
    );
    this.#subscriptions.add(subscription);
    return subscription;
  }

  /**
   * The names of the streams that start with `prefix`, sorted (every stream with an event: a name enters the store's
   * dictionary with its stream's first event). From the dictionary: no event is read. SQLite only: the what-if's
   * prepared readings (services/replay/src/readings-ready.ts) list the tables with it.
   */
  async streamNames(prefix = ''): Promise<string[]> {
    this.#checkOpen('streamNames');
    return this.#dictionary
      .streamsAfter(0)
      .map((s) => s.text)
      .filter((name) => name.startsWith(prefix))
      .sort();
  }

  async headPosition(): Promise<bigint> {
    this.#checkOpen('headPosition');
    // the rowid's b-tree: its last entry, no scan
    return BigInt(this.#statements.head.get()?.position ?? -1);
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
    const inMemory = this.path === ':memory:' || this.path === '';
    this.#dictionary.detach(this.#db, inMemory ? null : this.path);
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
