/**
 * The API under load on loopback, over a month of simulated data: BENCH_API_DAYS days (default 30) of
 * BENCH_API_TABLES tables (default 50) × BENCH_API_ROUNDS rounds a table a day (default 6), every game module's
 * F3CP simulation with labelled faults, ingested and replayed as the pipeline does (each day's tables are sessions
 * of their own: the simulator opens a table for one session, so a day's ids carry the day, `d07-…`). The server
 * runs in its own process (the table-audit serve setup: SQLite store, EdDSA tokens, access recorded, findings
 * from ClickHouse — chDB in the server's process, projected by services/analytics); this process sends requests
 * at a fixed rate (open loop: each latency counts from when the request was due, so a stall is not hidden) and
 * then as fast as BENCH_API_CONCURRENCY connections allow (closed loop), with the same client for every route.
 *
 * Baseline in the same run, first and last: GET /health/live (no token, no store) — what Fastify and the client
 * cost on this loopback, so each route's figures can be read against it; each route's line ends with its share of
 * the first baseline's req/s and its p99 over the baseline's, both of the same loop. Then the incident list (GET
 * /v1/findings, 50 a page: no filter, a casino, a Macau day, a check, and pages deep in the list by their
 * cursors; and a filter never asked before, each time), the disputed-hand replay (GET /v1/rounds/:id/replay over
 * the rounds of BENCH_API_WARM_TABLES tables folded just before, then over every round of the month, in a shuffled
 * order: the first request of a table folds it), the findings chart, and the cold cost of a round's first replay. Target: p99 < 100 ms
 * at 500 requests/s.
 *
 * BENCH_API_RESUME=0 has the server fold every table from its first event (no start states used). BENCH_API_DIR=DIR keeps the store (and the server's chDB directory) in DIR and uses it again on the next run
 * with the same sizes (building a month takes minutes); without it a temporary directory is used and removed.
 */
import { spawn } from 'node:child_process';
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, get as httpGet } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AnalyticsProjector, migrate, openAnalytics } from '@table-audit/analytics';
import { buildApp, ClickHouseCharts, ClickHouseFindings, issueToken } from '@table-audit/api';
import { runProcessor } from '@table-audit/eventstore';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { IngestPipeline } from '@table-audit/ingest';
import { ReplayService } from '@table-audit/replay';
import { simulateSession } from '@table-audit/simulator';
import { submitEvents } from './lib/submit.ts';

const TABLES = Number(process.env.BENCH_API_TABLES ?? 50);
const DAYS = Number(process.env.BENCH_API_DAYS ?? 30);
const ROUNDS = Number(process.env.BENCH_API_ROUNDS ?? 6);
const RATE = Number(process.env.BENCH_API_RATE ?? 500);
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_API_CONCURRENCY ?? 16);
const COLD = Number(process.env.BENCH_API_COLD ?? 40);
/** tables whose rounds the "(folded)" replay line asks for, each folded first */
const WARM = Number(process.env.BENCH_API_WARM_TABLES ?? 150);
/** rounds of one more table, played in one long session: the cold replay of a late round of a long table */
const LONG = Number(process.env.BENCH_API_LONG_ROUNDS ?? 800);
const FIRST_DAY = Date.parse('2025-12-01T02:00:00Z'); // 10:00 in Macau
/** replay worker threads of the server (default: one a core); 0: replays folded in the server's main thread */
const REPLAY_THREADS =
  process.env.BENCH_API_REPLAY_THREADS === undefined
    ? undefined
    : Number(process.env.BENCH_API_REPLAY_THREADS);
/** only the routes whose name holds one of these (comma-separated; the baselines always run), e.g. `replay` */
const ONLY = process.env.BENCH_API_ONLY?.split(',').filter((x) => x !== '') ?? [];

