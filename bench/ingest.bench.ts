/**
 * Ingest throughput, end to end into the embedded event store (SqliteEventStore on a file: WAL, synchronous=FULL):
 *  - OCF: a simulated session (≥ 100,000 events) in an Avro object container file → ingestFiles → SQLite;
 *  - Kafka: the same kind of session published to a 3-partition topic of the mock Kafka cluster (librdkafka's,
 *    infra/kafka-mock) → KafkajsEventConsumer + KafkaIngest → SQLite, timed from the first batch handed over to the
 *    last event stored (the consumer group's join, 3 s fixed in the mock, is reported apart);
 * with the append latency per submitted batch (decode + validate + append, durable) at p50 and p99, and the store
 * file's bytes per event after the file ingest (WAL checkpointed at close, no VACUUM).
 * Targets (issue 8): the file ingest at least 0.40 of the raw SQLite insert rate measured in the same run on the same
 * disk (raw-sqlite.ts: 300-byte rows with a unique key, one transaction); Kafka at least 50,000 events/s; the store
 * at most 200 bytes per event. Prints one JSON line.
 *
 *   BENCH_OCF_TABLES (default 40) × BENCH_OCF_ROUNDS (50) · BENCH_KAFKA_TABLES (20) × BENCH_KAFKA_ROUNDS (40)
 *   BENCH_KAFKA_PRODUCE_BATCH (3000): messages per produce request (the mock returns one record batch per
 *   partition per fetch, so this sets the size of the batches the consumer gets)
 * Then memory as the input grows: a session of BENCH_MEMORY_TABLES (2) × BENCH_MEMORY_ROUNDS (50) rounds, then 10×
 * and 100× as many tables, and 10× and 100× as many rounds of the same tables (a longer file), each written to a file
 * and ingested into a new store in a process of its own (bench/lib/part.ts ingest-file), whose peak RSS is printed
 * with the ratios 10×/1× and 100×/10× (BENCH_MEMORY=0 leaves it out; BENCH_MEMORY_THREADS=2 ingests with two
 * threads). The file is also ingested with two threads (ingestFilesParallel), and the sequential part's floor is
 * measured: the same batches packed beforehand, then only written (appendPrepared), each with its CPU per event
 * (the packing, as the worker does it, timed alone: the preparing side). BENCH_KAFKA=0 leaves Kafka out.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import {
  DEFAULT_FILE_BATCH,
  fileBatches,
  IngestPipeline,
  ingestFiles,
  ingestFilesParallel,
  KafkaIngest,
  KafkajsEventConsumer,
} from '@table-audit/ingest';
import { FileSchemaRegistry } from '@table-audit/schemas';
import {
  KafkajsEventProducer,
  publishEvents,
  simulateSession,
  writeSessionFile,
} from '@table-audit/simulator';
import { kafkajsTestSettings, startMockKafka } from '@table-audit/infra/kafka-mock';
import { bytesPerEvent, rawSqlite, versus } from './raw-sqlite.ts';
import { runPart } from './lib/measure.ts';

const KAFKA_TARGET = 50_000;
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! : NaN;
const latency = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  return { batches: s.length, p50: +percentile(s, 0.5).toFixed(2), p99: +percentile(s, 0.99).toFixed(2) };
};
const session = (tables: number, rounds: number) =>
  simulateSession({
    seed: 42,
    tables,
    roundsPerTable: rounds,
    faultRate: 0.1,
    handledRate: 0.05,
    bettingSystemTables: 1,
  });

const dir = mkdtempSync(join(tmpdir(), 'ta-bench-ingest-'));

async function ocfToSqlite() {
  const s = session(env('BENCH_OCF_TABLES', 40), env('BENCH_OCF_ROUNDS', 50));
  const file = join(dir, 'session.avro');
  await writeSessionFile(file, s.events);
  const path = join(dir, 'ocf.sqlite');
  const store = new SqliteEventStore(path);
  const latencies: number[] = [];
  let closed = false;
  try {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const r = await ingestFiles([file], new IngestPipeline(store), {
      onBatch: (_n, ms) => latencies.push(ms),
    });
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(c0);
    if (r.accepted !== s.events.length) throw new Error(`OCF: stored ${r.accepted} of ${s.events.length}`);
    await store.close();
    closed = true;
    return {
      file,
      events: s.events.length,
      seconds: +seconds.toFixed(2),
      eventsPerSecond: Math.round(s.events.length / seconds),
      // the process's CPU time (user + system) per event: comparable between runs at different loads, as wall time is not
      cpuMicrosecondsPerEvent: +((cpu.user + cpu.system) / s.events.length).toFixed(1),
      appendLatencyMsPerBatch: { eventsPerBatch: DEFAULT_FILE_BATCH, ...latency(latencies) },
      storeBytesPerEvent: bytesPerEvent(path, r.accepted + r.rejected),
    };
  } finally {
    if (!closed) await store.close();
  }
}

/**
 * The same file through the pipeline over two threads (ingestFilesParallel: a worker decodes, checks and packs each
 * batch; this thread writes it), and the sequential part's floor: the same batches packed beforehand, then written
 * alone (appendPrepared, one transaction per batch), which is what this thread does per batch in the pipeline.
 */
