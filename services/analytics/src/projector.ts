/**
 * The analytics projector: a processor (runProcessor, packages/eventstore) that follows the event store from its
 * durable checkpoint and inserts each batch's rows into ClickHouse, one insert per table per batch.
 *
 * Idempotency: every table is a ReplacingMergeTree versioned by the event's store position and read with FINAL.
 * A batch handed over again — the same events after a restart, or a crash after the insert and before the
 * checkpoint — inserts rows with the same sorting key and version, which FINAL (and later merges) collapse to one.
 *
 * A finding carries the dealer of its round and the game of its table, which the finding event itself does not
 * hold: they come from the table's RoundStarted and TableOpened, projected first (round_starts, tables) and kept
 * in bounded caches, looked up in ClickHouse on a miss (after a restart).
 */
import type { ClickHouseClient } from '@clickhouse/client';
import type { EventFilter, Processor, RecordedEvent } from '@table-audit/eventstore';
import { REJECT_EVENT_TYPE, REJECTS_STREAM, type RejectData } from '@table-audit/ingest';
import type { Finding } from '@table-audit/rules';
import { FINDING_EVENT_TYPE } from '@table-audit/replay';
import type { RoundDerived, TableEvent } from '@table-audit/schemas';
import { findingStream, isTableStream } from '@table-audit/schemas/streams';
import {
  findingRow,
  rejectRow,
  roundRows,
  roundStartRow,
  tableHealthRow,
  tableRow,
  type Row,
} from './rows.ts';

export const ROUND_EVENT_TYPE = 'RoundDerived';
const FINDINGS_PREFIX = findingStream('');
const ROUNDS_PREFIX = 'rounds-';

/** The processor's checkpoint name in the event store. */
export const PROJECTOR_NAME = 'analytics';

/** The tables a batch inserts into, in this order: what findings look up is inserted before them. */
const TABLES = [
  'tables',
  'round_starts',
  'rounds',
  'bets',
  'table_health',
  'ingest_rejects',
  'findings',
] as const;
type ProjectedTable = (typeof TABLES)[number];

export interface ProjectionStats {
  batches: number;
  events: number;
  rows: Record<ProjectedTable, number>;
  /** lookups of a round's dealer or a table's game that went to ClickHouse (cache misses) */
  lookups: number;
}

/** A map that forgets its oldest entries beyond a size: the caches stay bounded over a month of rounds. */
class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly limit: number) {
    super();
  }
  override set(key: K, value: V): this {
    if (!this.has(key) && this.size >= this.limit) this.delete(this.keys().next().value as K);
    return super.set(key, value);
  }
}

export interface ProjectorOptions {
  /** The checkpoint name (default "analytics"); a second projection into another database needs its own. */
  name?: string;
  /** Rounds whose dealer is kept in memory (default 200,000); older ones are looked up in ClickHouse. */
  roundCache?: number;
}

const relevant: EventFilter = (e) =>
  isTableStream(e.stream) ||
  (e.type === FINDING_EVENT_TYPE && e.stream.startsWith(FINDINGS_PREFIX)) ||
  (e.type === ROUND_EVENT_TYPE && e.stream.startsWith(ROUNDS_PREFIX)) ||
  (e.type === REJECT_EVENT_TYPE && e.stream === REJECTS_STREAM);

export class AnalyticsProjector implements Processor {
  readonly name: string;
  readonly filter = relevant;
  readonly stats: ProjectionStats = {
    batches: 0,
    events: 0,
    rows: Object.fromEntries(TABLES.map((t) => [t, 0])) as Record<ProjectedTable, number>,
    lookups: 0,
  };
  private readonly games = new BoundedMap<string, string>(100_000);
  private readonly dealers: BoundedMap<string, string | null>;

  constructor(
    private readonly client: ClickHouseClient,
    options: ProjectorOptions = {},
  ) {
    this.name = options.name ?? PROJECTOR_NAME;
    this.dealers = new BoundedMap(options.roundCache ?? 200_000);
  }

  async handle(batch: readonly RecordedEvent[]): Promise<void> {
    const rows = Object.fromEntries(TABLES.map((t) => [t, [] as Row[]])) as Record<ProjectedTable, Row[]>;
    const findings: { e: RecordedEvent; f: Finding }[] = [];
    const tableEvents: { e: RecordedEvent; t: TableEvent }[] = [];
    for (const e of batch) {
      if (isTableStream(e.stream)) {
        const t = { type: e.type, data: e.data } as TableEvent;
        if (t.type === 'TableOpened') {
          rows.tables.push(tableRow(e, t));
          this.games.set(t.data.header.tableId, t.data.game);
        } else if (t.type === 'RoundStarted' && t.data.header.roundId !== null)
          this.dealers.set(t.data.header.roundId, t.data.dealerId);
        tableEvents.push({ e, t });
      } else if (e.type === FINDING_EVENT_TYPE) findings.push({ e, f: e.data as Finding });
      else if (e.type === ROUND_EVENT_TYPE) {
        const r = roundRows(e, e.data as RoundDerived);
        rows.rounds.push(r.round);
        rows.bets.push(...r.bets);
      } else rows.ingest_rejects.push(rejectRow(e, e.data as RejectData));
    }
    await this.lookUp(
      tableEvents.map(({ t }) => t.data.header.tableId).concat(findings.map(({ f }) => f.tableId)),
      findings.flatMap(({ f }) => (f.roundId === null ? [] : [f.roundId])),
    );
    for (const { e, t } of tableEvents) {
      const game = this.games.get(t.data.header.tableId) ?? 'UNKNOWN';
      if (t.type === 'RoundStarted' && t.data.header.roundId !== null)
        rows.round_starts.push(roundStartRow(e, t, game));
      const health = tableHealthRow(e, t, game);
      if (health) rows.table_health.push(health);
    }
    for (const { e, f } of findings)
      rows.findings.push(
        findingRow(e, f, {
          game: this.games.get(f.tableId) ?? 'UNKNOWN',
          dealerId: f.roundId === null ? null : (this.dealers.get(f.roundId) ?? null),
        }),
      );
    for (const table of TABLES) {
      if (rows[table].length === 0) continue;
      await this.client.insert({ table, values: rows[table], format: 'JSONEachRow' });
      this.stats.rows[table] += rows[table].length;
    }
    this.stats.batches++;
    this.stats.events += batch.length;
  }

  /** Fills the caches from ClickHouse for the tables and rounds this batch needs and they do not hold. */
  private async lookUp(tableIds: readonly string[], roundIds: readonly string[]): Promise<void> {
    const tables = [...new Set(tableIds)].filter((t) => !this.games.has(t));
    const rounds = [...new Set(roundIds)].filter((r) => !this.dealers.has(r));
    if (tables.length) {
      this.stats.lookups += tables.length;
      const found = await this.select<{ table_id: string; game: string }>(
        'SELECT table_id, game FROM tables FINAL WHERE table_id IN {ids:Array(String)}',
        tables,
      );
      for (const r of found) this.games.set(r.table_id, r.game);
    }
    if (rounds.length) {
      this.stats.lookups += rounds.length;
      const found = await this.select<{ round_id: string; dealer_id: string | null }>(
        'SELECT round_id, dealer_id FROM round_starts FINAL WHERE round_id IN {ids:Array(String)}',
        rounds,
      );
      for (const r of found) this.dealers.set(r.round_id, r.dealer_id);
    }
  }

  private async select<T>(query: string, ids: readonly string[]): Promise<T[]> {
    const result = await this.client.query({ query, query_params: { ids }, format: 'JSONEachRow' });
    return result.json<T>();
  }
}