/** A month of sessions in one store: day d's tables are `d01-…`, simulated from 10:00 Macau time that day. */
async function buildMonth(path: string): Promise<void> {
  const store = new SqliteEventStore(path);
  const pipeline = new IngestPipeline(store, () => 0);
  let index = 0;
  for (let day = 0; day < DAYS; day++) {
    const session = simulateSession({
      seed: 2026 + day,
      tables: TABLES,
      roundsPerTable: ROUNDS,
      start: FIRST_DAY + day * 86_400_000,
      tableIdPrefix: `d${String(day + 1).padStart(2, '0')}-`,
      faultRate: 0.3,
      handledRate: 0.05,
    });
    index = await submitEvents(pipeline, session.events, { chunk: 2_000, firstIndex: index });
  }
  if (LONG > 0) {
    const session = simulateSession({
      seed: 1,
      tables: 1,
      roundsPerTable: LONG,
      start: FIRST_DAY,
      tableIdPrefix: 'long-',
      faultRate: 0.3,
      handledRate: 0.05,
    });
    index = await submitEvents(pipeline, session.events, { chunk: 2_000, firstIndex: index });
  }
  const replay = new ReplayService({ store });
  await replay.catchUp();
  await replay.finish();
  await store.close();
}

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
  const findings = new ClickHouseFindings(analytics.client, analytics.description);
  const app = await buildApp({
    store,
    auth: { tokenKey: createPrivateKey(readFileSync(keyPath!, 'utf8')) },
    findings,
    charts: new ClickHouseCharts(analytics.client, analytics.description),
    rateLimitPerMinute: 1_000_000_000,
    // BENCH_API_RESUME=0: every first replay folds its table from its first event (no start states used)
    ...(process.env.BENCH_API_RESUME === '0' ? { derivations: { resume: false } } : {}),
    // BENCH_API_ACCESS_GAP=0: the access log appends once per turn of the event loop (no gap between appends)
    // the access records appended by a writer thread of their own (BENCH_API_ACCESS_THREAD=0: in the main thread)
    accessLog: {
      thread: process.env.BENCH_API_ACCESS_THREAD !== '0',
      ...(process.env.BENCH_API_ACCESS_GAP === '0' ? { windowMs: 0, maxWaitMs: 0 } : {}),
    },
    // replays folded in worker threads (BENCH_API_REPLAY_THREADS, default one a core; 0: in the main thread)
    // BENCH_API_MAIN_KEPT=0: every replay goes to its worker, kept answers too (none kept in the main thread)
    replayWorkers: {
      threads: REPLAY_THREADS ?? availableParallelism(),
      ...(process.env.BENCH_API_MAIN_KEPT === '0' ? { keptBodies: 0 } : {}),
    },
  });
  process.stderr.write(
    `server: access records appended ${process.env.BENCH_API_ACCESS_THREAD !== '0' ? 'by a writer thread' : 'in the main thread'}; replays folded ${app.replayPool ? `in ${app.replayPool.threads} worker thread(s) (${JSON.stringify(app.replayPool.code)})` : 'in the main thread'}\n`,
  );
  // the load process asks for the server's CPU time (every thread of it: the workers' too) around each loop
  process.on('message', (m: unknown) => {
    if (m === 'cpu') process.send!(process.cpuUsage());
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };
  process.stdout.write(`listening ${address.port}\n`);
  process.on('SIGTERM', () => {
    // how the incident list's pages were made: queries, kept answers, pages from the findings' keys in memory
    process.stderr.write(`server: incident list ${JSON.stringify(findings.stats)}\n`);
    if (app.replayPool)
      process.stderr.write(
        `server: replay workers ${JSON.stringify(app.replayPool.stats)}; first replays ${JSON.stringify(app.replayPool.resumeStats)}\n`,
      );
    void app
      .close()
      .then(() => store.close())
      .then(() => process.exit(0));
  });
} else {
  const kept = process.env.BENCH_API_DIR;
  const dir = kept ?? mkdtempSync(join(tmpdir(), 'ta-bench-api-'));
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'events.sqlite');
  const sizes = JSON.stringify({ TABLES, DAYS, ROUNDS, LONG });
  const marker = join(dir, '.bench-api-store');
  const t0 = performance.now();
  if (existsSync(path)) {
    // only a store this benchmark built with these sizes is used again; anything else is left alone
    if (!existsSync(marker) || readFileSync(marker, 'utf8') !== sizes)
      throw new Error(
        `${path} exists but is not this benchmark's store of ${sizes}: give BENCH_API_DIR a new directory`,
      );
    console.log(`store: ${path} (built by an earlier run, used again)`);
  } else {
    await buildMonth(path);
    writeFileSync(marker, sizes);
    console.log(`store built in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  const store = new SqliteEventStore(path, { mustExist: true });
  let events = 0;
  const findingRounds: string[] = [];
  const rounds = new Map<string, string>(); // round → table
  const times: number[] = [];
  for await (const e of store.readAll()) {
    events++;
    const data = e.data as { header?: { roundId?: string | null; tableId?: string; eventTime?: number } };
    const h = data.header;
    if (e.stream.startsWith('table-') && h?.roundId && h.tableId) {
      rounds.set(h.roundId, h.tableId);
      if (typeof h.eventTime === 'number') times.push(h.eventTime);
    }
    if (e.type === 'FindingRaised') {
      const r = (e.data as { roundId: string | null }).roundId;
      if (r) findingRounds.push(r);
    }
  }
  await store.close();
  const tables = new Set(rounds.values()).size;
  // the span of the events but for the earliest and latest 0.1% (labelled clock faults put a few a year off)
  times.sort((a, b) => a - b);
  const day = (t: number) => new Date(t + 8 * 3_600_000).toISOString().slice(0, 10);
  const [first, last] = [times[Math.floor(times.length * 0.001)]!, times[Math.floor(times.length * 0.999)]!];
  console.log(
    `data: ${DAYS} days × ${TABLES} tables × ${ROUNDS} rounds a table a day (${day(first)} to ${day(last)}, Macau dates): ` +
      `${tables.toLocaleString('en-US')} table sessions, ${rounds.size.toLocaleString('en-US')} rounds, ${events.toLocaleString('en-US')} events, ${findingRounds.length.toLocaleString('en-US')} findings with a round`,
  );
  const { privateKey } = generateKeyPairSync('ed25519');
  const keyPath = join(dir, 'key.pem');
  writeFileSync(keyPath, privateKey.export({ type: 'pkcs8', format: 'pem' }));
  const token = await issueToken(privateKey, { subject: 'bench', role: 'inspector', concessionaire: null });

  // BENCH_API_PROFILE=DIR: the server writes a V8 CPU profile into DIR when it stops (node --cpu-prof)
  const profile = process.env.BENCH_API_PROFILE;
  const server = spawn(
    process.execPath,
    [
      ...(profile ? ['--cpu-prof', '--cpu-prof-dir', profile] : []),
      '--import',
      './apps/cli/bin/register-ts.mjs',
      fileURLToPath(import.meta.url),
      '--serve',
      path,
      keyPath,
      join(dir, 'analytics'),
    ],
    { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] },
  );
  /** the server process's CPU time so far (user + system, every thread), ms */
  const serverCpu = () =>
    new Promise<number>((resolve) => {
      server.once('message', (u: { user: number; system: number }) => resolve((u.user + u.system) / 1000));
      server.send('cpu');
    });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    server.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    server.on('exit', (code) => reject(new Error(`the server exited ${code}`)));
  });
  // whatever happens below, the server goes with this process
  process.on('exit', () => server.kill('SIGKILL'));
  const headers = { authorization: `Bearer ${token}` };
  // the client: node:http over kept-alive connections, lighter than fetch (it shares the two cores with the server,
  // so what it spends the server cannot)
  const agent = new Agent({ keepAlive: true });
  const request = (url: string): Promise<{ status: number; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const req = httpGet({ host: '127.0.0.1', port, path: url, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      req.on('error', reject);
    });
  const get = async (url: string): Promise<{ status: number; body: string }> => {
    const r = await request(url);
    return { status: r.status, body: r.body.toString('utf8') };
  };

  const percentile = (sorted: number[], p: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  /** what went wrong, by kind: an HTTP status, or the client's error (a connection refused or reset) */
  const failures = new Map<string, number>();
  const failed = (what: string) => failures.set(what, (failures.get(what) ?? 0) + 1);
  const cause = (e: unknown) => {
    const c = (e as { code?: string; cause?: { code?: string } }) ?? {};
    return c.code ?? c.cause?.code ?? (e as Error).message;
  };
  interface Figures {
    readonly text: string;
    readonly rate: number;
    readonly p99: number;
    /** requests answered (200) */
    readonly count: number;
  }
  const summary = (latencies: number[], errors: number, seconds: number): Figures => {
    const s = [...latencies].sort((a, b) => a - b);
    const why = [...failures].map(([k, n]) => `${k}: ${n}`).join(', ');
    failures.clear();
    const errorText = `errors ${errors}${why ? ` (${why})` : ''}`;
    if (!s.length) return { text: `no answer   ${errorText}`, rate: 0, p99: Infinity, count: 0 };
    const rate = latencies.length / seconds;
    const p99 = percentile(s, 0.99);
    return {
      text: `${rate.toFixed(0).padStart(5)} req/s   p50 ${percentile(s, 0.5).toFixed(1).padStart(6)} ms   p99 ${p99.toFixed(1).padStart(7)} ms   max ${s.at(-1)!.toFixed(1).padStart(7)} ms   ${errorText}`,
      rate,
      p99,
      count: latencies.length,
    };
  };
  /** A route's figures beside the baseline's of the same loop: its share of the baseline's req/s, its p99 over the baseline's. */
  const beside = (f: Figures, base: Figures | undefined): string =>
    base === undefined || base === f
      ? f.text
      : `${f.text}   vs baseline: ${((100 * f.rate) / base.rate).toFixed(0)}% of its req/s, p99 ×${(f.p99 / base.p99).toFixed(1)}`;

  /** Open loop: request i is due at i/RATE s; its latency counts from then. A non-200 answer is an error. */
  async function atRate(url: (i: number) => string): Promise<Figures> {
    const n = RATE * SECONDS;
    const latencies: number[] = [];
    let errors = 0;
    const start = performance.now();
    const pending: Promise<void>[] = [];
    for (let i = 0; i < n; i++) {
      const due = start + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      // sent up to 1 ms early: counted from when it was sent; sent late (the client behind): from when it was due
      const from = Math.min(due, performance.now());
      pending.push(
        request(url(i)).then(
          (r) => {
            if (r.status === 200) latencies.push(performance.now() - from);
            else {
              errors++;
              failed(`HTTP ${r.status}`);
            }
          },
          (e: unknown) => void (errors++, failed(cause(e))),
        ),
      );
    }
    await Promise.all(pending);
    return summary(latencies, errors, (performance.now() - start) / 1000);
  }

  /** Closed loop: CONCURRENCY requests in flight for SECONDS/2 s. */
  async function flatOut(url: (i: number) => string): Promise<Figures> {
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
            const r = await request(url(i++));
            if (r.status === 200) latencies.push(performance.now() - t);
            else {
              errors++;
              failed(`HTTP ${r.status}`);
            }
          } catch (e) {
            errors++; // refused or timed out: counted, the run goes on
            failed(cause(e));
          }
        }
      }),
    );
    return summary(latencies, errors, (performance.now() - start) / 1000);
  }

  // the incident list's requests: the first page of several filters, and pages deep in the list by their cursors
  const casinos = ['Casino%20Lisboa', 'Galaxy%20Macau', 'Wynn%20Palace'];
  const firstPages = ['/v1/findings?limit=50', ...casinos.map((c) => `/v1/findings?limit=50&casino=${c}`)];
  for (let day = 0; day < DAYS; day += 3) {
    const d = new Date(FIRST_DAY + day * 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 10);
    const next = new Date(FIRST_DAY + (day + 1) * 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 10);
    firstPages.push(`/v1/findings?limit=50&from=${d}&to=${next}`);
  }
  const counts = JSON.parse((await get('/v1/findings/counts?by=checkId')).body) as {
    counts: { value: string }[];
  };
  for (const c of counts.counts.slice(0, 8)) firstPages.push(`/v1/findings?limit=50&checkId=${c.value}`);
  const deepPages: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const r = await get(`/v1/findings?limit=50${cursor ? `&cursor=${cursor}` : ''}`);
    if (r.status !== 200) throw new Error(`the incident list answered ${r.status}: ${r.body}`);
    cursor = (JSON.parse(r.body) as { nextCursor: string | null }).nextCursor;
    if (cursor) deepPages.push(`/v1/findings?limit=50&cursor=${cursor}`);
    pages++;
  } while (cursor && pages < 2_000);
  const findingsUrls = [...firstPages, ...deepPages];
  // a fixed shuffle of every round of the month
  const allRounds = [...rounds.keys()];
  let seed = 7;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  for (let i = allRounds.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [allRounds[i], allRounds[j]] = [allRounds[j]!, allRounds[i]!];
  }
  const replayUrl = (roundId: string) => `/v1/rounds/${encodeURIComponent(roundId)}/replay`;
  console.log(
    `requests: ${findingsUrls.length} incident-list URLs (${firstPages.length} first pages of filters, ${deepPages.length} deep pages by cursor); ${allRounds.length.toLocaleString('en-US')} rounds to replay; load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} (2 cores, shared)`,
  );

  const long = [...rounds].filter(([, t]) => t.startsWith('long-')).map(([r]) => r);
  if (long.length) {
    // before anything else folds it: the last round of the long table (its whole stream folded), then its middle
    for (const [what, roundId] of [
      ['last', long.at(-1)!],
      ['middle', long[Math.floor(long.length / 2)]!],
    ] as const) {
      const t = performance.now();
      const r = await get(replayUrl(roundId));
      if (r.status !== 200) throw new Error(`replay of ${roundId} answered ${r.status}: ${r.body}`);
      console.log(
        `a long table (${long.length} rounds), the ${what} round's first replay: ${(performance.now() - t).toFixed(0)} ms`,
      );
    }
  }
  // a round's first replay, one at a time: each of a table not folded yet (the cold path), then another round of
  // each of those tables (folded already)
  const coldTables = new Set<string>();
  const cold: number[] = [];
  const warmTable: number[] = [];
  const seen: string[] = [];
  for (const roundId of allRounds) {
    if (cold.length >= COLD) break;
    const table = rounds.get(roundId)!;
    if (coldTables.has(table) || table.startsWith('long-')) continue;
    coldTables.add(table);
    const t = performance.now();
    const r = await get(replayUrl(roundId));
    if (r.status !== 200) throw new Error(`replay of ${roundId} answered ${r.status}: ${r.body}`);
    cold.push(performance.now() - t);
    seen.push(roundId);
  }
  for (const roundId of allRounds) {
    if (warmTable.length >= cold.length) break;
    if (!coldTables.has(rounds.get(roundId)!) || seen.includes(roundId)) continue;
    const t = performance.now();
    const r = await get(replayUrl(roundId));
    if (r.status !== 200) throw new Error(`replay of ${roundId} answered ${r.status}: ${r.body}`);
    warmTable.push(performance.now() - t);
  }
  const line = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return `p50 ${percentile(s, 0.5).toFixed(1)} ms   p99 ${percentile(s, 0.99).toFixed(1)} ms   max ${s.at(-1)!.toFixed(1)} ms (${s.length} rounds, one at a time)`;
  };
  console.log(`a round's first replay, its table not folded yet:      ${line(cold)}`);
  console.log(`a round's first replay, another round of its table folded: ${line(warmTable)}`);
  // WARM tables (default 150, 900 rounds: within the 5,000 rounds and 1,000 answers the server keeps) of the
  // shuffled order
  const warmTables = new Set<string>();
  for (const roundId of allRounds) {
    const t = rounds.get(roundId)!;
    if (warmTables.size < WARM && !t.startsWith('long-')) warmTables.add(t);
  }
  const warmRounds = allRounds.filter((r) => warmTables.has(rounds.get(r)!));
  const foldWarmTables = async () => {
    const asked = new Set<string>();
    for (const r of warmRounds)
      if (!asked.has(rounds.get(r)!)) {
        asked.add(rounds.get(r)!);
        const a = await get(replayUrl(r));
        if (a.status !== 200) throw new Error(`replay of ${r} answered ${a.status}: ${a.body}`);
      }
  };
  let uniq = 0;
  const allRoutes: [string, (i: number) => string][] = [
    ['baseline GET /health/live', () => '/health/live'],
    ['GET /v1/findings (50 a page)', (i) => findingsUrls[i % findingsUrls.length]!],
    [
      // a filter no request asked before (a range starting at another minute each time): never a kept answer
      'GET /v1/findings (new filter each)',
      () =>
        `/v1/findings?limit=50&from=${new Date(FIRST_DAY + 8 * 3_600_000 + ((uniq++ * 60_000) % (DAYS * 86_400_000))).toISOString().slice(0, 16)}`,
    ],
    // the rounds of WARM tables, each table folded just before (one round of it asked): what a replay costs once
    // its table is derived, below the bound on rounds kept
    ['GET /v1/rounds/:id/replay (folded)', (i) => replayUrl(warmRounds[i % warmRounds.length]!)],
    ['GET /v1/rounds/:id/replay', (i) => replayUrl(allRounds[i % allRounds.length]!)],
    ['GET /v1/charts/findings-over-time', () => '/v1/charts/findings-over-time'],
    ['baseline GET /health/live (again)', () => '/health/live'],
  ];
  const routes = allRoutes.filter(
    ([name]) => name.startsWith('baseline') || ONLY.length === 0 || ONLY.some((o) => name.includes(o)),
  );
  /** A loop's figures with the CPU time the server and this process spent on it, per request answered. */
  const measured = async (loop: () => Promise<Figures>): Promise<{ f: Figures; cpu: string }> => {
    const s0 = await serverCpu();
    const c0 = process.cpuUsage();
    const f = await loop();
    const c = process.cpuUsage(c0);
    const server = (await serverCpu()) - s0;
    const per = (ms: number) => (f.count ? (ms / f.count).toFixed(2) : '-');
    return { f, cpu: `   CPU/req: server ${per(server)} ms, client ${per((c.user + c.system) / 1000)} ms` };
  };
  // warm up (JIT)
  for (let i = 0; i < 20; i++) await get('/health/live');
  // each route beside the first baseline of the same loop (the last baseline shows how the load moved meanwhile)
  console.log(`open loop at ${RATE} req/s for ${SECONDS} s (latency from when each request was due):`);
  let baseline: Figures | undefined;
  for (const [name, url] of routes) {
    if (name.includes('(folded)')) await foldWarmTables();
    const { f, cpu } = await measured(() => atRate(url));
    baseline ??= f;
    console.log(`  ${name.padEnd(34)} ${beside(f, baseline)}${cpu}`);
  }
  console.log(`closed loop, ${CONCURRENCY} connections for ${SECONDS / 2} s:`);
  baseline = undefined;
  for (const [name, url] of routes) {
    if (name.includes('(folded)')) await foldWarmTables();
    const { f, cpu } = await measured(() => flatOut(url));
    baseline ??= f;
    console.log(`  ${name.padEnd(34)} ${beside(f, baseline)}${cpu}`);
  }
  console.log(
    `load average at the end ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  server.kill('SIGTERM');
  await new Promise((r) => server.on('exit', r));
  if (!kept) rmSync(dir, { recursive: true, force: true });
}
