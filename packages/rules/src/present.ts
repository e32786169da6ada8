/**
 * What people read: money in MOP (data carries integer avos, 1/100 MOP) and times in Macau time (data carries
 * UTC milliseconds), each saying which.
 */

const MACAU_OFFSET_MS = 8 * 60 * 60 * 1000;
/** the range of instants a JavaScript Date can hold */
const MAX_TIME_MS = 8.64e15;

/** "MOP 1,234.50", "-MOP 0.05". Digits come from the integer's own decimal string, so no amount is rounded. */
export function formatMop(avos: number): string {
  if (!Number.isSafeInteger(avos))
    throw new RangeError(
      `an amount of money must be a whole number of avos (1/100 MOP) between ±${Number.MAX_SAFE_INTEGER}; got ${avos}`,
    );
  const digits = String(Math.abs(avos)).padStart(3, '0');
  const mop = digits.slice(0, -2).replace(/\B(?=(\d{3})+$)/g, ',');
  return `${avos < 0 ? '-' : ''}MOP ${mop}.${digits.slice(-2)}`;
}

/**
 * An instant in UTC milliseconds as ISO-8601 UTC text, or, for a number no clock can show (beyond ±8.64e15 ms,
 * where Date gives "Invalid time value"), the number itself saying so: a bad event time is reported, never fatal.
 */
export function utcText(utcMs: number): string {
  const date = new Date(utcMs);
  return Number.isNaN(date.getTime()) ? `${utcMs} ms (not a date)` : date.toISOString();
}

/** "2025-11-20 14:03:07.250 Macau time (UTC+8)" for an instant in UTC milliseconds. */
export function formatMacauTime(utcMs: number): string {
  if (!Number.isSafeInteger(utcMs) || Math.abs(utcMs) > MAX_TIME_MS - MACAU_OFFSET_MS)
    throw new RangeError(`a time must be a whole number of UTC milliseconds since 1970; got ${utcMs}`);
  const iso = new Date(utcMs + MACAU_OFFSET_MS).toISOString(); // the shifted instant, read as if it were UTC
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)} Macau time (UTC+8)`;
}
