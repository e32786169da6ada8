/**
 * The compact binary form of an event's data and metadata in a version 4 SQLite store: a tagged encoding of the
 * JSON values the port accepts (null, booleans, safe integers, strings, arrays, plain objects), in which an
 * object's sorted key list (its "shape") and strings that repeat are kept once, in the store's dictionary table,
 * and referenced by a small integer.
 *
 * The encoding is lossless for what canonicalJson accepts: decoding gives back a value whose canonical JSON is
 * exactly the canonical JSON of the value encoded (keys in sorted order, members that are undefined left out, -0
 * as 0). The hash chain is over that canonical JSON, not over these bytes (see docs/integrity.md), so a dictionary
 * entry rewritten in the database changes the decoded content and breaks the chain like any other edit.
 *
 * Layout: one tag byte, then
 *   0 null · 1 false · 2 true
 *   3 integer ≥ 0: varint · 4 integer < 0: varint of its magnitude
 *   5 string: varint byte length, UTF-8 bytes · 6 string from the dictionary: varint id
 *   7 array: varint count, the items · 8 object: varint id of its shape (a JSON array of its sorted keys), the values
 *   9 the event's own id (events carry their id in their data too: it is not kept twice)
 * Varints are little-endian base 128 (up to 2^53, safe integers only).
 */

export const TAG = {
  null: 0,
  false: 1,
  true: 2,
  uint: 3,
  nint: 4,
  string: 5,
  stringRef: 6,
  array: 7,
  object: 8,
  eventId: 9,
} as const;

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

function writeValue(v: unknown, dict: EncodeDictionary, depth: number): void {
  switch (typeof v) {
    case 'string': {
      if (v === ownId) {
        room(1);
        scratch[at++] = TAG.eventId;
        return;
      }
      const id = dict.string(v);
      if (id !== undefined) {
        room(1);
        scratch[at++] = TAG.stringRef;
        writeVarint(id);
        return;
      }
      const bytes = Buffer.byteLength(v, 'utf8');
      room(1);
      scratch[at++] = TAG.string;
      writeVarint(bytes);
      room(bytes);
      at += scratch.write(v, at, bytes, 'utf8');
      return;
    }
    case 'boolean':
      room(1);
      scratch[at++] = v ? TAG.true : TAG.false;
      return;
    case 'number':
      if (!Number.isSafeInteger(v)) throw new CompactFormatError(`${v} is not a safe integer`);
      room(1);
      if (v >= 0) {
        scratch[at++] = TAG.uint;
        writeVarint(v);
      } else {
        scratch[at++] = TAG.nint;
        writeVarint(-v);
      }
      return;
    case 'object': {
      if (depth > 1_000) throw new CompactFormatError('nested more than 1000 levels deep');
      room(1);
      if (v === null) {
        scratch[at++] = TAG.null;
        return;
      }
      if (Array.isArray(v)) {
        scratch[at++] = TAG.array;
        writeVarint(v.length);
        for (const item of v) writeValue(item, dict, depth + 1);
        return;
      }
      const record = v as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((k) => record[k] !== undefined)
        .sort();
      scratch[at++] = TAG.object;
      writeVarint(dict.shape(JSON.stringify(keys)));
      for (const k of keys) writeValue(record[k], dict, depth + 1);
      return;
    }
    default:
      throw new CompactFormatError(`a ${typeof v} cannot be kept`);
  }
}

/**
 * The compact form of a value already accepted by canonicalJson (appends check it first). The result is a copy:
 * the encoder's scratch buffer is reused.
 */
export function encodeCompact(value: unknown, dict: EncodeDictionary, eventId?: string): Buffer {
  at = 0;
  ownId = eventId;
  writeValue(value, dict, 0);
  return Buffer.from(scratch.subarray(0, at));
}

// ---- decoding -------------------------------------------------------------------------------------------------

class Reader {
  pos = 0;
  constructor(
    readonly bytes: Uint8Array,
    readonly dict: DecodeDictionary,
    readonly eventId: string | undefined,
  ) {}

  fail(what: string): never {
    throw new CompactFormatError(`${what} at byte ${this.pos} of ${this.bytes.length}`);
  }

  byte(): number {
    if (this.pos >= this.bytes.length) this.fail('the payload ends early');
    return this.bytes[this.pos++]!;
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

  text(): string {
    const length = this.varint();
    if (length > this.bytes.length - this.pos) this.fail(`a string of ${length} bytes runs past the end`);
    const s = Buffer.from(this.bytes.buffer, this.bytes.byteOffset + this.pos, length).toString('utf8');
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
      case TAG.eventId:
        if (this.eventId === undefined) this.fail("the event's id, where no id was given");
        return this.eventId;
      case TAG.array: {
        const count = this.varint();
        // every item takes at least one byte: a count larger than what is left is a damaged payload
        if (count > this.bytes.length - this.pos) this.fail(`an array of ${count} items runs past the end`);
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
