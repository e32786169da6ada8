/** For the replay's tests: simulated events ingested into a new SQLite store file, as ingest stores them. */
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { IngestPipeline } from '@table-audit/ingest';
import type { TableEvent } from '@table-audit/rules';

/** Ingests `events` into a new store at `path` (in batches of 5,000) and closes it; returns `path`. */
export async function storeEvents(path: string, events: readonly TableEvent[]): Promise<string> {
  const store = new SqliteEventStore(path);
  const pipeline = new IngestPipeline(store, () => 0);
  for (let i = 0; i < events.length; i += 5_000)
    await pipeline.submit(
      events.slice(i, i + 5_000).map((event, k) => ({
        source: { kind: 'in-process' as const, producer: 'test', index: i + k },
        event,
      })),
    );
  await store.close();
  return path;
}
