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
 * Two floors are measured in the same run, for the month extrapolated: reading every event's row at the raw rate of
 * SQLite on this disk (raw-sqlite.ts, nothing decoded, no link checked, nothing derived), and deriving only the
 * alternative reading of every round in memory (no store at all). Neither includes the other; each is a time no
 * what-if that reads every event, or derives every round, can beat on this machine.
 *
 * BENCH_PER_READING=1 also compares, in memory, every F3CP alternative reading of the 2025 rules on its own, and
 * prints the share of rounds each changes: a what-if can only skip the rounds its readings cannot change.
 *
 * With BENCH_STORE=DIR (a directory holding an ingested and replayed events.sqlite, opened read-only), the what-if
 * runs over that store instead of a simulated one, for BENCH_FROM..BENCH_TO (Macau dates, default the 366 days
 * from 2025-06-01), beside the raw SQLite read rate and a read of the same store that checks every link and
 * derives nothing (one thread): what a what-if costs at the store's own table length, with no extrapolation of
 * the rounds a table plays.
 *
 *   node --import ./apps/cli/bin/register-ts.mjs bench/what-if.bench.ts
 *   BENCH_TABLES=50 BENCH_ROUNDS=200 BENCH_WORKERS=2 BENCH_READINGS=J11,J2 BENCH_ROUNDS_PER_DAY=800 (the defaults)
 *   BENCH_STORE=/tmp/store BENCH_FROM=2025-12-01 BENCH_TO=2025-12-31 node --import … bench/what-if.bench.ts
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { linkBrokenBecause } from '@table-audit/eventstore';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { IngestPipeline } from '@table-audit/ingest';
import {
  defaultWorkers,
  replayEvents,
  replayInParallel,
  runWhatIf,
  TableFolds,
  WhatIfComparer,
} from '@table-audit/replay';
import { ALTERNATIVE_READINGS, DEFAULT_REPLAY_OPTIONS } from '@table-audit/rules';
import { rawSqlite } from './raw-sqlite.ts';
import { whatIfSession } from './lib/what-if-session.ts';
import { cpuSeconds } from './lib/measure.ts';
import { submitEvents } from './lib/submit.ts';

const TABLES = Number(process.env.BENCH_TABLES ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const WORKERS = Number(process.env.BENCH_WORKERS ?? Math.max(2, defaultWorkers()));
const READINGS = (process.env.BENCH_READINGS ?? 'J11,J2').split(',');
const PER_DAY = Number(process.env.BENCH_ROUNDS_PER_DAY ?? 800);
const MONTH = { from: '2025-12-01', to: '2025-12-31' };
const STORE = process.env.BENCH_STORE;
const loader = new URL('../apps/cli/bin/register-ts.mjs', import.meta.url).href;

const rate = (rounds: number, seconds: number) => Math.round(rounds / seconds);

if (STORE !== undefined) {
  await overStore(STORE);
  process.exit(0);
}

const session = whatIfSession(TABLES, ROUNDS);

// in memory: the normal derivation once, and the what-if comparer (both readings, compared)
let t = performance.now();
const pure = replayEvents(session.events);
const pureSeconds = (performance.now() - t) / 1000;
t = performance.now();
const comparer = new WhatIfComparer(MONTH, READINGS);
for (const e of session.events) comparer.apply(e);
const inMemory = comparer.finish(session.events.length);
const inMemorySeconds = (performance.now() - t) / 1000;
// in memory, the alternative alone: what deriving every round once under it costs, nothing read, nothing compared
t = performance.now();
const alone = new TableFolds({ ...DEFAULT_REPLAY_OPTIONS, alternatives: READINGS });
let aloneRounds = 0;
for (const e of session.events) aloneRounds += alone.apply(e)?.length ?? 0;
for (const fold of alone.values()) aloneRounds += fold.finish().units.length;
const aloneSeconds = (performance.now() - t) / 1000;

// every F3CP 2025 alternative on its own, in memory: the share of rounds it changes
const perReading =
  process.env.BENCH_PER_READING === '1'
    ? ALTERNATIVE_READINGS.filter((a) => a.game === 'f3cp' && a.id.startsWith('J')).map((a) => {
        const one = new WhatIfComparer(MONTH, [a.key]);
        for (const e of session.events) one.apply(e);
        const r = one.finish(session.events.length);
        return {
          reading: a.key,
          acts: a.acts,
          roundsChanged: r.roundsChanged,
          shareOfRounds: Number((r.roundsChanged / r.roundsCompared).toFixed(4)),
        };
      })
    : undefined;

const dir = mkdtempSync(join(tmpdir(), 'ta-bench-what-if-'));
const ingested = join(dir, 'events.sqlite');
{
  const store = new SqliteEventStore(ingested);
  const pipeline = new IngestPipeline(store);
  await submitEvents(pipeline, session.events);
  await store.close();
}
const replayCopy = join(dir, 'replay.sqlite');
copyFileSync(ingested, replayCopy);
const raw = rawSqlite(dir, 200_000);
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

const whatIfRate = rate(whatIf.roundsCompared, whatIfSeconds);
const monthRounds = TABLES * PER_DAY * 31;
const monthEvents = Math.round((monthRounds * session.events.length) / aloneRounds);
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
        alternativeOnlyRoundsPerSecond: rate(aloneRounds, aloneSeconds),
      },
      rawSqlite: { readRowsPerSecond: raw.readRowsPerSecond },
      ...(perReading ? { perReading } : {}),
      monthAt50Tables: {
        extrapolated: true,
        roundsPerTablePerDay: PER_DAY,
        rounds: monthRounds,
        events: monthEvents,
        secondsAtMeasuredWhatIfRate: Math.round(monthRounds / whatIfRate),
        floors: {
          note: `each a lower bound on ${WORKERS} cores, measured in this run: no what-if that reads every event, or derives every round, can take less`,
          secondsReadingEveryRowAtRawSqliteRate: Math.round(monthEvents / (raw.readRowsPerSecond * WORKERS)),
          secondsDerivingTheAlternativeAloneInMemory: Math.round(
            monthRounds / (rate(aloneRounds, aloneSeconds) * WORKERS),
          ),
        },
      },
    },
    null,
    2,
  ),
);

