/**
 * Replay figures (printed, not asserted):
 * - bulk: replaying a SQLite file store from scratch (read, chain checked, fold, derive, check, findings and round
 *   records appended with the checkpoint) in one thread (ReplayService) and sharded over N worker threads
 *   (replayInParallel), and what one shard's read costs (readForShard: the store reads only the shard's streams)
 *   beside the raw read; rounds/s and events/s, beside the raw read of the same store (readAll, every event read,
 *   nothing else) measured in the same run: replay events/s ÷ raw read events/s, target ≥ 0.30; the N workers'
 *   speed-up over one, in the same run, with each worker's start-up (thread start to modules loaded), beside the
 *   same shards started from the TypeScript sources instead of the compiled worker (the start-up's baseline); the
 *   pure in-memory replay for comparison. Each measurement runs in a child
 *   process of its own, so that its peak RSS is its own (workers included: they are threads of it), not the
 *   simulated session's this process holds;
 * - memory as the input grows, along two axes: the same replay and raw read over stores of BENCH_MEMORY_TABLES
 *   (default 4, 40 and BENCH_TABLES tables: 1×, 10×, 100× the tables, all open at once), then over stores of the
 *   first of them with BENCH_MEMORY_ROUNDS rounds a table (default 10× and 100× BENCH_ROUNDS: longer sessions, the
 *   same tables); peak RSS of each beside the raw read's and the ratio to the 1× row of its axis;
 * - live: lag from the event time of the event that completes a finding (stamped with the wall clock as it is
 *   submitted) to the finding being durable, p50/p99, while events arrive at 10,000 events/s through the ingest
 *   pipeline; target p99 under 1 s.
 *
 *   node --import ./apps/cli/bin/register-ts.mjs bench/replay.bench.ts
 *   BENCH_TABLES=400 BENCH_ROUNDS=50 BENCH_WORKERS=2 BENCH_LIVE_SECONDS=10 BENCH_MEMORY_TABLES=4,40
 *   BENCH_MEMORY_ROUNDS=500,5000 (the defaults; BENCH_MEMORY_ROUNDS=0 leaves out the rounds axis)
 *   The one-thread replay opens the store as a shard worker does (a READ_CACHE_MIB page cache,
 *   services/replay/src/memory.ts); BENCH_MEMORY_BOUND=1 also bounds V8's heap growth in it (boundHeapGrowth, what
 *   `boundHeap` asks of the workers; off by default, as in the library)
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { IngestPipeline } from '@table-audit/ingest';
import {
  boundHeapGrowth,
  defaultWorkers,
  READ_CACHE_MIB,
  readForShard,
  replayEvents,
  replayInParallel,
  ReplayService,
} from '@table-audit/replay';
import type { F3cpEvent } from '@table-audit/schemas/events';
import { simulateSession } from '@table-audit/simulator';
import { REGISTER_TS } from './lib/measure.ts';
import { submitEvents } from './lib/submit.ts';

interface PartArgs {
  kind: 'raw' | 'shard-read' | 'one' | 'many' | 'many-from-sources';
  path: string;
  workers: number;
}
interface PartOut {
  value: number;
  seconds: number;
  peakRssMiB: number;
  findingsAppended?: number;
  roundRecordsAppended?: number;
  rounds?: number;
  /** one thread: the heap and external memory after a full collection once the catch-up is done, MiB */
  retainedMiB?: number;
  /** the workers' start-up (thread start to modules loaded), ms */
  workerStartUpMs?: number[];
  workerCode?: unknown;
}

