#!/usr/bin/env node
// The README's first command, as a new user runs it, in a clean copy of the repository: the committed files of
// HEAD (git archive) in a new temporary directory, then `pnpm install` and `pnpm start` there. The size is made
// small with the configuration file (table-audit.config.json: run.tables, api.port 0), which is what a user would
// write. Checks: the install compiled the command (apps/cli/dist), the job printed its steps and its summary with the
// proof holding, and the API it serves answers an inspector's token with findings. Then Ctrl-C, and the job must
// end saying it stopped serving. `.ci/run` runs this after `pnpm test` (it takes minutes: an install and a run).
//
//   node scripts/check-first-command.mjs [--keep]      (--keep: leave the copy in place and say where)
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const keep = process.argv.includes('--keep');
const copy = mkdtempSync(join(tmpdir(), 'ta-first-command-'));
const started = performance.now();
const seconds = (t) => `${((performance.now() - t) / 1000).toFixed(0)} s`;
const say = (text) => process.stdout.write(`check-first-command: ${text}\n`);
let failed = false;
const fail = (text) => {
  failed = true;
  process.stderr.write(`check-first-command: FAILED: ${text}\n`);
};

try {
  // 1. a clean copy: only what is committed (no node_modules, no data/, no dist/)
  execFileSync('sh', ['-c', `git -C "${repo}" archive --format=tar HEAD | tar -x -C "${copy}"`], {
    stdio: 'inherit',
  });
  writeFileSync(
    join(copy, 'table-audit.config.json'),
    `${JSON.stringify({ $comment: 'a small run for the check', run: { tables: 2, rounds: 50 }, api: { port: 0 } }, null, 2)}\n`,
  );
  say(`a clean copy of HEAD in ${copy}`);

  // 2. pnpm install (the README's; --prefer-offline only spares the network what the package store has)
  let t = performance.now();
  execFileSync('pnpm', ['install', '--frozen-lockfile', '--prefer-offline'], { cwd: copy, stdio: 'inherit' });
  say(`pnpm install: ${seconds(t)}`);
  if (!existsSync(join(copy, 'apps/cli/dist/main.mjs')))
    fail('pnpm install did not compile the command into apps/cli/dist (the prepare script)');

  // 3. pnpm start: the job, then serving until Ctrl-C
  t = performance.now();
  const child = spawn('pnpm', ['start'], { cwd: copy, detached: true, env: { ...process.env, CI: '' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d.toString()));
  child.stderr.on('data', (d) => (stderr += d.toString()));
  const exited = new Promise((resolve) => child.on('close', (code) => resolve(code)));
  const limit = Date.now() + 8 * 60_000;
  while (!/UI +http:\/\/\S+\/ui\//.test(stdout) || !/auditor/.test(stdout)) {
    if (Date.now() > limit || child.exitCode !== null) break;
    await sleep(250);
  }
  await sleep(500); // the tokens follow the URL
  const url = /UI +(http:\/\/\S+)\/ui\//.exec(stdout)?.[1];
  if (!url)
    fail(`the job never served (exit ${child.exitCode}):\n${stdout.slice(-3000)}\n${stderr.slice(-3000)}`);
  else {
    say(`pnpm start: serving at ${url} after ${seconds(t)}`);
    for (const step of [
      '1. simulator:',
      '2. ingest:',
      '3. replay:',
      'readings kept ready for the what-if:',
      '4. analytics:',
      '5. findings by check',
    ])
      if (!stdout.includes(step)) fail(`the job did not print step "${step}"`);
    if (!/^summary \(/m.test(stdout)) fail('the job printed no summary');
    if (!/the proof holds/.test(stdout)) fail('the summary does not say the proof holds');
    const token = /inspector[^\n]*:\n\s+(\S+)/.exec(stdout)?.[1];
    if (!token) fail('no inspector token printed');
    else {
      const r = await globalThis.fetch(`${url}/v1/findings`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const body = await r.json();
      if (r.status !== 200) fail(`GET /v1/findings answered ${r.status}: ${JSON.stringify(body)}`);
      else if (!(body.total > 0) || !Array.isArray(body.items) || body.items.length === 0)
        fail(`GET /v1/findings answered no findings: ${JSON.stringify(body).slice(0, 500)}`);
      else say(`GET /v1/findings: ${body.total} findings, e.g. ${body.items[0].checkId}`);
    }
  }
  // Ctrl-C: the terminal sends SIGINT to the whole process group (pnpm and the job)
  try {
    process.kill(-child.pid, 'SIGINT');
  } catch {
    /* already gone */
  }
  const code = await Promise.race([exited, sleep(30_000, 'timeout')]);
  if (code === 'timeout') {
    process.kill(-child.pid, 'SIGKILL');
    fail('the job did not stop within 30 s of Ctrl-C');
  } else if (url && !stdout.includes('stopped serving'))
    fail(`after Ctrl-C the job did not say "stopped serving"`);
  say(`${failed ? 'FAILED' : 'passed'} in ${seconds(started)}`);
} catch (e) {
  fail(e.message);
} finally {
  if (keep) say(`kept ${copy}`);
  else rmSync(copy, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