/** The what-if over a store already ingested and replayed (read-only), beside the raw and read-only rates. */
async function overStore(dir: string): Promise<void> {
  const path = join(dir, 'events.sqlite');
  if (!existsSync(path)) throw new Error(`BENCH_STORE: no events.sqlite in ${dir}`);
  const scope = { from: process.env.BENCH_FROM ?? '2025-06-01', to: process.env.BENCH_TO ?? '2026-05-31' };
  const scratch = mkdtempSync(join(tmpdir(), 'ta-bench-what-if-raw-'));
  const raw = rawSqlite(scratch, 200_000);
  rmSync(scratch, { recursive: true, force: true });
  // one thread reads every event of the store and checks its link, deriving nothing: the what-if's reading alone
  let t = performance.now();
  let c = cpuSeconds();
  let read = 0;
  const store = new SqliteEventStore(path, { readOnly: true });
  const heads = new Map<string, { revision: number; hash: string }>();
  let broken = 0;
  for await (const stored of store.readAll()) {
    read++;
    if (linkBrokenBecause(stored, heads.get(stored.stream), true) !== null) broken++;
    heads.set(stored.stream, { revision: stored.revision, hash: stored.hash });
  }
  await store.close();
  const readSeconds = (performance.now() - t) / 1000;
  const readCpu = cpuSeconds() - c;
  t = performance.now();
  c = cpuSeconds();
  const whatIf = await runWhatIf({
    storePath: path,
    alternatives: READINGS,
    scope,
    workers: WORKERS,
    loader,
  });
  const seconds = (performance.now() - t) / 1000;
  const cpu = cpuSeconds() - c;
  const days = storeDays(dir);
  const monthRounds = days === null ? null : Math.round((whatIf.roundsCompared / days) * 31);
  console.log(
    JSON.stringify(
      {
        note: 'a store read as it is (BENCH_STORE); figures on a shared 2-core machine, rounds/s include worker start-up',
        store: { dir, events: whatIf.events, workers: WORKERS, readings: READINGS, scope },
        rawSqlite: { readRowsPerSecond: raw.readRowsPerSecond },
        readWithLinkChecks: {
          events: read,
          brokenLinks: broken,
          seconds: Number(readSeconds.toFixed(2)),
          eventsPerSecond: rate(read, readSeconds),
          ratioToRawSqlite: Number((read / readSeconds / raw.readRowsPerSecond).toFixed(3)),
          cpuMicrosecondsPerEvent: Number(((readCpu * 1e6) / read).toFixed(2)),
        },
        whatIfReplay: {
          rounds: whatIf.roundsCompared,
          roundsChanged: whatIf.roundsChanged,
          tablesNotVerified: whatIf.tablesNotVerified.length,
          seconds: Number(seconds.toFixed(2)),
          roundsPerSecond: rate(whatIf.roundsCompared, seconds),
          cpuSeconds: Number(cpu.toFixed(2)),
          cpuMicrosecondsPerEvent: Number(((cpu * 1e6) / whatIf.events).toFixed(2)),
        },
        month:
          monthRounds === null
            ? 'not extrapolated: say how many days the store holds with BENCH_STORE_DAYS'
            : {
                extrapolated: true,
                daysInStore: days,
                rounds: monthRounds,
                secondsAtMeasuredWhatIfRate: Math.round(monthRounds / rate(whatIf.roundsCompared, seconds)),
              },
      },
      null,
      2,
    ),
  );
}

/** How many days of play the store holds: BENCH_STORE_DAYS, or what bench/api.bench.ts wrote beside a store it made. */
function storeDays(dir: string): number | null {
  const given = process.env.BENCH_STORE_DAYS;
  if (given !== undefined) {
    const n = Number(given);
    if (!Number.isSafeInteger(n) || n < 1 || n > 366)
      throw new Error(`BENCH_STORE_DAYS: 1 to 366, got ${given}`);
    return n;
  }
  const made = join(dir, '.bench-api-store');
  if (!existsSync(made)) return null;
  const days = (JSON.parse(readFileSync(made, 'utf8')) as { DAYS?: unknown }).DAYS;
  return typeof days === 'number' && Number.isSafeInteger(days) && days >= 1 ? days : null;
}
