/**
 * Not a benchmark (run-bench picks only *.bench.ts): the pure replay's cost per round on the session of
 * replay-memory.bench.ts (seed 11, BENCH_TABLES + 2 collusion tables × BENCH_ROUNDS rounds), for A/B comparisons
 * of the rules' hot path on a loaded machine. It replays the session BENCH_RUNS times after one warm-up and prints
 * µs of CPU per round (this process's user + system time over the rounds: a shared machine disturbs it less than
 * the wall clock) for each run, their best and median, and beside them, in the same process, the grouping
 * baseline of replay-memory.bench.ts (every event appended to its table's open round, each round's events read
 * again when it ends, nothing derived), and the same grouping over the events held as columns (typed arrays,
 * ids interned outside the timing).
 *   node --import ./apps/cli/bin/register-ts.mjs bench/replay-cpu.ts [--alloc]
 * --alloc: instead, one replay under V8's sampling heap profiler (every 4 KiB, objects collected by either GC
 * included): what a replay allocates in all, per round, and the twenty largest allocating functions.
 * --profile FILE: instead, three replays (after a warm-up) under V8's CPU profiler (a sample every 200 µs), written to
 * FILE (.cpuprofile): the replay alone, without the simulation or the baseline.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { replayEvents } from '@table-audit/replay';
import type { TableEvent } from '@table-audit/rules';
import { groupOnly, pureReplaySession } from './lib/pure-input.ts';

const TABLES = Number(process.env.BENCH_TABLES ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 50);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const session = pureReplaySession(TABLES, ROUNDS);
const events = session.events;
const cpuUs = (u: NodeJS.CpuUsage): number => u.user + u.system;

/** The events as columns: table, round (-1: none) and type numbers (ids interned) and the time of each event. */
interface Columns {
  table: Int32Array;
  round: Int32Array;
  type: Uint8Array;
  time: Float64Array;
  tables: number;
}

function toColumns(list: readonly TableEvent[]): Columns {
  const n = list.length;
  const c: Columns = {
    table: new Int32Array(n),
    round: new Int32Array(n),
    type: new Uint8Array(n),
    time: new Float64Array(n),
    tables: 0,
  };
  const tables = new Map<string, number>();
  const rounds = new Map<string, number>();
  const types = new Map<string, number>();
  const intern = (m: Map<string, number>, k: string): number => {
    let v = m.get(k);
    if (v === undefined) m.set(k, (v = m.size));
    return v;
  };
  for (let i = 0; i < n; i++) {
    const e = list[i]!;
    const h = e.data.header;
    c.table[i] = intern(tables, h.tableId);
    c.round[i] = h.roundId === null ? -1 : intern(rounds, h.roundId);
    c.type[i] = intern(types, e.type);
    c.time[i] = h.eventTime;
  }
  c.tables = tables.size;
  settledType = types.get('RoundSettled') ?? 255;
  return c;
}
/** the type number of RoundSettled in the columns (255: none) */
let settledType = 255;

/**
 * The grouping baseline over the events held as columns (what issue 8's "events held as columns" would give the
 * fold to reach), made outside the timing: each event's index appended to its table's open round, each round's
 * events read again (type and time) when it ends. Returns the same kind of sum as groupOnly.
 */
function groupColumns(c: Columns): number {
  const openRound = new Int32Array(c.tables).fill(-1);
  const members: number[][] = Array.from({ length: c.tables }, () => []);
  let read = 0;
  const close = (list: number[]) => {
    for (let k = 0; k < list.length; k++) {
      const i = list[k]!;
      read += (c.time[i]! & 1) + (c.type[i] === settledType ? 1 : 0);
    }
    while (list.length) list.pop();
  };
  for (let i = 0; i < c.table.length; i++) {
    const t = c.table[i]!;
    const r = c.round[i]!;
    const list = members[t]!;
    if (r !== -1 && r !== openRound[t]) {
      if (list.length) close(list);
      openRound[t] = r;
    }
    list.push(i);
  }
  for (const list of members) if (list.length) close(list);
  return read;
}

