/**
 * One measurement, run in a process of its own by `runPart` (bench/lib/measure.ts) so that the peak RSS it prints
 * is its own: `node --import apps/cli/bin/register-ts.mjs bench/lib/part.ts NAME '{"arg":…}'`. Each part prints
 * one JSON line. Everything goes through the public entry points of the services and the store, so the figures
 * follow whatever store format and replay are current.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import {
  IngestPipeline,
  ingestFiles,
  ingestFilesParallel,
  KafkaIngest,
  KafkajsEventConsumer,
} from '@table-audit/ingest';
import { replayEvents, ReplayService, TableFolds } from '@table-audit/replay';
import {
  settleF3cpRound,
  type F3cpRoundFacts,
  type F3cpRuleSet,
  type ReplayedRound,
} from '@table-audit/rules';
import { encodeEvent, FileSchemaRegistry, FRAME_LENGTH, readEventsFile } from '@table-audit/schemas';
import {
  KafkajsEventProducer,
  publishEvents,
  simulateSession,
  writeSessionFile,
  type SessionOptions,
} from '@table-audit/simulator';
import { kafkajsTestSettings, startMockKafka } from '@table-audit/infra/kafka-mock';
import { latencySummary, median, peakRssMiB, sqliteBytes, startPart, stopChild } from './measure.ts';
import { rawSqliteLimits } from './raw-sqlite.ts';

/** The store every part opens: the embedded default, through its public constructor. */
const openStore = (path: string) => new SqliteEventStore(path);

/** The sessions of the table: F3CP tables with some faults and handled irregularities, as a day would have. */
export const benchSession = (o: { seed: number; tables: number; rounds: number }) =>
  simulateSession({
    seed: o.seed,
    tables: o.tables,
    roundsPerTable: o.rounds,
    faultRate: 0.05,
    handledRate: 0.02,
    bettingSystemTables: Math.min(2, o.tables),
  } satisfies Partial<SessionOptions>);

const seconds = (t0: number) => (performance.now() - t0) / 1000;
const perSecond = (n: number, s: number) => Math.round(n / s);

type Args = Record<string, unknown>;
const num = (a: Args, k: string): number => {
  const v = a[k];
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw new Error(`bench part: argument ${k} must be a number`);
  return v;
};
const str = (a: Args, k: string): string => {
  const v = a[k];
  if (typeof v !== 'string' || !v) throw new Error(`bench part: argument ${k} must be a non-empty string`);
  return v;
};

