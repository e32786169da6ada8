/**
 * Not a benchmark run by `pnpm bench` (it picks only *.bench.ts): what recording start states costs the bulk replay
 * and what resuming a round saves (issue 10), per game with a resume (packages/rules: 13 Cards, Mah-Jong, F3CP
 * 2025 and 2008, CRAPS).
 *   node --import ./apps/cli/bin/register-ts.mjs bench/start-states.ts
 * For each game, on a simulated session (faults and handled irregularities on), each table folded the bulk
 * replay's way (ReplayOptions.lean) without start states (A) and with them (B), interleaved A, B, A, B over
 * BENCH_RUNS pairs after a warm-up: µs of CPU per unit (this process's user + system time; a shared machine
 * disturbs it less than the wall clock) and wall µs per unit, best and median of each, and B − A, the capture's
 * cost; then the start states' size in bytes per unit (mean, median, largest). Last, on one F3CP table of
 * BENCH_LONG rounds: deriving its last round by folding the table from its first event, beside resuming from that
 * round's start state (parse, check, fold the round's own events), CPU µs each (best of BENCH_RUNS).
 *   node --import ./apps/cli/bin/register-ts.mjs bench/start-states.ts --repeat GAME off|on
 * instead folds GAME's session (20 tables × 100 units, seed 24) 30 times, lean, without (off) or with (on) start
 * states, each unit dropped once counted (as a replay drops a batch's units once written), and prints CPU µs per
 * unit: run off, on, off, on in separate processes for a steadier A/B under load.
 */
import { simulateSession } from '@table-audit/simulator';
import {
  DEFAULT_REPLAY_OPTIONS,
  gameModuleFor,
  type DerivedUnit,
  type GameModule,
  type ReplayOptions,
  type TableEvent,
} from '@table-audit/rules';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const LONG = Number(process.env.BENCH_LONG ?? 800);
const cpu = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const f1 = (x: number) => x.toFixed(1);

interface Case {
  readonly label: string;
  readonly game: string;
  readonly start?: number;
  readonly tables: number;
  readonly rounds: number;
}

const CASES: Case[] = [
  { label: '13 Cards', game: 'THIRTEEN_CARDS', tables: 20, rounds: 100 },
  { label: 'Mah-Jong', game: 'MAHJONG', tables: 20, rounds: 100 },
  { label: 'F3CP 2025', game: 'F3CP', tables: 20, rounds: 100 },
  { label: 'F3CP 2008', game: 'F3CP', start: Date.parse('2019-06-01T04:00:00Z'), tables: 20, rounds: 100 },
  { label: 'CRAPS', game: 'CRAPS', tables: 20, rounds: 100 },
];

function foldTables(
  module: GameModule,
  tables: readonly { tableId: string; events: TableEvent[] }[],
  options: ReplayOptions,
): DerivedUnit[] {
  const units: DerivedUnit[] = [];
  for (const t of tables) {
    const fold = module.newTable(t.tableId, options);
    for (const e of t.events) for (const u of fold.apply(e)) units.push(u);
    units.push(...fold.finish().units);
  }
  return units;
}

const repeat = process.argv.indexOf('--repeat');
if (repeat > 0) {
  const game = process.argv[repeat + 1] ?? 'F3CP';
  const on = process.argv[repeat + 2] === 'on';
  const s = simulateSession({
    game,
    seed: 24,
    tables: 20,
    roundsPerTable: 100,
    faultRate: 0.1,
    handledRate: 0.05,
  });
  const module = gameModuleFor(game)!;
  const options: ReplayOptions = { ...DEFAULT_REPLAY_OPTIONS, lean: true, startStates: on };
  const c0 = cpu();
  let units = 0;
  // each unit dropped once counted, as a replay drops a batch's units once written (nothing kept across the run)
  for (let r = 0; r < 30; r++)
    for (const t of s.tables) {
      const fold = module.newTable(t.tableId, options);
      for (const e of t.events) units += fold.apply(e).length;
      units += fold.finish().units.length;
    }
  console.log(
    `${game} start states ${on ? 'on' : 'off'}: ${f1((cpu() - c0) / units)} CPU µs per unit over ${units} units (under load)`,
  );
  process.exit(0);
}

