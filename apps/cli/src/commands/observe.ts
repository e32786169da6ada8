/**
 * What the long-running commands (ingest --kafka, replay --live, analytics project --follow) share to report on
 * themselves: the flags, the JSON logger, the Prometheus registry and the health server
 * (@table-audit/observability), and a read-only look at the SQLite store for the figures the event-store port
 * does not give: its head, its size and its checkpoints (docs/observability.md).
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import type { EventStore } from '@table-audit/eventstore';
import { OPENED_SCHEMA_VERSIONS, SCHEMA_VERSION } from '@table-audit/eventstore/sqlite';
import type { IngestPipeline, KafkaBatchReport } from '@table-audit/ingest';
import { readForShard, shardCheckpoint, type ReplayStats, type Shard } from '@table-audit/replay';
import type { Finding } from '@table-audit/rules';
// loaded only by the long-running forms (observe()): every other command starts without pino and prom-client
import type { HealthServer, Logger, Readiness, Registry } from '@table-audit/observability';

/** The observability package, loaded when a long-running command starts. */
export type ObservabilityLib = typeof import('@table-audit/observability');
import { UsageError } from './command.ts';
// sets SQLITE_USE_URI before better-sqlite3's addon loads, so that a "file:" name opens a store immutable
import './store.ts';

export const OBSERVE_OPTIONS = {
  'metrics-port': { type: 'string' },
  'metrics-host': { type: 'string' },
  'log-level': { type: 'string' },
} as const;

export const OBSERVE_USAGE = `  --metrics-port P   serve /health/live, /health/ready and /metrics (Prometheus) on port P (0: any free port,
                     printed in the log); without it no port is opened
  --metrics-host H   the address to serve them on (default 127.0.0.1; 0.0.0.0 in a container)
  --log-level L      JSON log lines on stderr at this level or above: trace, debug, info, warn, error, fatal,
                     silent (default $LOG_LEVEL, else info)`;

export interface ObserveValues {
  'metrics-port'?: string | undefined;
  'metrics-host'?: string | undefined;
  'log-level'?: string | undefined;
}

export interface Observed {
  readonly lib: ObservabilityLib;
  readonly logger: Logger;
  readonly registry: Registry;
  /** the health server, once start() ran with a port given */
  server: HealthServer | null;
  /** starts the health server when --metrics-port was given */
  start(ready: () => Readiness | Promise<Readiness>): Promise<void>;
  close(): Promise<void>;
}

