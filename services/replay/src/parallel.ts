/**
 * Bulk replay sharded by table across worker threads (shards.ts): each worker is a ReplayService for one shard,
 * under its own checkpoint, writing its tables' findings and round records. The result is the same findings and
 * records as one ReplayService over the whole store (services/replay/test/parallel.test.ts proves it on a
 * labelled simulation). Live replay stays single-process for now: a live shard would be a ReplayService with
 * `shard` following the store, one per process.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Finding, ReplayOptions } from '@table-audit/rules';
import { compiledShardWorker } from './compiled-worker.ts';
import { BOUND_HEAP_BY_DEFAULT } from './memory.ts';
import { emptyReplayStats, NOT_DERIVED_KEPT, type ReplayStats } from './service.ts';
import { shardCheckpoint, type Shard } from './shards.ts';

/** Workers by default: the machine's cores, at most this many (SQLite takes one writer at a time). */
export const MAX_DEFAULT_WORKERS = 8;
export const defaultWorkers = (): number =>
  Math.max(1, Math.min(availableParallelism(), MAX_DEFAULT_WORKERS));

export interface ParallelReplayOptions {
  /** the SQLite store file; every worker opens it */
  storePath: string;
  workers: number;
  replay?: ReplayOptions;
  /** each shard saves its checkpoint after at most this many events read */
  checkpointEvery?: number;
  /** the checkpoint of a shard as last signed outside the store (see ReplayServiceOptions.signedCheckpoint) */
  signedCheckpoint?: (name: string) => Promise<bigint | null | undefined>;
  /**
   * A module each worker imports before the replay: the TypeScript loader when the caller registered it at run
   * time (workers inherit `--import` flags, not loaders registered from code).
   */
  loader?: string;
  /**
   * Start the workers from the compiled shard worker (compiled-worker.ts: one JavaScript file, made and kept on
   * first use) rather than from the TypeScript sources. Default true; when it cannot be made, the sources are used
   * and `workerCode` says why.
   */
  compiledWorker?: boolean;
  /**
   * Each worker lets V8's heap grow less before collecting it (memory.ts, boundHeapGrowth): peak memory about flat
   * as the store grows, for a few per cent more CPU. Default BOUND_HEAP_BY_DEFAULT (off).
   */
  boundHeap?: boolean;
}

/** @internal what parallel.ts hands a shard worker */
export interface ShardWorkerData {
  storePath: string;
  shard: Shard;
  replay: ReplayOptions | null;
  checkpointEvery: number | null;
  signedCheckpoint: bigint | null | undefined;
  boundHeap: boolean;
}

/** @internal what a shard worker posts back */
export interface ShardWorkerResult {
  stats: ReplayStats;
  findings: Finding[];
  peakRss: number;
  /** from the worker thread's start to its modules loaded, ms */
  startUpMs: number;
}

export interface ParallelReplayResult {
  /** every shard's figures added up */
  stats: ReplayStats;
  /** by shard */
  shards: ReplayStats[];
  /** the findings appended or already stored, every shard's */
  findings: Finding[];
  /** the largest resident set a worker saw (the process's, workers included), bytes */
  peakRss: number;
  /** each worker's start-up, ms: from its thread's start to its modules loaded, before its first read */
  startUpMs: number[];
  /** what the workers were started from: the compiled worker (made for this run or kept), or the sources and why */
  workerCode: { compiled: true; madeMs: number | null } | { compiled: false; why: string };
}

