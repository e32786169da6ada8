import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { INSERT_SCRATCH_DIR, PROJECTOR_NAME } from '../src/index.ts';
import { expectedCounts } from './expected.ts';
import { simulatedStore } from './fixture.ts';

const child = fileURLToPath(new URL('./project-child.ts', import.meta.url));
const register = fileURLToPath(new URL('../../../apps/cli/bin/register-ts.mjs', import.meta.url));

function runChild(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, ['--import', register, child, ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('projection survives kill -9 between the insert and the checkpoint', () => {
  it('a killed projector, restarted, leaves exact counts under FINAL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ta-analytics-kill-'));
    const { store, path } = await simulatedStore(dir, { tables: 4, rounds: 30 });
    const chdb = join(dir, 'analytics');
    const expected = await expectedCounts(store);
    assert.ok(expected.findings > 0, 'the session has findings');

    const killed = runChild(['project', path, chdb], { KILL_AT_FINDINGS: '1' });
    assert.equal(killed.signal, 'SIGKILL', `the child was killed (stderr: ${killed.stderr})`);
    const checkpoint = await store.loadCheckpoint(PROJECTOR_NAME);
    const afterKill = JSON.parse(runChild(['count', path, chdb]).stdout) as Record<string, number>;
    // the findings batch was inserted, and its checkpoint not saved: the restart hands it over again
    assert.ok(afterKill.findings! > 0, 'the killed batch inserted findings');
    let lastFinding = -1n;
    for await (const e of store.readAll()) if (e.type === 'FindingRaised') lastFinding = e.position;
    assert.ok(
      checkpoint !== null && checkpoint < lastFinding,
      `checkpoint ${checkpoint} before the findings`,
    );

    // the chDB adapter's scratch files: one the killed child could have left behind is removed at the next open;
    // one of a process still running (this one) and a file the adapter did not write are left alone
    const scratch = join(chdb, INSERT_SCRATCH_DIR);
    writeFileSync(join(scratch, `insert-${killed.pid}-1.TabSeparated`), 'left by a killed insert\n');
    const live = `insert-${process.pid}-1.TabSeparated`;
    writeFileSync(join(scratch, live), 'an insert of a running process\n');
    writeFileSync(join(scratch, 'notes.txt'), 'not the adapter’s\n');
    const restarted = runChild(['project', path, chdb]);
    assert.equal(restarted.status, 0, restarted.stderr);
    const counts = JSON.parse(restarted.stdout) as Record<string, number>;
    for (const [table, n] of Object.entries(expected)) assert.equal(counts[table], n, `${table} under FINAL`);
    // the redelivered batch is physically there twice until a merge: FINAL is what hides it
    assert.ok(counts['findings.raw']! >= counts.findings!, 'raw rows at least the FINAL ones');
    assert.deepEqual(
      readdirSync(scratch).sort(),
      [live, 'notes.txt'].sort(),
      'only what is not the dead one’s',
    );
    await store.close();
  });
});
