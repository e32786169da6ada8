/** table-audit token and serve, as a user runs them: the dev key made once, a token accepted by the server. */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
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
    let stored = 0;
    for await (const e of store.readAll()) if (e.type === 'FindingRaised') stored++;
    assert.ok(stored > 0);
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
      // findings come from the embedded ClickHouse (chDB), projected from the store before serve listened
      const ready = (await (await fetch(`${url}/health/ready`)).json()) as { checks: { name: string }[] };
      assert.ok(
        ready.checks.some((c) => /chDB/.test(c.name)),
        JSON.stringify(ready),
      );
      const listed = (await (
        await fetch(`${url}/v1/findings?limit=1`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as { total: number };
      assert.equal(listed.total, stored);
    } finally {
      const exited = new Promise<number | null>((resolve) => server.on('exit', resolve));
      server.kill('SIGTERM');
      assert.equal(await exited, 0);
    }
    const lines = log
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { reqId?: string; msg?: string });
    assert.ok(lines.some((l) => typeof l.reqId === 'string' && /^[0-9a-f-]{36}$/.test(l.reqId)));
    // the API's index of the store, kept beside it for the next start
    assert.ok(existsSync(`${path}.index.sqlite`));
    assert.ok(
      lines.some((l) => l.msg?.startsWith(`API index ${path}.index.sqlite: read `)),
      log,
    );
  });

  it('refuses an --index file that is not an index made by the API, naming it, and leaves it as it was', async () => {
    const path = join(root, 'refused', 'events.sqlite');
    mkdirSync(dirname(path), { recursive: true });
    const { store } = await simulatedStore({ tables: 1, roundsPerTable: 2, path });
    await store.close();
    const notes = join(root, 'refused', 'notes.sqlite');
    writeFileSync(notes, 'not an index\n');
    const r = run(['serve', '--port', '0', '--store', path, '--index', notes, '--findings', 'store']);
    assert.equal(r.status, 1, r.stderr);
    assert.match(
      r.stderr,
      new RegExp(`${notes.replace(/[.]/g, '\\.')} exists and is not a table-audit API index`),
    );
    assert.equal(readFileSync(notes, 'utf8'), 'not an index\n');
    const same = run(['serve', '--port', '0', '--store', path, '--index', path, '--findings', 'store']);
    assert.equal(same.status, 2, same.stderr);
    assert.match(same.stderr, /is the event store's own file/);
  });
});

describe('table-audit run (pnpm start) ends by serving', () => {
  it('prints the URL and a token per role, serves incidents and the UI inbox with them, and exits 0 on SIGTERM', async () => {
    const cwd = join(root, 'main-job');
    mkdirSync(cwd);
    const job = spawn(
      process.execPath,
      [bin, 'run', '--dir', 'out', '--tables', '6', '--rounds', '20', '--seed', '3', '--port', '0'],
      { cwd, env: { ...process.env, TABLE_AUDIT_STORE: '', TABLE_AUDIT_TOKEN_KEY: '', CLICKHOUSE_URL: '' } },
    );
    let stdout = '';
    let stderr = '';
    job.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => job.on('exit', resolve));
    const printed = await new Promise<string>((resolve, reject) => {
      job.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (/ {3}auditor \(reads only\):\n {5}\S+\n/.test(stdout)) resolve(stdout);
      });
      void exited.then((code) =>
        reject(new Error(`run exited ${code} before serving: ${stdout}\n${stderr}`)),
      );
    });
    try {
      assert.match(printed, /labelled faults missed: 0, findings on clean rounds: 0/);
      const url = /UI {3}(http:\/\/127\.0\.0\.1:\d+)\/ui\//.exec(printed)![1]!;
      assert.match(printed, /valid 8 hours \(until \d{4}-\d{2}-\d{2} \d{2}:\d{2} Macau time, UTC\+8\)/);
      const token = (label: RegExp) => new RegExp(`${label.source}[^\\n]*:\\n {5}(\\S+)`).exec(printed)![1]!;
      const inspector = token(/inspector \(DICJ/);
      const officer = token(/compliance officer of [^(]+/);
      const auditor = token(/auditor \(reads only\)/);
      const concessionaire = /compliance officer of (.+?) \(only its casinos/.exec(printed)![1]!;
      const get = (path: string, t: string) =>
        fetch(`${url}${path}`, { headers: { authorization: `Bearer ${t}` } });

      const all = (await (await get('/v1/findings?limit=5', inspector)).json()) as { total: number };
      assert.ok(all.total > 0, 'the inspector sees the findings of the run');
      const mine = (await (await get('/v1/findings?limit=200', officer)).json()) as {
        total: number;
        items: { concessionaire: string }[];
      };
      assert.ok(mine.total > 0 && mine.total < all.total, `${mine.total} of ${all.total}`);
      assert.ok(mine.items.every((x) => x.concessionaire === concessionaire));
      assert.equal((await get('/v1/me', auditor)).status, 200);

      // the UI's inbox, logged in with the printed officer token
      const login = await fetch(`${url}/ui/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: officer }).toString(),
        redirect: 'manual',
      });
      assert.equal(login.status, 303);
      const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
      const inbox = await fetch(`${url}/ui/alerts`, { headers: { cookie } });
      assert.equal(inbox.status, 200);
      const page = await inbox.text();
      assert.match(page, /<h1>Alert inbox<\/h1>/);
      assert.match(page, new RegExp(concessionaire));
    } finally {
      job.kill('SIGTERM');
    }
    assert.equal(await exited, 0, stderr);
    assert.match(stdout, /stopped serving\n$/);
  });
});
