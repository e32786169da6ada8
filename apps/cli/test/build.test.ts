/**
 * The compiled command (scripts/build.mjs into dist/, used by bin/table-audit.js): it answers as the sources do, and
 * a build older than any of its sources is not used (bin/compiled.mjs).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
// @ts-expect-error: a JavaScript module without declarations
import { compiledState } from '../bin/compiled.mjs';
// @ts-expect-error: a JavaScript module without declarations
import { buildCli } from '../scripts/build.mjs';

const state = compiledState as (dist: string, root: string) => { current: boolean; reason?: string };
const root = mkdtempSync(join(tmpdir(), 'ta-build-'));
after(() => rmSync(root, { recursive: true, force: true }));
const bin = fileURLToPath(new URL('../bin/table-audit.js', import.meta.url));

describe('the compiled command', () => {
  it('is used only while every source it was compiled from is unchanged', () => {
    const repo = join(root, 'repo');
    const dist = join(repo, 'dist');
    mkdirSync(dist, { recursive: true });
    assert.deepEqual(state(dist, repo), { current: false, reason: 'there is no compiled build' });
    writeFileSync(join(repo, 'a.ts'), 'export const a = 1;\n');
    const manifest = (inputs: Record<string, { size: number; mtimeMs: number }>, node = process.version) =>
      writeFileSync(join(dist, 'manifest.json'), JSON.stringify({ node, inputs }));
    utimesSync(join(repo, 'a.ts'), 1_700_000_000, 1_700_000_000);
    manifest({ 'a.ts': { size: 20, mtimeMs: 1_700_000_000_000 } });
    assert.deepEqual(state(dist, repo), { current: true });
    // edited afterwards (same size, later time), edited to another size, removed, another Node
    utimesSync(join(repo, 'a.ts'), 1_700_000_001, 1_700_000_001);
    assert.deepEqual(state(dist, repo), { current: false, reason: 'a.ts changed after it was compiled' });
    manifest({ 'a.ts': { size: 21, mtimeMs: 1_700_000_001_000 } });
    assert.equal(state(dist, repo).current, false);
    manifest({ 'b.ts': { size: 1, mtimeMs: 1 } });
    assert.deepEqual(state(dist, repo), { current: false, reason: 'b.ts, compiled into it, is gone' });
    manifest({}, 'v0.0.0');
    assert.match(state(dist, repo).reason!, /compiled under Node v0\.0\.0/);
  });

  it('answers as the sources do', async () => {
    const out = join(root, 'dist');
    const manifest = (await buildCli({ outdir: out, quiet: true })) as { inputs: Record<string, unknown> };
    for (const f of ['apps/cli/src/main.ts', 'apps/cli/src/commands/run.ts', 'pnpm-lock.yaml'])
      assert.ok(f in manifest.inputs, `${f} is watched`);
    // what bin/table-audit.js does with a current build
    const runner = join(root, 'run-compiled.mjs');
    writeFileSync(
      runner,
      `const { main } = await import(${JSON.stringify(pathToFileURL(join(out, 'main.mjs')).href)});\nprocess.exitCode = await main(process.argv.slice(2));\n`,
    );
    const compiled = (args: string[]) =>
      spawnSync(process.execPath, [runner, ...args], {
        encoding: 'utf8',
        cwd: root,
        env: { ...process.env, TABLE_AUDIT_STORE: '', TABLE_AUDIT_CONFIG: '' },
      });
    const sources = (args: string[]) =>
      spawnSync(process.execPath, [bin, ...args], {
        encoding: 'utf8',
        cwd: root,
        env: { ...process.env, TABLE_AUDIT_FROM_SOURCES: '1', TABLE_AUDIT_STORE: '', TABLE_AUDIT_CONFIG: '' },
      });
    for (const args of [['--help'], ['rules', '--date', '2025-06-01'], ['cite', '89/2025 art.15 n.5']]) {
      const a = compiled(args);
      const b = sources(args);
      assert.equal(a.stderr, b.stderr, args.join(' '));
      assert.equal(a.stdout, b.stdout, args.join(' '));
      assert.equal(a.status, b.status, args.join(' '));
      assert.equal(a.status, 0, a.stderr);
    }
  });
});
