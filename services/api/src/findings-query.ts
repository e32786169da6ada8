/**
 * The findings port of the API: list (filtered, paged with stable cursors, counted) and get by id. The API's
 * routes depend on this interface only; its adapters are the ClickHouse findings table (services/analytics) and
 * the store index (store-index.ts), which reads the event store itself.
 */
import type { Finding, Severity } from '@table-audit/rules';

/** A finding as the API serves it: the stored finding with the game and dealer of its round. */
export interface FindingView extends Finding {
  readonly game: string | null;
  /** RoundStarted.dealerId of the finding's round; null for a finding across rounds */
  readonly dealerId: string | null;
}

export interface FindingFilter {
  /** the caller's scope: only this concessionaire's findings (null: every one) — set by the API, never by a caller */
  readonly scope: string | null;
  readonly concessionaire?: string;
  readonly casino?: string;
  readonly tableId?: string;
  readonly game?: string;
  readonly checkId?: string;
  readonly severity?: Severity;
  /** UTC ms, inclusive */
  readonly from?: number;
  /** UTC ms, exclusive */
  readonly to?: number;
  readonly dealerId?: string;
  readonly playerId?: string;
  readonly roundId?: string;
  /** only findings to work (alerts: handled = false) */
  readonly alertsOnly?: boolean;
}

/** Where a page starts: after the finding with this time and id (the order is newest first, then id descending). */
export interface Cursor {
  readonly eventTime: number;
  readonly findingId: string;
}

export interface FindingsPage {
  readonly items: FindingView[];
  /** how many findings match the filter in all */
  readonly total: number;
  /** where the next page starts, null on the last page */
  readonly next: Cursor | null;
}

/** What findings can be counted by. */
export const COUNT_DIMENSIONS = [
  'severity',
  'checkId',
  'casino',
  'concessionaire',
  'tableId',
  'game',
] as const;
export type CountDimension = (typeof COUNT_DIMENSIONS)[number];

export interface FindingsQuery {
  list(filter: FindingFilter, page: { limit: number; after: Cursor | null }): Promise<FindingsPage>;
  /** how many findings match, by each value of a dimension, most first (then by value) */
  count(filter: FindingFilter, by: CountDimension): Promise<{ value: string | null; count: number }[]>;
  /** a finding by id within the scope (null: none, or another concessionaire's) */
  get(findingId: string, scope: string | null): Promise<FindingView | null>;
  /** throws when the source cannot answer (for /health/ready) */
  ping(): Promise<void>;
  readonly description: string;
}

/** Newest first, then by id descending: a total order, so a cursor never skips nor repeats a finding. */
export const compareFindings = (a: Cursor, b: Cursor): number =>
  b.eventTime - a.eventTime || (a.findingId < b.findingId ? 1 : a.findingId > b.findingId ? -1 : 0);

/** Opaque text of a cursor (base64url JSON), and back; a cursor that does not decode is a caller's mistake. */
export const encodeCursor = (c: Cursor): string =>
  Buffer.from(JSON.stringify([c.eventTime, c.findingId])).toString('base64url');

export function decodeCursor(text: string): Cursor | null {
  try {
    const v: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (
      Array.isArray(v) &&
      v.length === 2 &&
      Number.isSafeInteger(v[0]) &&
      typeof v[1] === 'string' &&
      v[1].length <= 200
    )
      return { eventTime: v[0] as number, findingId: v[1] };
  } catch {
    // not base64url JSON
  }
  return null;
}

/** Whether a finding passes a filter (the store index's filter; the ClickHouse adapter says the same in SQL). */
export function matches(f: FindingView, q: FindingFilter): boolean {
  return (
    (q.scope === null || f.concessionaire === q.scope) &&
    (q.concessionaire === undefined || f.concessionaire === q.concessionaire) &&
    (q.casino === undefined || f.casino === q.casino) &&
    (q.tableId === undefined || f.tableId === q.tableId) &&
    (q.game === undefined || f.game === q.game) &&
    (q.checkId === undefined || f.checkId === q.checkId) &&
    (q.severity === undefined || f.severity === q.severity) &&
    (q.from === undefined || f.eventTime >= q.from) &&
    (q.to === undefined || f.eventTime < q.to) &&
    (q.dealerId === undefined || f.dealerId === q.dealerId) &&
    (q.playerId === undefined || f.players.includes(q.playerId)) &&
    (q.roundId === undefined || f.roundId === q.roundId) &&
    (!q.alertsOnly || !f.handled)
  );
}
