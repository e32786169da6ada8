/**
 * A probe of the readings kept ready's preparation (tool, not in `pnpm bench`): one table of a store derived in this
 * thread under the register's readings and every reading of its game (`deriveTableReadings`, what each preparing
 * worker does for a table, nothing written), with its wall and CPU time and CPU µs per event; meant to be run under
 * a CPU profile. The table is derived `--repeat` times (default 2: the first in a fresh process also pays the
 * one-time costs, the rule sets' tables and the JIT's warming), each reported; `--profile FILE` writes a
 * .cpuprofile of the last one only (the inspector's profiler, as `node --cpu-prof` would, started around it).
 * With `--top FILE.cpuprofile` it prints the top self-time functions of a profile instead.
 *
 *   node --import ./apps/cli/bin/register-ts.mjs bench/readings-ready-probe.ts STORE_DIR [TABLE_ID] [--repeat N] [--profile FILE]
 *   node --import ./apps/cli/bin/register-ts.mjs bench/readings-ready-probe.ts --top DIR/CPU.….cpuprofile [N]
 *
 * STORE_DIR holds events.sqlite (opened read-only); TABLE_ID defaults to the table stream with the most events.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { deriveTableReadings } from '@table-audit/replay';
import { cpuSeconds } from './lib/measure.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

/** The functions with the most self time in a .cpuprofile (samples weighted by their time deltas), then the files. */
function top(file: string, n: number): void {
  const p = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(p.nodes.map((x) => [x.id, x]));
  const short = (url: string) => url.replace(/^.*\/(services|packages|node_modules)\//, '$1/');
  const self = new Map<string, number>();
  const byFile = new Map<string, number>();
  let total = 0;
  p.samples.forEach((id, i) => {
    const f = byId.get(id)!.callFrame;
    const key =
      `${f.functionName || '(anonymous)'} ${f.url ? `${short(f.url)}:${f.lineNumber + 1}` : ''}`.trim();
    const where = f.url ? short(f.url) : '(no script: native, GC, idle)';
    const dt = p.timeDeltas[i] ?? 0;
    self.set(key, (self.get(key) ?? 0) + dt);
    byFile.set(where, (byFile.get(where) ?? 0) + dt);
    total += dt;
  });
  const line = ([k, us]: [string, number]) =>
    console.log(
      `${((100 * us) / total).toFixed(1).padStart(5)} %  ${(us / 1e3).toFixed(0).padStart(6)} ms  ${k}`,
    );
  console.log(`total ${(total / 1e6).toFixed(2)} s sampled; self time by function:`);
  [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .forEach(line);
  console.log('self time by file:');
  [...byFile]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .forEach(line);
}

const args = process.argv.slice(2);
if (args[0] === '--top') {
  top(args[1]!, Number(args[2] ?? 25));
} else {
  const option = (name: string): string | undefined => {
    const i = args.indexOf(name);
    if (i < 0) return undefined;
    const v = args[i + 1];
    args.splice(i, 2);
    return v;
  };
  const profileTo = option('--profile');
  const repeat = Number(option('--repeat') ?? 2);
  const session = profileTo ? new Session() : null;
  session?.connect();
  if (session) {
    await session.post('Profiler.enable');
    // 100 µs between samples (the default is 1 ms): enough samples from one table's derivation
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
  }
  const dir = args[0];
  if (!dir)
    throw new Error('usage: readings-ready-probe.ts STORE_DIR [TABLE_ID] [--repeat N] [--profile FILE]');
  const store = new SqliteEventStore(join(dir, 'events.sqlite'), { readOnly: true });
  let tableId = args[1];
  if (tableId === undefined) {
    let most = -1;
    for (const stream of await store.streamNames('table-')) {
      for await (const e of store.readStream(stream, { direction: 'backwards', maxCount: 1 }))
        if (e.revision > most) {
          most = e.revision;
          tableId = stream.slice('table-'.length);
        }
    }
  }
  // the first derivation in a fresh process also pays the one-time costs (the rule sets' tables, the JIT): the
  // table is derived `repeat` times and each is reported; the profile (--profile FILE) covers the last one only
  const runs: { wallSeconds: number; cpuSeconds: number; cpuMicrosecondsPerEvent: number }[] = [];
  let r: Awaited<ReturnType<typeof deriveTableReadings>> | null = null;
  for (let i = 0; i < repeat; i++) {
    const last = i === repeat - 1;
    if (last && session) await session.post('Profiler.start');
    const t = performance.now();
    const c = cpuSeconds();
    r = await deriveTableReadings(store, tableId!);
    const seconds = (performance.now() - t) / 1000;
    const cpu = cpuSeconds() - c;
    if (last && session && profileTo) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(profileTo, JSON.stringify(profile));
    }
    runs.push({
      wallSeconds: Number(seconds.toFixed(2)),
      cpuSeconds: Number(cpu.toFixed(2)),
      cpuMicrosecondsPerEvent: Number(((cpu * 1e6) / r.eventsRead).toFixed(2)),
    });
  }
  await store.close();
  console.log(
    JSON.stringify({
      tableId,
      game: r!.game,
      readings: r!.buckets.size - 1,
      eventsRead: r!.eventsRead,
      changed: r!.changed.length,
      runs,
      ...(profileTo ? { profile: profileTo } : {}),
    }),
  );
}