async function ocfToSqliteParallel(file: string, events: number) {
  const path = join(dir, 'ocf-parallel.sqlite');
  const store = new SqliteEventStore(path);
  const latencies: number[] = [];
  let closed = false;
  try {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    let firstBatch = 0;
    const r = await ingestFilesParallel([file], store, {
      ...compiledWorker,
      // as the CLI starts it: a first batch of a tenth, so that the writer starts sooner
      firstBatchSize: DEFAULT_FILE_BATCH / 10,
      onBatch: (_n, ms) => {
        latencies.push(ms);
        firstBatch ||= performance.now() - t0 - ms;
      },
    });
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(c0);
    if (r.accepted !== events) throw new Error(`OCF parallel: stored ${r.accepted} of ${events}`);
    await store.close();
    closed = true;
    return {
      events,
      seconds: +seconds.toFixed(2),
      eventsPerSecond: Math.round(events / seconds),
      // both threads (process.cpuUsage counts every thread of the process)
      cpuMicrosecondsPerEvent: +((cpu.user + cpu.system) / events).toFixed(1),
      batches: r.batches,
      worker: 'workerUrl' in compiledWorker ? 'compiled (apps/cli/dist)' : 'TypeScript sources',
      // the worker's start and its first batch prepared, before anything can be written
      firstBatchReadyMs: Math.round(firstBatch),
      writeMsPerBatch: {
        eventsPerBatch: DEFAULT_FILE_BATCH,
        firstBatch: DEFAULT_FILE_BATCH / 10,
        ...latency(latencies),
      },
      storeBytesPerEvent: bytesPerEvent(path, r.accepted + r.rejected),
    };
  } finally {
    if (!closed) await store.close();
  }
}

/**
 * The worker as the CLI starts it: compiled (apps/cli/dist/ingest-worker.mjs, `pnpm run build`) while that build is
 * current, else from its TypeScript source (the loader this process runs under, inherited).
 */
const compiledWorker: { workerUrl?: URL } = await (async () => {
  const dist = new URL('../apps/cli/dist/', import.meta.url);
  // @ts-expect-error: a JavaScript module without declarations
  const { compiledState } = (await import('../apps/cli/bin/compiled.mjs')) as {
    compiledState: (dist: string, root: string) => { current: boolean };
  };
  return compiledState(fileURLToPath(dist), fileURLToPath(new URL('../', import.meta.url))).current
    ? { workerUrl: new URL('ingest-worker.mjs', dist) }
    : {};
})();

