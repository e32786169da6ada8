/**
 * Simulator speed: the labelled session of the detection proof (205 tables, faults of every kind, handled
 * irregularities, a doubling bettor and colluders), generated RUNS times in one process. Prints seconds per run,
 * rounds/s and events/s of the median run, and peak RSS.
 */
import { simulateSession } from '@table-audit/simulator';
import { median, peakRssMiB } from './lib/measure.ts';

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
const medianSeconds = median(seconds);
console.log(
  JSON.stringify({
    bench: 'simulator, the detection session (205 tables, every fault kind)',
    rounds,
    events,
    runsSeconds: seconds.map((x) => Number(x.toFixed(2))),
    medianSeconds: Number(medianSeconds.toFixed(2)),
    roundsPerSecond: Math.round(rounds / medianSeconds),
    eventsPerSecond: Math.round(events / medianSeconds),
    peakRssMiB: peakRssMiB(),
  }),
);
