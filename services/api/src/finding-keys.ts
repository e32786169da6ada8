/**
 * The findings table's keys in memory: for every finding as `FINAL` reads it, the columns a filter, the order and a
 * cursor look at, and where the row is stored (its part and offset, its position and id) — in the order of the
 * incident list (newest first, then id descending, as ClickHouse sorts them). Loaded from ClickHouse in one query
 * with the table's version (services/api/src/kept-answers.ts) and used only while that version is current, so a
 * page of a filter nobody asked before is a scan of this array instead of a query. The rows themselves still come
 * from ClickHouse (or from those kept from earlier pages) by the keys, exactly as a page made by query gets them.
 *
 * Each term of `keysMatch` is the same comparison as the SQL of clickhouse-findings.ts' `where`: strings compared
 * for equality, `has(players, …)`, the Macau date and the event time as ClickHouse stores them (the date as its
 * text, the time as its milliseconds), ids in byte order (ClickHouse compares Strings as bytes).
 */
import type { Cursor, FindingFilter } from './findings-query.ts';

/** One finding's keys, as the load query reads them. */
export interface FindingKey {
  readonly findingId: string;
  /** `${part}\0${offset}\0${position}\0${findingId}`: where the row is stored (the key of the rows kept) */
  readonly stored: string;
  readonly eventMs: number;
  readonly macauDate: string;
  readonly concessionaire: string;
  readonly casino: string;
  readonly tableId: string;
  readonly game: string;
  readonly checkId: string;
  readonly severity: string;
  readonly dealerId: string | null;
  readonly roundId: string | null;
  readonly players: readonly string[];
  readonly handled: boolean;
}

/** The load query's columns, in this order (JSONCompactEachRow: a row is an array). */
export const KEY_COLUMNS = `finding_id, toString(position), _part, toString(_part_offset),
  toString(toUnixTimestamp64Milli(event_time)), toString(macau_date), concessionaire, casino, table_id, game, check_id,
  severity, dealer_id, round_id, players, handled`;

export type KeyRow = [
  id: string,
  position: string,
  part: string,
  offset: string,
  eventMs: string,
  macauDate: string,
  concessionaire: string,
  casino: string,
  tableId: string,
  game: string,
  checkId: string,
  severity: string,
  dealerId: string | null,
  roundId: string | null,
  players: string[],
  handled: boolean,
];

/** A row of the load query as a key; repeated strings (LowCardinality columns, part names) shared through `intern`. */
export function keyOf(r: KeyRow, intern: (s: string) => string): FindingKey {
  return {
    findingId: r[0],
    stored: `${intern(r[2])}\u0000${r[3]}\u0000${r[1]}\u0000${r[0]}`,
    eventMs: Number(r[4]),
    macauDate: intern(r[5]),
    concessionaire: intern(r[6]),
    casino: intern(r[7]),
    tableId: intern(r[8]),
    game: intern(r[9]),
    checkId: intern(r[10]),
    severity: intern(r[11]),
    dealerId: r[12] === null ? null : intern(r[12]),
    roundId: r[13],
    players: r[14],
    handled: r[15],
  };
}

/**
 * The instants a DateTime64(3) holds (1900-01-01 to 2299-12-31 UTC): a bound outside them is left to ClickHouse,
 * whose conversion of it this file does not repeat.
 */
const MIN_MS = Date.UTC(1900, 0, 1);
const MAX_MS = Date.UTC(2300, 0, 1) - 1;
const inRange = (ms: number | undefined) => ms === undefined || (ms >= MIN_MS && ms <= MAX_MS);

/** Whether the keys can answer this filter and cursor exactly as the SQL does (the times within DateTime64's range). */
export const keysCanAnswer = (filter: FindingFilter, after: Cursor | null): boolean =>
  inRange(filter.from) && inRange(filter.to) && inRange(after?.eventTime);

/** Strings in ClickHouse's order (bytes of UTF-8): UTF-16 order is the same unless one holds a surrogate pair. */
export function compareBytes(a: string, b: string): number {
  if (/[\ud800-\udfff]/.test(a) || /[\ud800-\udfff]/.test(b))
    return Buffer.compare(Buffer.from(a), Buffer.from(b));
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The filter's terms as a test of one finding's keys; `days` are the Macau dates the SQL adds to a time range
 * (clickhouse-findings.ts' `dayOf`: null when it adds none).
 */
export function keysMatch(
  q: FindingFilter,
  days: { from: string | null; to: string | null },
): (k: FindingKey) => boolean {
  return (k) =>
    (q.scope === null || q.scope === undefined || k.concessionaire === q.scope) &&
    (q.concessionaire === undefined || k.concessionaire === q.concessionaire) &&
    (q.casino === undefined || k.casino === q.casino) &&
    (q.tableId === undefined || k.tableId === q.tableId) &&
    (q.game === undefined || k.game === q.game) &&
    (q.checkId === undefined || k.checkId === q.checkId) &&
    (q.severity === undefined || k.severity === q.severity) &&
    (q.dealerId === undefined || k.dealerId === q.dealerId) &&
    (q.roundId === undefined || k.roundId === q.roundId) &&
    (q.playerId === undefined || k.players.includes(q.playerId)) &&
    (q.from === undefined || ((days.from === null || k.macauDate >= days.from) && k.eventMs >= q.from)) &&
    (q.to === undefined || ((days.to === null || k.macauDate <= days.to) && k.eventMs < q.to)) &&
    (!q.alertsOnly || !k.handled);
}

/**
 * A page from the keys: the filter's count, and the stored keys of at most `limit + 1` findings after the cursor
 * (the keys are in the list's order, so the first that pass are the page's).
 */
export function pageOfKeys(
  keys: readonly FindingKey[],
  match: (k: FindingKey) => boolean,
  page: { limit: number; after: Cursor | null },
): { total: number; stored: string[] } {
  const after = page.after;
  let total = 0;
  const stored: string[] = [];
  for (const k of keys) {
    if (!match(k)) continue;
    total++;
    if (stored.length > page.limit) continue;
    if (
      after !== null &&
      !(
        k.eventMs < after.eventTime ||
        (k.eventMs === after.eventTime && compareBytes(k.findingId, after.findingId) < 0)
      )
    )
      continue;
    stored.push(k.stored);
  }
  return { total, stored };
}
