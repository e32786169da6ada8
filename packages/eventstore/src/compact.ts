/**
 * The compact binary form of an event's data and metadata in a version 4 SQLite store: a tagged encoding of the
 * JSON values the port accepts (null, booleans, safe integers, strings, arrays, plain objects), in which an
 * object's sorted key list (its "shape") and strings that repeat are kept once, in the store's dictionary table,
 * and referenced by a small integer.
 *
 * The encoding is lossless for what canonicalJson accepts: decoding gives back a value whose canonical JSON is
 * exactly the canonical JSON of the value encoded (keys in sorted order, members that are undefined left out, -0
 * as 0). The hash chain (version 5, hash-form.ts) is over these bytes with every dictionary reference written out
 * (the entry's text in place of its id), so a dictionary entry rewritten in the database changes the hashed bytes of
 * every event that refers to it and breaks the chain like any other edit.
 *
 * Layout: one tag byte, then
 *   0 null · 1 false · 2 true
 *   3 integer ≥ 0: varint · 4 integer < 0: varint of its magnitude
 *   5 string: varint byte length, UTF-8 bytes · 6 string from the dictionary: varint id
 *   7 array: varint count, the items · 8 object: varint id of its shape (a JSON array of its sorted keys), the values
 *   9 the event's own id (events carry their id in their data too: it is not kept twice)
 *   10 (store version 6) string that begins with a dictionary string: varint id of that entry, then the rest as a
 *      varint byte length and UTF-8 bytes (a bet id is its round id and "/1-ANTE": the round id is not kept again)
 * Varints are little-endian base 128 (up to 2^53, safe integers only).
 */

import {
  type ByteWriter,
  copyBytes,
  definedKeys,
  explainProblem,
  FORM_TAG,
  FormWriter,
  isPlainObject,
  NOT_IN_FORM,
  wellFormed,
} from './hash-form.ts';

/** The hash form's tags, and the compact form's own: a dictionary string, the event's id, a prefixed string. */
export const TAG = { ...FORM_TAG, stringRef: 6, eventId: 9, prefixed: 10 } as const;

/** What the encoder needs from the store's dictionary. */
export interface EncodeDictionary {
  /** The id of an object shape (the JSON array of its sorted keys), added to the dictionary if new. */
  shape(keysJson: string): number;
  /** The id of a string if it is (or is now) kept in the dictionary; undefined to keep it inline. */
  string(value: string): number | undefined;
}

/** What the decoder needs: the text of an entry (a shape's JSON key list, or a string). Throws if unknown. */
export interface DecodeDictionary {
  shapeKeys(id: number): readonly string[];
  stringAt(id: number): string;
}

/** The bytes are not a value of this encoding: a damaged or edited payload. */
export class CompactFormatError extends Error {
  override readonly name = 'CompactFormatError';
}

// ---- encoding -------------------------------------------------------------------------------------------------

let scratch = Buffer.allocUnsafe(64 * 1024);
let at = 0;
/** The id of the event being encoded: a string equal to it is written as one byte. */
let ownId: string | undefined;

function room(n: number): void {
  if (at + n <= scratch.length) return;
  let size = scratch.length * 2;
  while (size < at + n) size *= 2;
  const bigger = Buffer.allocUnsafe(size);
  scratch.copy(bigger, 0, 0, at);
  scratch = bigger;
}

function writeVarint(n: number): void {
  room(8);
  while (n >= 0x80) {
    scratch[at++] = (n % 0x80) | 0x80;
    n = Math.floor(n / 0x80);
  }
  scratch[at++] = n;
}

/** A writer for encodeCompact's hash form, which it does not keep. */
const unusedForm = new FormWriter();

/**
 * The compact form of a value accepted by canonicalJson, for a caller that needs no hash form (the tamper tool,
 * tests): the one encoder below, its hash form thrown away. CompactFormatError for a value it cannot hold. The
 * result is a copy: the encoder's scratch buffer is reused.
 */
