/**
 * What-if runs (figures printed, not asserted): does a what-if over a period hold the API's main thread? The same
 * GET /v1/what-if over the same store, answered by two apps: the API as it is (the period compared as a run in a
 * worker thread, services/api/src/what-if-runs.ts) and the baseline measured in the same run — the comparison in
 * the main thread, as GET /v1/what-if did before runs (the same runner given a store its workers cannot open).
 * While each what-if goes on, /health/live is asked every 10 ms; printed: how long the health answers took (p50,
 * max), how many came back, the main thread's event-loop utilisation, and the process's CPU (main thread and
 * workers) per event of the store. Interleaved: runs, main thread, runs, main thread.
 *
 *   node --import ./apps/cli/bin/register-ts.mjs bench/what-if-runs.bench.ts
 *   BENCH_TABLES=20 BENCH_ROUNDS=150 BENCH_PAIRS=2 (the defaults); BENCH_ONLY=runs or mainThread: that mode only
 *   (for a profile: node --cpu-prof --cpu-prof-dir=DIR …; the workers write theirs there too)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import type { EventStore } from '@table-audit/eventstore';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { IngestPipeline } from '@table-audit/ingest';
import { buildApp, issueToken } from '@table-audit/api';
import { macauDate } from '@table-audit/rules';
import { simulateSession } from '@table-audit/simulator';
import { submitEvents } from './lib/submit.ts';

const TABLES = Number(process.env.BENCH_TABLES ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 150);
const PAIRS = Number(process.env.BENCH_PAIRS ?? 2);
const ONLY = process.env.BENCH_ONLY;
if (ONLY !== undefined && ONLY !== 'runs' && ONLY !== 'mainThread')
  throw new Error(`BENCH_ONLY is runs or mainThread, got "${ONLY}"`);

const session = simulateSession({ seed: 26, tables: TABLES, roundsPerTable: ROUNDS, faultRate: 0.05 });
const dir = mkdtempSync(join(tmpdir(), 'ta-bench-what-if-runs-'));
const path = join(dir, 'events.sqlite');
const store = new SqliteEventStore(path);
const pipeline = new IngestPipeline(store);
await submitEvents(pipeline, session.events);
const events = Number(await store.headPosition());
const first = macauDate(session.events[0]!.data.header.eventTime);
const last = macauDate(session.events.at(-1)!.data.header.eventTime);

/** The same store, but not a SqliteEventStore to the API: its what-if runs are compared in the main thread. */
const opaque = new Proxy(store, {
  get: (target, key) => {
    const v: unknown = Reflect.get(target, key, target);
    return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
  },
  getPrototypeOf: () => Object.prototype,
}) as EventStore;

const { privateKey: key } = generateKeyPairSync('ed25519');
const token = await issueToken(key, { subject: 'bench', role: 'inspector', concessionaire: null });
const loader = new URL('../apps/cli/bin/register-ts.mjs', import.meta.url).href;
const apps = {
  runs: await buildApp({ store, auth: { tokenKey: key }, whatIfRuns: { loader } }),
  mainThread: await buildApp({ store: opaque, auth: { tokenKey: key } }),
};
for (const app of Object.values(apps)) await app.ready();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))]! : null;
};

async function trial(mode: keyof typeof apps) {
  const app = apps[mode];
  const cpu0 = process.cpuUsage();
  const elu0 = performance.eventLoopUtilization();
  const t0 = performance.now();
  let done = false;
  const answer = app
    .inject({
      url: `/v1/what-if?readings=J11=ALT,J2=ALT&from=${first}&to=${last}`,
      headers: { authorization: `Bearer ${token}` },
    })
    .finally(() => (done = true));
  const health: number[] = [];
  while (!done) {
    const t = performance.now();
    const res = await app.inject({ url: '/health/live' });
    if (res.statusCode === 200 && !done) health.push(performance.now() - t);
    await sleep(10);
  }
  const res = await answer;
  if (res.statusCode !== 200) throw new Error(`${mode}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  const seconds = (performance.now() - t0) / 1000;
  const elu = performance.eventLoopUtilization(elu0);
  const cpu = process.cpuUsage(cpu0);
  return {
    mode,
    seconds: Number(seconds.toFixed(2)),
    roundsCompared: (res.json() as { roundsCompared: number }).roundsCompared,
    healthAnsweredDuringRun: health.length,
    healthP50Ms: health.length ? Number(pct(health, 0.5)!.toFixed(1)) : null,
    healthMaxMs: health.length ? Number(Math.max(...health).toFixed(1)) : null,
    mainThreadEventLoopUtilisation: Number(elu.utilization.toFixed(3)),
    processCpuMicrosecondsPerEvent: Number(((cpu.user + cpu.system) / events).toFixed(2)),
  };
}

const results = [];
for (let i = 0; i < PAIRS; i++) {
  if (ONLY !== 'mainThread') results.push(await trial('runs'));
  if (ONLY !== 'runs') results.push(await trial('mainThread'));
}
for (const app of Object.values(apps)) await app.close();
await store.close();
rmSync(dir, { recursive: true, force: true });

console.log(
  JSON.stringify(
    {
      note: 'figures taken on a shared 2-core machine under load from other jobs; the baseline (mainThread) was measured in the same run, interleaved',
      store: { tables: TABLES, roundsPerTable: ROUNDS, events, period: `${first}..${last}` },
      results,
    },
    null,
    2,
  ),
);
