import { calendarDateProblem } from '@table-audit/rules';
import { UsageError } from './command.ts';

/** A whole number option within [min, max]; the error gives the allowed range. */
export function wholeNumber(flag: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isSafeInteger(n) || n < min || n > max)
    throw new UsageError(
      `${flag} takes a whole number from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}, got "${text}"`,
    );
  return n;
}

/** A share (a fraction of 1) option within [0, 1]; the error gives the allowed range. */
export function share(flag: string, text: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1)
    throw new UsageError(`${flag} takes a share from 0 to 1 (e.g. 0.1 for one round in ten), got "${text}"`);
  return n;
}

/** An ISO-8601 instant with its zone (Z or ±hh:mm), on a real calendar day, as UTC milliseconds. */
export function instant(flag: string, text: string): number {
  const example = 'such as 2025-11-17T16:30:00Z or 2025-11-18T00:30:00+08:00';
  const m = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/.exec(text);
  if (!m) throw new UsageError(`${flag} "${text}" is not an ISO-8601 instant with its time zone, ${example}`);
  const problem = calendarDateProblem(m[1]!);
  const ms = Date.parse(text);
  if (problem || Number.isNaN(ms))
    throw new UsageError(`${flag} "${text}": the date ${problem ?? 'is not valid'}`);
  return ms;
}
