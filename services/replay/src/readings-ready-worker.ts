/**
 * Keeps readings ready for some tables of a store, in a worker thread (readings-ready.ts): derives each table under
 * every reading of its game and writes its rows to the readings file, one transaction a table, telling the parent
 * after each. Reads the store only.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { READ_CACHE_MIB } from './memory.ts';
import {
  deriveTableReadings,
  openReadingsFile,
  writeTableReadings,
  type ReadyWorkerData,
  type ReadyWorkerMessage,
} from './readings-ready.ts';

const data = workerData as ReadyWorkerData;
const store = new SqliteEventStore(data.storePath, { readOnly: true, cacheMiB: READ_CACHE_MIB });
const db = openReadingsFile(data.file, data.first);
try {
  for (const tableId of data.tables) {
    const t = await deriveTableReadings(store, tableId);
    writeTableReadings(db, t, data.code);
    parentPort!.postMessage({
      kind: 'table',
      tableId,
      eventsRead: t.eventsRead,
      readings: t.derivedUnder.length,
    } satisfies ReadyWorkerMessage);
  }
  parentPort!.postMessage({ kind: 'done' } satisfies ReadyWorkerMessage);
} finally {
  db.close();
  await store.close();
}
