/**
 * Which readings a disputed round hinges on (`replay ROUND_ID --what-if all`, roundReadings), beside its baseline in
 * the same run: explaining the same round once (explainRound, what `replay ROUND_ID` does), both with the round's
 * table known (as the API has it from its index) so that neither searches the store. Rounds at three places in
 * their table (first, middle, last), since both read the table from its first event. Prints wall and CPU seconds,
 * events read, CPU µs per event read, and the ratio to the baseline; and the table's search through the round
 * records against the search through the events.
 *
 *   node --import ./apps/cli/bin/register-ts.mjs bench/round-readings.bench.ts
 *   BENCH_STORE=DIR  over a store already ingested and replayed (DIR/events.sqlite; e.g. the what-if bench's
 *                    realistic store): rounds of its first table stream
 *   BENCH_TABLES, BENCH_ROUNDS  the simulated store (default 4 tables × 300 rounds)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { IngestPipeline } from '@table-audit/ingest';
import {
  explainRound,
  ReplayService,
  roundReadings,
  tableOfRound,
  tableOfRoundRecord,
} from '@table-audit/replay';
import { simulateSession } from '@table-audit/simulator';
import { cpuSeconds } from './lib/measure.ts';
import { submitEvents } from './lib/submit.ts';

const TABLES = Number(process.env.BENCH_TABLES ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 300);
const STORE = process.env.BENCH_STORE;

async function timed<T>(f: () => Promise<T>): Promise<{ value: T; seconds: number; cpuSeconds: number }> {
  const t = performance.now();
  const c = cpuSeconds();
  const value = await f();
  return { value, seconds: (performance.now() - t) / 1000, cpuSeconds: cpuSeconds() - c };
}

let dir: string | null = null;
let path: string;
if (STORE !== undefined) path = join(STORE, 'events.sqlite');
else {
  dir = mkdtempSync(join(tmpdir(), 'ta-bench-round-readings-'));
  path = join(dir, 'events.sqlite');
  const session = simulateSession({ seed: 27, tables: TABLES, roundsPerTable: ROUNDS, faultRate: 0.05 });
  const store = new SqliteEventStore(path);
  await submitEvents(new IngestPipeline(store), session.events);
  const replay = new ReplayService({ store });
  await replay.catchUp();
  await replay.finish();
  await store.close();
}

const store = new SqliteEventStore(path, { readOnly: true });
// the rounds of the first table stream, in its order
let tableId: string | null = null;
const rounds: string[] = [];
for await (const e of store.readAll({ streams: (s) => s.startsWith('table-') })) {
  const h = (e.data as { header?: { tableId?: string; roundId?: string | null } }).header;
  if (!h?.tableId) continue;
  tableId ??= h.tableId;
  if (h.tableId !== tableId) continue;
  if (h.roundId && rounds.at(-1) !== h.roundId && !rounds.includes(h.roundId)) rounds.push(h.roundId);
}
if (!tableId || rounds.length < 3) throw new Error(`the store's first table has ${rounds.length} rounds`);
// the last round may be unfinished in a store still being written: the one before it
const picks = { first: rounds[0]!, middle: rounds[Math.floor(rounds.length / 2)]!, last: rounds.at(-2)! };

const results: Record<string, unknown> = {};
for (const [where, roundId] of Object.entries(picks)) {
  const baseline = await timed(() => explainRound(store, roundId, undefined, { tableId: tableId! }));
  const readings = await timed(() => roundReadings(store, roundId, undefined, tableId!));
  const events = readings.value.eventsRead;
  results[where] = {
    roundId,
    eventsRead: events,
    readings: readings.value.readings.length,
    readingsThatChangeIt: readings.value.readings.filter((r) => r.changed).map((r) => r.reading.key),
    explainRound: {
      seconds: Number(baseline.seconds.toFixed(2)),
      cpuSeconds: Number(baseline.cpuSeconds.toFixed(2)),
    },
    roundReadings: {
      seconds: Number(readings.seconds.toFixed(2)),
      cpuSeconds: Number(readings.cpuSeconds.toFixed(2)),
      cpuMicrosecondsPerEventRead: Number(((readings.cpuSeconds * 1e6) / events).toFixed(1)),
      cpuRatioToExplainRound: Number((readings.cpuSeconds / baseline.cpuSeconds).toFixed(1)),
    },
  };
}
const last = picks.last;
const byRecords = await timed(() => tableOfRoundRecord(store, last));
const byEvents = await timed(() => tableOfRound(store, last));
await store.close();
if (dir) rmSync(dir, { recursive: true, force: true });

console.log(
  JSON.stringify(
    {
      note: 'a shared 2-core machine: figures under whatever load it had; compare each with its baseline of the same run',
      store: STORE ?? { tables: TABLES, roundsPerTable: ROUNDS },
      tableId,
      roundsOfTable: rounds.length,
      rounds: results,
      findingTheTable: {
        roundId: last,
        throughRoundRecords: { seconds: Number(byRecords.seconds.toFixed(2)), found: byRecords.value },
        throughEvents: { seconds: Number(byEvents.seconds.toFixed(2)), found: byEvents.value },
      },
    },
    null,
    2,
  ),
);
