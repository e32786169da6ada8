/**
 * What-if replay figures (printed, not asserted): rounds/s of the what-if replay (every round derived twice, under
 * the register's readings and under an alternative, compared; nothing written) beside the normal bulk replay's
 * rate (derive once, write findings and round records) over the same store, measured in the same run, both
 * sharded over the same number of worker threads; and the same two in memory (no store), for comparison.
 *
 * The store holds BENCH_TABLES tables × BENCH_ROUNDS rounds (default 50 × 200) of simulated F3CP play; the
 * what-if covers the month the rounds fall in (December 2025, Macau dates). A month of real play at 50 tables is
 * many more rounds than that: the bench prints how long such a month would take at the measured rate, for
 * BENCH_ROUNDS_PER_DAY rounds per table and day (default 800: about 50 an hour over 16 hours), and says it is
 * extrapolated.
 *
 *   node --import ./apps/cli/bin/register-ts.mjs bench/what-if.bench.ts
 *   BENCH_TABLES=50 BENCH_ROUNDS=200 BENCH_WORKERS=2 BENCH_READINGS=J11,J2 BENCH_ROUNDS_PER_DAY=800 (the defaults)
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { IngestPipeline } from '@table-audit/ingest';
import {
  defaultWorkers,
  replayEvents,
  replayInParallel,
  runWhatIf,
  WhatIfComparer,
} from '@table-audit/replay';
import { simulateSession } from '@table-audit/simulator';

const TABLES = Number(process.env.BENCH_TABLES ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const WORKERS = Number(process.env.BENCH_WORKERS ?? Math.max(2, defaultWorkers()));
const READINGS = (process.env.BENCH_READINGS ?? 'J11,J2').split(',');
const PER_DAY = Number(process.env.BENCH_ROUNDS_PER_DAY ?? 800);
const MONTH = { from: '2025-12-01', to: '2025-12-31' };

const session = simulateSession({
  seed: 16,
  tables: TABLES,
  roundsPerTable: ROUNDS,
  faultRate: 0.05,
  handledRate: 0.02,
});

// in memory: the normal derivation once, and the what-if comparer (both readings, compared)
let t = performance.now();
const pure = replayEvents(session.events);
const pureSeconds = (performance.now() - t) / 1000;
t = performance.now();
const comparer = new WhatIfComparer(MONTH, READINGS);
for (const e of session.events) comparer.apply(e);
const inMemory = comparer.finish(session.events.length);
const inMemorySeconds = (performance.now() - t) / 1000;

const dir = mkdtempSync(join(tmpdir(), 'ta-bench-what-if-'));
const ingested = join(dir, 'events.sqlite');
{
  const store = new SqliteEventStore(ingested);
  const pipeline = new IngestPipeline(store);
  for (let i = 0; i < session.events.length; i += 10_000)
    await pipeline.submit(
      session.events.slice(i, i + 10_000).map((event, k) => ({
        source: { kind: 'in-process' as const, producer: 'bench', index: i + k },
        event,
      })),
    );
  await store.close();
}
const replayCopy = join(dir, 'replay.sqlite');
copyFileSync(ingested, replayCopy);
const loader = new URL('../apps/cli/bin/register-ts.mjs', import.meta.url).href;

// CPU seconds of this process, its worker threads included (user + system)
const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
// the baseline: the normal bulk replay of the same store, same workers (it writes findings and round records)
t = performance.now();
let c = cpuSeconds();
const normal = await replayInParallel({ storePath: replayCopy, workers: WORKERS, loader });
const normalSeconds = (performance.now() - t) / 1000;
const normalCpu = cpuSeconds() - c;

// the what-if over the month, same workers, store read-only
t = performance.now();
c = cpuSeconds();
const whatIf = await runWhatIf({
  storePath: ingested,
  alternatives: READINGS,
  scope: MONTH,
  workers: WORKERS,
  loader,
});
const whatIfSeconds = (performance.now() - t) / 1000;
const whatIfCpu = cpuSeconds() - c;
rmSync(dir, { recursive: true, force: true });

const rate = (rounds: number, seconds: number) => Math.round(rounds / seconds);
const whatIfRate = rate(whatIf.roundsCompared, whatIfSeconds);
const monthRounds = TABLES * PER_DAY * 31;
console.log(
  JSON.stringify(
    {
      note: 'figures taken on a shared 2-core machine under load from other jobs; rounds/s include worker start-up',
      store: {
        tables: TABLES,
        roundsPerTable: ROUNDS,
        events: session.events.length,
        workers: WORKERS,
        readings: READINGS,
      },
      normalReplay: {
        rounds: normal.stats.rounds,
        seconds: Number(normalSeconds.toFixed(2)),
        roundsPerSecond: rate(normal.stats.rounds, normalSeconds),
        cpuSeconds: Number(normalCpu.toFixed(2)),
        cpuMicrosecondsPerEvent: Number(((normalCpu * 1e6) / session.events.length).toFixed(2)),
      },
      whatIfReplay: {
        rounds: whatIf.roundsCompared,
        roundsChanged: whatIf.roundsChanged,
        seconds: Number(whatIfSeconds.toFixed(2)),
        roundsPerSecond: whatIfRate,
        ratioToNormalReplay: Number((whatIfRate / rate(normal.stats.rounds, normalSeconds)).toFixed(2)),
        cpuSeconds: Number(whatIfCpu.toFixed(2)),
        cpuMicrosecondsPerEvent: Number(((whatIfCpu * 1e6) / session.events.length).toFixed(2)),
      },
      inMemory: {
        normalRoundsPerSecond: rate(pure.rounds.length, pureSeconds),
        whatIfRoundsPerSecond: rate(inMemory.roundsCompared, inMemorySeconds),
      },
      monthAt50Tables: {
        extrapolated: true,
        roundsPerTablePerDay: PER_DAY,
        rounds: monthRounds,
        secondsAtMeasuredWhatIfRate: Math.round(monthRounds / whatIfRate),
      },
    },
    null,
    2,
  ),
);