export function encodeCompact(value: unknown, dict: EncodeDictionary, eventId?: string): Buffer {
  unusedForm.at = 0;
  try {
    return encodeWithHashForm(value, dict, eventId, unusedForm);
  } catch (err) {
    if (err === NOT_IN_FORM) {
      const problem = explainProblem(value, 'value');
      throw new CompactFormatError(`${problem.path} ${problem.reason}`);
    }
    throw err;
  } finally {
    if (unusedForm.buf.length > 1024 * 1024) unusedForm.buf = Buffer.allocUnsafe(16 * 1024);
  }
}

// ---- encoding with the hash form, in one pass -----------------------------------------------------------------

/** What the one-pass encoder needs from the dictionary: a shape's id from its sorted keys. */
export interface DualDictionary {
  /** The id of the shape of these keys (sorted, as JSON.stringify(keys)), added if new. */
  shape(keysJson: string): number;
  string(value: string): number | undefined;
  /** Optional cache: a string entry in the hash form (its tag, length and bytes), copied instead of encoded again. */
  stringForm?(id: number): Uint8Array;
  /**
   * Optional: a string entry that the value begins with, ended at a separator, and its length in UTF-16 code units
   * (kept as tag 10, the entry and the rest); undefined to keep the value whole.
   */
  prefixOf?(value: string): { id: number; chars: number } | undefined;
  /**
   * Optional cache: the shape of an object by its own keys in their own order (all defined): its id, its keys
   * sorted, and its key count and keys in the hash form. Throws NOT_IN_FORM for a key with a lone surrogate.
   */
  shapeOfKeys?(ownKeys: readonly string[]): {
    id: number;
    sorted: readonly string[];
    /** for each sorted key, its index among the object's own keys (and so among Object.values) */
    order: readonly number[];
    form: Uint8Array;
  };
}

function writeBoth(v: unknown, dict: DualDictionary, hw: FormWriter, depth: number): void {
  switch (typeof v) {
    case 'string': {
      if (v === ownId) {
        hw.string(v);
        room(1);
        scratch[at++] = TAG.eventId;
        return;
      }
      if (!wellFormed(v)) throw NOT_IN_FORM; // a lone surrogate: before anything is kept
      const id = dict.string(v);
      if (id !== undefined) {
        // the entry's hash form is the string's own (the entry's text is this string): copied when cached
        const form = dict.stringForm?.(id);
        if (form === undefined) hw.wellFormedString(v);
        else hw.bytes(form);
        room(1);
        scratch[at++] = TAG.stringRef;
        writeVarint(id);
        return;
      }
      const start = hw.at;
      hw.wellFormedString(v);
      const prefix = dict.prefixOf?.(v);
      if (prefix !== undefined) {
        // a dictionary string and the rest: the hash form above has the whole string
        const rest = v.slice(prefix.chars);
        const bytes = Buffer.byteLength(rest, 'utf8');
        room(1 + 8 + 8 + bytes);
        scratch[at++] = TAG.prefixed;
        writeVarint(prefix.id);
        writeVarint(bytes);
        at += scratch.write(rest, at, bytes, 'utf8');
        return;
      }
      // inline, the stored bytes are the hash form's: copied, not encoded twice
      const n = hw.at - start;
      room(n);
      copyBytes(hw.buf, start, hw.at, scratch, at);
      at += n;
      return;
    }
    case 'boolean':
      room(1);
      scratch[at++] = v ? TAG.true : TAG.false;
      hw.byte(v ? TAG.true : TAG.false);
      return;
    case 'number': {
      if (!Number.isSafeInteger(v)) throw NOT_IN_FORM;
      const n = v === 0 ? 0 : v;
      room(1);
      if (n >= 0) {
        scratch[at++] = TAG.uint;
        writeVarint(n);
      } else {
        scratch[at++] = TAG.nint;
        writeVarint(-n);
      }
      hw.int(n);
      return;
    }
    case 'object': {
      if (depth > 1_000) throw NOT_IN_FORM;
      room(1);
      if (v === null) {
        scratch[at++] = TAG.null;
        hw.byte(TAG.null);
        return;
      }
      if (Array.isArray(v)) {
        scratch[at++] = TAG.array;
        writeVarint(v.length);
        hw.byte(TAG.array);
        hw.varint(v.length);
        for (let i = 0; i < v.length; i++) {
          const item: unknown = v[i];
          if (item === undefined) throw NOT_IN_FORM;
          writeBoth(item, dict, hw, depth + 1);
        }
        return;
      }
      if (!isPlainObject(v)) throw NOT_IN_FORM;
      const record = v as Record<string, unknown>;
      // the shape by the object's own key order (objects made alike share it): sorting and spelling the keys once
      const own = Object.keys(record);
      let shape = dict.shapeOfKeys?.(own);
      // the values in the own keys' order (as Object.keys gives them): one call instead of a keyed load per key
      const values = shape === undefined ? undefined : Object.values(record);
      if (shape !== undefined)
        for (const i of shape.order)
          if (values![i] === undefined) {
            shape = undefined; // a member left out: the shape of the defined ones
            break;
          }
      if (shape === undefined) {
        const keys = definedKeys(record);
        hw.byte(TAG.object);
        hw.varint(keys.length);
        for (const k of keys) hw.string(k);
        scratch[at++] = TAG.object;
        writeVarint(dict.shape(JSON.stringify(keys)));
        for (const k of keys) writeBoth(record[k], dict, hw, depth + 1);
        return;
      }
      hw.byte(TAG.object);
      hw.bytes(shape.form);
      scratch[at++] = TAG.object;
      writeVarint(shape.id);
      for (const i of shape.order) writeBoth(values![i], dict, hw, depth + 1);
      return;
    }
    default:
      throw NOT_IN_FORM;
  }
}

