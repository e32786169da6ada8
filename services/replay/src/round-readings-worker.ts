/**
 * roundReadings in a worker thread (round-readings.ts, roundReadingsInWorker): opens the store read-only, derives
 * the round under every reading of its rule set and posts the answer, or the refusal, back. Writes nothing.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { RoundNotFound, RoundNotVerified } from './explain.ts';
import { READ_CACHE_MIB } from './memory.ts';
import {
  roundReadings,
  type RoundReadingsWorkerData,
  type RoundReadingsWorkerMessage,
} from './round-readings.ts';

const data = workerData as RoundReadingsWorkerData;
const store = new SqliteEventStore(data.storePath, { readOnly: true, cacheMiB: READ_CACHE_MIB });
let message: RoundReadingsWorkerMessage;
try {
  message = { kind: 'done', result: await roundReadings(store, data.roundId, undefined, data.tableId) };
} catch (e) {
  if (e instanceof RoundNotVerified)
    message = { kind: 'not-verified', tableId: e.tableId, broken: { ...e.broken } };
  else if (e instanceof RoundNotFound) message = { kind: 'not-found', message: e.message };
  else throw e;
} finally {
  await store.close();
}
parentPort!.postMessage(message);