/** The logger and registry of a long-running command; its flags are checked here (a usage error names the flag). */
export async function observe(service: string, values: ObserveValues): Promise<Observed> {
  const lib = await import('@table-audit/observability');
  let port: number | null = null;
  if (values['metrics-port'] !== undefined) {
    const p = lib.parsePort(values['metrics-port'], '--metrics-port');
    if (typeof p === 'string') throw new UsageError(p);
    port = p;
  }
  if (values['metrics-host'] !== undefined && port === null)
    throw new UsageError('--metrics-host needs --metrics-port');
  if (values['metrics-host'] === '') throw new UsageError('--metrics-host needs an address, e.g. 0.0.0.0');
  let logger: Logger;
  try {
    logger = lib.createLogger({ service, level: values['log-level'] });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const registry = lib.createRegistry(service);
  const o: Observed = {
    lib,
    logger,
    registry,
    server: null,
    async start(ready) {
      if (port === null) return;
      o.server = await lib.startHealthServer({
        port,
        host: values['metrics-host'] ?? '127.0.0.1',
        registry,
        ready,
        logger,
      });
    },
    async close() {
      await o.server?.close();
      o.server = null;
    },
  };
  return o;
}

/** The store's last event: its position and when it was recorded (UTC ms). */
export interface StoreHead {
  position: bigint;
  recordedAt: number;
}

/**
 * A read-only connection to a SQLite event store, for its head, size and checkpoints. The event-store port has no
 * read of the head (readAll goes forwards only), so this reads the store's tables (schema version SCHEMA_VERSION,
 * packages/eventstore/src/sqlite-event-store.ts) directly and refuses any other version. It never writes: a store
 * without a -wal file (no writer active) is opened immutable, as verify does.
 */
export class SqliteStoreProbe {
  readonly #db: Database.Database;
  readonly #head: Database.Statement<[], { position: number | bigint; recorded_at: number }>;
  readonly #after: Database.Statement<[bigint], { position: number | bigint; recorded_at: number }>;

  constructor(readonly path: string) {
    if (!existsSync(path))
      throw new Error(`no event store at ${resolve(path)} (give --store PATH or set TABLE_AUDIT_STORE)`);
    const immutable = !existsSync(`${path}-wal`);
    const name = immutable ? `${pathToFileURL(resolve(path)).href}?mode=ro&immutable=1` : path;
    this.#db = new Database(name, { readonly: true, fileMustExist: true });
    this.#db.defaultSafeIntegers(true);
    const version = Number(this.#db.pragma('user_version', { simple: true }));
    if (!OPENED_SCHEMA_VERSIONS.includes(version)) {
      this.#db.close();
      throw new Error(
        `${path} is an event store of schema version ${version}; this reads version ${SCHEMA_VERSION} (table-audit store migrate converts older ones)`,
      );
    }
    this.#head = this.#db.prepare('SELECT position, recorded_at FROM events ORDER BY position DESC LIMIT 1');
    this.#after = this.#db.prepare(
      'SELECT position, recorded_at FROM events WHERE position > ? ORDER BY position LIMIT 1',
    );
  }

  /** The last event stored, or null for an empty store. */
  head(): StoreHead | null {
    const r = this.#head.get();
    return r ? { position: BigInt(r.position), recordedAt: Number(r.recorded_at) } : null;
  }

  /** The first event after a position (null: from the beginning), or null when there is none. */
  firstAfter(position: bigint | null): StoreHead | null {
    const r = this.#after.get(position ?? -1n);
    return r ? { position: BigInt(r.position), recordedAt: Number(r.recorded_at) } : null;
  }

  /** How many events are stored (a count over the table: for status, not for every scrape). */
  events(): number {
    return Number((this.#db.prepare('SELECT count(*) AS n FROM events').get() as { n: bigint }).n);
  }

  /** Every saved checkpoint, with when it was saved (UTC ms). */
  checkpoints(): { name: string; position: bigint; savedAt: number }[] {
    return (
      this.#db.prepare('SELECT name, position, saved_at FROM checkpoints ORDER BY name').all() as {
        name: string;
        position: bigint;
        saved_at: bigint;
      }[]
    ).map((r) => ({ name: r.name, position: BigInt(r.position), savedAt: Number(r.saved_at) }));
  }

  /** The store's bytes on disk: the file and its -wal. */
  sizeBytes(): { file: number; wal: number } {
    const size = (p: string) => (existsSync(p) ? statSync(p).size : 0);
    return { file: size(this.path), wal: size(`${this.path}-wal`) };
  }

  close(): void {
    this.#db.close();
  }
}

/**
 * How far a reader at `checkpoint` is behind the store's head: in positions (on SQLite one position is one event)
 * and in seconds (the age of the oldest event not yet read; 0 when caught up).
 */
export function lagBehind(
  probe: SqliteStoreProbe,
  checkpoint: bigint | null,
  now: number = Date.now(),
): { head: StoreHead | null; events: bigint; seconds: number } {
  const head = probe.head();
  if (head === null || (checkpoint !== null && checkpoint >= head.position))
    return { head, events: 0n, seconds: 0 };
  const next = probe.firstAfter(checkpoint);
  return {
    head,
    events: head.position - (checkpoint ?? 0n),
    seconds: next ? Math.max(0, (now - next.recordedAt) / 1000) : 0,
  };
}

/** Events a shard's lag is counted up to at each scrape (a bounded read); beyond, the gauge stays at this. */
export const SHARD_LAG_COUNT_LIMIT = 100_000;

/**
 * The live replay's metrics, read from its stats at each scrape: position (its checkpoint), the store's head, the
 * lag behind it in events and seconds, rounds derived, events read, findings by check and severity. The lag
 * counts the table events (a shard: its own tables' events) stored after the checkpoint, reading through
 * readForShard up to SHARD_LAG_COUNT_LIMIT: the replay's own findings and round records, stored after it, are not.
 */
export function observeReplay(
  { lib, registry }: Pick<Observed, 'lib' | 'registry'>,
  store: EventStore,
  /** the SQLite file, for the store's head; undefined on EventStoreDB, whose head is not read (no head gauge) */
  storeFile: string | undefined,
  shard: Shard | undefined,
): {
  finding(f: Finding): void;
  follow(stats: ReplayStats): void;
  caughtUp(position: bigint | null): void;
  readiness(): Promise<Readiness>;
  close(): void;
} {
  const { Counter, Gauge } = lib;
  const checkpoint = shard ? shardCheckpoint(shard) : 'replay';
  const labels = { checkpoint };
  let stats: ReplayStats | null = null;
  let caughtUp = false;
  let probe: SqliteStoreProbe | null = null;
  // the table events it has not replayed (its own findings and round records, stored after its checkpoint, are not)
  const view = readForShard(store, shard ?? { index: 0, count: 1 });
  const lag = async (): Promise<{
    position: bigint | null;
    head: StoreHead | null;
    events: number;
    seconds: number;
    capped: boolean;
  }> => {
    if (storeFile !== undefined) probe ??= new SqliteStoreProbe(storeFile);
    const position = stats?.lastPosition ?? (await store.loadCheckpoint(checkpoint));
    const head = probe?.head() ?? null;
    let events = 0;
    let oldest: number | null = null;
    for await (const e of view.readAll({
      ...(position === null ? {} : { fromPosition: position }),
      maxCount: SHARD_LAG_COUNT_LIMIT,
    })) {
      oldest ??= e.recordedAt;
      events++;
    }
    return {
      position,
      head,
      events,
      seconds: oldest === null ? 0 : Math.max(0, (Date.now() - oldest) / 1000),
      capped: events === SHARD_LAG_COUNT_LIMIT,
    };
  };
  // one look at the store per scrape: the gauges below are collected concurrently and share it
  let cached: { at: number; lag: ReturnType<typeof lag> } | null = null;
  const current = (): ReturnType<typeof lag> => {
    if (cached === null || Date.now() - cached.at > 1_000) cached = { at: Date.now(), lag: lag() };
    return cached.lag;
  };
  const findings = new Counter({
    name: 'table_audit_replay_findings_total',
    help: 'Findings the replay appended or found already stored in this run, by check id and severity',
    labelNames: ['checkpoint', 'check_id', 'severity'],
    registers: [registry],
  });
  const counted = (name: string, help: string, value: (s: ReplayStats) => number) => {
    let seen = 0;
    return new Counter({
      name,
      help,
      labelNames: ['checkpoint'],
      registers: [registry],
      collect() {
        const now = stats ? value(stats) : 0;
        if (now > seen) this.inc(labels, now - seen);
        seen = now;
      },
    });
  };
  counted('table_audit_replay_events_total', 'Stored events the replay read in this run', (s) => s.events);
  counted(
    'table_audit_replay_rounds_total',
    'Rounds (throws, deals) derived and checked in this run',
    (s) => s.rounds,
  );
  counted(
    'table_audit_replay_rounds_not_derived_total',
    'Rounds that could not be re-derived in this run (voided ones aside)',
    (s) => s.notDerived,
  );
  new Gauge({
    name: 'table_audit_replay_position',
    help: "The replay's checkpoint: the store position it has replayed up to",
    labelNames: ['checkpoint'],
    registers: [registry],
    async collect() {
      this.set(labels, Number((await current()).position ?? 0n));
    },
  });
  new Gauge({
    name: 'table_audit_store_head_position',
    help: "The event store's last position",
    registers: [registry],
    async collect() {
      this.set(Number((await current()).head?.position ?? 0n));
    },
  });
  new Gauge({
    name: 'table_audit_replay_lag_events',
    help: `Table events${shard ? " of this shard's tables" : ''} stored after the replay's checkpoint (counted up to ${SHARD_LAG_COUNT_LIMIT})`,
    labelNames: ['checkpoint'],
    registers: [registry],
    async collect() {
      this.set(labels, (await current()).events);
    },
  });
  new Gauge({
    name: 'table_audit_replay_lag_seconds',
    help: 'Age of the oldest stored event the replay has not replayed yet (0 when caught up)',
    labelNames: ['checkpoint'],
    registers: [registry],
    async collect() {
      this.set(labels, (await current()).seconds);
    },
  });
  new Gauge({
    name: 'table_audit_replay_caught_up',
    help: '1 once the replay has replayed everything stored when it started, then follows live',
    labelNames: ['checkpoint'],
    registers: [registry],
    collect() {
      this.set(labels, caughtUp ? 1 : 0);
    },
  });
  return {
    finding: (f) => findings.inc({ checkpoint, check_id: f.checkId, severity: f.severity }),
    follow: (s) => void (stats = s),
    caughtUp: () => void (caughtUp = true),
    async readiness() {
      const l = await current();
      const details = {
        checkpoint,
        position: l.position,
        head: l.head?.position ?? null,
        lagEvents: l.events,
        lagSeconds: Math.round(l.seconds * 10) / 10,
      };
      return caughtUp
        ? { ready: true, details }
        : { ready: false, reason: `catching up: ${l.events}${l.capped ? '+' : ''} events behind`, details };
    },
    close: () => {
      probe?.close();
      probe = null;
    },
  };
}

/**
 * Kafka ingest's metrics: messages and events in (accepted, already stored, rejected), rejects by reason code,
 * consumer lag per partition (as of each batch's fetch), the append's latency, and the consumer's own counts.
 */
export function observeIngest(
  { lib, registry }: Pick<Observed, 'lib' | 'registry'>,
  pipeline: IngestPipeline,
  consumerStats: Readonly<Record<string, number>> | null,
): { batch(report: KafkaBatchReport): void } {
  const { Counter, Gauge, Histogram } = lib;
  const messages = new Counter({
    name: 'table_audit_ingest_messages_total',
    help: 'Kafka messages handled (stored, already stored or kept as rejects)',
    registers: [registry],
  });
  const outcomes: [string, (t: IngestPipeline['totals']) => number][] = [
    ['accepted', (t) => t.accepted],
    ['already_stored', (t) => t.alreadyStored],
    ['rejected', (t) => t.rejected],
  ];
  const seenOutcome = new Map<string, number>();
  new Counter({
    name: 'table_audit_ingest_events_total',
    help: 'Inputs by outcome: accepted (newly stored), already_stored (a redelivery), rejected (kept in ingest-rejects)',
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      for (const [outcome, of] of outcomes) {
        const now = of(pipeline.totals);
        const before = seenOutcome.get(outcome) ?? 0;
        if (now > before) this.inc({ outcome }, now - before);
        else if (before === 0) this.inc({ outcome }, 0);
        seenOutcome.set(outcome, now);
      }
    },
  });
  const seenReason = new Map<string, number>();
  new Counter({
    name: 'table_audit_ingest_rejects_total',
    help: 'Inputs kept in the stream ingest-rejects, by reason code (INVALID_EVENT, UNDECODABLE, …)',
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      for (const [reason, now] of pipeline.totals.byReason) {
        const before = seenReason.get(reason) ?? 0;
        if (now > before) this.inc({ reason }, now - before);
        seenReason.set(reason, now);
      }
    },
  });
  const lag = new Gauge({
    name: 'table_audit_ingest_consumer_lag_messages',
    help: "Messages in the partition after the last one stored, as of that batch's fetch (high watermark − next offset)",
    labelNames: ['topic', 'partition'],
    registers: [registry],
  });
  const append = new Histogram({
    name: 'table_audit_ingest_append_seconds',
    help: "A batch's validation and durable append to the event store",
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const decode = new Histogram({
    name: 'table_audit_ingest_decode_seconds',
    help: "Decoding a batch's messages (Confluent wire format, Avro)",
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [registry],
  });
  if (consumerStats)
    new Gauge({
      name: 'table_audit_ingest_kafka_consumer',
      help: "The Kafka consumer's own counts since start: batches, commits, groupJoins, rebalances, crashes, adapterRestarts, …",
      labelNames: ['count'],
      registers: [registry],
      collect() {
        for (const [count, n] of Object.entries(consumerStats)) this.set({ count }, n);
      },
    });
  return {
    batch(r) {
      messages.inc(r.messages.length);
      append.observe(r.appendMs / 1000);
      decode.observe(r.decodeMs / 1000);
      for (const p of r.partitions)
        if (p.lag !== null) lag.set({ topic: p.topic, partition: String(p.partition) }, p.lag);
    },
  };
}
