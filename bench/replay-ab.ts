/**
 * Not a benchmark (run-bench picks only *.bench.ts): an A/B comparison of the pure replay in one process. A is the
 * replay of another checkout of the project (a directory with its own node_modules, e.g. an older commit's tree),
 * B this one; both replay the same session (replay-cpu.ts's: seed 11, BENCH_TABLES + 2 collusion tables ×
 * BENCH_ROUNDS rounds) alternately, A B A B …, BENCH_PAIRS times after a warm-up of each, so that the load of a
 * shared machine falls on both alike. Prints µs of CPU a round of each (user + system of this process), the ratio
 * B/A of each pair and their median, and checks that both found the same findings and records.
 *   node --import ./apps/cli/bin/register-ts.mjs bench/replay-ab.ts /path/to/other/checkout
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { replayEvents, type ReplayResult } from '@table-audit/replay';
import type { TableEvent } from '@table-audit/rules';
import { pureReplaySession } from './lib/pure-input.ts';

const other = process.argv[2];
if (!other)
  throw new Error('usage: bench/replay-ab.ts OTHER_CHECKOUT (the A side: a tree with node_modules)');
const a = (await import(pathToFileURL(join(other, 'services/replay/src/index.ts')).href)) as {
  replayEvents: (events: readonly TableEvent[]) => ReplayResult;
};
const TABLES = Number(process.env.BENCH_TABLES ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 50);
const PAIRS = Number(process.env.BENCH_PAIRS ?? 8);

const events = pureReplaySession(TABLES, ROUNDS).events;

const digest = (r: ReplayResult): string =>
  createHash('sha256')
    .update(JSON.stringify(r.findings))
    .update(JSON.stringify(r.rounds.map((x) => x.record)))
    .digest('hex');
const cpuUsPerRound = (replay: (e: readonly TableEvent[]) => ReplayResult): [number, string] => {
  const c0 = process.cpuUsage();
  const r = replay(events);
  const u = process.cpuUsage(c0);
  return [(u.user + u.system) / r.rounds.length, digest(r)];
};

const [, digestA] = cpuUsPerRound(a.replayEvents); // warm-up of each
const [, digestB] = cpuUsPerRound(replayEvents);
if (digestA !== digestB)
  throw new Error(`A and B differ: findings and records ${digestA} against ${digestB}`);
const pairs: { a: number; b: number; ratio: number }[] = [];
for (let i = 0; i < PAIRS; i++) {
  const [ua] = cpuUsPerRound(a.replayEvents);
  const [ub] = cpuUsPerRound(replayEvents);
  pairs.push({ a: +ua.toFixed(1), b: +ub.toFixed(1), ratio: +(ub / ua).toFixed(3) });
}
const ratios = pairs.map((p) => p.ratio).sort((x, y) => x - y);
console.log(
  JSON.stringify({
    events: events.length,
    sameFindingsAndRecords: digestA,
    cpuUsPerRound: pairs,
    medianRatioBToA: ratios[Math.floor((ratios.length - 1) / 2)],
    bestA: Math.min(...pairs.map((p) => p.a)),
    bestB: Math.min(...pairs.map((p) => p.b)),
  }),
);