/** Replays the store with `workers` shards in worker threads, then returns what they did. */
export async function replayInParallel(o: ParallelReplayOptions): Promise<ParallelReplayResult> {
  if (!Number.isSafeInteger(o.workers) || o.workers < 1)
    throw new RangeError(`workers is a whole number ≥ 1, got ${o.workers}`);
  const shards: Shard[] = Array.from({ length: o.workers }, (_, index) => ({ index, count: o.workers }));
  let workerCode: ParallelReplayResult['workerCode'] = { compiled: false, why: 'compiledWorker is false' };
  let entry = new URL('./shard-worker.ts', import.meta.url);
  if (o.compiledWorker !== false) {
    const t0 = performance.now();
    const compiled = await compiledShardWorker();
    if (compiled.url === null) workerCode = { compiled: false, why: compiled.why };
    else {
      entry = compiled.url;
      workerCode = { compiled: true, madeMs: compiled.made ? Math.round(performance.now() - t0) : null };
    }
  }
  const runs = shards.map(async (shard) => {
    const data: ShardWorkerData = {
      storePath: o.storePath,
      shard,
      replay: o.replay ?? null,
      checkpointEvery: o.checkpointEvery ?? null,
      boundHeap: o.boundHeap ?? BOUND_HEAP_BY_DEFAULT,
      signedCheckpoint: o.signedCheckpoint ? await o.signedCheckpoint(shardCheckpoint(shard)) : undefined,
    };
    return runShard(entry, data, workerCode.compiled ? undefined : o.loader);
  });
  const settled = await Promise.allSettled(runs);
  const failed = settled.flatMap((s, i) =>
    s.status === 'rejected'
      ? [`${shardCheckpoint(shards[i]!)}: ${(s.reason as Error).message ?? String(s.reason)}`]
      : [],
  );
  if (failed.length)
    throw new Error(
      `${failed.length} of ${o.workers} replay shards failed (the others saved their checkpoints; a re-run resumes each from its own): ${failed.join('; ')}`,
    );
  const results = settled.map((s) => (s as PromiseFulfilledResult<ShardWorkerResult>).value);
  return {
    stats: mergeStats(results.map((r) => r.stats)),
    shards: results.map((r) => r.stats),
    findings: results.flatMap((r) => r.findings),
    peakRss: Math.max(...results.map((r) => r.peakRss)),
    startUpMs: results.map((r) => r.startUpMs),
    workerCode,
  };
}

function runShard(entry: URL, data: ShardWorkerData, loader: string | undefined): Promise<ShardWorkerResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(entry, {
      workerData: data,
      execArgv: loader
        ? [...process.execArgv, '--import', loader]
        : entry.pathname.endsWith('.mjs')
          ? withoutModuleHooks(process.execArgv)
          : process.execArgv,
    });
    let result: ShardWorkerResult | null = null;
    worker.once('message', (m: ShardWorkerResult) => (result = m));
    worker.once('error', reject);
    worker.once('exit', (code) =>
      result ? resolve(result) : reject(new Error(`the worker exited (code ${code}) before reporting`)),
    );
  });
}

/** Flags that load modules before the entry (a TypeScript loader): a compiled worker needs none. */
const MODULE_FLAGS = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader']);

/**
 * The caller's flags without those that load modules first: a worker started from the compiled file would
 * otherwise register the caller's TypeScript loader again, and every module it loads would go through it (the
 * workers started no faster than from the sources with it: 0.75–1.9 s against 1.3–1.4 s, under load).
 */
export function withoutModuleHooks(execArgv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const a = execArgv[i]!;
    const eq = a.indexOf('=');
    if (MODULE_FLAGS.has(eq === -1 ? a : a.slice(0, eq))) {
      if (eq === -1) i++; // its value is the next argument
      continue;
    }
    out.push(a);
  }
  return out;
}

/** Every shard's figures added up; the kept examples up to NOT_DERIVED_KEPT. */
export function mergeStats(all: readonly ReplayStats[]): ReplayStats {
  const out = emptyReplayStats();
  for (const s of all) {
    for (const k of [
      'events',
      'tableEvents',
      'rounds',
      'findingsAppended',
      'findingsAlreadyStored',
      'roundRecordsAppended',
      'roundRecordsAlreadyStored',
      'roundsWithoutRecord',
      'notDerived',
      'checksNotRun',
      'unjudgedEvents',
      'stoppedTables',
      'eventsNotReplayed',
    ] as const)
      out[k] += s[k];
    out.notDerivedRounds.push(...s.notDerivedRounds.slice(0, NOT_DERIVED_KEPT - out.notDerivedRounds.length));
    out.checksNotRunRounds.push(
      ...s.checksNotRunRounds.slice(0, NOT_DERIVED_KEPT - out.checksNotRunRounds.length),
    );
    out.checkpointDistrusted ??= s.checkpointDistrusted;
    if (s.lastPosition !== null && (out.lastPosition === null || s.lastPosition > out.lastPosition))
      out.lastPosition = s.lastPosition;
  }
  return out;
}
