/**
 * The access log's writer thread (access-log.ts, AccessWriter): appends the access records to the `api-access`
 * stream through its own connection to the SQLite store, so that the durable commit — a wait for the disk — holds
 * this thread, not the API's event loop. Messages in: `{ id, events }`; out: first `{ ready: true }` (or
 * `{ failed }`), then `{ id }` once the append holding those events has returned, or `{ id, error }`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { EventData } from '@table-audit/eventstore';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { ACCESS_STREAM } from './access-log.ts';

const port = parentPort!;
let store: SqliteEventStore;
try {
  store = new SqliteEventStore((workerData as { storePath: string }).storePath, { mustExist: true });
} catch (e) {
  port.postMessage({ failed: (e as Error).message ?? String(e) });
  process.exit(1);
}
port.on('message', (m: { id: number; events: EventData[] }) => {
  store.append(ACCESS_STREAM, m.events).then(
    () => port.postMessage({ id: m.id }),
    (e: unknown) => port.postMessage({ id: m.id, error: (e as Error).message ?? String(e) }),
  );
});
port.postMessage({ ready: true });