/** The sequential floor: batches packed beforehand (not timed), then only appendPrepared, timed. */
async function preparedInsertFloor(file: string, events: number) {
  const path = join(dir, 'floor.sqlite');
  const store = new SqliteEventStore(path);
  const reader = new SqliteEventStore(path);
  try {
    const pipeline = new IngestPipeline(reader);
    const preparer = reader.preparer();
    const packed: ArrayBuffer[] = [];
    // the preparing side alone, as the worker does it (read, decode, check, pack, then follow what was stored),
    // timed in this thread's CPU: what bounds the pipeline over two threads when it is above the writer's part
    const p0 = performance.now();
    const c0 = process.cpuUsage();
    for await (const b of fileBatches([file])) {
      if (!b.inputs.length) continue;
      const p = await pipeline.prepare(b.inputs, preparer);
      if (!p) throw new Error('floor: a batch could not be prepared');
      packed.push(p.batch);
      pipeline.applyPrepared(p, [
        ...p.tables.map(([, accepted]) => ({ appended: accepted.length, alreadyStored: 0 })),
        ...(p.rejects.length ? [{ appended: p.rejects.length, alreadyStored: 0 }] : []),
      ]);
    }
    const prepareCpu = process.cpuUsage(c0);
    const prepareSeconds = (performance.now() - p0) / 1000;
    const t0 = performance.now();
    const c1 = process.cpuUsage();
    let stored = 0;
    for (const batch of packed)
      for (const r of store.appendPrepared(new Uint8Array(batch))) stored += r.appended;
    const seconds = (performance.now() - t0) / 1000;
    const writeCpu = process.cpuUsage(c1);
    if (stored !== events) throw new Error(`floor: stored ${stored} of ${events}`);
    return {
      events,
      seconds: +seconds.toFixed(2),
      eventsPerSecond: Math.round(events / seconds),
      cpuMicrosecondsPerEvent: +((writeCpu.user + writeCpu.system) / events).toFixed(1),
      preparingSideAlone: {
        eventsPerSecond: Math.round(events / prepareSeconds),
        cpuMicrosecondsPerEvent: +((prepareCpu.user + prepareCpu.system) / events).toFixed(1),
      },
    };
  } finally {
    await reader.close();
    await store.close();
  }
}

async function kafkaToSqlite() {
  const s = session(env('BENCH_KAFKA_TABLES', 20), env('BENCH_KAFKA_ROUNDS', 40));
  const mock = await startMockKafka({ brokers: 3 });
  const store = new SqliteEventStore(join(dir, 'kafka.sqlite'));
  try {
    await mock.createTopic('table-events', 3, 3);
    const registry = await FileSchemaRegistry.open(undefined, { readOnly: true });
    const producer = new KafkajsEventProducer(mock.bootstrapServers);
    const p0 = performance.now();
    await publishEvents(producer, registry, 'table-events', s.events, env('BENCH_KAFKA_PRODUCE_BATCH', 3000));
    const produceSeconds = (performance.now() - p0) / 1000;
    await producer.stop();

    const consumer = new KafkajsEventConsumer({
      brokers: mock.bootstrapServers,
      groupId: 'bench-ingest',
      topics: ['table-events'],
      kafka: kafkajsTestSettings.client,
      consumer: kafkajsTestSettings.consumer,
    });
    const pipeline = new IngestPipeline(store);
    const latencies: number[] = [];
    let first = 0;
    let done: () => void;
    const all = new Promise<void>((resolve) => (done = resolve));
    const ingest = new KafkaIngest(consumer, registry, pipeline, (_n, _r, ms) => {
      latencies.push(ms);
      if (!first) first = performance.now() - ms;
      if (pipeline.totals.accepted + pipeline.totals.alreadyStored >= s.events.length) done();
    });
    const j0 = performance.now();
    await ingest.start();
    const joinSeconds = (performance.now() - j0) / 1000;
    await all;
    const seconds = (performance.now() - first) / 1000;
    await ingest.stop();
    if (pipeline.totals.accepted !== s.events.length)
      throw new Error(`Kafka: stored ${pipeline.totals.accepted} of ${s.events.length}`);
    return {
      events: s.events.length,
      partitions: 3,
      seconds: +seconds.toFixed(2),
      eventsPerSecond: Math.round(s.events.length / seconds),
      appendLatencyMsPerBatch: {
        eventsPerBatch: Math.round(s.events.length / latencies.length),
        ...latency(latencies),
      },
      groupJoinSeconds: +joinSeconds.toFixed(2),
      produceSeconds: +produceSeconds.toFixed(2),
    };
  } finally {
    await store.close();
    await mock.stop();
  }
}

