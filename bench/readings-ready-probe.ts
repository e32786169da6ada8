/**
 * A probe of the readings kept ready's preparation (tool, not in `pnpm bench`): one table of a store derived in this
 * thread under the register's readings and every reading of its game (`deriveTableReadings`, what each preparing
 * worker does for a table, nothing written), with its wall and CPU time and CPU µs per event; meant to be run under
 * `node --cpu-prof`. With `--top FILE.cpuprofile` it prints the top self-time functions of a profile instead.
 *
 *   node --cpu-prof --cpu-prof-dir=DIR --import ./apps/cli/bin/register-ts.mjs bench/readings-ready-probe.ts STORE_DIR [TABLE_ID]
 *   node --import ./apps/cli/bin/register-ts.mjs bench/readings-ready-probe.ts --top DIR/CPU.….cpuprofile [N]
 *
 * STORE_DIR holds events.sqlite (opened read-only); TABLE_ID defaults to the table stream with the most events.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { deriveTableReadings } from '@table-audit/replay';
import { cpuSeconds } from './lib/measure.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

/** The functions with the most self time in a .cpuprofile (samples weighted by their time deltas). */
function top(file: string, n: number): void {
  const p = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(p.nodes.map((x) => [x.id, x]));
  const self = new Map<string, number>();
  let total = 0;
  p.samples.forEach((id, i) => {
    const node = byId.get(id)!;
    const f = node.callFrame;
    const where = f.url
      ? `${f.url.replace(/^.*\/(services|packages|node_modules)\//, '$1/')}:${f.lineNumber + 1}`
      : '';
    const key = `${f.functionName || '(anonymous)'} ${where}`.trim();
    const dt = p.timeDeltas[i] ?? 0;
    self.set(key, (self.get(key) ?? 0) + dt);
    total += dt;
  });
  const rows = [...self].sort((a, b) => b[1] - a[1]).slice(0, n);
  console.log(`total ${(total / 1e6).toFixed(2)} s sampled`);
  for (const [k, us] of rows)
    console.log(
      `${((100 * us) / total).toFixed(1).padStart(5)} %  ${(us / 1e3).toFixed(0).padStart(6)} ms  ${k}`,
    );
}

const args = process.argv.slice(2);
if (args[0] === '--top') {
  top(args[1]!, Number(args[2] ?? 25));
} else {
  const dir = args[0];
  if (!dir) throw new Error('usage: readings-ready-probe.ts STORE_DIR [TABLE_ID]');
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
  const t = performance.now();
  const c = cpuSeconds();
  const r = await deriveTableReadings(store, tableId!);
  const seconds = (performance.now() - t) / 1000;
  const cpu = cpuSeconds() - c;
  await store.close();
  console.log(
    JSON.stringify({
      tableId,
      game: r.game,
      readings: r.buckets.size - 1,
      eventsRead: r.eventsRead,
      changed: r.changed.length,
      wallSeconds: Number(seconds.toFixed(2)),
      cpuSeconds: Number(cpu.toFixed(2)),
      cpuMicrosecondsPerEvent: Number(((cpu * 1e6) / r.eventsRead).toFixed(2)),
    }),
  );
}