/** A full garbage collection, in a process not started with --expose-gc. */
function fullGc(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/** One measurement in this (child) process: prints one JSON line (PartOut). */
async function part(a: PartArgs): Promise<PartOut> {
  const t0 = performance.now();
  const done = (value: number, extra: Partial<PartOut> = {}): PartOut => ({
    value,
    seconds: (performance.now() - t0) / 1000,
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    ...extra,
  });
  switch (a.kind) {
    case 'raw': {
      // the baseline: every event read from the store, nothing else
      const store = new SqliteEventStore(a.path, { mustExist: true });
      let n = 0;
      for await (const _ of store.readAll()) n++;
      await store.close();
      return done(n);
    }
    case 'shard-read': {
      // readForShard passes the port's stream predicate, which the SQLite store pushes down to SQL
      const store = new SqliteEventStore(a.path, { mustExist: true });
      let n = 0;
      for await (const _ of readForShard(store, { index: 0, count: a.workers }).readAll()) n++;
      await store.close();
      return done(n);
    }
    case 'one': {
      // as a shard worker opens it (memory.ts); its heap bounded when BENCH_MEMORY_BOUND=1
      if (process.env.BENCH_MEMORY_BOUND === '1') boundHeapGrowth();
      const store = new SqliteEventStore(a.path, { mustExist: true, cacheMiB: READ_CACHE_MIB });
      const service = new ReplayService({ store });
      await service.catchUp();
      // what the replay keeps once everything is read (its tables' state, the store's caches): the heap and what
      // lives outside it after a full collection; steadier than peak RSS, which a loaded machine moves by ±30 %
      const m = (fullGc(), process.memoryUsage());
      const retainedMiB = Math.round((m.heapUsed + m.external) / 2 ** 20);
      await service.finish();
      await store.close();
      const s = service.stats;
      return done(s.tableEvents, {
        retainedMiB,
        rounds: s.rounds,
        findingsAppended: s.findingsAppended,
        roundRecordsAppended: s.roundRecordsAppended,
      });
    }
    case 'many':
    case 'many-from-sources': {
      // the workers from the compiled worker (the default), or from the TypeScript sources through the loader
      const r = await replayInParallel({
        storePath: a.path,
        workers: a.workers,
        compiledWorker: a.kind === 'many',
        boundHeap: process.env.BENCH_MEMORY_BOUND === '1',
      });
      return done(r.stats.tableEvents, {
        rounds: r.stats.rounds,
        findingsAppended: r.stats.findingsAppended,
        roundRecordsAppended: r.stats.roundRecordsAppended,
        workerStartUpMs: r.startUpMs,
        workerCode: r.workerCode,
      });
    }
  }
}

if (process.argv[2] === 'part') {
  console.log(JSON.stringify(await part(JSON.parse(process.argv[3]!) as PartArgs)));
  process.exit(0);
}

/** Runs a part in a child process of its own. */
function run(a: PartArgs): PartOut {
  const r = spawnSync(
    process.execPath,
    ['--import', REGISTER_TS, fileURLToPath(import.meta.url), 'part', JSON.stringify(a)],
    { encoding: 'utf8', maxBuffer: 16 * 2 ** 20 },
  );
  const last = r.stdout.trim().split('\n').at(-1) ?? '';
  if (r.status !== 0 || !last.startsWith('{'))
    throw new Error(`replay bench part ${JSON.stringify(a)} failed (${r.status}): ${r.stderr.slice(-4000)}`);
  return JSON.parse(last) as PartOut;
}

const TABLES = Number(process.env.BENCH_TABLES ?? 400);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 50);
const WORKERS = Number(process.env.BENCH_WORKERS ?? Math.max(2, defaultWorkers()));
const LIVE_SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 10);
const SMALLER = (process.env.BENCH_MEMORY_TABLES ?? '4,40')
  .split(',')
  .map(Number)
  .filter((n) => Number.isSafeInteger(n) && n > 0 && n < TABLES);
const RATE = 10_000;

const LONGER = (process.env.BENCH_MEMORY_ROUNDS ?? `${ROUNDS * 10},${ROUNDS * 100}`)
  .split(',')
  .map(Number)
  .filter((n) => Number.isSafeInteger(n) && n > ROUNDS);

const sessionOf = (tables: number, roundsPerTable = ROUNDS) =>
  simulateSession({
    seed: 9,
    tables,
    roundsPerTable,
    faultRate: 0.05,
    handledRate: 0.02,
    bettingSystemTables: Math.min(2, tables),
  });
const dir = mkdtempSync(join(tmpdir(), 'ta-bench-replay-'));

/** A store of the session, ingested once; each replay runs on its own copy, so each appends everything. */
async function ingested(events: ReturnType<typeof sessionOf>['events'], name: string): Promise<string> {
  const path = join(dir, name);
  const store = new SqliteEventStore(path);
  const pipeline = new IngestPipeline(store);
  await submitEvents(pipeline, events);
  await store.close();
  return path;
}
const copy = (from: string, name: string): string => {
  const path = join(dir, name);
  copyFileSync(from, path);
  return path;
};

