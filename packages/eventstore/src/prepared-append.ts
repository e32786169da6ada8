/**
 * An append prepared on one thread and written on another (ingest's pipeline over two threads): the preparing side
 * does what the SQLite store's append does before it touches the events table — checks each event, encodes its data
 * and metadata into the compact form and, in the same pass, the content part of its hash form, gives dictionary
 * entries their ids — and packs it all into one ArrayBuffer, handed over as a transferable (no object is cloned).
 * The writing side (SqliteEventStore.appendPrepared) then only does what must be sequential, in one transaction:
 * it writes the new dictionary entries with the ids they were given, and for each event finds its revision, writes
 * the stream, revision, recorded time, id and type and the previous hash of its stream after the content part,
 * hashes it and inserts the row (a stored event id is skipped, and checked to be the same event, as in append).
 *
 * The ids given to new dictionary entries are the ones SQLite gives when they are written in this order (the
 * largest id + 1, then on), so a batch prepared this way stores exactly the bytes and hashes an ordinary append of
 * the same events would (a test compares the two stores). If the dictionary changed meanwhile (another writer added
 * entries), writing the entries fails with PreparedOutOfDate, the transaction rolls back and nothing is stored: the
 * caller appends the batch the ordinary way instead.
 *
 * Layout (varints as in compact.ts; a string is its UTF-8 byte length as a varint, then the bytes):
 *   format byte (1) · entries: count, then per entry: id, kind byte, text
 *   parts: count, then per part: stream, stream id (0: no events), repeats within the call, event count, and per
 *   event: event id, type, type id, data (length, bytes), metadata (0, or its length + 1 and bytes), hash form
 *   content (length, bytes: the form's version byte, the data's form, the metadata's form), where the data's form
 *   ends in it (varint)
 */
import { checkEvents, checkStreamName, withoutRepeats, type CheckedEvent } from './append-input.ts';
import { ByteCursor, encodeWithHashFormInto } from './compact.ts';
import { InvalidArgument, InvalidEventData } from './errors.ts';
import {
  ByteWriter,
  copyBytes,
  explainProblem,
  FORM_TAG,
  FormWriter,
  HASH_FORM_VERSION,
  NOT_IN_FORM,
} from './hash-form.ts';
import type { EventData } from './port.ts';
import type { StoreDictionary } from './sqlite-event-store.ts';

export const PREPARED_FORMAT = 1;

/** The dictionary changed since the batch was prepared: its entries' ids are taken. Nothing was stored. */
export class PreparedOutOfDate extends Error {
  override readonly name = 'PreparedOutOfDate';
}

/** The kinds of dictionary entries (as DICTIONARY_KIND in sqlite-event-store.ts). */
const STREAM_KIND = 2;
const TYPE_KIND = 3;

/** A growable byte buffer with the prepared layout's writes. */
class PackWriter extends ByteWriter {
  constructor() {
    super(1024 * 1024);
  }

  string(s: string): void {
    const n = Buffer.byteLength(s, 'utf8');
    this.varint(n);
    this.room(n);
    this.at += this.buf.write(s, this.at, n, 'utf8');
  }

  bytes(b: Uint8Array, from = 0, to = b.length): void {
    this.varint(to - from);
    this.room(to - from);
    copyBytes(b, from, to, this.buf, this.at);
    this.at += to - from;
  }
}

/** One part of a batch to prepare: a stream and its events, appended with expected revision 'any'. */
export interface PreparePart {
  stream: string;
  events: readonly EventData[];
}

/**
 * The preparing side: a store's dictionary in preparing mode (new entries get ids without being written). A batch
 * that fails to prepare (InvalidEventData, an id repeated in a part with other content) gives its entries back;
 * after the writer refused a batch, or after the store was written another way, reset() starts again from the
 * store's dictionary as it is.
 */
export class AppendPreparer {
  readonly #pack = new PackWriter();
  readonly #head = new PackWriter();
  readonly #form = new FormWriter();
  readonly #encoded = new ByteWriter(64 * 1024);
  readonly #compareA = new FormWriter();
  readonly #compareB = new FormWriter();
  #dict: StoreDictionary;

  constructor(private readonly newDictionary: () => { dict: StoreDictionary; nextId: number }) {
    this.#dict = this.#fresh();
  }

