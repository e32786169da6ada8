/**
 * Settlement throughput: 7-seat Fortune 3 Card Poker rounds with every bet type (Ante/Play, Pair Plus, Six Card
 * Bonus, Progressive Jackpot), pre-generated so only settleF3cpRound is timed. One core (the main thread).
 * Target: at least 200,000 rounds/s. Prints rounds/s per run, the median, and peak RSS.
 */
import { EVERY_BET, F3CP_2025A, randomF3cpRound, seededRng, settleF3cpRound } from '@table-audit/rules';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const r = seededRng(7);
const rounds = Array.from({ length: ROUNDS }, () => randomF3cpRound(r, { seats: 7, ...EVERY_BET }));

let sink = 0;
const rates: number[] = [];
for (let run = 0; run < RUNS; run++) {
  const t0 = performance.now();
  for (const facts of rounds) sink += settleF3cpRound(facts, F3CP_2025A).lines.length;
  const s = (performance.now() - t0) / 1000;
  rates.push(ROUNDS / s);
}
const warm = rates.slice(1).sort((a, b) => a - b);
const median = warm[Math.floor(warm.length / 2)]!;
console.log(
  JSON.stringify({
    bench: 'f3cp settle, 7 seats, every bet type, one core',
    rounds: ROUNDS,
    runs: rates.map((x) => Math.round(x)),
    medianRoundsPerSecond: Math.round(median),
    target: 200_000,
    meetsTarget: median >= 200_000,
    linesSettled: sink,
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
