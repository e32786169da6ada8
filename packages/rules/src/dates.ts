/**
 * Macau local dates as written by people and files: YYYY-MM-DD, checked against the calendar. A pattern check
 * alone let "2025-13-45" and "2025-02-30" through, and the registry then answered a rule set for a day that does
 * not exist.
 */

export class DateError extends Error {
  override readonly name = 'DateError';
}

const SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;

const daysIn = (year: number, month: number): number =>
  month === 2
    ? year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
      ? 29
      : 28
    : [4, 6, 9, 11].includes(month)
      ? 30
      : 31;

/** Why `text` is not a real calendar day written YYYY-MM-DD, or null when it is one. */
export function calendarDateProblem(text: string): string | null {
  const m = SHAPE.exec(text);
  if (!m) {
    if (/^\d{4}-\d{2}-\d{2}T/.test(text))
      return 'is a timestamp, not a date (which Macau day it falls on depends on its time zone)';
    return 'is not of the form YYYY-MM-DD';
  }
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1) return 'has year 0000, which the calendar does not have';
  if (month < 1 || month > 12) return `has month ${m[2]}; months run 01 to 12`;
  const last = daysIn(year, month);
  if (day < 1 || day > last) return `has day ${m[3]}; ${m[1]}-${m[2]} has days 01 to ${last}`;
  return null;
}

/**
 * The Macau local date `text` (YYYY-MM-DD), returned unchanged when it is a real calendar day. `where` says where
 * the text came from (a flag, a file and round), so the error can point at it.
 */
export function parseMacauDate(text: unknown, where: string): string {
  const shown = typeof text === 'string' ? `"${text}"` : (JSON.stringify(text) ?? String(text));
  const problem = typeof text === 'string' ? calendarDateProblem(text) : 'is not a date string';
  if (problem)
    throw new DateError(
      `${where}: ${shown} ${problem}; give a Macau local date (UTC+8) as YYYY-MM-DD, e.g. 2025-11-20`,
    );
  return text as string;
}