const session = sessionOf(TABLES);
const rounds = TABLES * ROUNDS;

// pure replay, in memory
const t = performance.now();
const pure = replayEvents(session.events);
const pureSeconds = (performance.now() - t) / 1000;

const largest = await ingested(session.events, 'events.sqlite');
const raw = run({ kind: 'raw', path: largest, workers: 1 });
const rawEventsPerSecond = raw.value / raw.seconds;
const shardRead = run({ kind: 'shard-read', path: largest, workers: WORKERS });
const one = run({ kind: 'one', path: copy(largest, 'one.sqlite'), workers: 1 });
const many = run({ kind: 'many', path: copy(largest, 'many.sqlite'), workers: WORKERS });
// the baseline of the compiled worker: the same shards started from the sources, in the same run
const manyFromSources = run({
  kind: 'many-from-sources',
  path: copy(largest, 'many-sources.sqlite'),
  workers: WORKERS,
});

const bulk = (r: PartOut, extra: object = {}) => ({
  seconds: Number(r.seconds.toFixed(2)),
  roundsPerSecond: Math.round(rounds / r.seconds),
  eventsPerSecond: Math.round(raw.value / r.seconds),
  ratioToRawRead: Number((raw.value / r.seconds / rawEventsPerSecond).toFixed(2)),
  peakRssMiB: r.peakRssMiB,
  findingsAppended: r.findingsAppended,
  roundRecordsAppended: r.roundRecordsAppended,
  ...extra,
});

// memory as the input grows: the smaller stores, then the largest (its figures above)
const scales: { tables: number; events: number; raw: PartOut; replay: PartOut }[] = [];
for (const tables of SMALLER) {
  const path = await ingested(sessionOf(tables).events, `events-${tables}.sqlite`);
  scales.push({
    tables,
    events: 0,
    raw: run({ kind: 'raw', path, workers: 1 }),
    replay: run({ kind: 'one', path: copy(path, `one-${tables}.sqlite`), workers: 1 }),
  });
}
scales.push({ tables: TABLES, events: 0, raw, replay: one });
// the other axis: the first (smallest) number of tables, with 10× and 100× the rounds a table
const longer: { tables: number; rounds: number; raw: PartOut; replay: PartOut }[] = [];
const base = scales[0]!;
if (base.tables !== TABLES)
  for (const roundsPerTable of LONGER) {
    const path = await ingested(
      sessionOf(base.tables, roundsPerTable).events,
      `rounds-${roundsPerTable}.sqlite`,
    );
    longer.push({
      tables: base.tables,
      rounds: roundsPerTable,
      raw: run({ kind: 'raw', path, workers: 1 }),
      replay: run({ kind: 'one', path: copy(path, `one-rounds-${roundsPerTable}.sqlite`), workers: 1 }),
    });
  }
const memoryRow = (
  s: { raw: PartOut; replay: PartOut },
  first: { raw: PartOut; replay: PartOut },
  scale: string,
) => ({
  scale,
  events: s.raw.value,
  replayPeakRssMiB: s.replay.peakRssMiB,
  replayRetainedMiB: s.replay.retainedMiB,
  // the baseline: the raw read of the same store, in the same run
  rawReadPeakRssMiB: s.raw.peakRssMiB,
  replayPeakRssRatioToFirst: Number((s.replay.peakRssMiB / first.replay.peakRssMiB).toFixed(2)),
  eventsRatioToFirst: Number((s.raw.value / first.raw.value).toFixed(1)),
  replayEventsPerSecond: Math.round(s.replay.value / s.replay.seconds),
  ratioToRawRead: Number((s.raw.seconds / s.replay.seconds).toFixed(2)),
});
const memoryAsInputGrows = {
  // all the tables open at once: a fold per live table is kept (docs/scaling.md says what and how much)
  tables: scales.map((s) => ({
    tables: s.tables,
    roundsPerTable: ROUNDS,
    ...memoryRow(s, base, `${Math.round(s.tables / base.tables)}×`),
  })),
  // the same tables, longer sessions: nothing kept may grow with them
  rounds: [{ ...base, rounds: ROUNDS }, ...longer].map((s) => ({
    tables: base.tables,
    roundsPerTable: s.rounds,
    ...memoryRow(s, base, `${Math.round(s.rounds / ROUNDS)}×`),
  })),
};

