/**
 * Rows (JSONEachRow-shaped objects, rows.ts) as one TabSeparated body per table per batch: the projector's insert
 * format. ClickHouse parses TabSeparated about twice as fast as JSONEachRow here, and one string per batch spares
 * the client's per-row encoding (profile in docs/analytics.md). Pure; no I/O.
 *
 * TabSeparated as ClickHouse reads it: \N is NULL; in a string, backslash, tab, newline and carriage return are
 * escaped with a backslash; an array is a literal ['a','b'] (strings single-quoted, quote and backslash escaped);
 * Bool is true/false. Times are UTC milliseconds in the rows; the time columns (DateTime64(3, 'UTC')) are written
 * as UTC text, 'YYYY-MM-DD hh:mm:ss.sss': ClickHouse reads decimal seconds only from 9 integer digits up (a time
 * before 1973-03-03, e.g. 0, was refused with CANNOT_PARSE_DATETIME and stopped the projection).
 */
import type { Row } from './rows.ts';

/** The DateTime64(3) columns of the projected tables (migrations.ts): their values are UTC milliseconds. */
export const TIME_COLUMNS: ReadonlySet<string> = new Set([
  'event_time',
  'opened_at',
  'received_time',
  'round_start',
  'changed_at',
  'acknowledged_at',
  'resolved_at',
]);

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\0': '\\0' };
const SPECIAL = /[\\\t\n\r\0]/g;
/**
 * Text as TabSeparated writes it. Most values (ids, casinos, bet types) have nothing to escape: a scan of their
 * character codes finds that cheaper than a regular expression does, and returns them as they are.
 */
const text = (s: string): string => {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 92 || c === 9 || c === 10 || c === 13 || c === 0) return s.replace(SPECIAL, (x) => ESCAPES[x]!);
  }
  return s;
};

const arrayItem = (v: unknown): string => {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return `'${String(v).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
};

const DAY_MS = 86_400_000;
/** DateTime64's range (1900-01-01 to 2299-12-31 UTC): ClickHouse saturates outside it; so does this, exactly. */
const MIN_MS = Date.UTC(1900, 0, 1);
const MAX_MS = Date.UTC(2299, 11, 31, 23, 59, 59, 999);
let dayCached = NaN;
let dayText = '';
const two = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** UTC text with milliseconds for integer milliseconds, 'YYYY-MM-DD hh:mm:ss.sss' (the day's text memoised). */
export const msToDateTime = (ms: number): string => {
  const t = Math.min(MAX_MS, Math.max(MIN_MS, Math.trunc(ms)));
  const day = Math.floor(t / DAY_MS);
  if (day !== dayCached) {
    dayCached = day;
    dayText = new Date(day * DAY_MS).toISOString().slice(0, 10);
  }
  let rest = t - day * DAY_MS;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const sec = Math.floor(rest / 1000);
  const milli = rest - sec * 1000;
  return `${dayText} ${two(h)}:${two(m)}:${two(sec)}.${String(milli).padStart(3, '0')}`;
};

export function tsvValue(column: string, v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v === 'number') return TIME_COLUMNS.has(column) ? msToDateTime(v) : String(v);
  if (typeof v === 'string') return text(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return text(`[${v.map(arrayItem).join(',')}]`);
  throw new TypeError(`column ${column}: a ${typeof v} cannot be written as TabSeparated`);
}

/** The rows' columns (those of the first row, in order) and the TabSeparated body of all of them. */
export function encodeTsv(rows: readonly Row[]): { columns: string[]; body: string } {
  const columns = Object.keys(rows[0] ?? {});
  const lines = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    let line = '';
    for (let c = 0; c < columns.length; c++) {
      const column = columns[c]!;
      line += (c ? '\t' : '') + tsvValue(column, row[column]);
    }
    lines[i] = line;
  }
  return { columns, body: lines.join('\n') + '\n' };
}

/** The letter after the backslash for each byte TabSeparated escapes (text()), 0 for the others. */
const ESCAPED = new Uint8Array(128);
ESCAPED[92] = 92; // \\
ESCAPED[9] = 116; // \t
ESCAPED[10] = 110; // \n
ESCAPED[13] = 114; // \r
ESCAPED[0] = 48; // \0

/**
 * TabSeparated written straight into bytes: the same bytes as the strings above encoded as UTF-8, without a string
 * per value or per line (the projector's bets, most of its rows, were most of its garbage). ASCII is written byte by
 * byte; a string with anything else is handed to Buffer's own UTF-8 encoder from its first such character. The
 * buffer grows by doubling; `bytes()` is a view of it, valid until the next write.
 */
export class TsvWriter {
  #buf: Buffer;
  #at = 0;

  constructor(capacity = 64 * 1024) {
    this.#buf = Buffer.allocUnsafe(Math.max(16, capacity));
  }

  /** Bytes written so far. */
  get length(): number {
    return this.#at;
  }

  #room(n: number): void {
    if (this.#at + n <= this.#buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.#buf.length * 2, this.#at + n));
    this.#buf.copy(grown, 0, 0, this.#at);
    this.#buf = grown;
  }

  /** One byte (a tab, a newline). */
  byte(c: number): void {
    this.#room(1);
    this.#buf[this.#at++] = c;
  }

  /** A string value, escaped as TabSeparated escapes it. */
  text(s: string): void {
    const n = s.length;
    this.#room(n * 2);
    const b = this.#buf;
    let at = this.#at;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) {
        this.#at = at;
        this.#utf8(text(s.slice(i)));
        return;
      }
      const escaped = ESCAPED[c]!;
      if (escaped !== 0) {
        b[at++] = 92;
        b[at++] = escaped;
      } else b[at++] = c;
    }
    this.#at = at;
  }

  /** Text already in its TabSeparated spelling (escaped), written as it is. */
  raw(s: string): void {
    const n = s.length;
    this.#room(n);
    const b = this.#buf;
    let at = this.#at;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) {
        this.#at = at;
        this.#utf8(s.slice(i));
        return;
      }
      b[at++] = c;
    }
    this.#at = at;
  }

  #utf8(s: string): void {
    this.#room(Buffer.byteLength(s, 'utf8'));
    this.#at += this.#buf.write(s, this.#at, 'utf8');
  }

  /** A column's value as tsvValue spells it. */
  value(column: string, v: unknown): void {
    if (typeof v === 'string') this.text(v);
    else this.raw(tsvValue(column, v));
  }

  /** Copies bytes already written (from, to) to the end: a prefix several lines share. */
  repeat(from: number, to: number): void {
    const n = to - from;
    this.#room(n);
    this.#buf.copy(this.#buf, this.#at, from, to);
    this.#at += n;
  }

  /** What was written: a view of the buffer, valid until the next write. */
  bytes(): Buffer {
    return this.#buf.subarray(0, this.#at);
  }

  toString(): string {
    return this.#buf.toString('utf8', 0, this.#at);
  }
}