  #fresh(): StoreDictionary {
    const { dict, nextId } = this.newDictionary();
    dict.startProvisional(nextId);
    return dict;
  }

  /** Forgets every entry given but not written, and reads the dictionary again from the store. */
  reset(): void {
    this.#dict = this.#fresh();
  }

  /**
   * The batch packed for SqliteEventStore.appendPrepared. Throws as append would before writing anything
   * (InvalidArgument, InvalidEventData, EventIdConflict for an id repeated in a part with other content); then the
   * entries given for it are taken back.
   */
  prepare(parts: readonly PreparePart[]): ArrayBuffer {
    const checked: { stream: string; events: CheckedEvent[] }[] = parts.map((p, i) => {
      try {
        checkStreamName(p.stream);
        return { stream: p.stream, events: checkEvents(p.events) };
      } catch (err) {
        if (err instanceof InvalidArgument) throw new InvalidArgument(`appends[${i}]: ${err.message}`);
        throw err;
      }
    });
    const dict = this.#dict;
    const body = this.#pack;
    body.at = 0;
    try {
      body.varint(checked.length);
      for (const part of checked) this.#part(part.stream, part.events, body);
    } catch (err) {
      dict.rollback();
      body.at = 0;
      throw err;
    }
    // the entries first (the writer stores them before the rows), then the body
    const added = dict.takeAdded();
    const head = this.#head;
    head.at = 0;
    head.byte(PREPARED_FORMAT);
    head.varint(added.length);
    for (const e of added) {
      head.varint(e.id);
      head.byte(e.kind);
      head.string(e.text);
    }
    const bodyBytes = body.at;
    body.at = 0;
    const out = new ArrayBuffer(head.at + bodyBytes);
    const bytes = new Uint8Array(out);
    bytes.set(head.buf.subarray(0, head.at));
    bytes.set(this.#pack.buf.subarray(0, bodyBytes), head.at);
    return out;
  }

  /** As SqliteEventStore's #appendNow up to the insert, in the same order of dictionary calls. */
  #part(stream: string, events: readonly CheckedEvent[], out: PackWriter): void {
    const dict = this.#dict;
    out.string(stream);
    const { firsts, repeats } = withoutRepeats(stream, events, this.#compareA, this.#compareB);
    if (firsts.length === 0) {
      out.varint(0);
      out.varint(repeats);
      out.varint(0);
      return;
    }
    out.varint(dict.lookUp(STREAM_KIND, stream) ?? dict.idOf(STREAM_KIND, stream));
    out.varint(repeats);
    out.varint(firsts.length);
    const w = this.#form;
    // the data's and the metadata's compact forms, one after the other (no Buffer made per event)
    const enc = this.#encoded;
    for (const e of firsts) {
      w.at = 0;
      w.byte(HASH_FORM_VERSION);
      enc.at = 0;
      let part: 'data' | 'metadata' = 'data';
      let dataBytes: number;
      let metadataBytes = -1;
      let dataEnd: number;
      try {
        dataBytes = encodeWithHashFormInto(e.data, dict, e.eventId, w, enc);
        dataEnd = w.at;
        if (e.metadata === undefined) w.byte(FORM_TAG.null);
        else {
          part = 'metadata';
          metadataBytes = encodeWithHashFormInto(e.metadata, dict, e.eventId, w, enc);
        }
      } catch (err) {
        if (err !== NOT_IN_FORM) throw err;
        const problem = explainProblem(part === 'data' ? e.data : e.metadata, part);
        throw new InvalidEventData(e.eventId, problem.path, problem.reason);
      }
      out.string(e.eventId);
      out.string(e.type);
      out.varint(dict.idOf(TYPE_KIND, e.type));
      out.bytes(enc.buf, 0, dataBytes);
      if (metadataBytes < 0) out.varint(0);
      else {
        out.varint(metadataBytes + 1);
        out.room(metadataBytes);
        copyBytes(enc.buf, dataBytes, dataBytes + metadataBytes, out.buf, out.at);
        out.at += metadataBytes;
      }
      out.bytes(w.buf, 0, w.at);
      out.varint(dataEnd);
    }
  }
}

// ---- reading a prepared batch (the writing side) ------------------------------------------------------------------

/** A bounded cursor over a prepared batch; a batch that is not one is refused with its position. */
export class PreparedReader extends ByteCursor {
  readonly #buf: Buffer;
  constructor(bytes: Uint8Array) {
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    super(buf, 'batch');
    this.#buf = buf;
  }

  fail(what: string): never {
    throw new InvalidArgument(`prepared batch: ${what} at byte ${this.pos} of ${this.#buf.length}`);
  }

  /** `n` bytes as a view (no copy). */
  view(n: number): Buffer {
    if (this.pos + n > this.#buf.length) this.fail(`${n} bytes declared past the end`);
    const v = this.#buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }

  bytes(): Buffer {
    return this.view(this.varint());
  }

  string(): string {
    const n = this.varint();
    if (this.pos + n > this.#buf.length) this.fail(`a string of ${n} bytes past the end`);
    const s = this.#buf.toString('utf8', this.pos, this.pos + n);
    this.pos += n;
    return s;
  }

  get done(): boolean {
    return this.pos === this.#buf.length;
  }
}
