/** Times callers give: Macau time (UTC+8) unless they say otherwise. */

const MACAU_OFFSET = '+08:00';

/**
 * UTC milliseconds of "2025-11-20" (that day's start in Macau), "2025-11-20T14:03[:07[.250]]" (Macau time), or the
 * same with "Z" or an offset; null when it is not a real instant (e.g. 2025-02-30).
 */
export function parseMacauTime(text: string): number | null {
  const m =
    /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/.exec(text);
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone = MACAU_OFFSET] = m;
  const ms = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}${frac}${zone}`);
  if (Number.isNaN(ms)) return null;
  // Date.parse rolls 2025-02-30 over to March: the calendar fields must read back as given
  const shift =
    zone === 'Z'
      ? 0
      : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4))) * 60_000;
  const back = new Date(ms + shift).toISOString();
  if (back.slice(0, 10) !== `${y}-${mo}-${d}` || back.slice(11, 19) !== `${h}:${mi}:${s}`) return null;
  return ms;
}
