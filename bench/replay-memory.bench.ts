/**
 * Pure in-memory replay throughput (printed, not asserted): the fold, derivation and every check of replayEvents,
 * on one core, over a session built once (no store, no I/O). Each run replays the whole session, then settles the
 * same rounds' facts with settleF3cpRound alone: the settlement-only rate, measured in the same run, is the
 * baseline the replay is compared with (these machines are shared, so figures of different runs are not
 * comparable; the ratio is). A second baseline, the walk: every event's table looked up and counted, nothing
 * else, the ceiling of any replay of this input held in memory. A third, the grouping: every event appended to its
 * table's open round and, when the round ends, each of its events read again (type and time), nothing derived: the
 * ceiling of a fold that holds a round's events until it closes, as this one does (what the events cost to reach
 * twice, the rest being the replay's own work). Prints rounds/s per run (wall clock, and per CPU
 * second of this process, which a loaded machine disturbs less), the medians, the ratios and peak memory.
 * Target: at least 40,000 rounds/s per core.
 *   BENCH_TABLES (default 200) × BENCH_ROUNDS (50) rounds, plus BENCH_COLLUSION_TABLES (2) tables of colluders
 *   playing 400 rounds each; BENCH_RUNS (7) runs, the first a warm-up left out of the medians.
 *
 * Then memory as the input grows (`memoryAsInputGrows`): for each of BENCH_MEMORY_TABLES (default 4,40,400 tables
 * of BENCH_ROUNDS rounds: 1×, 10×, 100×), a process of its own (so its peak RSS is its own) simulates the session,
 * folds it through TableFolds as the replay service does (each completed round handed over and dropped), and
 * measures the heap after a full GC before and after the replay: what the replay retains once the events are
 * folded (its tables' state) beside the input it was given (the baseline), per table, and the process's peak RSS.
 * BENCH_MEMORY_TABLES=0 skips it.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { replayEvents, TableFolds } from '@table-audit/replay';
import {
  settleF3cpRound,
  warmCollusionTables,
  type F3cpRoundFacts,
  type F3cpRuleSet,
  type ReplayedRound,
} from '@table-audit/rules';
import { simulateSession } from '@table-audit/simulator';
import { groupOnly, pureReplaySession } from './lib/pure-input.ts';
import { REGISTER_TS } from './lib/measure.ts';

const MiB = 2 ** 20;

/**
 * One scale of the memory rows, in this (child) process: started with --expose-gc, prints one JSON line. The
 * session is built first and measured as the baseline; the replay keeps none of it unless its fold does.
 */
function memoryPart(tables: number, rounds: number): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('the memory part needs node --expose-gc');
  // the heap and what lives outside it (typed arrays' buffers: the decision tables are typed arrays)
  const heap = () => {
    gc();
    const m = process.memoryUsage();
    return m.heapUsed + m.external;
  };
  // the collusion oracle's decision tables are shared by every table and built once per process (as a live replay
  // warms them): built before the baseline, so that what follows is the replay's own state
  const sharedBefore = heap();
  warmCollusionTables();
  const shared = heap() - sharedBefore;
  const before = heap();
  const session = simulateSession({
    seed: 11,
    tables,
    roundsPerTable: rounds,
    faultRate: 0.05,
    handledRate: 0.02,
    bettingSystemTables: Math.min(2, tables),
  });
  const input = heap() - before;
  const folds = new TableFolds();
  let units = 0;
  for (const e of session.events) units += folds.apply(e)?.length ?? 0; // each unit dropped once counted
  for (const t of folds.values()) units += t.finish().units.length;
  const retained = heap() - before - input;
  console.log(
    JSON.stringify({
      tables,
      events: session.events.length,
      rounds: units,
      sharedDecisionTablesMiB: Number((shared / MiB).toFixed(1)),
      inputHeapMiB: Number((input / MiB).toFixed(1)),
      replayRetainedMiB: Number((retained / MiB).toFixed(2)),
      replayRetainedKiBPerTable: Number((retained / 1024 / tables).toFixed(1)),
      replayRetainedBytesPerEvent: Number((retained / session.events.length).toFixed(1)),
      peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    }),
  );
  if (session.events.length === 0) throw new Error('empty session'); // keeps the session alive until measured
}