/**
 * The compact form of a value and, in the same pass, its hash form appended to `hw`. Throws NOT_IN_FORM at the
 * first thing neither can hold (hash-form.ts explainProblem says where). The result is a copy.
 */
export function encodeWithHashForm(
  value: unknown,
  dict: DualDictionary,
  eventId: string | undefined,
  hw: FormWriter,
): Buffer {
  at = 0;
  ownId = eventId;
  writeBoth(value, dict, hw, 0);
  return Buffer.from(scratch.subarray(0, at));
}

/**
 * As encodeWithHashForm, the compact form appended to `out` instead of returned as a copy of its own (no Buffer
 * made per value); returns its length.
 */
export function encodeWithHashFormInto(
  value: unknown,
  dict: DualDictionary,
  eventId: string | undefined,
  hw: FormWriter,
  out: ByteWriter,
): number {
  at = 0;
  ownId = eventId;
  writeBoth(value, dict, hw, 0);
  out.room(at);
  copyBytes(scratch, 0, at, out.buf, out.at);
  out.at += at;
  return at;
}

/** What the expansion needs: each entry's bytes in the hash form (cached by the dictionary). */
export interface ExpandDictionary {
  /** a shape's key count and keys, each as a string of the hash form */
  shapeForm(id: number): { keys: number; bytes: Uint8Array };
  /** a string entry as a string of the hash form */
  stringForm(id: number): Uint8Array;
  /** a string entry's UTF-8 bytes alone */
  stringBytes(id: number): Uint8Array;
}

/**
 * Appends to `hw` the hash form of the value kept in `bytes` (compact form), without decoding it: dictionary
 * references are written out from the entries' cached bytes. Throws CompactFormatError for bytes that are not
 * exactly one value.
 */
export function expandToHashForm(
  bytes: Uint8Array,
  dict: ExpandDictionary,
  eventId: string | undefined,
  hw: FormWriter,
): void {
  const r = new Expander(bytes, dict, eventId, hw);
  r.value(0);
  if (r.pos !== bytes.length) r.fail('bytes left after the value');
  r.flushTo(r.pos);
}

/**
 * A position in bytes read from outside and its bounded reads; `fail` says whose bytes they are and throws. What a
 * compact payload's readers (the Expander and the Reader) and a prepared batch's reader share.
 */
