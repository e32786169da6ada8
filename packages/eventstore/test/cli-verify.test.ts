/**
 * `table-audit verify` end to end: the real command line (apps/cli/bin/table-audit.js) on a store file that is
 * intact, then tampered with behind its back.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { SqliteEventStore } from '../src/sqlite-event-store.ts';

const bin = fileURLToPath(new URL('../../../apps/cli/bin/table-audit.js', import.meta.url));
// The CLI imports this package by name; pnpm links it into the CLI's node_modules on install.
const linked = existsSync(
  fileURLToPath(new URL('../../../apps/cli/node_modules/@table-audit/eventstore', import.meta.url)),
);

const dir = mkdtempSync(join(tmpdir(), 'ta-cli-verify-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[], env: Record<string, string> = {}) => {
  const r = spawnSync(process.execPath, [bin, 'verify', ...args], {
    encoding: 'utf8',
    env: { ...process.env, TABLE_AUDIT_STORE: '', ...env },
    cwd: dir,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

async function makeStore(name: string): Promise<string> {
  const path = join(dir, name);
  const store = new SqliteEventStore(path);
  await store.append('table-1', [
    { eventId: 'round-1/dealt', type: 'CardsDealt', data: { seat: 1 } },
    { eventId: 'round-1/paid', type: 'PayoutDeclared', data: { seat: 1, amount: 2000 } },
  ]);
  await store.append('table-2', [{ eventId: 'round-9/dealt', type: 'CardsDealt', data: { seat: 4 } }]);
  await store.close();
  return path;
}

describe(
  'table-audit verify',
  { skip: linked ? false : '@table-audit/eventstore is not linked into apps/cli yet: run pnpm install' },
  () => {
    it('says ok and exits 0 for an intact store, in text and JSON, from --store or TABLE_AUDIT_STORE', async () => {
      const path = await makeStore('intact.sqlite');
      const text = run(['--store', path]);
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /^ok: 3 events in 2 streams, every hash chain intact/);
      const viaEnv = run(['--json'], { TABLE_AUDIT_STORE: path });
      assert.equal(viaEnv.code, 0, viaEnv.stderr);
      assert.deepEqual(JSON.parse(viaEnv.stdout), {
        store: path,
        stream: null,
        ok: true,
        streams: 2,
        events: 3,
      });
    });

    it('names the first broken link and exits 1 for a tampered store', async () => {
      const path = await makeStore('tampered.sqlite');
      const db = new Database(path);
      db.prepare(
        `UPDATE events SET data = '{"amount":200000,"seat":1}' WHERE event_id = 'round-1/paid'`,
      ).run();
      db.close();
      const text = run(['--store', path]);
      assert.equal(text.code, 1);
      assert.match(
        text.stdout,
        /^BROKEN: stream "table-1" revision 1 \(event round-1\/paid\): its hash .* does not match/,
      );
      const report = JSON.parse(run(['--store', path, '--json']).stdout) as {
        ok: boolean;
        firstBroken: unknown;
      };
      assert.equal(report.ok, false);
      assert.deepEqual(
        { ...(report.firstBroken as object), reason: undefined },
        {
          stream: 'table-1',
          revision: 1,
          eventId: 'round-1/paid',
          reason: undefined,
        },
      );
      const other = run(['--store', path, '--stream', 'table-2']);
      assert.equal(other.code, 0, 'the other stream is intact');
      assert.match(other.stdout, /of stream "table-2"/);
    });

    it('exits 1 with a clear message when there is no store', () => {
      const r = run(['--store', join(dir, 'nowhere.sqlite')]);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /no event store at .*nowhere\.sqlite/);
      const byDefault = run([]);
      assert.equal(byDefault.code, 1);
      assert.match(byDefault.stderr, /no event store at \/.*\/data\/events\.sqlite/); // the default, made absolute
    });
  },
);
