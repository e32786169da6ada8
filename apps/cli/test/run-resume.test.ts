/**
 * Ctrl-C during the main job, then the same command again: the second run resumes (nothing stored twice) and its
 * proof holds. The smallest run still holds the fixed parts of the session (the colluders' 400 rounds, CRAPS, 13
 * Cards, Mah-Jong: about 44,000 events), so this takes a while on a loaded machine.
 *   TABLE_AUDIT_SLOW_TESTS=1 node scripts/run-tests.mjs apps/cli/test/run-resume.test.ts
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';

const bin = fileURLToPath(new URL('../bin/table-audit.js', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'ta-resume-'));
after(() => rmSync(root, { recursive: true, force: true }));
const args = ['run', '--tables', '2', '--rounds', '50', '--no-serve', '--store', 'store/events.sqlite'];

/** Runs the job; `interruptWhen` sees stdout as it grows and says when to send SIGINT. */
function job(interruptWhen?: (stdout: string) => boolean) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: root,
      env: { ...process.env, TABLE_AUDIT_STORE: '', TABLE_AUDIT_CONFIG: '', TABLE_AUDIT_ANALYTICS: '' },
    });
    let stdout = '';
    let stderr = '';
    let sent = false;
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (!sent && interruptWhen?.(stdout)) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

async function storedEventIds(): Promise<string[]> {
  const store = new SqliteEventStore(join(root, 'store/events.sqlite'));
  const ids: string[] = [];
  for await (const e of store.readAll()) ids.push(e.eventId);
  await store.close();
  return ids;
}

// Over a minute on a loaded 2-core machine (about 20 s of CPU): outside `pnpm test`'s budget for one test, so it
// runs when TABLE_AUDIT_SLOW_TESTS=1, as .ci/run sets it.
const slow = process.env.TABLE_AUDIT_SLOW_TESTS === '1';

describe('the main job after Ctrl-C', () => {
  it(
    'stops at a safe point, and the same command resumes without storing anything twice',
    {
      skip: slow ? false : 'a slow test: TABLE_AUDIT_SLOW_TESTS=1 runs it (.ci/run does)',
    },
    async () => {
      // interrupted as soon as the simulator has written the session: during the ingest
      const first = await job((o) => o.includes('1. simulator:'));
      assert.equal(first.status, 130, first.stderr);
      assert.match(first.stderr, /Ctrl-C: stopping after the current batch/);
      assert.match(
        first.stderr,
        /stopped by Ctrl-C; what was stored stays.*Run the same command again to resume/,
      );
      assert.doesNotMatch(first.stdout, /^3\. replay/m, 'it stopped before the replay');
      const before = (await storedEventIds()).length;

      const second = await job();
      assert.equal(second.status, 0, second.stderr);
      const session = Number(
        /1\. simulator: .*; ([\d,]+) events →/.exec(second.stdout)![1]!.replaceAll(',', ''),
      );
      const ingest =
        /2\. ingest: ([\d,]+) events appended to .*?(?:, ([\d,]+) already stored)?, 0 rejected/.exec(
          second.stdout,
        )!;
      const appended = Number(ingest[1]!.replaceAll(',', ''));
      const already = Number((ingest[2] ?? '0').replaceAll(',', ''));
      assert.equal(appended + already, session, 'every event of the session is accounted for once');
      assert.ok(appended < session, 'the second run appended only what the first did not');
      assert.ok(before >= already, 'what the first run stored is what the second found stored');
      assert.match(second.stdout, /the proof holds/);
      assert.match(second.stdout, /^summary \(/m);
      const ids = await storedEventIds();
      assert.equal(new Set(ids).size, ids.length, 'no event id twice in the store');
    },
  );
});