export abstract class ByteCursor {
  pos = 0;
  constructor(
    readonly input: Uint8Array,
    /** what the bytes are, for "the … ends early" */
    private readonly what: string,
  ) {}

  abstract fail(what: string): never;

  byte(): number {
    if (this.pos >= this.input.length) this.fail(`the ${this.what} ends early`);
    return this.input[this.pos++]!;
  }

  varint(): number {
    let n = 0;
    let scale = 1;
    for (;;) {
      const b = this.byte();
      n += (b & 0x7f) * scale;
      if (b < 0x80) break;
      scale *= 0x80;
      if (scale > 2 ** 53) this.fail('a varint longer than a safe integer');
    }
    if (!Number.isSafeInteger(n)) this.fail('a varint larger than a safe integer');
    return n;
  }
}

/** A position in a compact payload: what the Expander and the Reader share. */
class PayloadCursor extends ByteCursor {
  constructor(bytes: Uint8Array) {
    super(bytes, 'payload');
  }

  fail(what: string): never {
    throw new CompactFormatError(`${what} at byte ${this.pos} of ${this.input.length}`);
  }
}

/**
 * The compact form and the hash form spell null, booleans, integers, inline strings and arrays alike: those bytes are
 * copied in runs, and only what differs is written out (a dictionary string, the event's id, an object's shape). A
 * varint not in its shortest spelling (which no encoder writes) is written out in it, so the form is the one of the
 * value whatever its spelling, as when it is made from the decoded value.
 */
class Expander extends PayloadCursor {
  /** where the bytes read but not yet copied start */
  private from = 0;
  constructor(
    bytes: Uint8Array,
    readonly dict: ExpandDictionary,
    readonly eventId: string | undefined,
    readonly hw: FormWriter,
  ) {
    super(bytes);
  }

  /** Copies the bytes from `from` up to `end` as they are. */
  flushTo(end: number): void {
    const n = end - this.from;
    if (n <= 0) return;
    const hw = this.hw;
    hw.room(n);
    const out = hw.buf;
    const src = this.input;
    let o = hw.at;
    for (let i = this.from; i < end; i++) out[o++] = src[i]!;
    hw.at = o;
    this.from = end;
  }

  /** A varint; one longer than its shortest spelling is written out in the shortest. */
  private shortestVarint(): number {
    const start = this.pos;
    const n = this.varint();
    if (this.pos - start > 1 && this.input[this.pos - 1] === 0) {
      this.flushTo(start);
      this.hw.varint(n);
      this.from = this.pos;
    }
    return n;
  }

  value(depth: number): void {
    const tag = this.byte();
    switch (tag) {
      case TAG.null:
      case TAG.false:
      case TAG.true:
        return;
      case TAG.uint:
        this.shortestVarint();
        return;
      case TAG.nint:
        if (this.shortestVarint() === 0) this.fail('a negative zero');
        return;
      case TAG.string: {
        const length = this.shortestVarint();
        if (length > this.input.length - this.pos) this.fail(`a string of ${length} bytes runs past the end`);
        this.pos += length;
        return;
      }
      case TAG.stringRef: {
        const start = this.pos - 1;
        const form = this.dict.stringForm(this.varint());
        this.flushTo(start);
        this.hw.bytes(form);
        this.from = this.pos;
        return;
      }
      case TAG.prefixed: {
        const start = this.pos - 1;
        const prefix = this.dict.stringBytes(this.varint());
        const length = this.varint();
        if (length > this.input.length - this.pos) this.fail(`a string of ${length} bytes runs past the end`);
        // the hash form spells the whole string inline, as the value decoded from it would be
        this.flushTo(start);
        const hw = this.hw;
        hw.byte(TAG.string);
        hw.varint(prefix.length + length);
        hw.bytes(prefix);
        hw.bytes(this.input.subarray(this.pos, this.pos + length));
        this.pos += length;
        this.from = this.pos;
        return;
      }
      case TAG.eventId: {
        const id = this.eventId;
        if (id === undefined) this.fail("the event's id, where no id was given");
        this.flushTo(this.pos - 1);
        this.hw.string(id);
        this.from = this.pos;
        return;
      }
      case TAG.array: {
        const count = this.shortestVarint();
        if (count > this.input.length - this.pos) this.fail(`an array of ${count} items runs past the end`);
        if (depth > 1_000) this.fail('nesting deeper than 1000 levels');
        for (let i = 0; i < count; i++) this.value(depth + 1);
        return;
      }
      case TAG.object: {
        const start = this.pos; // after the tag, which both forms share
        const shape = this.dict.shapeForm(this.varint());
        if (depth > 1_000) this.fail('nesting deeper than 1000 levels');
        this.flushTo(start);
        this.hw.bytes(shape.bytes);
        this.from = this.pos;
        for (let i = 0; i < shape.keys; i++) this.value(depth + 1);
        return;
      }
      default:
        return this.fail(`unknown tag ${tag}`);
    }
  }
}

