#!/usr/bin/env node
// pnpm bench: the store issue's table (bench/table.bench.ts), each measurement in a process of its own.
//   pnpm bench day      a simulated stretch of 500 tables through simulate → ingest → replay (table.bench.ts --day)
//   pnpm bench all      every benchmark in bench/, one after the other, so they do not share a core
//   pnpm bench NAME…    the benchmarks whose file names contain NAME
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const args = process.argv.slice(2);
const runs =
  args.length === 0
    ? [['table.bench.ts']]
    : args.length === 1 && args[0] === 'day'
      ? [['table.bench.ts', '--day']]
      : readdirSync('bench')
          .filter((f) => f.endsWith('.bench.ts'))
          .filter((f) => args.includes('all') || args.some((x) => f.includes(x)))
          .sort()
          .map((f) => [f]);
if (runs.length === 0) {
  console.error(`no benchmark in bench/ matches ${args.join(' ')}`);
  process.exit(2);
}
let failed = 0;
for (const [f, ...rest] of runs) {
  console.error(`bench/${f} ${rest.join(' ')}…`);
  const r = spawnSync(
    process.execPath,
    ['--import', './apps/cli/bin/register-ts.mjs', `bench/${f}`, ...rest],
    {
      stdio: 'inherit',
    },
  );
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
