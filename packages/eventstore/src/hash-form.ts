/**
 * The hash form: the bytes an event's hash is computed over (version 5 of the chain). A binary spelling of the
 * event's content, one byte-exact form per value, so the same content hashes the same in every adapter, in a bundle
 * checked offline and in a store migrated from an older version.
 *
 * It is the SQLite store's compact form (compact.ts) with every dictionary reference written out: a string kept in
 * the dictionary (tag 6) or the event's own id (tag 9) as the string itself (tag 5), an object's shape reference as
 * its key count and keys. So the SQLite store makes it from the bytes it stores without decoding them (copying the
 * dictionary entries' bytes, cached per entry), and anyone else makes it from the content — no JSON is written.
 *
 *   value:  0 null · 1 false · 2 true · 3 integer ≥ 0: varint · 4 integer < 0: varint of its magnitude
 *           5 string: varint byte length, UTF-8 · 7 array: varint count, the items
 *           8 object: varint count, each key as a string (tag 5), keys sorted by UTF-16 code units, then the values
 *   event:  byte 5 (the form's version), data, metadata (null when there is none: absent or no member),
 *           stream, revision, recordedAt, eventId, type (strings and integers as above),
 *           then the previous event's hash, 32 bytes (zeros for revision 0)
 *   hash:   sha256 of those bytes, hex.
 *
 * The values allowed are those of canonicalJson (canonical-json.ts): null, booleans, safe integers (-0 is 0),
 * strings, arrays without holes, plain objects (members that are undefined left out); and, because the bytes are
 * UTF-8, no string or key holding a lone surrogate (it could not come back as it went in).
 */
import crypto, { createHash } from 'node:crypto';
import { canonicalJson, NotCanonicalJson } from './canonical-json.ts';

export const HASH_FORM_VERSION = 5;

/** The tags of the hash form, shared with the compact form (which adds 6, 9 and shape references). */
export const FORM_TAG = {
  null: 0,
  false: 1,
  true: 2,
  uint: 3,
  nint: 4,
  string: 5,
  array: 7,
  object: 8,
} as const;

const MAX_DEPTH = 1_000;
/** No lone surrogate (String.prototype.isWellFormed, Node 20; not yet in TypeScript's ES2022 library). */
export const wellFormed = (s: string): boolean =>
  (s as unknown as { isWellFormed(): boolean }).isWellFormed();
/** Thrown at the first value the form cannot hold; `explainProblem` then says where and why. */
export const NOT_IN_FORM = Symbol('not in the hash form');

const sha256 = (crypto as { hash?: (algorithm: string, data: Uint8Array, encoding: 'buffer') => Buffer })
  .hash;
/** sha256 of bytes, as a Buffer (the one-shot digest where Node has it). */
export const sha256Bytes: (bytes: Uint8Array) => Buffer = sha256
  ? (bytes) => sha256('sha256', bytes, 'buffer')
  : (bytes) => createHash('sha256').update(bytes).digest();

/** A growable byte buffer with its byte and varint writes; reused, so a caller copies what it keeps. */
/**
 * Copies src[from, to) to dst at `at`: a loop for the few bytes of a value (Buffer.copy's and set's own costs per
 * call are more than the copy of tens of bytes), set() beyond.
 */
export function copyBytes(src: Uint8Array, from: number, to: number, dst: Uint8Array, at: number): void {
  const n = to - from;
  if (n <= 64) for (let i = 0; i < n; i++) dst[at + i] = src[from + i]!;
  else dst.set(src.subarray(from, to), at);
}

export class ByteWriter {
  buf: Buffer;
  at = 0;

  constructor(initialBytes = 16 * 1024) {
    this.buf = Buffer.allocUnsafe(initialBytes);
  }

  room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.at + n) size *= 2;
    const bigger = Buffer.allocUnsafe(size);
    this.buf.copy(bigger, 0, 0, this.at);
    this.buf = bigger;
  }

  byte(b: number): void {
    this.room(1);
    this.buf[this.at++] = b;
  }

  varint(n: number): void {
    this.room(8);
    while (n >= 0x80) {
      this.buf[this.at++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.buf[this.at++] = n;
  }
}

/** The writer the hash form is written into. */
export class FormWriter extends ByteWriter {
  int(n: number): void {
    if (n >= 0) {
      this.byte(FORM_TAG.uint);
      this.varint(n);
    } else {
      this.byte(FORM_TAG.nint);
      this.varint(-n);
    }
  }

  /** A string, tag and all; throws NOT_IN_FORM for a lone surrogate. */
  string(s: string): void {
    if (!wellFormed(s)) throw NOT_IN_FORM;
    this.wellFormedString(s);
  }

  /** A string known to hold no lone surrogate (wellFormed), tag and all. */
  wellFormedString(s: string): void {
    const n = s.length;
    if (n < 43) {
      // at most 126 bytes: the length fits one varint byte, written after the bytes are
      this.room(2 + 3 * n);
      this.buf[this.at] = FORM_TAG.string;
      const written = this.buf.write(s, this.at + 2, 'utf8');
      this.buf[this.at + 1] = written;
      this.at += 2 + written;
      return;
    }
    const bytes = Buffer.byteLength(s, 'utf8');
    this.byte(FORM_TAG.string);
    this.varint(bytes);
    this.room(bytes);
    this.at += this.buf.write(s, this.at, bytes, 'utf8');
  }

  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.at);
    this.at += b.length;
  }

  /** A value's hash form; throws NOT_IN_FORM at the first thing it cannot hold. */
  value(v: unknown, depth = 0): void {
    switch (typeof v) {
      case 'string':
        return this.string(v);
      case 'boolean':
        return this.byte(v ? FORM_TAG.true : FORM_TAG.false);
      case 'number':
        if (!Number.isSafeInteger(v)) throw NOT_IN_FORM;
        return this.int(v === 0 ? 0 : v);
      case 'object': {
        if (v === null) return this.byte(FORM_TAG.null);
        if (depth > MAX_DEPTH) throw NOT_IN_FORM;
        if (Array.isArray(v)) {
          this.byte(FORM_TAG.array);
          this.varint(v.length);
          for (let i = 0; i < v.length; i++) {
            const item: unknown = v[i];
            if (item === undefined) throw NOT_IN_FORM;
            this.value(item, depth + 1);
          }
          return;
        }
        if (!isPlainObject(v)) throw NOT_IN_FORM;
        const keys = definedKeys(v as Record<string, unknown>);
        this.byte(FORM_TAG.object);
        this.varint(keys.length);
        for (const k of keys) this.string(k);
        for (const k of keys) this.value((v as Record<string, unknown>)[k], depth + 1);
        return;
      }
      default:
        throw NOT_IN_FORM;
    }
  }
}

