// Two ingest processes opening a new store at the same moment (the store issue: "table events already exists",
// 1 time in 16): the schema is created in one transaction, the other process finds it made.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';

const dir = mkdtempSync(join(tmpdir(), 'ta-store-open-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const child = fileURLToPath(new URL('./fixtures/open-store.ts', import.meta.url));
const loader = fileURLToPath(new URL('../../../apps/cli/bin/register-ts.mjs', import.meta.url));

function open(path: string, at: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', loader, child, path, String(at)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.on('error', reject);
    p.on('exit', () => resolve(out.trim()));
  });
}

test('three processes open the same new store at the same moment, 12 times: none fails on the schema, one schema', async (t) => {
  const results: string[] = [];
  for (let round = 0; round < 12; round++) {
    const path = join(dir, `store-${round}.sqlite`);
    const at = Date.now() + 1_500; // after the processes have started and loaded
    results.push(...(await Promise.all([open(path, at), open(path, at), open(path, at)])));
    const store = new SqliteEventStore(path, { mustExist: true });
    assert.equal((await store.append('s', [{ eventId: `e-${round}`, type: 't', data: {} }])).appended, 1);
    await store.close();
  }
  // the schema race ("table events already exists", or a schema seen half made) must never happen
  assert.deepEqual(
    results.filter((r) => r !== 'opened' && r !== 'failed: database is locked'),
    [],
  );
  // Known, not the schema: switching a new file to WAL (journal_mode, before the schema) can meet SQLITE_BUSY
  // without the busy handler; reported here, to be fixed with the store's open sequence.
  const locked = results.filter((r) => r === 'failed: database is locked').length;
  t.diagnostic(
    `${results.length - locked} of ${results.length} opened; ${locked} met "database is locked" switching to WAL`,
  );
});
