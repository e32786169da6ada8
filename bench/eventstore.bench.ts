/**
 * The embedded event store beside the raw limits of SQLite, measured in the same run on the same disk (raw-sqlite.ts):
 *  - append: a simulated session's events (40 tables × 50 rounds, ~106k events, with the metadata ingest gives them),
 *    in batches of 20,000 through appendMany — one transaction per batch, as ingest does — versus the raw insert;
 *    and, for latency, appends of 1 and of 100 events to one stream (each its own durable transaction);
 *  - readAll: every event back, its payload not touched (decoded lazily, on first access: not at all here); every
 *    event back with its data and metadata decoded; and every event with its link re-checked from the bytes read
 *    (what the replay and the anchorer do, without decoding), each versus the raw read;
 *  - size: the store file's bytes per event after close (WAL checkpointed, no VACUUM); the target is 200.
 * Prints one JSON line. BENCH_TABLES (40) × BENCH_ROUNDS (50); BENCH_RAW_ROWS (100,000).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { linkBrokenBecause, type EventData } from '@table-audit/eventstore';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { simulateSession } from '@table-audit/simulator';
import { bytesPerEvent, rawSqlite, versus } from './raw-sqlite.ts';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const BATCH = 20_000;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

const dir = mkdtempSync(join(tmpdir(), 'ta-bench-eventstore-'));
try {
  const raw = rawSqlite(dir, env('BENCH_RAW_ROWS', 100_000));
  const session = simulateSession({
    seed: 42,
    tables: env('BENCH_TABLES', 40),
    roundsPerTable: env('BENCH_ROUNDS', 50),
    faultRate: 0.1,
  });
  const byStream = (events: typeof session.events, from: number) => {
    const parts = new Map<string, EventData[]>();
    events.forEach((e, i) => {
      const stream = `table-${e.data.header.tableId}`;
      let list = parts.get(stream);
      if (!list) parts.set(stream, (list = []));
      list.push({
        eventId: e.data.header.eventId,
        type: e.type,
        data: e.data,
        // as ingest gives it (services/ingest/src/pipeline.ts sourceMetadata): the file once, the place apart
        metadata: {
          source: 'file /var/lib/table-audit/incoming/session-2025-12-01.avro',
          block: Math.floor((from + i) / 1000),
          record: (from + i) % 1000,
        },
      });
    });
    return [...parts].map(([stream, evs]) => ({ stream, events: evs }));
  };
  const batches = [];
  for (let i = 0; i < session.events.length; i += BATCH)
    batches.push(byStream(session.events.slice(i, i + BATCH), i));

  const path = join(dir, 'events.sqlite');
  let store = new SqliteEventStore(path);
  const a0 = performance.now();
  for (const parts of batches) await store.appendMany(parts);
  const appendSeconds = (performance.now() - a0) / 1000;
  const events = session.events.length;

  // latency of small appends, each its own durable transaction (one fsync)
  const latency = async (size: number, count: number) => {
    const ms: number[] = [];
    let n = 0;
    for (let i = 0; i < count; i++) {
      const evs = Array.from({ length: size }, () => ({
        eventId: `small-${size}-${++n}`,
        type: 'PayoutDeclared',
        data: { seat: n % 7, amount: 40_000, round: `R${n}` },
      }));
      const t = performance.now();
      await store.append(`small-${size}`, evs);
      ms.push(performance.now() - t);
    }
    ms.sort((x, y) => x - y);
    const total = ms.reduce((x, y) => x + y, 0) / 1000;
    return {
      eventsPerAppend: size,
      appends: count,
      eventsPerSecond: Math.round((size * count) / total),
      latencyMs: { p50: +percentile(ms, 0.5).toFixed(3), p99: +percentile(ms, 0.99).toFixed(3) },
    };
  };
  const small = [
    await latency(1, env('BENCH_APPENDS_OF_1', 1000)),
    await latency(100, env('BENCH_APPENDS_OF_100', 100)),
  ];
  await store.close();
  const size = bytesPerEvent(path, events + 1000 + 100 * 100);

  store = new SqliteEventStore(path);
  const r0 = performance.now();
  let read = 0;
  for await (const _ of store.readAll()) read++;
  const readSeconds = (performance.now() - r0) / 1000;
  const d0 = performance.now();
  let decoded = 0;
  for await (const e of store.readAll()) if (e.data !== undefined && e.metadata !== null) decoded++;
  const decodedSeconds = (performance.now() - d0) / 1000;
  if (decoded !== read) throw new Error(`decoded ${decoded} of ${read}`);
  const heads = new Map<string, { revision: number; hash: string }>();
  const c0 = performance.now();
  for await (const e of store.readAll()) {
    if (linkBrokenBecause(e, heads.get(e.stream), true) !== null)
      throw new Error(`broken link at ${e.eventId}`);
    heads.set(e.stream, e);
  }
  const checkedSeconds = (performance.now() - c0) / 1000;
  await store.close();

  console.log(
    JSON.stringify({
      bench: 'SqliteEventStore (file, WAL, synchronous=FULL) beside raw SQLite in the same run',
      raw,
      appendMany: {
        events,
        eventsPerBatch: BATCH,
        transactions: batches.length,
        eventsPerSecond: versus(Math.round(events / appendSeconds), raw.insertRowsPerSecond, 0.4),
      },
      smallAppends: small,
      readAll: {
        events: read,
        eventsPerSecond: versus(Math.round(read / readSeconds), raw.readRowsPerSecond, 0.3),
        decodedEventsPerSecond: versus(Math.round(read / decodedSeconds), raw.readRowsPerSecond, 0.3),
        withLinkCheckEventsPerSecond: versus(Math.round(read / checkedSeconds), raw.readRowsPerSecond, 0.3),
      },
      storeBytesPerEvent: { value: size, target: '≤ 200', meetsTarget: size <= 200 },
      peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
