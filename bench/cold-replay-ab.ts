/**
 * Not a benchmark (run-bench picks only *.bench.ts): the API's first replays without HTTP, for A/B comparisons of
 * how a round's first replay is made (services/api's RoundDerivations) on a loaded machine. Over the store of
 * bench/api.bench.ts (BENCH_API_DIR: its month, replayed so that its records carry start states), it asks
 * `RoundDerivations.answer` for the first BENCH_COLD_ROUNDS (default 2,000) rounds of that benchmark's shuffled
 * order one at a time, each answer serialized as the route does, once per policy and alternately (A B A B …,
 * BENCH_PAIRS times), each policy with a new RoundDerivations (nothing folded or kept before). Prints µs of CPU a
 * request (this process's user + system), the events read a request and how the first replays were made.
 *   A: every table folded from its first event (resume: false)
 *   B: a round's first replay resumed from its record (resume: true, the default)
 *   BENCH_COLD_GAPS=64,0: B again with these RESUME_GAPs (RoundDerivationsOptions.resumeGap)
 *   BENCH_COLD_READ_AHEAD=N: the store's dictionaryReadAhead (default 1, as the server's replay workers)
 *   BENCH_COLD_PROFILE=FILE: instead, B once under V8's CPU profiler, written to FILE (.cpuprofile)
 *   (BENCH_COLD_PROFILE_GAP=N: with that RESUME_GAP; BENCH_COLD_PROFILE_RESUME=0: A instead)
 *   BENCH_API_DIR=/tmp/dir node --import ./apps/cli/bin/register-ts.mjs bench/cold-replay-ab.ts
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Session } from 'node:inspector';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { RoundDerivations, type RoundDerivationsOptions } from '../services/api/src/round-derivations.ts';
import { derivedAnswer, replayPayload, replaySerializer } from '../services/api/src/replay-body.ts';
import { StoreIndex } from '../services/api/src/store-index.ts';

const dir = process.env.BENCH_API_DIR;
if (!dir) throw new Error('BENCH_API_DIR: the directory of bench/api.bench.ts’s store');
const N = Number(process.env.BENCH_COLD_ROUNDS ?? 2_000);
const PAIRS = Number(process.env.BENCH_PAIRS ?? 2);

// opened as the server's replay workers open it (replay-worker.ts)
const store = new SqliteEventStore(join(dir, 'events.sqlite'), {
  readOnly: true,
  dictionaryReadAhead: Number(process.env.BENCH_COLD_READ_AHEAD ?? 1),
});
const index = new StoreIndex(store);
let t = performance.now();
await index.refresh();
console.log(`index read in ${((performance.now() - t) / 1000).toFixed(1)} s`);
// the rounds in api.bench.ts's order: every round of a table stream, then its fixed shuffle
const rounds: string[] = [];
const seen = new Set<string>();
for await (const e of store.readAll({ streams: (s) => s.startsWith('table-') })) {
  const roundId = (e.data as { header?: { roundId?: string | null } }).header?.roundId;
  if (roundId && !seen.has(roundId)) {
    seen.add(roundId);
    rounds.push(roundId);
  }
}
let seed = 7;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
for (let i = rounds.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [rounds[i], rounds[j]] = [rounds[j]!, rounds[i]!];
}
const asked = rounds.filter((r) => !r.startsWith('long-')).slice(0, N);
const serialize = replaySerializer();

async function run(options: RoundDerivationsOptions) {
  const d = new RoundDerivations(store, derivedAnswer, options);
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  let bytes = 0;
  for (const roundId of asked) {
    const place = (await index.round(roundId, null))!;
    const a = await d.answer(roundId, place.tableId, [], place.game, undefined, index.resumeOf(roundId));
    bytes += serialize(replayPayload(roundId, place, a)).length;
  }
  const c = process.cpuUsage(c0);
  return {
    cpuUs: (c.user + c.system) / asked.length,
    wallMs: performance.now() - w0,
    eventsRead: d.stats.eventsRead / asked.length,
    stats: {
      folds: d.stats.folds,
      continued: d.stats.continued,
      resumed: d.stats.resumed,
      fallbacks: d.stats.resumeFallbacks,
    },
    bytes: bytes / asked.length,
  };
}

console.log(
  `${asked.length.toLocaleString('en-US')} rounds of ${rounds.length.toLocaleString('en-US')}, one at a time; load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')} (2 cores, shared: figures under load)`,
);
const profile = process.env.BENCH_COLD_PROFILE;
if (profile) {
  const gap = process.env.BENCH_COLD_PROFILE_GAP;
  const options =
    process.env.BENCH_COLD_PROFILE_RESUME === '0'
      ? { resume: false }
      : { resume: true, ...(gap === undefined ? {} : { resumeGap: Number(gap) }) };
  await run(options); // warm-up
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, params, (err, r) => (err ? reject(err) : resolve(r))),
    );
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 200 });
  await post('Profiler.start');
  const r = await run(options);
  const { profile: p } = (await post('Profiler.stop')) as { profile: object };
  writeFileSync(profile, JSON.stringify(p));
  console.log(`B under the profiler: ${r.cpuUs.toFixed(0)} µs CPU a request; profile in ${profile}`);
} else {
  await run({ resume: false }); // warm-up of both
  await run({ resume: true });
  for (let i = 0; i < PAIRS; i++)
    for (const [name, options] of [
      ['A (fold)', { resume: false }],
      ['B (resume)', { resume: true }],
      ...(process.env.BENCH_COLD_GAPS ?? '')
        .split(',')
        .filter((g) => g !== '')
        .map((g) => [`B gap ${g}`, { resume: true, resumeGap: Number(g) }] as const),
    ] as const) {
      t = performance.now();
      const r = await run(options);
      console.log(
        `${name.padEnd(11)} ${r.cpuUs.toFixed(0).padStart(5)} µs CPU a request, ${r.wallMs.toFixed(0)} ms wall, ${r.eventsRead.toFixed(1)} events read a request, ${(r.bytes / 1000).toFixed(1)} KB a body; ${JSON.stringify(r.stats)}`,
      );
    }
}
console.log(
  `load average at the end ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
await store.close();
