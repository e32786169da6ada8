import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { deriveTableReadings } from '../src/readings-ready.ts';
const store = new SqliteEventStore(process.argv[2]!, { readOnly: true });
const names = (await store.streamNames('table-')).map((s) => s.slice(6));
for (const t of names) {
  const t0 = performance.now(); const c0 = process.cpuUsage();
  const r = await deriveTableReadings(store, t);
  const c = process.cpuUsage(c0);
  console.log(t, r.game, r.eventsRead, 'events', ((performance.now()-t0)/1000).toFixed(2), 's', ((c.user+c.system)/r.eventsRead).toFixed(1), 'µs cpu/event', [...r.buckets.keys()].length, 'readings');
}
await store.close();