interface Frame {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: Frame[];
}

const inspector = new Session();
const post = (method: string, params?: object) =>
  new Promise<unknown>((resolve, reject) =>
    inspector.post(method, params, (err, res) => (err ? reject(err) : resolve(res))),
  );

async function cpuProfile(file: string): Promise<void> {
  replayEvents(events); // warm-up
  inspector.connect();
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 200 });
  await post('Profiler.start');
  for (let i = 0; i < 3; i++) replayEvents(events);
  const { profile } = (await post('Profiler.stop')) as { profile: unknown };
  writeFileSync(file, JSON.stringify(profile));
}

async function allocation(): Promise<void> {
  replayEvents(events); // warm-up: the shared decision tables and the compiled code are not the replay's
  inspector.connect();
  await post('HeapProfiler.enable');
  await post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  const rounds = replayEvents(events).rounds.length;
  const { profile } = (await post('HeapProfiler.stopSampling')) as { profile: { head: Frame } };
  const bySite = new Map<string, number>();
  let total = 0;
  const name = (f: Frame) => {
    const c = f.callFrame;
    return `${c.functionName || '(anonymous)'} ${c.url.split('/').slice(-2).join('/')}:${c.lineNumber + 1}`;
  };
  // a builtin (Map, Set, an iterator's next, …) is named with the function that called it
  const walk = (f: Frame, caller: string) => {
    total += f.selfSize;
    const key = f.callFrame.url ? name(f) : `${name(f)} in ${caller}`;
    bySite.set(key, (bySite.get(key) ?? 0) + f.selfSize);
    for (const c of f.children) walk(c, f.callFrame.url ? name(f) : caller);
  };
  walk(profile.head, '');
  const MiB = 2 ** 20;
  console.log(
    JSON.stringify({
      events: events.length,
      rounds,
      allocatedMiB: +(total / MiB).toFixed(1),
      allocatedKiBPerRound: +(total / 1024 / rounds).toFixed(1),
      top: [...bySite]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 20)
        .map(([site, bytes]) => `${(bytes / MiB).toFixed(1)} MiB ${site}`),
    }),
  );
}

const profileAt = process.argv.indexOf('--profile');
if (profileAt > 0) await cpuProfile(process.argv[profileAt + 1]!);
else if (process.argv.includes('--alloc')) await allocation();
else {
  const columns = toColumns(events);
  const replay: number[] = [];
  const group: number[] = [];
  const groupCols: number[] = [];
  let rounds = 0;
  for (let run = 0; run <= RUNS; run++) {
    let c0 = process.cpuUsage();
    rounds = replayEvents(events).rounds.length;
    const r = cpuUs(process.cpuUsage(c0)) / rounds;
    c0 = process.cpuUsage();
    if (groupOnly(events).read < 0) throw new Error('nothing grouped');
    const g = cpuUs(process.cpuUsage(c0)) / rounds;
    c0 = process.cpuUsage();
    if (groupColumns(columns) < 0) throw new Error('nothing grouped');
    const gc = cpuUs(process.cpuUsage(c0)) / rounds;
    if (run === 0) continue; // warm-up
    replay.push(r);
    group.push(g);
    groupCols.push(gc);
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
  const f = (x: number) => +x.toFixed(1);
  console.log(
    JSON.stringify({
      events: events.length,
      rounds,
      replayCpuUsPerRound: replay.map(f),
      bestReplayCpuUsPerRound: f(Math.min(...replay)),
      medianReplayCpuUsPerRound: f(med(replay)),
      baselineGroupOnlyCpuUsPerRound: f(med(group)),
      ratioToGroupOnly: +(med(replay) / med(group)).toFixed(2),
      // the same grouping over the events held as columns (typed arrays, ids interned): what reaching them would cost
      baselineGroupColumnsCpuUsPerRound: f(med(groupCols)),
    }),
  );
}