export const isPlainObject = (v: object): boolean => {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
};

/** An object's keys whose values are not undefined, sorted by UTF-16 code units. */
export function definedKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record);
  let defined = keys;
  for (let i = 0; i < keys.length; i++)
    if (record[keys[i]!] === undefined) {
      defined = keys.filter((k) => record[k] !== undefined);
      break;
    }
  return defined.sort();
}

/** Whether metadata counts as none: absent, or an object without a defined member (stored and hashed as none). */
export const noMetadata = (m: Record<string, unknown> | undefined): boolean => {
  if (m === undefined) return true;
  for (const k of Object.keys(m)) if (m[k] !== undefined) return false;
  return true;
};

/**
 * Why a value has no hash form, as NotCanonicalJson (its path and reason): what canonicalJson refuses, then lone
 * surrogates, which JSON can spell but UTF-8 cannot keep.
 */
export function explainProblem(value: unknown, path: string): NotCanonicalJson {
  try {
    canonicalJson(value, path);
  } catch (e) {
    if (e instanceof NotCanonicalJson) return e;
    throw e;
  }
  const find = (v: unknown, at: string): NotCanonicalJson | null => {
    if (typeof v === 'string')
      return wellFormed(v)
        ? null
        : new NotCanonicalJson(at, 'holds a lone surrogate, which UTF-8 cannot keep');
    if (v === null || typeof v !== 'object') return null;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const p = find(v[i], `${at}[${i}]`);
        if (p) return p;
      }
      return null;
    }
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (x === undefined) continue;
      const at2 = `${at}[${JSON.stringify(k)}]`;
      if (!wellFormed(k))
        return new NotCanonicalJson(at2, 'is a key holding a lone surrogate, which UTF-8 cannot keep');
      const p = find(x, at2);
      if (p) return p;
    }
    return null;
  };
  return find(value, path) ?? new NotCanonicalJson(path, 'cannot be written in the hash form');
}

/** What an event's hash covers besides the previous hash. */
export interface HashFormHeader {
  stream: string;
  revision: number;
  recordedAt: number;
  eventId: string;
  type: string;
}

/** Writes the header and the previous hash (64 hex digits) after the content; see the layout above. */
export function writeHeaderAndPrevious(w: FormWriter, h: HashFormHeader, previousHash: Uint8Array): void {
  w.string(h.stream);
  w.int(h.revision);
  w.int(h.recordedAt);
  w.string(h.eventId);
  w.string(h.type);
  w.bytes(previousHash);
}

const shared = new FormWriter();

/**
 * The hash form of an event from its content (what every adapter, verify and an offline bundle check use).
 * Throws NotCanonicalJson (path "data" or "metadata") for content the form cannot hold. The result is the shared
 * writer's buffer: use it before the next call.
 */
export function hashFormOf(
  content: HashFormHeader & { data: unknown; metadata?: Record<string, unknown> | undefined },
  previousHash: Uint8Array,
): Buffer {
  const w = shared;
  w.at = 0;
  w.byte(HASH_FORM_VERSION);
  try {
    w.value(content.data);
  } catch (e) {
    if (e === NOT_IN_FORM) throw explainProblem(content.data, 'data');
    throw e;
  }
  const metadata = content.metadata;
  if (noMetadata(metadata)) w.byte(FORM_TAG.null);
  else
    try {
      w.value(metadata);
    } catch (e) {
      if (e === NOT_IN_FORM) throw explainProblem(metadata, 'metadata');
      throw e;
    }
  try {
    writeHeaderAndPrevious(w, content, previousHash);
  } catch (e) {
    if (e === NOT_IN_FORM) throw new NotCanonicalJson('$', 'has a name holding a lone surrogate');
    throw e;
  }
  return w.buf.subarray(0, w.at);
}

const HEX_HASH = /^[0-9a-f]{64}$/;
/** A hash's 32 bytes from its hex; a string that is not 64 lower-case hex digits gives 32 bytes of 0xff (matches no hash). */
export function hashBytes(hex: string): Buffer {
  return HEX_HASH.test(hex) ? Buffer.from(hex, 'hex') : Buffer.alloc(32, 0xff);
}
