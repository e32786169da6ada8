/**
 * A small JSON parser that also says where each value stands (line and column, from 1), so that a configuration
 * error can name the key's place in the file. Standard JSON only (RFC 8259): no comments, no trailing commas.
 * Syntax errors name their line and column too.
 */

export interface Place {
  readonly line: number;
  readonly column: number;
}

export interface Located {
  readonly value: unknown;
  /** the place of each value by its path (`store.kind`, `input.brokers.0`); the root's path is '' */
  readonly places: ReadonlyMap<string, Place>;
  /** the place of each object key by the path of its value */
  readonly keyPlaces: ReadonlyMap<string, Place>;
}

export class JsonSyntaxError extends Error {
  override readonly name = 'JsonSyntaxError';
  constructor(
    message: string,
    readonly place: Place,
  ) {
    super(message);
  }
}

export function parseJsonWithPlaces(text: string): Located {
  let i = 0;
  const places = new Map<string, Place>();
  const keyPlaces = new Map<string, Place>();
  const placeAt = (at: number): Place => {
    let line = 1;
    let lineStart = 0;
    for (let k = 0; k < at; k++)
      if (text.charCodeAt(k) === 10) {
        line++;
        lineStart = k + 1;
      }
    return { line, column: at - lineStart + 1 };
  };
  const fail = (what: string, at = i): never => {
    const found = at < text.length ? `"${text[at]}"` : 'the end of the file';
    throw new JsonSyntaxError(`${what}, found ${found}`, placeAt(at));
  };
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const join = (path: string, key: string | number) => (path === '' ? String(key) : `${path}.${key}`);

  const string = (): string => {
    const start = i;
    if (text[i] !== '"') fail('expected a string in double quotes');
    i++;
    let s = '';
    for (;;) {
      if (i >= text.length) fail('this string is never closed', start);
      const c = text[i]!;
      if (c === '"') {
        i++;
        return s;
      }
      if (c < ' ') fail('a control character inside a string (write it as an escape, e.g. \\n)');
      if (c === '\\') {
        const e = text[i + 1];
        const simple: Record<string, string> = {
          '"': '"',
          '\\': '\\',
          '/': '/',
          b: '\b',
          f: '\f',
          n: '\n',
          r: '\r',
          t: '\t',
        };
        if (e !== undefined && e in simple) {
          s += simple[e];
          i += 2;
        } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          s += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
          i += 6;
        } else fail('an invalid escape in a string', i + 1);
      } else {
        s += c;
        i++;
      }
    }
  };

  const value = (path: string, depth: number): unknown => {
    if (depth > 32) fail('nested more than 32 levels deep');
    space();
    places.set(path, placeAt(i));
    const c = text[i];
    if (c === '{') {
      i++;
      const o: Record<string, unknown> = {};
      space();
      if (text[i] === '}') {
        i++;
        return o;
      }
      for (;;) {
        space();
        const keyAt = i;
        const key = string();
        if (Object.hasOwn(o, key)) fail(`the key "${key}" is given twice`, keyAt);
        keyPlaces.set(join(path, key), placeAt(keyAt));
        space();
        if (text[i] !== ':') fail(`expected ":" after the key "${key}"`);
        i++;
        o[key] = value(join(path, key), depth + 1);
        space();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return o;
        }
        fail('expected "," or "}" after a value in an object');
      }
    }
    if (c === '[') {
      i++;
      const a: unknown[] = [];
      space();
      if (text[i] === ']') {
        i++;
        return a;
      }
      for (;;) {
        a.push(value(join(path, a.length), depth + 1));
        space();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return a;
        }
        fail('expected "," or "]" after a value in a list');
      }
    }
    if (c === '"') return string();
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 64));
    if (m) {
      i += m[0].length;
      return Number(m[0]);
    }
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const)
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    return fail('expected a value (an object, list, string, number, true, false or null)');
  };

  const root = value('', 0);
  space();
  if (i < text.length) fail('expected the end of the file after the top-level value');
  return { value: root, places, keyPlaces };
}
