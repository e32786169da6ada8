#!/usr/bin/env node
// Runs every *.test.ts of the workspace with Node's own test runner, TypeScript loaded through
// apps/cli/bin/register-ts.mjs. Node 20 does not expand globs after --test, so this finds the files.
// Two phases: everything else two files at a time (two cores), then the files that start a Kafka broker one at a
// time (consumer-group timing does not survive a starved CPU). Every test has a time limit, so a hang fails.
import { spawnSync } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const roots = ['apps', 'packages', 'services', 'schemas', 'infra', 'test', 'bench', 'dashboards'];
const skip = new Set(['node_modules', 'dist', '.git']);
const files = [];
const walk = (dir) => {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of entries) {
    if (skip.has(name)) continue;
    const path = join(dir, name);
    const stat = lstatSync(path); // not following links: a link back up the tree would never end
    if (stat.isDirectory()) walk(path);
    else if (name.endsWith('.test.ts')) files.push(path);
  }
};
roots.forEach(walk);
files.sort();
const filter = process.argv.slice(2);
const chosen = filter.length ? files.filter((f) => filter.some((x) => f.includes(x))) : files;
if (chosen.length === 0) {
  console.error('run-tests: no *.test.ts files found');
  process.exit(1);
}
const usesKafka = (f) => readFileSync(f, 'utf8').includes('kafka-mock');
const phases = [
  { files: chosen.filter((f) => !usesKafka(f)), concurrency: 2 },
  { files: chosen.filter(usesKafka), concurrency: 1 },
].filter((p) => p.files.length);

let passed = 0;
let failed = 0;
let status = 0;
for (const phase of phases) {
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      './apps/cli/bin/register-ts.mjs',
      '--test',
      `--test-concurrency=${phase.concurrency}`,
      '--test-timeout=300000',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      '--test-reporter-destination=.test-results.tap',
      ...phase.files,
    ],
    { stdio: 'inherit' },
  );
  const tap = readFileSync('.test-results.tap', 'utf8');
  passed += Number(/^# pass (\d+)/m.exec(tap)?.[1] ?? 0);
  failed += Number(/^# fail (\d+)/m.exec(tap)?.[1] ?? 0) + Number(/^# cancelled (\d+)/m.exec(tap)?.[1] ?? 0);
  if (r.status !== 0) status = r.status ?? 1;
}
console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(status || (failed ? 1 : 0));
