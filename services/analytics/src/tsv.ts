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
