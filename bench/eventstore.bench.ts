/**
 * Embedded event store append throughput and latency: SqliteEventStore on a file in the temp dir (WAL,
 * synchronous=FULL, so every append waits for its fsync), batches of 1 and of 100 events of ~250 bytes spread
 * over 10 table streams, each append with its exact expected revision. Prints appends/s, events/s, append latency
 * p50/p99 in ms per batch size, and peak RSS.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventData } from '@table-audit/eventstore';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';

const APPENDS_OF_1 = Number(process.env.BENCH_APPENDS_OF_1 ?? 2_000);
const APPENDS_OF_100 = Number(process.env.BENCH_APPENDS_OF_100 ?? 200);
const STREAMS = 10;

const dir = mkdtempSync(join(tmpdir(), 'ta-bench-eventstore-'));
const store = new SqliteEventStore(join(dir, 'events.sqlite'));
const next = new Map<string, number>();
let id = 0;

const event = (table: number): EventData => ({
  eventId: `bench-${++id}`,
  type: 'PayoutDeclared',
  data: {
    table: `T${table}`,
    round: `R${id}`,
    seat: (id % 7) + 1,
    bet: 'pairPlus',
    stake: 10_000,
    payout: 40_000,
    cards: ['AS', 'KS', 'QS'],
    declaredAt: 1_763_700_000_000 + id,
  },
  metadata: { source: 'table-controller', schemaId: 7 },
});

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

async function run(batch: number, appends: number) {
  const latencies: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < appends; i++) {
    const table = i % STREAMS;
    const stream = `table-${table}`;
    const events = Array.from({ length: batch }, () => event(table));
    const start = performance.now();
    const r = await store.append(stream, events, { expectedRevision: next.get(stream) ?? 'no-stream' });
    latencies.push(performance.now() - start);
    next.set(stream, r.nextExpectedRevision);
  }
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    batch,
    appends,
    appendsPerSecond: Math.round(appends / seconds),
    eventsPerSecond: Math.round((appends * batch) / seconds),
    latencyMs: { p50: +percentile(latencies, 0.5).toFixed(3), p99: +percentile(latencies, 0.99).toFixed(3) },
  };
}

try {
  await run(1, 50); // warm-up: statements, file, page cache
  const single = await run(1, APPENDS_OF_1);
  const hundred = await run(100, APPENDS_OF_100);
  console.log(
    JSON.stringify({
      bench: 'SqliteEventStore append, file store (WAL, synchronous=FULL), 10 streams, ~250-byte events',
      results: [single, hundred],
      peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    }),
  );
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
