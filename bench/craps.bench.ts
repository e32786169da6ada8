/**
 * CRAPS settlement throughput (Despacho 53/2010): throws settled per second on one core, each throw against a
 * full table of bets: 8 players, each with a Pass Line and a Don't Pass (with odds once a point is on), a Come
 * and a Don't Come (with odds once they have their own point), every one-throw bet, the Horn, the four Hard Ways
 * and the six Big numbers (about 30 bets a player, 240 a throw). Settling a throw = resolveThrow and the payout
 * of every bet on the layout, pre-generated so only that is timed.
 *
 * Baseline, measured in the same process right before: Fortune 3 Card Poker settlement (settleF3cpRound, 7 seats,
 * every bet type, as bench/settle.bench.ts), so that the figure can be read against the machine's load at the
 * time. Then the whole CRAPS fold (CrapsTable: the checks and the RoundDerived record too) on a simulated session,
 * throws judged per second and CPU µs per throw, without start states and with them (ReplayOptions.startStates:
 * each throw carries its start state), interleaved without, with, without, with …; the difference of the medians
 * is what the capture costs a throw. Prints each run and the medians; figures taken on a shared machine are under
 * load. BENCH_THROWS (default 20,000) throws of the settle part, BENCH_RUNS (default 7) runs of it; the fold runs
 * max(3, BENCH_RUNS / 2) pairs, the first of each kind counted out of the medians as a warm-up.
 */
import {
  CRAPS_2010,
  CRAPS_MODULE,
  DEFAULT_REPLAY_OPTIONS,
  EVERY_BET,
  F3CP_2025A,
  randomF3cpRound,
  resolveThrow,
  seededRng,
  settleF3cpRound,
  winningsOf,
  type BetState,
  type CrapsBetKind,
} from '@table-audit/rules';
import { simulateSession } from '@table-audit/simulator';

const THROWS = Number(process.env.BENCH_THROWS ?? 20_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const r = seededRng(53);
const POINTS = [4, 5, 6, 8, 9, 10];
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r.next() * xs.length)]!;
const ONE_THROW: CrapsBetKind[] = [
  'ANY_CRAPS',
  'ANY_SEVEN',
  'ELEVEN',
  'ACE_DEUCE',
  'ACES',
  'BOXCARS',
  'FIELD',
  'BIG',
  'SMALL',
  'HORN',
];

interface Layout {
  faces: [number, number];
  bets: { state: BetState; stake: number }[];
}

function fullTable(): Layout {
  const point = r.next() < 0.35 ? null : pick(POINTS);
  const bets: Layout['bets'] = [];
  const add = (
    kind: CrapsBetKind,
    p: number | null,
    n: number | null = null,
    stake = 5_000 * (1 + Math.floor(r.next() * 6)),
  ) => bets.push({ state: { kind, number: n, point: p }, stake });
  for (let player = 0; player < 8; player++) {
    add('PASS_LINE', point);
    add('DONT_PASS', point);
    if (point !== null) {
      add('PASS_ODDS', point, null, 30_000);
      add('DONT_PASS_ODDS', point, null, 30_000);
      const own = r.next() < 0.3 ? null : pick(POINTS);
      add('COME', own);
      add('DONT_COME', own);
      if (own !== null) {
        add('COME_ODDS', own, null, 30_000);
        add('DONT_COME_ODDS', own, null, 30_000);
      }
    }
    for (const k of ONE_THROW) add(k, null, null, k === 'HORN' ? 20_000 : 5_000);
    for (const n of [4, 6, 8, 10]) add('HARD_WAY', null, n);
    for (const n of POINTS) add('BIG_NUMBER', null, n, 30_000);
  }
  return { faces: [1 + Math.floor(r.next() * 6), 1 + Math.floor(r.next() * 6)], bets };
}

const layouts = Array.from({ length: THROWS }, fullTable);
const betsPerThrow = layouts.reduce((a, l) => a + l.bets.length, 0) / THROWS;
const f3cpRounds = Array.from({ length: THROWS }, () => randomF3cpRound(r, { seats: 7, ...EVERY_BET }));
const rounding = { unit: 1, mode: 'down' as const };

