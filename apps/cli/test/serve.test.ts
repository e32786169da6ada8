/** table-audit token and serve, as a user runs them: the dev key made once, a token accepted by the server. */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { simulatedStore } from '../../../services/api/test/fixture.ts';

const bin = fileURLToPath(new URL('../bin/table-audit.js', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'ta-serve-'));
after(() => rmSync(root, { recursive: true, force: true }));

const run = (args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    cwd: root,
    env: { ...process.env, TABLE_AUDIT_STORE: '', TABLE_AUDIT_TOKEN_KEY: '' },
  });

describe('table-audit token', () => {
  it('makes the development key once, says so, and never replaces it', () => {
    const first = run(['token', '--role', 'auditor']);
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stderr, /made the development token key data\/api-token-key\.pem/);
    assert.match(first.stdout.trim(), /^[\w-]+\.[\w-]+\.[\w-]+$/);
    const key = readFileSync(join(root, 'data/api-token-key.pem'), 'utf8');
    const second = run(['token', '--role', 'compliance_officer', '--concessionaire', 'SJM Resorts']);
    assert.equal(second.status, 0, second.stderr);
    assert.equal(second.stderr, '');
    assert.equal(readFileSync(join(root, 'data/api-token-key.pem'), 'utf8'), key);
  });

  it('refuses an unknown role, an officer without a concessionaire and a bad expiry (exit 2)', () => {
    for (const args of [
      ['--role', 'admin'],
      ['--role', 'compliance_officer'],
      ['--role', 'auditor', '--expires-in', '0'],
    ]) {
      const r = run(['token', ...args]);
      assert.equal(r.status, 2, args.join(' '));
      assert.match(r.stderr, /--role|concessionaire|--expires-in/);
    }
  });
});

describe('table-audit serve', () => {
  it('listens, answers a token from table-audit token, logs JSON with request ids, and stops on SIGTERM', async () => {
    mkdirSync(join(root, 'data'), { recursive: true });
    const { store, path } = await simulatedStore({
      tables: 2,
      roundsPerTable: 5,
      path: join(root, 'data/events.sqlite'),
    });
    await store.close();
    const token = run(['token', '--role', 'inspector']).stdout.trim();
    const server = spawn(process.execPath, [bin, 'serve', '--port', '0', '--store', path], {
      cwd: root,
      env: { ...process.env, TABLE_AUDIT_TOKEN_KEY: '' },
    });
    let log = '';
    const url = await new Promise<string>((resolve, reject) => {
      server.stdout.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
        if (m) resolve(m[1]!);
      });
      server.on('exit', (code) => reject(new Error(`serve exited ${code}: ${log}`)));
    });
    try {
      assert.equal((await fetch(`${url}/health/ready`)).status, 200);
      const me = await fetch(`${url}/v1/me`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(me.status, 200);
      assert.deepEqual(await me.json(), { subject: 'inspector', role: 'inspector', concessionaire: null });
      assert.equal((await fetch(`${url}/v1/me`)).status, 401);
    } finally {
      const exited = new Promise<number | null>((resolve) => server.on('exit', resolve));
      server.kill('SIGTERM');
      assert.equal(await exited, 0);
    }
    const lines = log
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { reqId?: string });
    assert.ok(lines.some((l) => typeof l.reqId === 'string' && /^[0-9a-f-]{36}$/.test(l.reqId)));
  });
});