if (process.argv[2] === 'memory-part') {
  memoryPart(Number(process.argv[3]), Number(process.argv[4]));
  process.exit(0);
}

const TABLES = Number(process.env.BENCH_TABLES ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 50);
const COLLUSION_TABLES = Number(process.env.BENCH_COLLUSION_TABLES ?? 2);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const TARGET = 40_000;

const session = pureReplaySession(TABLES, ROUNDS, COLLUSION_TABLES);
const events = session.events;

// the facts of every round the replay settles, with its rule set: what the settlement-only baseline settles
const toSettle: { facts: F3cpRoundFacts; rules: F3cpRuleSet }[] = [];
{
  const folds = new TableFolds();
  const keep = (units: readonly unknown[]) => {
    for (const u of units as ReplayedRound[])
      if (u.settled) toSettle.push({ facts: u.settled.facts, rules: u.settled.ruleSet });
  };
  for (const e of events) keep(folds.apply(e) ?? []);
  for (const t of folds.values()) keep(t.finish().units);
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

let rounds = 0;
let findings = 0;
let lines = 0;
const replayRates: number[] = [];
const walkRates: number[] = [];
const groupRates: number[] = [];
const groupCpuRates: number[] = [];
const settleRates: number[] = [];
const replayCpuRates: number[] = [];
const settleCpuRates: number[] = [];
const cpuSeconds = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1e6;
for (let run = 0; run < RUNS; run++) {
  let c0 = process.cpuUsage();
  let t0 = performance.now();
  const result = replayEvents(events);
  const replaySeconds = (performance.now() - t0) / 1000;
  const replayCpu = cpuSeconds(process.cpuUsage(c0));
  rounds = result.rounds.length;
  findings = result.findings.length;
  c0 = process.cpuUsage();
  t0 = performance.now();
  for (const { facts, rules } of toSettle) lines += settleF3cpRound(facts, rules).lines.length;
  const settleSeconds = (performance.now() - t0) / 1000;
  const settleCpu = cpuSeconds(process.cpuUsage(c0));
  // the floor of any replay of this input: every event's table looked up, nothing else (the first touch of each
  // event in memory; the session is hundreds of MiB, so most of these are cache misses)
  t0 = performance.now();
  const byTable = new Map<string, number>();
  for (const e of events) {
    const id = e.data.header.tableId;
    byTable.set(id, (byTable.get(id) ?? 0) + 1);
  }
  const walkSeconds = (performance.now() - t0) / 1000;
  if (byTable.size === 0) throw new Error('no tables');
  c0 = process.cpuUsage();
  t0 = performance.now();
  const grouped = groupOnly(events);
  const groupSeconds = (performance.now() - t0) / 1000;
  const groupCpu = cpuSeconds(process.cpuUsage(c0));
  if (grouped.rounds === 0 || grouped.read < 0) throw new Error('nothing grouped');
  if (run === 0) continue; // warm-up
  walkRates.push(rounds / walkSeconds);
  groupRates.push(rounds / groupSeconds);
  groupCpuRates.push(rounds / groupCpu);
  replayRates.push(rounds / replaySeconds);
  settleRates.push(toSettle.length / settleSeconds);
  replayCpuRates.push(rounds / replayCpu);
  settleCpuRates.push(toSettle.length / settleCpu);
}
/** The memory rows, each scale in a child process; ratios to the first (1×) row. */
function memoryRows(): object[] {
  const scales = (process.env.BENCH_MEMORY_TABLES ?? '4,40,400')
    .split(',')
    .map(Number)
    .filter((n) => Number.isSafeInteger(n) && n > 0);
  const rows: Record<string, number>[] = [];
  for (const tables of scales) {
    const r = spawnSync(
      process.execPath,
      [
        '--expose-gc',
        '--import',
        REGISTER_TS,
        fileURLToPath(import.meta.url),
        'memory-part',
        String(tables),
        String(ROUNDS),
      ],
      { encoding: 'utf8', maxBuffer: 16 * MiB },
    );
    if (r.status !== 0) throw new Error(`memory part (${tables} tables) failed (${r.status}): ${r.stderr}`);
    rows.push(JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Record<string, number>);
  }
  const first = rows[0];
  return rows.map((row, i) => ({
    scale: first ? `${Math.round(row.tables! / first.tables!)}×` : '',
    ...row,
    // what each table added between the previous scale and this one: the fold's state per table, fixed parts apart
    retainedKiBPerAddedTable:
      i > 0
        ? Number(
            (
              ((row.replayRetainedMiB! - rows[i - 1]!.replayRetainedMiB!) * 1024) /
              (row.tables! - rows[i - 1]!.tables!)
            ).toFixed(1),
          )
        : null,
    // the baseline is the input: its heap grows with the events, the replay's retained state should not per table
    inputRatioToFirst: first ? Number((row.inputHeapMiB! / first.inputHeapMiB!).toFixed(2)) : null,
    retainedPerTableRatioToFirst: first
      ? Number((row.replayRetainedKiBPerTable! / first.replayRetainedKiBPerTable!).toFixed(2))
      : null,
    peakRssRatioToFirst: first ? Number((row.peakRssMiB! / first.peakRssMiB!).toFixed(2)) : null,
  }));
}

const replayMedian = median(replayRates);
const settleMedian = median(settleRates);
console.log(
  JSON.stringify({
    bench: 'pure in-memory replay (fold, derive, check), one core',
    events: events.length,
    rounds,
    roundsSettled: toSettle.length,
    findings,
    runs: replayRates.map((x) => Math.round(x)),
    medianRoundsPerSecond: Math.round(replayMedian),
    baselineSettleOnlyRuns: settleRates.map((x) => Math.round(x)),
    baselineSettleOnlyMedianRoundsPerSecond: Math.round(settleMedian),
    ratioToSettleOnly: Number((replayMedian / settleMedian).toFixed(3)),
    // the same rounds' events walked and grouped by table, nothing else: the ceiling a replay of this input has
    baselineWalkOnlyMedianRoundsPerSecond: Math.round(median(walkRates)),
    ratioToWalkOnly: Number((replayMedian / median(walkRates)).toFixed(3)),
    // the events grouped into their tables' rounds and read again at each round's end, nothing derived: the floor of
    // a fold that holds a round's events until it closes it (its ceiling)
    baselineGroupOnlyMedianRoundsPerSecond: Math.round(median(groupRates)),
    ratioToGroupOnly: Number((replayMedian / median(groupRates)).toFixed(3)),
    medianRunRatio: Number(median(replayRates.map((r, i) => r / settleRates[i]!)).toFixed(3)),
    perCpuSecond: {
      medianRoundsPerSecond: Math.round(median(replayCpuRates)),
      baselineSettleOnlyMedianRoundsPerSecond: Math.round(median(settleCpuRates)),
      ratioToSettleOnly: Number((median(replayCpuRates) / median(settleCpuRates)).toFixed(3)),
      baselineGroupOnlyMedianRoundsPerSecond: Math.round(median(groupCpuRates)),
      ratioToGroupOnly: Number((median(replayCpuRates) / median(groupCpuRates)).toFixed(3)),
    },
    target: TARGET,
    meetsTarget: replayMedian >= TARGET,
    linesSettled: lines,
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    heapUsedMiB: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
    memoryAsInputGrows: memoryRows(),
  }),
);
