/**
 * One shard of a parallel replay, in a worker thread: opens the store file itself (SQLite in WAL mode lets the
 * shards read together; their appends queue on the write lock), replays its tables from its own checkpoint, and
 * posts its figures and findings back. See parallel.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import type { Finding } from '@table-audit/rules';
import { boundHeapGrowth, READ_CACHE_MIB } from './memory.ts';
import { ReplayService } from './service.ts';
import type { ShardWorkerData, ShardWorkerResult } from './parallel.ts';

// the modules are loaded (static imports are evaluated first): the thread's start-up, before its first read
const startUpMs = Math.round(performance.now());
const data = workerData as ShardWorkerData;
if (data.boundHeap) boundHeapGrowth();
// the shards write to one file: a shard waits for the others' appends rather than failing on a busy lock; a page
// cache of READ_CACHE_MIB (memory.ts): the log is read once
const store = new SqliteEventStore(data.storePath, {
  mustExist: true,
  busyTimeoutMs: 120_000,
  cacheMiB: READ_CACHE_MIB,
});
let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
try {
  const findings: Finding[] = [];
  const service = new ReplayService({
    store,
    shard: data.shard,
    ...(data.replay ? { replay: data.replay } : {}),
    ...(data.checkpointEvery ? { checkpointEvery: data.checkpointEvery } : {}),
    onFinding: (f) => findings.push(f),
    ...(data.signedCheckpoint !== undefined ? { signedCheckpoint: async () => data.signedCheckpoint } : {}),
  });
  await service.catchUp();
  await service.finish();
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  const result: ShardWorkerResult = { stats: service.stats, findings, peakRss, startUpMs };
  parentPort!.postMessage(result);
} finally {
  clearInterval(sampler);
  await store.close();
}
