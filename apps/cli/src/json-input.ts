/**
 * JSON files people write by hand: errors say where (line and column), and each element of one top-level array
 * (e.g. "rounds") keeps its line, so a problem in one element can be reported at its place in the file.
 */

export interface Place {
  readonly line: number;
  readonly column: number;
}

export class JsonInputError extends Error {
  override readonly name = 'JsonInputError';
}

/** Line and column (both from 1) of a UTF-16 offset in `text`. */
export function placeOf(text: string, offset: number): Place {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/**
 * Walks JSON text without building values. Returns the offset of the first syntax error (-1 when there is none)
 * and the start offsets of the elements of the array under the top-level key `arrayKey`. Node's JSON.parse does
 * not always say where it failed ("Unexpected token '}', … is not valid JSON"): this does.
 */
export function scanJson(text: string, arrayKey: string): { errorAt: number; elements: number[] } {
  let i = 0;
  let elements: number[] = [];
  const n = text.length;
  const fail = (): never => {
    throw new ScanStop(i);
  };
  const ws = (): void => {
    while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const string = (): string => {
    const start = i;
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return text.slice(start, i);
      }
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else fail();
      } else if (c < 0x20) fail();
      else i++;
    }
    return fail();
  };
  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const value = (depth: number, recordElements: boolean): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        const key = string();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value(depth + 1, depth === 0 && key === JSON.stringify(arrayKey));
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return;
        } else fail();
      }
    }
    if (c === '[') {
      if (recordElements) elements = []; // a repeated key: JSON.parse keeps the last one
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (recordElements) elements.push(i);
        value(depth + 1, false);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return;
        } else fail();
      }
    }
    if (c === '"') {
      string();
      return;
    }
    NUMBER.lastIndex = i;
    if (NUMBER.test(text)) {
      i = NUMBER.lastIndex;
      return;
    }
    for (const literal of ['true', 'false', 'null'])
      if (text.startsWith(literal, i)) {
        i += literal.length;
        return;
      }
    fail();
  };
  try {
    value(0, false);
    ws();
    if (i < n) fail();
    return { errorAt: -1, elements };
  } catch (e) {
    if (e instanceof ScanStop) return { errorAt: e.offset, elements };
    throw e;
  }
}

class ScanStop {
  constructor(readonly offset: number) {}
}

/**
 * Parses `text` (from `file`); a syntax error names the file, line and column. Returns the value and the place
 * of each element of the top-level array `arrayKey`.
 */
export function parseJsonWithPlaces(
  text: string,
  file: string,
  arrayKey: string,
): { value: unknown; places: Place[] } {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // a byte-order mark is not content
  let value: unknown;
  let parseError: Error | null = null;
  try {
    value = JSON.parse(text);
  } catch (e) {
    parseError = e as Error;
  }
  const scan = scanJson(text, arrayKey);
  if (parseError) {
    const at = scan.errorAt === -1 ? text.length : scan.errorAt;
    const { line, column } = placeOf(text, at);
    const found = at >= text.length ? 'the file ends too early' : `unexpected ${JSON.stringify(text[at])}`;
    // V8's own wording, without its position (given as line and column) or its excerpt of the file
    const detail = parseError.message.replace(/ in JSON at position \d+.*$/s, '').replace(/, ".*$/s, '');
    throw new JsonInputError(`${file}, line ${line}, column ${column}: not valid JSON: ${found} (${detail})`);
  }
  // one pass for every element's line, not one scan from the top per element
  const places: Place[] = [];
  let line = 1;
  let start = 0;
  let from = 0;
  for (const offset of scan.elements) {
    for (let k = text.indexOf('\n', from); k !== -1 && k < offset; k = text.indexOf('\n', k + 1)) {
      line++;
      start = k + 1;
    }
    from = offset;
    places.push({ line, column: offset - start + 1 });
  }
  return { value, places };
}
