/**
 * Canonical JSON: the one byte-exact spelling of a value that the hash chain is computed over. Object keys sorted
 * (by UTF-16 code units, JavaScript's default order), no whitespace, strings as JSON.stringify writes them.
 *
 * Only values that survive a JSON round trip unchanged are accepted — otherwise the stored event would not hash
 * to what was appended: null, booleans, strings, safe integers (floats are refused: money is in integer avos, and
 * float spellings differ between runtimes), arrays, and plain objects. Object properties whose value is undefined
 * are left out, as JSON.stringify does; undefined anywhere else is refused.
 */

/** Why a value has no canonical JSON, and where in it. */
export class NotCanonicalJson extends Error {
  override readonly name = 'NotCanonicalJson';
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path} ${reason}`);
  }
}

const isPlainObject = (v: object): boolean => {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
};

const keyPath = (path: string, key: string): string =>
  /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;

/** Thrown by the fast writer at the first problem; the slow writer then says where and why. */
const NOT_CANONICAL = Symbol('not canonical');
// deeper than any event; a cycle gets here, and the slow writer names it
const MAX_DEPTH = 1_000;

function writeFast(v: unknown, depth: number): string {
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      if (!Number.isSafeInteger(v)) throw NOT_CANONICAL;
      return String(v === 0 ? 0 : v);
    case 'object': {
      if (v === null) return 'null';
      if (depth > MAX_DEPTH) throw NOT_CANONICAL;
      if (Array.isArray(v)) {
        let out = '[';
        for (let i = 0; i < v.length; i++) {
          if (v[i] === undefined) throw NOT_CANONICAL;
          out += (i ? ',' : '') + writeFast(v[i], depth + 1);
        }
        return `${out}]`;
      }
      if (!isPlainObject(v)) throw NOT_CANONICAL;
      const record = v as Record<string, unknown>;
      let out = '{';
      let first = true;
      for (const key of Object.keys(record).sort()) {
        const member = record[key];
        if (member === undefined) continue;
        out += `${first ? '' : ','}${JSON.stringify(key)}:${writeFast(member, depth + 1)}`;
        first = false;
      }
      return `${out}}`;
    }
    default:
      throw NOT_CANONICAL;
  }
}

export function canonicalJson(value: unknown, path = '$'): string {
  // Appends hash every event: the common case must not build a path string for every key.
  try {
    return writeFast(value, 0);
  } catch (e) {
    if (e !== NOT_CANONICAL) throw e;
  }
  return writeWithPaths(value, path);
}

/** The same spelling, tracking where it is: used only to explain a value that has no canonical JSON. */
function writeWithPaths(value: unknown, path: string): string {
  const open = new Set<object>();
  const write = (v: unknown, at: string): string => {
    switch (typeof v) {
      case 'string':
        return JSON.stringify(v);
      case 'boolean':
        return v ? 'true' : 'false';
      case 'number':
        if (!Number.isSafeInteger(v))
          throw new NotCanonicalJson(
            at,
            `is ${v}: only safe integers are allowed (amounts in integer minor units)`,
          );
        return String(v === 0 ? 0 : v); // -0 is 0
      case 'object': {
        if (v === null) return 'null';
        if (open.has(v)) throw new NotCanonicalJson(at, 'is circular');
        open.add(v);
        try {
          if (Array.isArray(v)) {
            const items: string[] = [];
            for (let i = 0; i < v.length; i++) {
              if (v[i] === undefined) throw new NotCanonicalJson(`${at}[${i}]`, 'is undefined (or a hole)');
              items.push(write(v[i], `${at}[${i}]`));
            }
            return `[${items.join(',')}]`;
          }
          if (!isPlainObject(v))
            throw new NotCanonicalJson(
              at,
              `is a ${v.constructor?.name ?? 'non-plain object'}, not a plain object`,
            );
          const record = v as Record<string, unknown>;
          const members: string[] = [];
          for (const key of Object.keys(record).sort()) {
            const member = record[key];
            if (member === undefined) continue;
            members.push(`${JSON.stringify(key)}:${write(member, keyPath(at, key))}`);
          }
          return `{${members.join(',')}}`;
        } finally {
          open.delete(v);
        }
      }
      default:
        throw new NotCanonicalJson(at, `is a ${typeof v}, which JSON cannot hold`);
    }
  };
  return write(value, path);
}
