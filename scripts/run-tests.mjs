#!/usr/bin/env node
// Runs every *.test.ts of the workspace with Node's own test runner (TypeScript through tsx), in one process per
// file, two at a time (this machine has two cores). Node 20 does not expand globs after --test, so this finds them.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const roots = ['packages', 'services', 'schemas', 'infra', 'test', 'bench'];
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
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.test.ts')) files.push(path);
  }
};
roots.forEach(walk);
files.sort();
if (files.length === 0) {
  console.error('run-tests: no *.test.ts files found');
  process.exit(1);
}
const filter = process.argv.slice(2);
const chosen = filter.length ? files.filter((f) => filter.some((x) => f.includes(x))) : files;
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...chosen],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
