#!/usr/bin/env node
// Runs each benchmark in bench/ in its own process, one after the other, so they do not share a core.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const only = process.argv.slice(2);
const files = readdirSync('bench')
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((x) => f.includes(x)))
  .sort();
let failed = 0;
for (const f of files) {
  console.error(`bench/${f} …`);
  const r = spawnSync(process.execPath, ['--import', './apps/cli/bin/register-ts.mjs', `bench/${f}`], {
    stdio: 'inherit',
  });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
