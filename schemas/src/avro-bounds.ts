/**
 * Checks that bytes hold one Avro value of a type, trusting nothing they declare: every long fits in a safe
 * integer, every string, bytes and fixed lies inside the data, every array or map declares no more items than its
 * bytes could hold, every enum and union index is in range. It only measures (it builds no value), so that avsc,
 * which trusts declared counts and lengths, decodes only what has been checked. On failure it says which field,
 * at which byte offset, and why.
 */
import type avro from 'avsc';

/** Where and why a value does not fit its type. `offset` counts from the start of the data given. */
export class EncodingError extends Error {
  readonly path: string;
  constructor(
    readonly offset: number,
    /** null: measured without paths (measureValue measures again with them for the message) */
    path: string | null,
    readonly reason: string,
    /** the data ended (or declares more than is left): more bytes might make it whole */
    readonly truncated = false,
  ) {
    super(`${path || 'the record'} at byte ${offset}: ${reason}`);
    this.path = path ?? '';
  }
}

/** The most items of zero bytes each (null, an empty record) an array or map may declare. */
export const MAX_EMPTY_ITEMS = 100_000;

const MAX_ZIGZAG = 2 ** 54; // zigzag of ±2^53

/** Reads a zigzag varint long: its value and the offset after it. Throws EncodingError. */
export function readLong(data: Uint8Array, pos: number, end: number, path: string): [number, number] {
  const value = longAt(data, pos, end, path);
  return [value, longEnd];
}

/** The offset after the long the last longAt read (no pair made per long). */
let longEnd = 0;

/** As readLong, its value only; the offset after it is left in longEnd. */
function longAt(data: Uint8Array, pos: number, end: number, path: string | null): number {
  let unsigned = 0;
  let scale = 1;
  let at = pos;
  for (;;) {
    if (at >= end)
      throw new EncodingError(
        pos,
        path,
        `a long runs past the end of the data (${end - pos} byte(s) left)`,
        true,
      );
    if (at - pos >= 10) throw new EncodingError(pos, path, 'a long takes more than 10 bytes');
    const byte = data[at++]!;
    unsigned += (byte & 0x7f) * scale;
    if (unsigned > MAX_ZIGZAG)
      throw new EncodingError(pos, path, 'a long is beyond ±2^53 (no event holds such a number)');
    if (!(byte & 0x80)) break;
    scale *= 128;
  }
  longEnd = at;
  return unsigned % 2 === 0 ? unsigned / 2 : -(unsigned + 1) / 2;
}

/**
 * Measures one value. `path` names the value for an error; null: not named (measureValue first measures without
 * making a path per field and item, and measures again with paths only when that fails, for the message).
 */
type Measure = (data: Uint8Array, pos: number, end: number, path: string | null) => number;
type Path = string | null;
const fieldPath = (path: Path, name: string): Path =>
  path === null ? null : path ? `${path}.${name}` : name;
const itemPath = (path: Path, suffix: string): Path => (path === null ? null : `${path}${suffix}`);

const measures = new WeakMap<avro.Type, { measure: Measure; min: number }>();

/** The fewest bytes a value of the type takes. */
function minSize(type: avro.Type, seen = new Set<avro.Type>()): number {
  const name = type.typeName;
  switch (name) {
    case 'null':
      return 0;
    case 'float':
      return 4;
    case 'double':
      return 8;
    case 'fixed':
      return (type as avro.types.FixedType).size;
    case 'record':
    case 'error': {
      if (seen.has(type)) return 0; // recursive: counted once
      seen.add(type);
      let sum = 0;
      for (const f of (type as avro.types.RecordType).fields) sum += minSize(f.type, seen);
      seen.delete(type);
      return sum;
    }
    default:
      if (name.startsWith('logical:'))
        return minSize((type as unknown as { underlyingType: avro.Type }).underlyingType, seen);
      return 1; // boolean, int, long, bytes, string, enum, array, map, union (at least the index or a 0 count)
  }
}

function measureOf(type: avro.Type): Measure {
  let known = measures.get(type);
  if (!known) {
    // compile() makes closures that look their parts up when called: recursive types need nothing more
    known = { measure: compile(type), min: minSize(type) };
    measures.set(type, known);
  }
  return known.measure;
}

const bytesLength =
  (what: string): Measure =>
  (data, pos, end, path) => {
    const length = longAt(data, pos, end, path);
    const at = longEnd;
    if (length < 0) throw new EncodingError(pos, path, `${what} declares a negative length (${length})`);
    if (length > end - at)
      throw new EncodingError(
        pos,
        path,
        `${what} declares ${length} bytes but only ${end - at} are left in the data`,
        true,
      );
    return at + length;
  };