console.log(
  `start states: capture cost and size per unit (figures under load: a 2-core machine shared with other work; ${RUNS} interleaved pairs after a warm-up)`,
);
for (const c of CASES) {
  const s = simulateSession({
    game: c.game,
    seed: 24,
    tables: c.tables,
    roundsPerTable: c.rounds,
    faultRate: 0.1,
    handledRate: 0.05,
    ...(c.start ? { start: c.start, tableIdPrefix: '2019-' } : {}),
  });
  const module = gameModuleFor(c.game)!;
  const plain: ReplayOptions = { ...DEFAULT_REPLAY_OPTIONS, lean: true };
  const capture: ReplayOptions = { ...plain, startStates: true };
  foldTables(module, s.tables, plain);
  foldTables(module, s.tables, capture); // warm-up
  const a = { cpu: [] as number[], wall: [] as number[] };
  const b = { cpu: [] as number[], wall: [] as number[] };
  let units: DerivedUnit[] = [];
  for (let r = 0; r < RUNS; r++)
    for (const [into, options] of [
      [a, plain],
      [b, capture],
    ] as const) {
      const c0 = cpu();
      const w0 = performance.now();
      const got = foldTables(module, s.tables, options);
      const w = (performance.now() - w0) * 1000;
      const cu = cpu() - c0;
      into.cpu.push(cu / got.length);
      into.wall.push(w / got.length);
      if (options.startStates) units = got;
    }
  const bytes = units.map((u) => (u.startState ? Buffer.byteLength(u.startState) : 0));
  const withState = bytes.filter((x) => x > 0);
  console.log(
    `${c.label.padEnd(10)} ${units.length} units | CPU µs/unit without ${f1(Math.min(...a.cpu))} (median ${f1(median(a.cpu))}), with ${f1(Math.min(...b.cpu))} (median ${f1(median(b.cpu))}), capture ${f1(median(b.cpu) - median(a.cpu))} | wall µs/unit without ${f1(median(a.wall))}, with ${f1(median(b.wall))} | start state bytes/unit mean ${Math.round(withState.reduce((x, y) => x + y, 0) / withState.length)}, median ${median(withState)}, largest ${Math.max(...withState)}; ${units.length - withState.length} units without`,
  );
}

// one long F3CP table: its last round, folded from the table's start beside resumed from its start state
{
  const s = simulateSession({
    seed: 24,
    tables: 1,
    roundsPerTable: LONG,
    faultRate: 0.05,
    handledRate: 0.02,
  });
  const t = s.tables[0]!;
  const module = gameModuleFor('F3CP')!;
  const units = foldTables(module, [t], { ...DEFAULT_REPLAY_OPTIONS, lean: true, startStates: true });
  const last = units[units.length - 1]!;
  const state = last.startState!;
  const before = (JSON.parse(state) as { before: string }).before;
  const from = t.events.findIndex((e) => e.data.header.eventId === before);
  const full: number[] = [];
  const resumed: number[] = [];
  const run = (fold: ReturnType<GameModule['newTable']>, events: readonly TableEvent[]) => {
    for (const e of events) if (fold.apply(e).some((u) => u.roundId === last.roundId)) return true;
    return fold.finish().units.some((u) => u.roundId === last.roundId);
  };
  for (let r = 0; r <= RUNS; r++) {
    let c0 = cpu();
    if (!run(module.newTable(t.tableId, DEFAULT_REPLAY_OPTIONS), t.events)) throw new Error('not derived');
    if (r) full.push(cpu() - c0);
    c0 = cpu();
    if (!run(module.resumeTable!(t.tableId, state, DEFAULT_REPLAY_OPTIONS), t.events.slice(from)))
      throw new Error('not resumed');
    if (r) resumed.push(cpu() - c0);
  }
  console.log(
    `F3CP table of ${units.length} rounds, its last round: folded from the table's first event ${Math.round(Math.min(...full))} CPU µs (median ${Math.round(median(full))}), resumed from its start state (${Buffer.byteLength(state)} bytes) ${Math.round(Math.min(...resumed))} CPU µs (median ${Math.round(median(resumed))}) — under load`,
  );
}