/**
 * Peak RSS of file ingest (each in a process of its own) at 1×, 10× and 100× of a base session, along two axes:
 * as many more tables (the same rounds each), and the same tables with as many more rounds (a longer file).
 * BENCH_MEMORY_THREADS: 1 (one thread, the default) or 2 (the pipeline over two threads).
 */
function memoryAsInputGrows() {
  const base = env('BENCH_MEMORY_TABLES', 2);
  const baseRounds = env('BENCH_MEMORY_ROUNDS', 50);
  const threads = env('BENCH_MEMORY_THREADS', 1);
  const axis = (shape: (scale: number) => { tables: number; rounds: number }) => {
    const runs = [1, 10, 100].map((scale) => {
      const { tables, rounds } = shape(scale);
      const file = join(dir, `memory-${scale}.avro`);
      const store = join(dir, `memory-${scale}.sqlite`);
      const input = runPart('generate', { seed: 11, tables, rounds, out: file, dir });
      const ingest = runPart('ingest-file', { file, store, dir, threads });
      rmSync(file);
      for (const f of [store, `${store}-wal`, `${store}-shm`]) rmSync(f, { force: true });
      return {
        scale,
        tables,
        rounds,
        events: input.events as number,
        eventsPerSecond: ingest.eventsPerSecond as number,
        storeBytesPerEvent: ingest.storeBytesPerEvent as number,
        peakRssMiB: ingest.peakRssMiB,
      };
    });
    return {
      runs,
      peakRss10xOver1x: +(runs[1]!.peakRssMiB / runs[0]!.peakRssMiB).toFixed(2),
      peakRss100xOver10x: +(runs[2]!.peakRssMiB / runs[1]!.peakRssMiB).toFixed(2),
      peakRss100xOver1x: +(runs[2]!.peakRssMiB / runs[0]!.peakRssMiB).toFixed(2),
    };
  };
  return {
    threads,
    moreTables: axis((scale) => ({ tables: base * scale, rounds: baseRounds })),
    moreRounds: axis((scale) => ({ tables: base, rounds: baseRounds * scale })),
  };
}

try {
  const loadAtStart = loadavg()[0]!;
  const raw = rawSqlite(dir, env('BENCH_RAW_ROWS', 100_000));
  const { file: ocfFile, ...ocf } = await ocfToSqlite();
  const parallel = await ocfToSqliteParallel(ocfFile, ocf.events);
  const floor = await preparedInsertFloor(ocfFile, ocf.events);
  const kafka = env('BENCH_KAFKA', 1) ? await kafkaToSqlite() : null;
  const memory = env('BENCH_MEMORY', 1) ? memoryAsInputGrows() : null;
  console.log(
    JSON.stringify({
      bench:
        'ingest end to end into SqliteEventStore (file, WAL, synchronous=FULL): decode, validate, append; one transaction per batch',
      machine: `${availableParallelism()} cores; load average (1 min) ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end${loadAtStart > 1 ? ' (figures taken under load)' : ''}`,
      raw,
      ocfFileToSqlite: { ...ocf, eventsPerSecond: versus(ocf.eventsPerSecond, raw.insertRowsPerSecond, 0.4) },
      ocfFileToSqliteTwoThreads: {
        ...parallel,
        eventsPerSecond: versus(parallel.eventsPerSecond, raw.insertRowsPerSecond, 0.4),
      },
      sequentialFloorPreparedInsertOnly: {
        ...floor,
        ratioToRawInsert: +(floor.eventsPerSecond / raw.insertRowsPerSecond).toFixed(3),
      },
      kafkaMock3PartitionsToSqlite: kafka && {
        ...kafka,
        target: `≥ ${KAFKA_TARGET} events/s`,
        meetsTarget: kafka.eventsPerSecond >= KAFKA_TARGET,
        ratioToRawInsert: +(kafka.eventsPerSecond / raw.insertRowsPerSecond).toFixed(3),
      },
      storeBytesPerEvent: {
        value: ocf.storeBytesPerEvent,
        target: '≤ 200',
        meetsTarget: ocf.storeBytesPerEvent <= 200,
      },
      peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
      fileIngestMemoryAsInputGrows: memory,
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
