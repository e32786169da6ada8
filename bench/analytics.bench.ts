/**
 * Analytics figures (printed, not asserted), on chDB in a temporary directory:
 * - projection: rows/s the AnalyticsProjector writes (event → rows, dealer/game lookups, one insert per table per
 *   batch of 5,000 events), beside a raw baseline measured in the same run: a plain client.insert of the very same
 *   rows, in the same batches, into copies of the tables (database `baseline`). Events are handed over from memory,
 *   so the event-store read is not counted (bench/eventstore.bench.ts measures it). Target ≥ 100,000 rows/s.
 * - queries: p50/p99 of the findings command's query and the dashboard-style aggregates over the month. Target
 *   p99 < 500 ms.
 * Data: one month (BENCH_DAYS, default 30) of simulated play at BENCH_TABLES tables (default 50), BENCH_ROUNDS
 * rounds per table per day (default 40), 10% of rounds with a labelled fault; each day is simulated and replayed
 * (findings and RoundDerived records), and its round and finding ids are prefixed with the day so they stay unique.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AnalyticsProjector,
  DASHBOARD_QUERIES,
  listFindings,
  migrate,
  openAnalytics,
} from '@table-audit/analytics';
import type { RecordedEvent } from '@table-audit/eventstore';
import { replayEvents, FINDING_EVENT_TYPE, ROUND_EVENT_TYPE } from '@table-audit/replay';
import { findingStream, roundStream, tableStream } from '@table-audit/schemas/streams';
import { simulateSession } from '@table-audit/simulator';

const DAYS = Number(process.env.BENCH_DAYS ?? 30);
const TABLES = Number(process.env.BENCH_TABLES ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const RUNS = Number(process.env.BENCH_QUERY_RUNS ?? 30);
const BATCH = 5_000;
const START = Date.parse('2025-12-01T04:00:00Z');
const DAY_MS = 86_400_000;

const dir = mkdtempSync(join(tmpdir(), 'ta-bench-analytics-'));
const analytics = await openAnalytics({ path: join(dir, 'analytics') });
const { client } = analytics;
await migrate(client);
const TABLE_NAMES = [
  'tables',
  'round_starts',
  'rounds',
  'bets',
  'table_health',
  'ingest_rejects',
  'findings',
];
await client.command({ query: 'CREATE DATABASE IF NOT EXISTS baseline' });
for (const t of TABLE_NAMES) await client.command({ query: `CREATE TABLE baseline.${t} AS default.${t}` });

// the projector's inserts are captured to be replayed raw into baseline.*: the same rows, in the same batches
const captured: { table: string; values: unknown[] }[] = [];
const projectingClient = new Proxy(client, {
  get(target, key, receiver) {
    if (key !== 'insert') return Reflect.get(target, key, receiver) as unknown;
    return (params: { table: string; values: unknown[] }) => {
      captured.push({ table: params.table, values: params.values });
      return target.insert(params as Parameters<typeof target.insert>[0]);
    };
  },
});
const projector = new AnalyticsProjector(projectingClient);

let position = 0n;
const recorded = (stream: string, type: string, eventId: string, data: unknown): RecordedEvent => ({
  stream,
  type,
  eventId,
  data,
  metadata: {},
  revision: 0,
  position: ++position,
  recordedAt: 0,
  hash: '',
  previousHash: '',
});

let projectMs = 0;
let baselineMs = 0;
let rows = 0;
let events = 0;
let prepareMs = 0;
for (let day = 0; day < DAYS; day++) {
  let t = performance.now();
  const session = simulateSession({
    seed: 1_000 + day,
    tables: TABLES,
    roundsPerTable: ROUNDS,
    start: START + day * DAY_MS,
    faultRate: 0.1,
    handledRate: 0.03,
  });
  const d = `D${String(day).padStart(2, '0')}-`;
  const round = (id: string | null) => (id === null ? null : d + id);
  const batch: RecordedEvent[] = session.events.map((e) =>
    recorded(tableStream(e.data.header.tableId), e.type, d + e.data.header.eventId, {
      ...e.data,
      header: { ...e.data.header, roundId: round(e.data.header.roundId) },
    }),
  );
  const replayed = replayEvents(session.events);
  for (const f of replayed.findings)
    batch.push(
      recorded(findingStream(f.tableId), FINDING_EVENT_TYPE, d + f.findingId, {
        ...f,
        findingId: d + f.findingId,
        roundId: round(f.roundId),
      }),
    );
  for (const r of replayed.rounds)
    if (r.record)
      batch.push(
        recorded(roundStream(r.tableId), ROUND_EVENT_TYPE, `${d}rec-${r.roundId}`, {
          ...r.record,
          roundId: d + r.record.roundId,
          findingIds: r.record.findingIds.map((id) => d + id),
        }),
      );
  prepareMs += performance.now() - t;

  captured.length = 0;
  t = performance.now();
  for (let i = 0; i < batch.length; i += BATCH) await projector.handle(batch.slice(i, i + BATCH));
  projectMs += performance.now() - t;
  events += batch.length;

  t = performance.now();
  for (const c of captured)
    await client.insert({ table: `baseline.${c.table}`, values: c.values, format: 'JSONEachRow' });
  baselineMs += performance.now() - t;
  rows += captured.reduce((n, c) => n + c.values.length, 0);
}

const perSecond = (n: number, ms: number) => Math.round(n / (ms / 1000)).toLocaleString('en-US');
console.log(
  `analytics data: ${DAYS} days x ${TABLES} tables x ${ROUNDS} rounds = ${(DAYS * TABLES * ROUNDS).toLocaleString('en-US')} rounds, ` +
    `${events.toLocaleString('en-US')} events, ${rows.toLocaleString('en-US')} rows ` +
    `(${JSON.stringify(projector.stats.rows)}); simulate + replay ${(prepareMs / 1000).toFixed(1)} s (not counted)`,
);
console.log(
  `projection into chDB: ${perSecond(rows, projectMs)} rows/s (${perSecond(events, projectMs)} events/s, ${(projectMs / 1000).toFixed(1)} s, ${projector.stats.lookups} lookups); ` +
    `baseline plain client.insert of the same rows: ${perSecond(rows, baselineMs)} rows/s (${(baselineMs / 1000).toFixed(1)} s); target ≥ 100,000 rows/s`,
);

const from = new Date(START + 8 * 3_600_000).toISOString().slice(0, 10);
const to = new Date(START + (DAYS - 1) * DAY_MS + 8 * 3_600_000).toISOString().slice(0, 10);
const [{ casino } = { casino: '' }] = await (
  await client.query({
    query: 'SELECT casino FROM findings FINAL GROUP BY casino ORDER BY count() DESC LIMIT 1',
    format: 'JSONEachRow',
  })
).json<{ casino: string }>();

async function timed(name: string, run: () => Promise<unknown>): Promise<void> {
  await run(); // warm-up: marks loaded, not counted
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await run();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)]!.toFixed(1);
  console.log(`  ${name.padEnd(44)} p50 ${q(0.5).padStart(7)} ms   p99 ${q(0.99).padStart(7)} ms`);
}

console.log(
  `queries over ${from} .. ${to} (Macau dates), ${RUNS} runs each after one warm-up; target p99 < 500 ms:`,
);
await timed('findings command: casino, month, latest 50', () =>
  listFindings(client, { casino, from, to }, 50),
);
await timed('findings command: high severity, one week', () =>
  listFindings(
    client,
    { severity: 'high', from, to: new Date(Date.parse(from) + 6 * DAY_MS).toISOString().slice(0, 10) },
    50,
  ),
);
for (const [name, query] of Object.entries(DASHBOARD_QUERIES))
  await timed(name, async () =>
    (await client.query({ query, query_params: { from, to }, format: 'JSONEachRow' })).json(),
  );

await analytics.close();
rmSync(dir, { recursive: true, force: true });