const parts: Record<string, (a: Args) => Promise<Record<string, unknown>>> = {
  /** A simulated session into an events file (snappy, the default codec), and the size of its Avro records. */
  async generate(a) {
    const t0 = performance.now();
    const s = benchSession({ seed: num(a, 'seed'), tables: num(a, 'tables'), rounds: num(a, 'rounds') });
    const simulateSeconds = seconds(t0);
    const out = str(a, 'out');
    await writeSessionFile(out, s.events);
    // the Avro record alone (the Confluent frame taken off), averaged over a sample spread through the session
    const registry = await FileSchemaRegistry.open(undefined, { readOnly: true });
    const step = Math.max(1, Math.floor(s.events.length / 20_000));
    let recordBytes = 0;
    let sampled = 0;
    for (let i = 0; i < s.events.length; i += step) {
      const e = s.events[i]!;
      recordBytes += (await encodeEvent(registry, e.type, e.data as never)).length - FRAME_LENGTH;
      sampled++;
    }
    // simulated time per table (first to last event time): a fault that skews one event's clock moves one table's
    // span, hence the median
    const spans = new Map<string, { first: number; last: number; rounds: Set<string> }>();
    for (const e of s.events) {
      const h = e.data.header;
      let t = spans.get(h.tableId);
      if (!t) spans.set(h.tableId, (t = { first: h.eventTime, last: h.eventTime, rounds: new Set() }));
      t.first = Math.min(t.first, h.eventTime);
      t.last = Math.max(t.last, h.eventTime);
      if (h.roundId !== null) t.rounds.add(h.roundId);
    }
    const tables = [...spans.values()];
    const hours = tables.map((t) => (t.last - t.first) / 3_600_000);
    return {
      events: s.events.length,
      rounds: tables.reduce((n, t) => n + t.rounds.size, 0),
      faultsInjected: s.truth.length,
      simulatedHoursPerTable: +median(hours).toFixed(2),
      roundsPerTableHour: +median(tables.map((t, i) => t.rounds.size / hours[i]!)).toFixed(1),
      simulateSeconds: +simulateSeconds.toFixed(2),
      fileBytes: statSync(out).size,
      avroRecordBytes: Math.round(recordBytes / sampled),
    };
  },

  /** Raw SQLite insert and read of the same number of rows (bench/lib/raw-sqlite.ts). */
  async 'raw-sqlite'(a) {
    const dir = mkdtempSync(join(str(a, 'dir'), 'raw-'));
    try {
      return { ...rawSqliteLimits(dir, num(a, 'rows')) };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },

  /** Reading and decoding an events file alone (no validation, no store): readEventsFile, every record. */
  async decode(a) {
    const t0 = performance.now();
    let records = 0;
    let errors = 0;
    for await (const item of readEventsFile(str(a, 'file'))) {
      if ('type' in item) records++;
      else errors++;
    }
    const s = seconds(t0);
    if (errors) throw new Error(`decode: ${errors} unreadable items in a file the simulator wrote`);
    return { records, seconds: +s.toFixed(2), recordsPerSecond: perSecond(records, s) };
  },

  /** An events file → ingestFiles → the store (a new file). */
  async 'ingest-file'(a) {
    const path = str(a, 'store');
    const store = openStore(path);
    const batches: number[] = [];
    let result;
    const t0 = performance.now();
    try {
      // threads: 2 for the pipeline over two threads (ingestFilesParallel), else one thread
      result =
        a.threads === 2
          ? await ingestFilesParallel([str(a, 'file')], store, {
              onBatch: (_n, ms) => batches.push(ms),
            })
          : await ingestFiles([str(a, 'file')], new IngestPipeline(store), {
              onBatch: (_n, ms) => batches.push(ms),
            });
    } finally {
      await store.close();
    }
    const s = seconds(t0);
    const bytes = sqliteBytes(path);
    return {
      ...result,
      seconds: +s.toFixed(2),
      eventsPerSecond: perSecond(result.accepted, s),
      storeBytes: bytes,
      storeBytesPerEvent: Math.round(bytes / result.accepted),
      batchSubmitMs: latencySummary(batches),
      peakRssMiB: peakRssMiB(),
    };
  },

  /**
   * A session published to a 3-partition topic of the mock Kafka cluster (librdkafka's, infra/kafka-mock), then
   * KafkajsEventConsumer + KafkaIngest → the store, timed from the first batch handed over to the last event
   * stored (the consumer group's join, fixed by the mock, is reported apart).
   */
  async 'ingest-kafka'(a) {
    const s = benchSession({ seed: num(a, 'seed'), tables: num(a, 'tables'), rounds: num(a, 'rounds') });
    const mock = await startMockKafka({ brokers: 3 });
    const store = openStore(str(a, 'store'));
    try {
      await mock.createTopic('table-events', 3, 3);
      const registry = await FileSchemaRegistry.open(undefined, { readOnly: true });
      const producer = new KafkajsEventProducer(mock.bootstrapServers);
      await publishEvents(producer, registry, 'table-events', s.events, 3000);
      await producer.stop();
      const consumer = new KafkajsEventConsumer({
        brokers: mock.bootstrapServers,
        groupId: 'bench-table',
        topics: ['table-events'],
        kafka: kafkajsTestSettings.client,
        consumer: kafkajsTestSettings.consumer,
      });
      const pipeline = new IngestPipeline(store);
      const batches: number[] = [];
      let first = 0;
      let done!: () => void;
      const all = new Promise<void>((resolve) => (done = resolve));
      const ingest = new KafkaIngest(consumer, registry, pipeline, (_n, _r, ms) => {
        batches.push(ms);
        if (!first) first = performance.now() - ms;
        if (pipeline.totals.accepted + pipeline.totals.alreadyStored >= s.events.length) done();
      });
      const j0 = performance.now();
      await ingest.start();
      const groupJoinSeconds = seconds(j0);
      const timeout = setTimeout(() => done(), 300_000);
      await all;
      clearTimeout(timeout);
      const s1 = (performance.now() - first) / 1000;
      await ingest.stop();
      if (pipeline.totals.accepted !== s.events.length)
        throw new Error(`Kafka: stored ${pipeline.totals.accepted} of ${s.events.length}`);
      return {
        events: s.events.length,
        partitions: 3,
        seconds: +s1.toFixed(2),
        eventsPerSecond: perSecond(s.events.length, s1),
        groupJoinSeconds: +groupJoinSeconds.toFixed(2),
        batchSubmitMs: latencySummary(batches),
        peakRssMiB: peakRssMiB(),
      };
    } finally {
      await store.close();
      await mock.stop();
    }
  },

  /** Bulk replay of a store from scratch through the ReplayService: read, replay, findings appended. */
  async replay(a) {
    const store = openStore(str(a, 'store'));
    try {
      const service = new ReplayService({ store });
      const t0 = performance.now();
      await service.catchUp();
      await service.finish();
      const s = seconds(t0);
      const st = service.stats;
      return {
        events: st.tableEvents,
        rounds: st.rounds,
        findings: st.findingsAppended,
        notDerived: st.notDerived,
        seconds: +s.toFixed(2),
        eventsPerSecond: perSecond(st.tableEvents, s),
        roundsPerSecond: perSecond(st.rounds, s),
        peakRssMiB: peakRssMiB(),
      };
    } finally {
      await store.close();
    }
  },

  /**
   * Pure in-memory replay (replayEvents: fold, derive, every check; no store) beside settlement alone
   * (settleF3cpRound on the same rounds' facts), `runs` runs each after a warm-up, medians, one core.
   */
  async pure(a) {
    const s = benchSession({ seed: num(a, 'seed'), tables: num(a, 'tables'), rounds: num(a, 'rounds') });
    const toSettle: { facts: F3cpRoundFacts; rules: F3cpRuleSet }[] = [];
    const folds = new TableFolds();
    const keep = (units: readonly unknown[]) => {
      for (const u of units as ReplayedRound[])
        if (u.settled) toSettle.push({ facts: u.settled.facts, rules: u.settled.ruleSet });
    };
    for (const e of s.events) keep(folds.apply(e) ?? []);
    for (const t of folds.values()) keep(t.finish().units);
    const replayRates: number[] = [];
    const settleRates: number[] = [];
    let rounds = 0;
    let findings = 0;
    let lines = 0;
    const runs = num(a, 'runs');
    for (let run = 0; run <= runs; run++) {
      let t0 = performance.now();
      const r = replayEvents(s.events);
      const replaySeconds = seconds(t0);
      rounds = r.rounds.length;
      findings = r.findings.length;
      t0 = performance.now();
      for (const { facts, rules } of toSettle) lines += settleF3cpRound(facts, rules).lines.length;
      const settleSeconds = seconds(t0);
      if (run === 0) continue; // warm-up
      replayRates.push(rounds / replaySeconds);
      settleRates.push(toSettle.length / settleSeconds);
    }
    return {
      events: s.events.length,
      rounds,
      roundsSettled: toSettle.length,
      findings,
      linesSettled: lines,
      roundsPerSecond: Math.round(median(replayRates)),
      settleOnlyRoundsPerSecond: Math.round(median(settleRates)),
      peakRssMiB: peakRssMiB(),
    };
  },

  /** Keeps one core busy until killed: the other load of the live-lag measurement. */
  async load() {
    let x = 0;
    const end = () => {
      console.log(JSON.stringify({ spins: x, peakRssMiB: peakRssMiB() }));
      process.exit(0);
    };
    process.once('SIGTERM', end);
    for (;;) {
      const until = Date.now() + 50;
      while (Date.now() < until) x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
      await new Promise((r) => setImmediate(r)); // let SIGTERM in
    }
  },

  /**
   * Appends a session to the store through the ingest pipeline at `rate` events/s (10 ms slices) for `seconds`,
   * as tables would: the producer of the live-lag measurement.
   */
  async produce(a) {
    const rate = num(a, 'rate');
    const total = rate * num(a, 'seconds');
    const tables = Math.max(10, Math.ceil(total / 56 / 50));
    const s = benchSession({ seed: num(a, 'seed'), tables, rounds: Math.ceil(total / 56 / tables) + 2 });
    const events = s.events.slice(0, total);
    const store = openStore(str(a, 'store'));
    const pipeline = new IngestPipeline(store);
    const submits: number[] = [];
    const start = performance.now();
    let sent = 0;
    try {
      while (sent < events.length) {
        const due = Math.min(events.length, Math.floor((seconds(start) + 0.01) * rate));
        if (due > sent) {
          const t0 = performance.now();
          await pipeline.submit(
            events.slice(sent, due).map((event, k) => ({
              source: { kind: 'in-process' as const, producer: 'bench-live', index: sent + k },
              event,
            })),
          );
          submits.push(performance.now() - t0);
          sent = due;
        }
        await new Promise((r) => setTimeout(r, 10));
      }
    } finally {
      await store.close();
    }
    const s1 = seconds(start);
    return {
      events: sent,
      seconds: +s1.toFixed(2),
      offeredEventsPerSecond: perSecond(sent, s1),
      submitMs: latencySummary(submits),
      peakRssMiB: peakRssMiB(),
    };
  },

  /**
   * Live lag: the ReplayService in live mode on a new store while a producer process appends at `rate` events/s
   * and another process keeps a core busy. Lag of a finding = the moment it is durable (onFinding) − the moment
   * the event that completed it was appended (its recordedAt).
   */
  async live(a) {
    const path = str(a, 'store');
    await openStore(path).close(); // created before the two processes open it
    const load = startPart('load');
    const producer = startPart('produce', {
      store: path,
      rate: num(a, 'rate'),
      seconds: num(a, 'seconds'),
      seed: num(a, 'seed'),
    });
    const store = openStore(path);
    const lags: number[] = [];
    const service = new ReplayService({
      store,
      onFinding: (_f, completing) => {
        if (completing) lags.push(Date.now() - completing.recordedAt);
      },
    });
    const abort = new AbortController();
    const running = service.live(abort.signal, Number(a.flushMs ?? 50));
    let produced: Record<string, unknown> | null = null;
    let loaded: Record<string, unknown> | null = null;
    try {
      produced = await stopChild(producer, false);
      if (!produced) throw new Error('live: the producer failed (see stderr)');
      const events = Number(produced.events);
      const deadline = Date.now() + 30_000;
      while (service.stats.tableEvents < events && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
    } finally {
      loaded = await stopChild(load);
      abort.abort();
      await running;
      await store.close();
    }
    return {
      producer: produced,
      cpuLoad: loaded ? 'one busy process' : 'load process failed',
      replayedEvents: service.stats.tableEvents,
      findingsTimed: lags.length,
      lagMs: latencySummary(lags),
      peakRssMiB: peakRssMiB(),
    };
  },
};

const [name, json] = process.argv.slice(2);
const part = name === undefined ? undefined : parts[name];
if (!part) {
  console.error(
    `bench/lib/part.ts: unknown part ${name ?? '(none)'}; parts: ${Object.keys(parts).join(', ')}`,
  );
  process.exit(2);
}
const args = JSON.parse(json ?? '{}') as Args;
if (typeof args.dir !== 'string') args.dir = tmpdir();
const result = await part(args);
console.log(JSON.stringify({ ...result, peakRssMiB: peakRssMiB() }));
