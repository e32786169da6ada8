/**
 * The analytics projector: a processor (runProcessor, packages/eventstore) that follows the event store from its
 * durable checkpoint and inserts each batch's rows into ClickHouse, one insert per table per batch, each one
 * TabSeparated body (tsv.ts).
 *
 * Idempotency: every table is a ReplacingMergeTree versioned by the event's store position and read with FINAL.
 * A batch handed over again — the same events after a restart, or a crash after the insert and before the
 * checkpoint — inserts rows with the same sorting key and version, which FINAL (and later merges) collapse to one.
 *
 * A finding carries the dealer of its round and the game of its table, which the finding event itself does not
 * hold: they come from the table's RoundStarted and TableOpened, projected first (round_starts, tables) and kept
 * in bounded caches, looked up in ClickHouse on a miss (after a restart).
 *
 * The alert workflow (the API's Alert* events in `alert-<finding id>` streams) is folded into alert_states (the
 * latest state, versioned by position) and alert_state_changes (one row per event, carrying the state after it).
 * The state an event applies to is the one kept in memory when it is older than the event, else the latest
 * history row before the batch read back from ClickHouse: a batch handed over again folds from the same state.
 */
import { Readable } from 'node:stream';
import type { ClickHouseClient } from '@clickhouse/client';
import type { Processor, RecordedEvent } from '@table-audit/eventstore';
import { REJECT_EVENT_TYPE, REJECTS_STREAM, type RejectData } from '@table-audit/ingest';
import type { Finding } from '@table-audit/rules';
import { FINDING_EVENT_TYPE, ROUND_EVENT_TYPE } from '@table-audit/replay';
import type { RoundDerived, TableEvent } from '@table-audit/schemas';
import { findingStream, isTableStream, roundStream } from '@table-audit/schemas/streams';
import {
  ALERT_EVENT_TYPES,
  ALERT_STREAM_PREFIX,
  alertChangeRow,
  alertFindingOf,
  alertStateRow,
  findingRow,
  unknownAlertFinding,
  type AlertEvent,
  type AlertFinding,
  type AlertStateRow,
  BET_COLUMNS,
  TABLE_HEALTH_TYPES,
  rejectRow,
  roundRows,
  roundStartRow,
  tableHealthRow,
  tableRow,
  type Row,
  writeBetsTsv,
} from './rows.ts';
import { encodeTsv, TsvWriter } from './tsv.ts';

const FINDINGS_PREFIX = findingStream('');
const ROUNDS_PREFIX = roundStream('');

/**
 * Events read per batch that the projection should be run with (runProcessor's batchSize): each batch costs one
 * insert per table, and an insert into ClickHouse has a fixed cost (a new part), so larger batches project more rows
 * per second (docs/analytics.md has the figures: 100,000 projected about twice the rows per second of 20,000).
 * 100,000 table events are about 25,000 rows; the batch's events and its insert bodies (about 5 MB of text) are what
 * it holds in memory.
 */
export const PROJECTION_BATCH_SIZE = 100_000;

/**
 * How the projection should be run in catch-up (runProcessor's options): the store read by event type (readByType:
 * only the events of the projector's readEventTypes, a few in a hundred of a table's events), in batches of 25,000
 * of them — about 160,000 rows, 30 MB of insert text, as much in decoded events —, then the rest of the store once.
 */
export const PROJECTION_RUN_OPTIONS = { batchSize: 25_000, readByType: true } as const;

/** Rounds whose bets are written between two turns of the event loop (the rounds' insert goes on meanwhile). */
const BETS_SLICE = 250;

/** The processor's checkpoint name in the event store. */
export const PROJECTOR_NAME = 'analytics';

/**
 * The tables a batch inserts into. handle inserts rounds, bets and tables first (ready after one pass over the
 * batch), then the rest as their rows are built; what findings look up (tables, round_starts) is inserted before them.
 */
