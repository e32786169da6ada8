/**
 * One shard of a what-if replay, in a worker thread (what-if.ts): opens the store read-only, compares its tables'
 * units under both readings, posts its progress as it reads (when asked) and the partial back. Writes nothing.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { boundHeapGrowth, READ_CACHE_MIB } from './memory.ts';
import { compareShard, type WhatIfWorkerData, type WhatIfWorkerMessage } from './what-if.ts';

const data = workerData as WhatIfWorkerData;
if (data.boundHeap) boundHeapGrowth();
const store = new SqliteEventStore(data.storePath, { readOnly: true, cacheMiB: READ_CACHE_MIB });
try {
  const partial = await compareShard(
    store,
    data.shard,
    data.alternatives,
    data.scope,
    data.replay ?? undefined,
    data.maxChanged,
    data.progressEvery !== undefined
      ? {
          every: data.progressEvery,
          onProgress: (events, position) =>
            parentPort!.postMessage({
              kind: 'progress',
              events,
              position: String(position),
            } satisfies WhatIfWorkerMessage),
        }
      : {},
    data.tables ?? null,
  );
  parentPort!.postMessage({ kind: 'partial', partial } satisfies WhatIfWorkerMessage);
} finally {
  await store.close();
}
