/**
 * Simulator speed: the labelled session of the detection proof (205 tables, faults of every kind, handled
 * irregularities, a doubling bettor and colluders), generated RUNS times in one process. Prints seconds per run,
 * rounds/s and events/s of the median run, and peak RSS.
 */
import { simulateSession } from '@table-audit/simulator';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const options = {
  seed: 2025,
  tables: 205,
  roundsPerTable: 50,
  faultRate: 0.12,
  handledRate: 0.06,
  bettingSystemTables: 2,
  collusionTables: 3,
  collusionRounds: 400,
};

const seconds: number[] = [];
let events = 0;
let rounds = 0;
for (let run = 0; run < RUNS; run++) {
  const t0 = performance.now();
  const s = simulateSession(options);
  seconds.push((performance.now() - t0) / 1000);
  events = s.events.length;
  rounds = new Set(s.events.map((e) => e.data.header.roundId).filter((r) => r !== null)).size;
}
const median = [...seconds].sort((a, b) => a - b)[Math.floor(seconds.length / 2)]!;
console.log(
  JSON.stringify({
    bench: 'simulator, the detection session (205 tables, every fault kind)',
    rounds,
    events,
    runsSeconds: seconds.map((x) => Number(x.toFixed(2))),
    medianSeconds: Number(median.toFixed(2)),
    roundsPerSecond: Math.round(rounds / median),
    eventsPerSecond: Math.round(events / median),
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