// ---- decoding -------------------------------------------------------------------------------------------------

/** Node's UTF-8 decoder of a byte range (what Buffer's toString('utf8', start, end) calls), for any Uint8Array. */
const utf8Slice = (
  Buffer.prototype as unknown as { utf8Slice: (this: Uint8Array, start: number, end: number) => string }
).utf8Slice;

class Reader extends PayloadCursor {
  constructor(
    bytes: Uint8Array,
    readonly dict: DecodeDictionary,
    readonly eventId: string | undefined,
  ) {
    super(bytes);
  }

  text(): string {
    const length = this.varint();
    if (length > this.input.length - this.pos) this.fail(`a string of ${length} bytes runs past the end`);
    // decoded in place: no Buffer view made per string (the same decoder as Buffer's toString('utf8'))
    const s = utf8Slice.call(this.input, this.pos, this.pos + length);
    this.pos += length;
    return s;
  }

  value(depth: number): unknown {
    const tag = this.byte();
    switch (tag) {
      case TAG.null:
        return null;
      case TAG.false:
        return false;
      case TAG.true:
        return true;
      case TAG.uint:
        return this.varint();
      case TAG.nint: {
        const n = this.varint();
        if (n === 0) this.fail('a negative zero');
        return -n;
      }
      case TAG.string:
        return this.text();
      case TAG.stringRef:
        return this.dict.stringAt(this.varint());
      case TAG.prefixed:
        return this.dict.stringAt(this.varint()) + this.text();
      case TAG.eventId:
        if (this.eventId === undefined) this.fail("the event's id, where no id was given");
        return this.eventId;
      case TAG.array: {
        const count = this.varint();
        // every item takes at least one byte: a count larger than what is left is a damaged payload
        if (count > this.input.length - this.pos) this.fail(`an array of ${count} items runs past the end`);
        if (depth > 1_000) this.fail('nesting deeper than 1000 levels');
        const out = new Array<unknown>(count);
        for (let i = 0; i < count; i++) out[i] = this.value(depth + 1);
        return out;
      }
      case TAG.object: {
        const keys = this.dict.shapeKeys(this.varint());
        if (depth > 1_000) this.fail('nesting deeper than 1000 levels');
        const out: Record<string, unknown> = {};
        for (const k of keys)
          if (k === '__proto__')
            // an own property, as JSON.parse makes it: an assignment would set the prototype instead
            Object.defineProperty(out, k, {
              value: this.value(depth + 1),
              enumerable: true,
              writable: true,
              configurable: true,
            });
          else out[k] = this.value(depth + 1);
        return out;
      }
      default:
        return this.fail(`unknown tag ${tag}`);
    }
  }
}

/** The value kept in `bytes`; throws CompactFormatError for bytes that are not exactly one value. */
export function decodeCompact(bytes: Uint8Array, dict: DecodeDictionary, eventId?: string): unknown {
  const reader = new Reader(bytes, dict, eventId);
  const value = reader.value(0);
  if (reader.pos !== bytes.length) reader.fail('bytes left after the value');
  return value;
}