const TABLES = [
  'tables',
  'round_starts',
  'rounds',
  'bets',
  'table_health',
  'ingest_rejects',
  'findings',
  'alert_states',
  'alert_state_changes',
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

/** The table events that make rows (tables, round_starts, table_health); the others (cards, bets, …) make none. */
const ROW_TABLE_EVENTS: ReadonlySet<string> = new Set(['TableOpened', 'RoundStarted', ...TABLE_HEALTH_TYPES]);

/**
 * The events the projector is handed (runProcessor's filter): only those that make rows. Most of a table's events
 * (cards dealt, bets placed, payouts) do not, and are left out before the handler sees them.
 */
const relevant = (e: RecordedEvent): boolean =>
  (ROW_TABLE_EVENTS.has(e.type) && isTableStream(e.stream)) ||
  (e.type === FINDING_EVENT_TYPE && e.stream.startsWith(FINDINGS_PREFIX)) ||
  (e.type === ROUND_EVENT_TYPE && e.stream.startsWith(ROUNDS_PREFIX)) ||
  (e.type === REJECT_EVENT_TYPE && e.stream === REJECTS_STREAM) ||
  (ALERT_EVENT_TYPES.has(e.type) && e.stream.startsWith(ALERT_STREAM_PREFIX));

/**
 * Every type `relevant` accepts (each of its conditions is on one of these): runProcessor asks the store for these
 * only (readEventTypes), and the SQLite store leaves the cards, bets and payouts, most of a table's events, unread.
 */
const PROJECTED_EVENT_TYPES: readonly string[] = [
  ...ROW_TABLE_EVENTS,
  FINDING_EVENT_TYPE,
  ROUND_EVENT_TYPE,
  REJECT_EVENT_TYPE,
  ...ALERT_EVENT_TYPES,
];

export class AnalyticsProjector implements Processor {
  readonly name: string;
  readonly filter = relevant;
  readonly readEventTypes = PROJECTED_EVENT_TYPES;
  readonly stats: ProjectionStats = {
    batches: 0,
    events: 0,
    rows: Object.fromEntries(TABLES.map((t) => [t, 0])) as Record<ProjectedTable, number>,
    lookups: 0,
  };
  private readonly games = new BoundedMap<string, string>(100_000);
  private readonly dealers: BoundedMap<string, string | null>;
  /** what an alert's rows carry of its finding, by finding id */
  private readonly alertFindings = new BoundedMap<string, AlertFinding>(200_000);
  /** each alert's state after the last event projected (its version is that event's position) */
  private readonly alertStates = new BoundedMap<string, AlertStateRow>(100_000);

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
    // the table events that become rows (round starts, table health), and the tables they and findings are at
    const tableEvents: RecordedEvent[] = [];
    const tableIds = new Set<string>();
    const alerts: { e: RecordedEvent; a: AlertEvent }[] = [];
    // derived[i] is the record of rows.rounds[i]: its bets are written once the rounds' insert is under way
    const derived: { e: RecordedEvent; r: RoundDerived }[] = [];
    // one derivation of a round per insert, the latest, with its bet lines only: round_discrepancies_mv (migration 5)
    // looks up a round's earlier derivations in what was inserted before; the older rows would lose to it under
    // FINAL anyway, or (bet lines the latest derivation no longer has) be left out by CURRENT_BETS
    const roundAt = new Map<string, number>();
    for (const e of batch) {
      // runProcessor hands over only these; a caller handing over anything else (a test, the bench) has it skipped
      if (!relevant(e)) continue;
      if (isTableStream(e.stream)) {
        // a RecordedEvent is a TableEvent ({ type, data }) and more: no copy of the hundreds of thousands a batch has
        const t = e as unknown as TableEvent;
        if (t.type === 'TableOpened') {
          rows.tables.push(tableRow(e, t));
          this.games.set(t.data.header.tableId, t.data.game);
        } else if (t.type === 'RoundStarted' && t.data.header.roundId !== null)
          this.dealers.set(t.data.header.roundId, t.data.dealerId);
        if (t.type === 'RoundStarted' || TABLE_HEALTH_TYPES.has(t.type)) {
          tableEvents.push(e);
          tableIds.add(t.data.header.tableId);
        }
      } else if (e.type === FINDING_EVENT_TYPE) {
        const f = e.data as Finding;
        findings.push({ e, f });
        tableIds.add(f.tableId);
      } else if (e.type === ROUND_EVENT_TYPE) {
        const r = e.data as RoundDerived;
        const row = roundRows(e, r, { bets: false }).round;
        const key = `${r.casino}\u0000${r.tableId}\u0000${r.roundId}`;
        let at = roundAt.get(key);
        if (at === undefined) roundAt.set(key, (at = rows.rounds.push(row) - 1));
        else rows.rounds[at] = row;
        derived[at] = { e, r };
      } else if (e.type === REJECT_EVENT_TYPE) rows.ingest_rejects.push(rejectRow(e, e.data as RejectData));
      else alerts.push({ e, a: { type: e.type, data: e.data } as AlertEvent });
    }
    // the inserts run one at a time in the order queued, each queued as soon as its rows are ready: chDB (its own
    // threads) inserts the rounds while JavaScript writes the bets, and the bets, most of the rows, while it builds
    // the other tables' rows
    const inserts = this.insertQueue();
    try {
      inserts.add('rounds', rows.rounds.length, () => encodeTsv(rows.rounds));
      // bets, the bulk of the rows, are written as TabSeparated bytes straight into the insert body (writeBetsTsv):
      // no object nor string per bet line; in slices, between which the queued insert goes on (its file written,
      // its query started)
      const bets = new TsvWriter(derived.length * 12 * 200);
      let betCount = 0;
      for (let i = 0; i < derived.length; i++) {
        if (i > 0 && i % BETS_SLICE === 0) await new Promise<void>((resolve) => setImmediate(resolve));
        const { e, r } = derived[i]!;
        betCount += writeBetsTsv(bets, e, r);
      }
      inserts.add('bets', betCount, () => ({ columns: BET_COLUMNS, body: bets.bytes() }));
      inserts.add('tables', rows.tables.length, () => encodeTsv(rows.tables));
      await this.buildRest(rows, tableEvents, tableIds, findings, alerts, inserts);
    } finally {
      // never return (nor throw) with an insert still running: a batch handed over again must not race it
      await inserts.settled();
    }
    this.stats.batches++;
    this.stats.events += batch.length;
  }

  /** Inserts run in turn, each started once the one before it finished; the first failure stops the rest. */
  private insertQueue() {
    let queue: Promise<void> = Promise.resolve();
    let failure: { error: unknown } | null = null;
    return {
      add: (
        table: ProjectedTable,
        count: number,
        encode: () => { columns: readonly string[]; body: string | Buffer },
      ): void => {
        if (count === 0 || failure) return;
        const { columns, body } = encode();
        queue = queue.then(async () => {
          if (failure) return;
          try {
            await this.client.insert({
              table,
              values: Readable.from([body], { objectMode: false }),
              format: 'TabSeparated',
              columns: columns as [string, ...string[]],
            });
            this.stats.rows[table] += count;
          } catch (error) {
            failure = { error };
          }
        });
      },
      /** Resolves once every queued insert finished; rejects with the first failure. */
      settled: async (): Promise<void> => {
        await queue;
        if (failure) throw failure.error;
      },
    };
  }

  /** The rows of the table events, findings and alerts of a batch (after looking up what they need), queued. */
  private async buildRest(
    rows: Record<ProjectedTable, Row[]>,
    tableEvents: readonly RecordedEvent[],
    tableIds: ReadonlySet<string>,
    findings: readonly { e: RecordedEvent; f: Finding }[],
    alerts: readonly { e: RecordedEvent; a: AlertEvent }[],
    inserts: ReturnType<AnalyticsProjector['insertQueue']>,
  ): Promise<void> {
    await this.lookUp(
      [...tableIds],
      findings.flatMap(({ f }) => (f.roundId === null ? [] : [f.roundId])),
    );
    for (const e of tableEvents) {
      const t = e as unknown as TableEvent;
      const game = this.games.get(t.data.header.tableId) ?? 'UNKNOWN';
      if (t.type === 'RoundStarted' && t.data.header.roundId !== null)
        rows.round_starts.push(roundStartRow(e, t, game));
      const health = tableHealthRow(e, t, game);
      if (health) rows.table_health.push(health);
    }
    for (const { e, f } of findings) {
      const row = findingRow(e, f, {
        game: this.games.get(f.tableId) ?? 'UNKNOWN',
        dealerId: f.roundId === null ? null : (this.dealers.get(f.roundId) ?? null),
      });
      rows.findings.push(row);
      this.alertFindings.set(f.findingId, alertFindingOf(row));
    }
    // the alert workflow, folded in store order
    const states = alerts.length ? await this.alertStatesBefore(alerts) : new Map<string, AlertStateRow>();
    for (const { e, a } of alerts) {
      const id = a.data.alertId;
      const finding = this.alertFindings.get(id) ?? unknownAlertFinding(a.data.time);
      const state = alertStateRow(e, a, states.get(id) ?? null, finding);
      states.set(id, state);
      rows.alert_states.push(state as unknown as Row);
      rows.alert_state_changes.push(alertChangeRow(e, state));
    }
    for (const table of ['round_starts', 'table_health', 'ingest_rejects', 'findings'] as const)
      inserts.add(table, rows[table].length, () => encodeTsv(rows[table]));
    inserts.add('alert_states', rows.alert_states.length, () => encodeTsv(rows.alert_states));
    inserts.add('alert_state_changes', rows.alert_state_changes.length, () =>
      encodeTsv(rows.alert_state_changes),
    );
    // the states are kept in memory only once their rows are inserted
    await inserts.settled();
    for (const [id, state] of states) this.alertStates.set(id, state);
  }

  /**
   * Each alert's state before its first event in this batch: from memory when the state kept is older than that
   * event, else (after a restart, or a batch handed over again) the latest history row before it in ClickHouse —
   * never a state that already includes this batch. The findings of alerts not in memory are looked up too.
   */
  private async alertStatesBefore(
    alerts: readonly { e: RecordedEvent; a: AlertEvent }[],
  ): Promise<Map<string, AlertStateRow>> {
    const first = new Map<string, bigint>();
    for (const { e, a } of alerts) if (!first.has(a.data.alertId)) first.set(a.data.alertId, e.position);
    const states = new Map<string, AlertStateRow>();
    const missing: string[] = [];
    for (const [id, position] of first) {
      const kept = this.alertStates.get(id);
      if (kept && BigInt(kept.version) < position) states.set(id, kept);
      else missing.push(id);
    }
    const before = alerts[0]!.e.position;
    if (missing.length) {
      this.stats.lookups += missing.length;
      const result = await this.client.query({
        query: `SELECT * EXCEPT (change_id, opened_at, changed_at, acknowledged_at, resolved_at),
            toUnixTimestamp64Milli(opened_at) AS opened_at, toUnixTimestamp64Milli(changed_at) AS changed_at,
            toUnixTimestamp64Milli(acknowledged_at) AS acknowledged_at,
            toUnixTimestamp64Milli(resolved_at) AS resolved_at, toString(macau_date) AS macau_date
          FROM alert_state_changes FINAL
          WHERE finding_id IN {ids:Array(String)} AND version < {before:UInt64}
          ORDER BY finding_id, version DESC
          LIMIT 1 BY finding_id`,
        query_params: { ids: missing, before: before.toString() },
        format: 'JSONEachRow',
      });
      for (const r of await result.json<Record<string, unknown>>()) {
        const ms = (v: unknown): number | null => (v === null ? null : Number(v));
        states.set(r.finding_id as string, {
          ...(r as unknown as AlertStateRow),
          opened_at: Number(r.opened_at),
          changed_at: Number(r.changed_at),
          acknowledged_at: ms(r.acknowledged_at),
          resolved_at: ms(r.resolved_at),
          reopened: Number(r.reopened),
          version: String(r.version),
        });
      }
    }
    const unknown = [...first.keys()].filter((id) => !this.alertFindings.has(id));
    if (unknown.length) {
      this.stats.lookups += unknown.length;
      const result = await this.client.query({
        query: `SELECT finding_id, check_id, severity, concessionaire, casino, game, table_id, round_id,
            toUnixTimestamp64Milli(event_time) AS event_time, toString(macau_date) AS macau_date
          FROM findings FINAL WHERE finding_id IN {ids:Array(String)}`,
        query_params: { ids: unknown },
        format: 'JSONEachRow',
      });
      for (const r of await result.json<Row>())
        this.alertFindings.set(
          r.finding_id as string,
          alertFindingOf({ ...r, event_time: Number(r.event_time) }),
        );
    }
    return states;
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
