/**
 * The API under load on loopback: a simulated store (BENCH_API_TABLES tables × BENCH_API_ROUNDS rounds, ingested
 * and replayed as the pipeline does), the server in its own process (the table-audit serve setup: SQLite store,
 * EdDSA tokens, access recorded), and this process sending requests at a fixed rate (open loop: each latency is
 * measured from when the request was due, so a stall is not hidden) and then as fast as BENCH_API_CONCURRENCY
 * connections allow. Baseline in the same run: GET /health/live (no token, no store). Then the incident list
 * (GET /v1/findings, 50 a page, from ClickHouse: chDB in the server's process, projected by services/analytics)
 * the disputed-hand replay (GET /v1/rounds/:id/replay) and a chart (the dashboards' panel SQL). Target: p99 < 100 ms at 500 requests/s.
 */
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { AnalyticsProjector, migrate, openAnalytics } from '@table-audit/analytics';
import { buildApp, ClickHouseCharts, ClickHouseFindings, issueToken } from '@table-audit/api';
import { runProcessor } from '@table-audit/eventstore';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { simulatedStore } from '../services/api/test/fixture.ts';

const TABLES = Number(process.env.BENCH_API_TABLES ?? 50);
const ROUNDS = Number(process.env.BENCH_API_ROUNDS ?? 100);
const RATE = Number(process.env.BENCH_API_RATE ?? 500);
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_API_CONCURRENCY ?? 16);

if (process.argv[2] === '--serve') {
  // the server process: the store and key the load process made
  const [, , , storePath, keyPath, chdbDir] = process.argv;
  const store = new SqliteEventStore(storePath!, { mustExist: true });
  // findings from ClickHouse (chDB), projected from the store first, as table-audit serve does by default
  const analytics = await openAnalytics({ path: chdbDir! });
  await migrate(analytics.client);
  const t = performance.now();
  await runProcessor(store, new AnalyticsProjector(analytics.client), { batchSize: 5_000 });
  process.stderr.write(`projected into chDB in ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
  const app = await buildApp({
    store,
    auth: { tokenKey: createPrivateKey(readFileSync(keyPath!, 'utf8')) },
    findings: new ClickHouseFindings(analytics.client, analytics.description),
    charts: new ClickHouseCharts(analytics.client, analytics.description),
    rateLimitPerMinute: 1_000_000_000,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };
  process.stdout.write(`listening ${address.port}\n`);
  process.on(
    'SIGTERM',
    () =>
      void app
        .close()
        .then(() => store.close())
        .then(() => process.exit(0)),
  );
} else {
  const dir = mkdtempSync(join(tmpdir(), 'ta-bench-api-'));
  const t0 = performance.now();
  const { store, path } = await simulatedStore({
    tables: TABLES,
    roundsPerTable: ROUNDS,
    path: join(dir, 'events.sqlite'),
  });
  let events = 0;
  for await (const _ of store.readAll()) events++;
  const roundIds: string[] = [];
  for await (const e of store.readAll())
    if (e.type === 'FindingRaised') {
      const r = (e.data as { roundId: string | null }).roundId;
      if (r) roundIds.push(r);
    }
  await store.close();
  console.log(
    `store: ${TABLES} tables × ${ROUNDS} rounds, ${events.toLocaleString('en-US')} events, ${roundIds.length} findings with a round; built in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const { privateKey } = generateKeyPairSync('ed25519');
  const keyPath = join(dir, 'key.pem');
  writeFileSync(keyPath, privateKey.export({ type: 'pkcs8', format: 'pem' }));
  const token = await issueToken(privateKey, { subject: 'bench', role: 'inspector', concessionaire: null });

  const server = spawn(
    process.execPath,
    [
      '--import',
      './apps/cli/bin/register-ts.mjs',
      fileURLToPath(import.meta.url),
      '--serve',
      path,
      keyPath,
      join(dir, 'analytics'),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    server.on('exit', (code) => reject(new Error(`the server exited ${code}`)));
  });
  // whatever happens below, the server goes with this process
  process.on('exit', () => server.kill('SIGKILL'));
  const base = `http://127.0.0.1:${port}`;
  const headers = { authorization: `Bearer ${token}` };

  const percentile = (sorted: number[], p: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  const summary = (latencies: number[], errors: number, seconds: number) => {
    const s = [...latencies].sort((a, b) => a - b);
    return `${(latencies.length / seconds).toFixed(0).padStart(5)} req/s   p50 ${percentile(s, 0.5).toFixed(1).padStart(6)} ms   p99 ${percentile(s, 0.99).toFixed(1).padStart(7)} ms   max ${s.at(-1)!.toFixed(1).padStart(7)} ms   errors ${errors}`;
  };

  /** Open loop: request i is due at i/RATE s; its latency counts from then. */
  async function atRate(url: (i: number) => string): Promise<string> {
    const n = RATE * SECONDS;
    const latencies: number[] = [];
    let errors = 0;
    const start = performance.now();
    const pending: Promise<void>[] = [];
    for (let i = 0; i < n; i++) {
      const due = start + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      pending.push(
        fetch(`${base}${url(i)}`, { headers }).then(
          async (r) => {
            await r.arrayBuffer();
            if (r.status !== 200) errors++;
            latencies.push(performance.now() - due);
          },
          () => void errors++,
        ),
      );
    }
    await Promise.all(pending);
    return summary(latencies, errors, (performance.now() - start) / 1000);
  }

  /** Closed loop: CONCURRENCY requests in flight for SECONDS/2 s. */
  async function flatOut(url: (i: number) => string): Promise<string> {
    const latencies: number[] = [];
    let errors = 0;
    let i = 0;
    const start = performance.now();
    const end = start + (SECONDS * 1000) / 2;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (performance.now() < end) {
          const t = performance.now();
          try {
            const r = await fetch(`${base}${url(i++)}`, { headers });
            await r.arrayBuffer();
            if (r.status !== 200) errors++;
            latencies.push(performance.now() - t);
          } catch {
            errors++; // refused or timed out: counted, the run goes on
          }
        }
      }),
    );
    return summary(latencies, errors, (performance.now() - start) / 1000);
  }

  const casinos = ['Casino%20Lisboa', 'Galaxy%20Macau', 'Wynn%20Palace'];
  const routes: [string, (i: number) => string][] = [
    ['baseline GET /health/live', () => '/health/live'],
    [
      'GET /v1/findings (50 a page)',
      (i) => (i % 2 ? '/v1/findings?limit=50' : `/v1/findings?limit=50&casino=${casinos[i % 3]}`),
    ],
    [
      'GET /v1/rounds/:id/replay',
      (i) => `/v1/rounds/${encodeURIComponent(roundIds[i % roundIds.length]!)}/replay`,
    ],
    ['GET /v1/charts/findings-over-time', () => '/v1/charts/findings-over-time'],
  ];
  // warm up (JIT, the server's store index)
  for (const [, url] of routes)
    for (let i = 0; i < 20; i++) await (await fetch(`${base}${url(i)}`, { headers })).arrayBuffer();
  console.log(`open loop at ${RATE} req/s for ${SECONDS} s (latency from when each request was due):`);
  for (const [name, url] of routes) console.log(`  ${name.padEnd(32)} ${await atRate(url)}`);
  console.log(`closed loop, ${CONCURRENCY} connections for ${SECONDS / 2} s:`);
  for (const [name, url] of routes) console.log(`  ${name.padEnd(32)} ${await flatOut(url)}`);
  server.kill('SIGTERM');
  await new Promise((r) => server.on('exit', r));
  rmSync(dir, { recursive: true, force: true });
}
