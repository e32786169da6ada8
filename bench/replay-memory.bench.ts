/**
 * Pure in-memory replay throughput (printed, not asserted): the fold, derivation and every check of replayEvents,
 * on one core, over a session built once (no store, no I/O). Each run replays the whole session, then settles the
 * same rounds' facts with settleF3cpRound alone: the settlement-only rate, measured in the same run, is the
 * baseline the replay is compared with (these machines are shared, so figures of different runs are not
 * comparable; the ratio is). Prints rounds/s per run (wall clock, and per CPU second of this process, which a
 * loaded machine disturbs less), the medians, the ratio and peak memory.
 * Target: at least 40,000 rounds/s per core.
 *   BENCH_TABLES (default 200) × BENCH_ROUNDS (50) rounds, plus BENCH_COLLUSION_TABLES (2) tables of colluders
 *   playing 400 rounds each; BENCH_RUNS (7) runs, the first a warm-up left out of the medians.
 */
import { replayEvents, TableFolds } from '@table-audit/replay';
import {
  settleF3cpRound,
  type F3cpRoundFacts,
  type F3cpRuleSet,
  type ReplayedRound,
} from '@table-audit/rules';
import { simulateSession } from '@table-audit/simulator';

const TABLES = Number(process.env.BENCH_TABLES ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 50);
const COLLUSION_TABLES = Number(process.env.BENCH_COLLUSION_TABLES ?? 2);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const TARGET = 40_000;

const session = simulateSession({
  seed: 11,
  tables: TABLES + COLLUSION_TABLES,
  roundsPerTable: ROUNDS,
  faultRate: 0.05,
  handledRate: 0.02,
  bettingSystemTables: 2,
  collusionTables: COLLUSION_TABLES,
  collusionRounds: 400,
});
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
  if (run === 0) continue; // warm-up
  replayRates.push(rounds / replaySeconds);
  settleRates.push(toSettle.length / settleSeconds);
  replayCpuRates.push(rounds / replayCpu);
  settleCpuRates.push(toSettle.length / settleCpu);
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
    medianRunRatio: Number(median(replayRates.map((r, i) => r / settleRates[i]!)).toFixed(3)),
    perCpuSecond: {
      medianRoundsPerSecond: Math.round(median(replayCpuRates)),
      baselineSettleOnlyMedianRoundsPerSecond: Math.round(median(settleCpuRates)),
      ratioToSettleOnly: Number((median(replayCpuRates) / median(settleCpuRates)).toFixed(3)),
    },
    target: TARGET,
    meetsTarget: replayMedian >= TARGET,
    linesSettled: lines,
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    heapUsedMiB: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
  }),
);