let sink = 0;
const median = (xs: number[]): number => {
  const warm = xs.slice(1).sort((a, b) => a - b);
  return warm[Math.floor(warm.length / 2)]!;
};
const baseline: number[] = [];
const craps: number[] = [];
/** per CPU second of this process (user + system), which a loaded machine disturbs less than the wall clock */
const crapsCpu: number[] = [];
const baselineCpu: number[] = [];
const cpuSeconds = (from: NodeJS.CpuUsage): number => {
  const u = process.cpuUsage(from);
  return (u.user + u.system) / 1e6;
};
for (let run = 0; run < RUNS; run++) {
  let t0 = performance.now();
  let c0 = process.cpuUsage();
  for (const facts of f3cpRounds) sink += settleF3cpRound(facts, F3CP_2025A).lines.length;
  baseline.push(THROWS / ((performance.now() - t0) / 1000));
  baselineCpu.push(THROWS / cpuSeconds(c0));
  t0 = performance.now();
  c0 = process.cpuUsage();
  for (const l of layouts)
    for (const b of l.bets) {
      const step = resolveThrow(CRAPS_2010, b.state, l.faces, 2);
      if (step.resolution === 'WIN') sink += winningsOf(b.stake, step.pays!, rounding);
      else if (step.resolution) sink += 1;
    }
  craps.push(THROWS / ((performance.now() - t0) / 1000));
  crapsCpu.push(THROWS / cpuSeconds(c0));
}

// the whole fold: checks and records too, on a simulated session with faults
const session = simulateSession({
  game: 'CRAPS',
  seed: 53,
  tables: 20,
  roundsPerTable: 500,
  faultRate: 0.05,
  handledRate: 0.03,
});
const folds: number[] = [];
const foldsCpu: number[] = [];
const captured: number[] = [];
const capturedCpu: number[] = [];
/** the fold over the session, with start states (ReplayOptions.startStates) or without: [throws/s, CPU µs/throw] */
const foldOnce = (startStates: boolean): [number, number] => {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  let units = 0;
  for (const t of session.tables) {
    const fold = CRAPS_MODULE.newTable(t.tableId, { ...DEFAULT_REPLAY_OPTIONS, startStates });
    for (const e of t.events) units += fold.apply(e).length;
    units += fold.finish().units.length;
  }
  return [units / ((performance.now() - t0) / 1000), (cpuSeconds(c0) * 1e6) / units];
};
// interleaved: without, with, without, with … so that the machine's load falls on both alike
for (let run = 0; run < Math.max(3, Math.floor(RUNS / 2)); run++) {
  const [rate, cpu] = foldOnce(false);
  folds.push(rate);
  foldsCpu.push(cpu);
  const [rateOn, cpuOn] = foldOnce(true);
  captured.push(rateOn);
  capturedCpu.push(cpuOn);
}

const crapsMedian = median(craps);
const baselineMedian = median(baseline);
console.log(
  JSON.stringify({
    bench: 'craps settle, a full table of bets (8 players), one core',
    throws: THROWS,
    betsPerThrow: Math.round(betsPerThrow),
    runs: craps.map((x) => Math.round(x)),
    medianThrowsPerSecond: Math.round(crapsMedian),
    medianBetsPerSecond: Math.round(crapsMedian * betsPerThrow),
    baseline: {
      what: 'f3cp settleF3cpRound, 7 seats, every bet type, same process, interleaved runs',
      runs: baseline.map((x) => Math.round(x)),
      medianRoundsPerSecond: Math.round(baselineMedian),
    },
    ratioToBaseline: Number((crapsMedian / baselineMedian).toFixed(2)),
    perCpuSecond: {
      medianThrowsPerSecond: Math.round(median(crapsCpu)),
      baselineMedianRoundsPerSecond: Math.round(median(baselineCpu)),
    },
    fold: {
      what: 'CrapsTable.apply over a simulated session (20 tables x 500 throws): checks and RoundDerived records included',
      runs: folds.map((x) => Math.round(x)),
      medianThrowsPerSecond: Math.round(median(folds)),
      cpuMicrosPerThrow: foldsCpu.map((x) => Number(x.toFixed(1))),
      medianCpuMicrosPerThrow: Number(median(foldsCpu).toFixed(1)),
    },
    foldWithStartStates: {
      what: 'the same fold with ReplayOptions.startStates (each throw carries its start state), interleaved with the fold above',
      runs: captured.map((x) => Math.round(x)),
      medianThrowsPerSecond: Math.round(median(captured)),
      cpuMicrosPerThrow: capturedCpu.map((x) => Number(x.toFixed(1))),
      medianCpuMicrosPerThrow: Number(median(capturedCpu).toFixed(1)),
      captureCpuMicrosPerThrow: Number((median(capturedCpu) - median(foldsCpu)).toFixed(1)),
    },
    sink,
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