// live: events re-timed to the wall clock as they are submitted, 10,000 per second in 10 ms slices
const live = simulateSession({ seed: 10, tables: 200, roundsPerTable: 200, faultRate: 0.1 });
const liveStore = new SqliteEventStore(join(dir, 'live.sqlite'));
const livePipeline = new IngestPipeline(liveStore);
const lags: number[] = [];
// lag = from the event time of the event that made a finding knowable (the one that closed its round, or the next
// round's for a cross-round check) to the moment the finding is durable in the store
const liveService = new ReplayService({
  store: liveStore,
  onFinding: (_f, completing) => {
    const header = (completing?.data as { header?: { eventTime?: number } } | undefined)?.header;
    if (header?.eventTime !== undefined) lags.push(Date.now() - header.eventTime);
  },
});
const abort = new AbortController();
const running = liveService.live(abort.signal, 20);
const perSlice = RATE / 100;
const total = Math.min(live.events.length, RATE * LIVE_SECONDS);
const start = Date.now();
let sent = 0;
while (sent < total) {
  const due = Math.min(total, Math.floor(((Date.now() - start) / 1000) * RATE) + perSlice);
  if (due > sent) {
    const slice: F3cpEvent[] = live.events.slice(sent, due).map((e) => {
      const now = Date.now();
      const retimed = {
        ...e,
        data: { ...e.data, header: { ...e.data.header, eventTime: now } },
      } as F3cpEvent;
      return retimed;
    });
    await livePipeline.submit(
      slice.map((event, k) => ({
        source: { kind: 'in-process' as const, producer: 'bench-live', index: sent + k },
        event,
      })),
    );
    sent = due;
  }
  await new Promise((r) => setTimeout(r, 10));
}
const sendSeconds = (Date.now() - start) / 1000;
const deadline = Date.now() + 10_000;
while (liveService.stats.tableEvents < sent && Date.now() < deadline)
  await new Promise((r) => setTimeout(r, 10));
abort.abort();
await running;
await liveStore.close();
lags.sort((a, b) => a - b);
const pct = (p: number) =>
  lags.length ? lags[Math.min(lags.length - 1, Math.floor((p / 100) * lags.length))]! : null;

console.log(
  JSON.stringify({
    bench: 'replay',
    underLoad: 'figures of one run on a shared machine; compare the ratios, measured in the same run',
    memoryBound: process.env.BENCH_MEMORY_BOUND === '1',
    bulk: {
      rounds,
      events: raw.value,
      findings: pure.findings.length,
      pureInMemoryRoundsPerSecond: Math.round(rounds / pureSeconds),
      rawRead: {
        seconds: Number(raw.seconds.toFixed(2)),
        eventsPerSecond: Math.round(rawEventsPerSecond),
        peakRssMiB: raw.peakRssMiB,
      },
      oneWorker: bulk(one),
      shardRead: {
        shard: `0 of ${WORKERS}`,
        eventsInStore: raw.value,
        eventsRead: shardRead.value,
        seconds: Number(shardRead.seconds.toFixed(2)),
        rawReadSeconds: Number(raw.seconds.toFixed(2)),
        ratioToRawReadTime: Number((shardRead.seconds / raw.seconds).toFixed(2)),
      },
      workers: WORKERS,
      nWorkers: bulk(many, {
        // the baseline of the shards is the same replay in one thread, in the same run
        speedUpOverOneWorker: Number((one.seconds / many.seconds).toFixed(2)),
        cores: availableParallelism(),
        workerStartUpMs: many.workerStartUpMs,
        workerCode: many.workerCode,
      }),
      nWorkersFromSources: bulk(manyFromSources, {
        speedUpOverOneWorker: Number((one.seconds / manyFromSources.seconds).toFixed(2)),
        workerStartUpMs: manyFromSources.workerStartUpMs,
      }),
      targetRatio: 0.3,
    },
    memoryAsInputGrows,
    live: {
      offeredEventsPerSecond: Math.round(sent / sendSeconds),
      events: sent,
      findingsTimed: lags.length,
      lagMs: { p50: pct(50), p99: pct(99), max: lags.length ? lags[lags.length - 1] : null },
      targetP99Ms: 1_000,
    },
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
// the stores this run made (the live one is closed above)
rmSync(dir, { recursive: true, force: true });
