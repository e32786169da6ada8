/**
 * How long `table-audit --help` takes to answer: the compiled command (apps/cli/dist, what `pnpm install` builds)
 * beside the TypeScript sources (TABLE_AUDIT_FROM_SOURCES=1) and, as the baseline of this machine at this moment,
 * Node starting and doing nothing. Each is run 7 times, alternating, and the median printed.
 *   pnpm bench cli-start
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: a JavaScript module without declarations
import { compiledState } from '../apps/cli/bin/compiled.mjs';

const bin = fileURLToPath(new URL('../apps/cli/bin/table-audit.js', import.meta.url));
const dist = fileURLToPath(new URL('../apps/cli/dist/', import.meta.url));
const root = fileURLToPath(new URL('../', import.meta.url));
const state = compiledState(dist, root) as { current: boolean; reason?: string };
if (!state.current) {
  console.error(`the compiled command is not current (${state.reason}): pnpm run build first`);
  process.exit(1);
}
const time = (args: string[], env: Record<string, string> = {}): number => {
  const t = performance.now();
  const r = spawnSync(process.execPath, args, { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  return performance.now() - t;
};
const runs = { baseline: [] as number[], compiled: [] as number[], sources: [] as number[] };
for (let i = 0; i < 7; i++) {
  runs.baseline.push(time(['-e', '']));
  runs.compiled.push(time([bin, '--help']));
  runs.sources.push(time([bin, '--help'], { TABLE_AUDIT_FROM_SOURCES: '1' }));
}
const median = (xs: number[]) => Math.round([...xs].sort((a, b) => a - b)[xs.length >> 1]!);
console.log(
  JSON.stringify({
    bench: 'table-audit --help, median of 7 (ms)',
    nodeDoingNothingMs: median(runs.baseline),
    compiledMs: median(runs.compiled),
    sourcesMs: median(runs.sources),
    loadAverage: (await import('node:os')).loadavg().map((x) => Number(x.toFixed(1))),
  }),
);
