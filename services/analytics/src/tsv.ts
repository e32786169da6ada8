/**
 * Rows (JSONEachRow-shaped objects, rows.ts) as one TabSeparated body per table per batch: the projector's insert
 * format. ClickHouse parses TabSeparated about twice as fast as JSONEachRow here, and one string per batch spares
 * the client's per-row encoding (profile in docs/analytics.md). Pure; no I/O.
 *
 * TabSeparated as ClickHouse reads it: \N is NULL; in a string, backslash, tab, newline and carriage return are
 * escaped with a backslash; an array is a literal ['a','b'] (strings single-quoted, quote and backslash escaped);
 * Bool is true/false. Times are UTC milliseconds in the rows; a DateTime64(3) reads decimal seconds, so the time
 * columns are written as seconds with three decimals.
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
const text = (s: string): string => s.replace(SPECIAL, (c) => ESCAPES[c]!);

const arrayItem = (v: unknown): string => {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return `'${String(v).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
};

/** Decimal seconds with three decimals for integer milliseconds (exact: no floating point). */
export const msToSeconds = (ms: number): string => {
  const sign = ms < 0 ? '-' : '';
  const abs = Math.abs(ms);
  const frac = String(abs % 1000).padStart(3, '0');
  return `${sign}${Math.floor(abs / 1000)}.${frac}`;
};

export function tsvValue(column: string, v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v === 'number') return TIME_COLUMNS.has(column) ? msToSeconds(v) : String(v);
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
