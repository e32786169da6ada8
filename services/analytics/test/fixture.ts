/**
 * A simulated session in a fresh SQLite store, as `table-audit run` makes it: simulate → ingest → replay, plus two
 * inputs ingest rejects (a truncated Kafka message, an undecodable file block), so every projection has rows.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { IngestPipeline } from '@table-audit/ingest';
import { ReplayService } from '@table-audit/replay';
import { simulateSession, type Session } from '@table-audit/simulator';

export interface SimulatedStore {
  store: SqliteEventStore;
  path: string;
  session: Session;
}

export async function simulatedStore(
  dir = mkdtempSync(join(tmpdir(), 'ta-analytics-')),
  size: { tables: number; rounds: number } = { tables: 8, rounds: 40 },
): Promise<SimulatedStore> {
  const session = simulateSession({
    seed: 9,
    tables: size.tables,
    roundsPerTable: size.rounds,
    faultRate: 0.15,
    handledRate: 0.05,
  });
  const path = join(dir, 'events.sqlite');
  const store = new SqliteEventStore(path);
  const pipeline = new IngestPipeline(store, () => Date.UTC(2026, 0, 2));
  for (let i = 0; i < session.events.length; i += 2_000)
    await pipeline.submit(
      session.events.slice(i, i + 2_000).map((event, k) => ({
        source: { kind: 'in-process' as const, producer: 'test', index: i + k },
        event,
      })),
    );
  await pipeline.submit([
    {
      source: { kind: 'kafka', topic: 'ta.table-events', partition: 2, offset: '41' },
      error: 'the message ends inside its Avro payload',
      code: 'TRUNCATED_PAYLOAD',
      raw: new Uint8Array([0, 0, 0, 0, 7, 2]),
    },
    {
      source: { kind: 'file', path: 'data/broken.avro', block: 3 },
      error: 'block 3: the sync marker does not match',
      code: 'CORRUPT_BLOCK',
      raw: new Uint8Array([1, 2, 3]),
    },
  ]);
  const replay = new ReplayService({ store });
  await replay.catchUp();
  await replay.finish();
  return { store, path, session };
}