function compile(type: avro.Type): Measure {
  const name = type.typeName;
  switch (name) {
    case 'null':
      return (_d, pos) => pos;
    case 'boolean':
      return (data, pos, end, path) => {
        if (pos >= end) throw new EncodingError(pos, path, 'a boolean runs past the end of the data');
        if (data[pos]! > 1) throw new EncodingError(pos, path, `a boolean is ${data[pos]}, not 0 or 1`);
        return pos + 1;
      };
    case 'int':
      return (data, pos, end, path) => {
        const value = longAt(data, pos, end, path);
        if (value < -(2 ** 31) || value >= 2 ** 31)
          throw new EncodingError(pos, path, `an int is ${value}, beyond 32 bits`);
        return longEnd;
      };
    case 'long':
      return (data, pos, end, path) => (longAt(data, pos, end, path), longEnd);
    case 'float':
    case 'double': {
      const size = name === 'float' ? 4 : 8;
      return (_d, pos, end, path) => {
        if (pos + size > end) throw new EncodingError(pos, path, `a ${name} runs past the end of the data`);
        return pos + size;
      };
    }
    case 'string':
      return bytesLength('a string');
    case 'bytes':
      return bytesLength('a bytes value');
    case 'fixed': {
      const size = (type as avro.types.FixedType).size;
      return (_d, pos, end, path) => {
        if (pos + size > end)
          throw new EncodingError(pos, path, `a fixed of ${size} bytes runs past the end of the data`, true);
        return pos + size;
      };
    }
    case 'enum': {
      const symbols = (type as avro.types.EnumType).symbols;
      return (data, pos, end, path) => {
        const index = longAt(data, pos, end, path);
        if (index < 0 || index >= symbols.length)
          throw new EncodingError(
            pos,
            path,
            `enum index ${index}, but ${String(type.name)} has ${symbols.length} symbols`,
          );
        return longEnd;
      };
    }
    case 'array':
    case 'map': {
      const items =
        name === 'array' ? (type as avro.types.ArrayType).itemsType : (type as avro.types.MapType).valuesType;
      const key = bytesLength('a map key');
      return (data, pos, end, path) => {
        const item = measureOf(items);
        const min = measures.get(items)!.min + (name === 'map' ? 1 : 0);
        let at = pos;
        let total = 0;
        for (;;) {
          const blockStart = at;
          let count = longAt(data, at, end, path);
          at = longEnd;
          if (count === 0) return at;
          if (count < 0) {
            count = -count;
            longAt(data, at, end, path); // the block's size in bytes, not needed to read it
            at = longEnd;
          }
          total += count;
          if (min > 0 ? count * min > end - at : total > MAX_EMPTY_ITEMS)
            throw new EncodingError(
              blockStart,
              path,
              min > 0
                ? `${name === 'array' ? 'an array' : 'a map'} declares ${count} items of at least ${min} byte(s) but only ${end - at} bytes are left`
                : `${name === 'array' ? 'an array' : 'a map'} declares ${total} empty items, more than ${MAX_EMPTY_ITEMS}`,
              min > 0,
            );
          for (let i = 0; i < count; i += 1) {
            if (name === 'map') at = key(data, at, end, itemPath(path, '{key}'));
            at = item(data, at, end, itemPath(path, `[${i}]`));
          }
        }
      };
    }
    case 'record':
    case 'error': {
      const fields = (type as avro.types.RecordType).fields;
      // the fields' measures are looked up on the first call (a record may contain itself)
      let parts: { name: string; measure: Measure }[] | undefined;
      return (data, pos, end, path) => {
        parts ??= fields.map((f) => ({ name: f.name, measure: measureOf(f.type) }));
        let at = pos;
        for (let i = 0; i < parts.length; i++) {
          const part = parts[i]!;
          at = part.measure(data, at, end, fieldPath(path, part.name));
        }
        return at;
      };
    }
    default: {
      if (name.startsWith('union')) {
        const branches = (type as avro.types.WrappedUnionType).types;
        return (data, pos, end, path) => {
          const index = longAt(data, pos, end, path);
          const at = longEnd;
          const branch = branches[index];
          if (!branch)
            throw new EncodingError(
              pos,
              path,
              `union index ${index}, but the union has ${branches.length} branches`,
            );
          return measureOf(branch)(data, at, end, path);
        };
      }
      if (name.startsWith('logical:'))
        return measureOf((type as unknown as { underlyingType: avro.Type }).underlyingType);
      throw new EncodingError(0, '', `type ${name} cannot be measured`);
    }
  }
}

/**
 * The offset just past one value of `type` at `pos`, checking every count and length against `end`. Throws
 * EncodingError naming the field and the offset.
 */
export function measureValue(type: avro.Type, data: Uint8Array, pos: number, end: number, path = ''): number {
  const measure = measureOf(type);
  try {
    return measure(data, pos, end, null);
  } catch (error) {
    if (!(error instanceof EncodingError)) throw error;
  }
  // it does not fit: measured again, naming every field and item on the way, for the message (the same failure)
  return measure(data, pos, end, path);
}

/** The fewest bytes a value of the type takes (0 for null or an empty record). */
export function minimumSize(type: avro.Type): number {
  measureOf(type);
  return measures.get(type)!.min;
}
