/**
 * Replay figures (printed, not asserted):
 * - bulk: replaying a SQLite file store from scratch (read, fold, derive, check, findings and round records
 *   appended) in this thread (1 worker: ReplayService) and sharded over N worker threads (replayInParallel),
 *   and what one shard's read costs (readForShard: the store reads only the shard's streams) beside the raw read;
 *   rounds/s and events/s, beside the raw read of the same store (readAll, every event decoded, nothing else)
 *   measured in the same run: replay events/s ÷ raw read events/s, target ≥ 0.30; peak resident memory of each
 *   (the process's, workers included: they are threads of it); the N workers' speed-up over one, in the same run;
 *   the pure in-memory replay for comparison;
 * - live: lag from the event time of the event that completes a finding (stamped with the wall clock as it is
 *   submitted) to the finding being durable, p50/p99, while events arrive at 10,000 events/s through the ingest
 *   pipeline; target p99 under 1 s.
 *
 *   node --import ./apps/cli/bin/register-ts.mjs bench/replay.bench.ts
 *   BENCH_TABLES=400 BENCH_ROUNDS=50 BENCH_WORKERS=2 BENCH_LIVE_SECONDS=10 (the defaults)
 */
import { copyFileSync, mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { IngestPipeline } from '@table-audit/ingest';
import {
  defaultWorkers,
  readForShard,
  replayEvents,
  replayInParallel,
  ReplayService,
} from '@table-audit/replay';
import type { F3cpEvent } from '@table-audit/schemas/events';
import { simulateSession } from '@table-audit/simulator';

const TABLES = Number(process.env.BENCH_TABLES ?? 400);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 50);
const WORKERS = Number(process.env.BENCH_WORKERS ?? Math.max(2, defaultWorkers()));
const LIVE_SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 10);
const RATE = 10_000;

const session = simulateSession({
  seed: 9,
  tables: TABLES,
  roundsPerTable: ROUNDS,
  faultRate: 0.05,
  handledRate: 0.02,
  bettingSystemTables: 2,
});
const rounds = TABLES * ROUNDS;

// pure replay, in memory
const t = performance.now();
const pure = replayEvents(session.events);
const pureSeconds = (performance.now() - t) / 1000;

// the store, ingested once; each bulk replay runs on its own copy, so each appends everything
const dir = mkdtempSync(join(tmpdir(), 'ta-bench-replay-'));
const ingested = join(dir, 'events.sqlite');
{
  const store = new SqliteEventStore(ingested);
  const pipeline = new IngestPipeline(store);
  for (let i = 0; i < session.events.length; i += 10_000) {
    await pipeline.submit(
      session.events.slice(i, i + 10_000).map((event, k) => ({
        source: { kind: 'in-process' as const, producer: 'bench', index: i + k },
        event,
      })),
    );
  }
  await store.close();
}
const copy = (name: string): string => {
  const path = join(dir, name);
  copyFileSync(ingested, path);
  return path;
};

/** The largest resident set seen while `work` runs (sampled every 20 ms; worker threads are in it). */
async function measured<T>(
  work: () => Promise<T>,
): Promise<{ value: T; seconds: number; peakRssMiB: number }> {
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const t0 = performance.now();
  try {
    const value = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { value, seconds: (performance.now() - t0) / 1000, peakRssMiB: Math.round(peak / 2 ** 20) };
  } finally {
    clearInterval(sampler);
  }
}

// the baseline: every event read and decoded from the same store, nothing else
const raw = await measured(async () => {
  const store = new SqliteEventStore(ingested, { mustExist: true });
  let n = 0;
  for await (const _ of store.readAll()) n++;
  await store.close();
  return n;
});
const rawEventsPerSecond = raw.value / raw.seconds;

// what one shard's read costs: readForShard passes the port's stream predicate, which the SQLite store pushes down
// to SQL, so a shard of WORKERS reads only its own tables' events; its time beside the raw read of every event
const shardRead = await measured(async () => {
  const store = new SqliteEventStore(ingested, { mustExist: true });
  let kept = 0;
  for await (const _ of readForShard(store, { index: 0, count: WORKERS }).readAll()) kept++;
  await store.close();
  return kept;
});

const one = await measured(async () => {
  const store = new SqliteEventStore(copy('one.sqlite'), { mustExist: true });
  const service = new ReplayService({ store });
  await service.catchUp();
  await service.finish();
  await store.close();
  return service.stats;
});
const many = await measured(() => replayInParallel({ storePath: copy('many.sqlite'), workers: WORKERS }));

const bulk = (r: { seconds: number; peakRssMiB: number }, extra: object = {}) => ({
  seconds: Number(r.seconds.toFixed(2)),
  roundsPerSecond: Math.round(rounds / r.seconds),
  eventsPerSecond: Math.round(raw.value / r.seconds),
  ratioToRawRead: Number((raw.value / r.seconds / rawEventsPerSecond).toFixed(2)),
  peakRssMiB: r.peakRssMiB,
  ...extra,
});

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
    bulk: {
      rounds,
      events: raw.value,
      findings: pure.findings.length,
      pureInMemoryRoundsPerSecond: Math.round(rounds / pureSeconds),
      rawRead: { seconds: Number(raw.seconds.toFixed(2)), eventsPerSecond: Math.round(rawEventsPerSecond) },
      oneWorker: bulk(one, {
        findingsAppended: one.value.findingsAppended,
        roundRecordsAppended: one.value.roundRecordsAppended,
      }),
      shardRead: {
        shard: `0 of ${WORKERS}`,
        eventsInStore: raw.value,
        eventsRead: shardRead.value,
        seconds: Number(shardRead.seconds.toFixed(2)),
        rawReadSeconds: Number(raw.seconds.toFixed(2)),
      },
      workers: WORKERS,
      nWorkers: bulk(many, {
        findingsAppended: many.value.stats.findingsAppended,
        roundRecordsAppended: many.value.stats.roundRecordsAppended,
        // the baseline of the shards is the same replay in one thread, in the same run
        speedUpOverOneWorker: Number((one.seconds / many.seconds).toFixed(2)),
        cores: availableParallelism(),
      }),
      targetRatio: 0.3,
    },
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
