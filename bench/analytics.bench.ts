/**
 * Analytics figures (printed, not asserted), on chDB in a temporary directory.
 *
 * 1. Projection: rows/s the AnalyticsProjector writes (event → rows, dealer/game/alert lookups, one TabSeparated
 *    insert per table per batch of BENCH_BATCH events of its types, default PROJECTION_RUN_OPTIONS.batchSize, as
 *    runProcessor reading by type hands them), where its time went (its inserts, its lookups, JavaScript alone) and
 *    the process's CPU time, beside baselines measured in the same run: the very same rows (the bodies the projector
 *    sent) inserted without it into copies of the tables, three ways (see below), wall-clock and per CPU second.
 *    Events are handed over from memory, so the event-store read is not counted here; part 3 (BENCH_STORE=0 leaves
 *    it out) writes the same events to an SQLite store and times its raw read alone (every type, and the projector's
 *    types) and the whole projection through runProcessor (read by type, filter, project) into emptied tables, and
 *    the same reading every type in batches of PROJECTION_BATCH_SIZE (as before the read by type), with the garbage
 *    collector's pauses (the runtime's gc entries). Data: BENCH_DAYS (default 5) days of simulated play at BENCH_TABLES
 *    tables (default 50), BENCH_ROUNDS rounds per table per day (default 40), 10% of rounds with a labelled fault;
 *    each day simulated and replayed (findings, RoundDerived), its ids prefixed with the day. Target ≥ 100,000 rows/s.
 *    BENCH_PROFILE=FILE.cpuprofile writes a CPU profile of the projection from memory (the last day's), and
 *    FILE.store.cpuprofile and FILE.store-every-type.cpuprofile of the projections through the store.
 * 2. Queries: p50/p99 of every dashboard panel's own SQL (@table-audit/dashboards, macros expanded as Grafana's
 *    ClickHouse data source expands them, every scope variable on All, the month as the time range, a 1 h interval)
 *    and of the findings command, beside a baseline `SELECT count() FROM rounds` timed the same way in the same run.
 *    Data: one month (BENCH_MONTH_DAYS, default 30) for BENCH_MONTH_TABLES tables (default 50) at
 *    BENCH_MONTH_ROUNDS rounds per table per day (default 1,000: a table dealing around the clock), generated inside
 *    ClickHouse by INSERT … SELECT (simulating a month through the whole pipeline takes hours here): see
 *    generateMonth below for how each table's rows are made. Target p99 < 500 ms per panel.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { loadavg, tmpdir } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  AnalyticsProjector,
  listFindings,
  migrate,
  openAnalytics,
  PROJECTION_BATCH_SIZE,
  PROJECTION_RUN_OPTIONS,
} from '@table-audit/analytics';
import { recorder } from '@table-audit/analytics/testing';
import {
  dashboards,
  expandMacros,
  macauDayRange,
  SCOPE_VARIABLES,
  type VariableSelection,
} from '@table-audit/dashboards';
import { runProcessor, type EventData, type RecordedEvent, type StreamAppend } from '@table-audit/eventstore';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { replayEvents, FINDING_EVENT_TYPE, ROUND_EVENT_TYPE } from '@table-audit/replay';
import { findingStream, roundStream, tableStream } from '@table-audit/schemas/streams';
import { simulateSession } from '@table-audit/simulator';

const DAYS = Number(process.env.BENCH_DAYS ?? 5);
const TABLES = Number(process.env.BENCH_TABLES ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const RUNS = Number(process.env.BENCH_QUERY_RUNS ?? 20);
const MONTH_DAYS = Number(process.env.BENCH_MONTH_DAYS ?? 30);
const MONTH_TABLES = Number(process.env.BENCH_MONTH_TABLES ?? 50);
const MONTH_ROUNDS = Number(process.env.BENCH_MONTH_ROUNDS ?? 1_000);
const LINES = 12; // bet lines per round: what the simulated F3CP sessions average
/** events of the projector's types per batch (runProcessor reading by type: PROJECTION_RUN_OPTIONS) */
const BATCH = Number(process.env.BENCH_BATCH ?? PROJECTION_RUN_OPTIONS.batchSize);
const START = Date.parse('2025-12-01T04:00:00Z');
const DAY_MS = 86_400_000;

/** BENCH_PROFILE=FILE: a CPU profile (.cpuprofile, for Chrome DevTools) of the projection alone, not the simulation. */
function cpuProfiler(file: string) {
  const session = new Session();
  session.connect();
  return {
    start: async () => {
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    },
    stop: async () => {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
    },
  };
}

const dir = mkdtempSync(join(tmpdir(), 'ta-bench-analytics-'));
const analytics = await openAnalytics({ path: join(dir, 'analytics') });
const { client } = analytics;
await migrate(client);
const TABLE_NAMES = [
  'tables',
  'round_starts',
  'rounds',
  'bets',
  'table_health',
  'ingest_rejects',
  'findings',
  'alert_states',
  'alert_state_changes',
];
// the projector's inserts are captured, to insert the very same rows again into copies of the tables (no views on
// them: the projector's inserts into rounds also feed round_discrepancies and round_index)
type InsertParams = Parameters<typeof client.insert>[0] & { columns: [string, ...string[]] };
// (as bytes, the chunks the projector's stream gives, never decoded: the capture's own cost stays small)
const captured: { table: string; columns: [string, ...string[]]; body: Buffer }[] = [];
/**
 * The time the projector spent waiting for chDB, its inserts and its lookups (queries); the rest of its time is
 * JavaScript: events to rows and TabSeparated text.
 */
let insertWaitMs = 0;
let lookupWaitMs = 0;
const projectingClient = new Proxy(client, {
  get(target, key, receiver) {
    if (key === 'query')
      return async (params: Parameters<typeof client.query>[0]) => {
        const t = performance.now();
        try {
          // the projector reads every lookup's rows whole (json()): the wait is in the query
          return await target.query(params);
        } finally {
          lookupWaitMs += performance.now() - t;
        }
      };
    if (key !== 'insert') return Reflect.get(target, key, receiver) as unknown;
    return async (params: InsertParams) => {
      const chunks: Buffer[] = [];
      for await (const chunk of params.values as Readable)
        chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      captured.push({ table: params.table, columns: params.columns, body });
      const t = performance.now();
      try {
        return await target.insert({ ...params, values: Readable.from([body], { objectMode: false }) });
      } finally {
        insertWaitMs += performance.now() - t;
      }
    };
  },
});
const projector = new AnalyticsProjector(projectingClient);
const projectorTypes = new Set(projector.readEventTypes);
/**
 * Garbage collection's pauses (ms) since the start, from the runtime's own entries: they are delivered on a later
 * turn of the event loop (a read of sync pages gives none), so gcSoFar waits two turns before it answers.
 */
let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ['gc'] });
const gcSoFar = async (): Promise<number> => {
  for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve));
  return gcMs;
};

const recorded = recorder();

/**
 * The baselines: the same rows, inserted without the projector, each way into fresh copies of the tables.
 * - `adapter`: client.insert of the projector's bodies in its batches (chDB: the scratch file and FROM INFILE);
 * - `inline`: chDB's own way of taking a client's body (the body appended to the query text), through client.exec;
 * - `infile-one`: each table's rows of the whole run as one body, written to a file and INSERT … FROM INFILE —
 *   usually the fastest way found to insert these rows into chDB (docs/analytics.md).
 * The ratio is taken to whichever of the three was fastest in the run (under load their order can change).
 */
const scratch = join(dir, 'bench-scratch');
mkdirSync(scratch);
const baselineMs = { adapter: 0, inline: 0, 'infile-one': 0 };
const baselineCpuMs = { adapter: 0, inline: 0, 'infile-one': 0 };
const cpuMs = (since: NodeJS.CpuUsage): number => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
};
type Baseline = keyof typeof baselineMs;
for (const b of Object.keys(baselineMs)) {
  const db = `baseline_${b.replace('-', '_')}`;
  await client.command({ query: `CREATE DATABASE IF NOT EXISTS ${db}` });
  for (const t of TABLE_NAMES) await client.command({ query: `CREATE TABLE ${db}.${t} AS default.${t}` });
}
const insertBody = async (how: Baseline, c: (typeof captured)[number], n: number): Promise<void> => {
  const table = `baseline_${how.replace('-', '_')}.${c.table}`;
  if (how === 'adapter')
    await client.insert({
      table,
      values: Readable.from([c.body], { objectMode: false }),
      format: 'TabSeparated',
      columns: c.columns,
    });
  else if (how === 'inline')
    await (
      await client.exec({
        query: `INSERT INTO ${table} (${c.columns.join(', ')}) FORMAT TabSeparated`,
        values: Readable.from([c.body], { objectMode: false }),
      })
    ).stream.resume();
  else {
    const file = join(scratch, `${n}.tsv`);
    await writeFile(file, c.body);
    await client.command({
      query: `INSERT INTO ${table} (${c.columns.join(', ')}) FROM INFILE '${file}' FORMAT TabSeparated`,
    });
    await rm(file);
  }
};

const profiler = process.env.BENCH_PROFILE ? cpuProfiler(process.env.BENCH_PROFILE) : null;
let projectMs = 0;
/** CPU time of the whole process (every thread: JavaScript and chDB's) while projecting */
let projectCpuMs = 0;
let events = 0;
/** the events of the projector's types, handed over */
let handed = 0;
// BENCH_STORE=0 leaves out the part through the event store (an SQLite store written with the same events)
const store = process.env.BENCH_STORE === '0' ? null : new SqliteEventStore(join(dir, 'events.sqlite'));
let prepareMs = 0;
const all: typeof captured = [];
for (let day = 0; day < DAYS; day++) {
  let t = performance.now();
  const session = simulateSession({
    seed: 1_000 + day,
    tables: TABLES,
    roundsPerTable: ROUNDS,
    start: START + day * DAY_MS,
    faultRate: 0.1,
    handledRate: 0.03,
  });
  const d = `D${String(day).padStart(2, '0')}-`;
  const round = (id: string | null) => (id === null ? null : d + id);
  const batch: RecordedEvent[] = session.events.map((e) =>
    recorded(tableStream(e.data.header.tableId), e.type, d + e.data.header.eventId, {
      ...e.data,
      header: { ...e.data.header, roundId: round(e.data.header.roundId) },
    }),
  );
  const replayed = replayEvents(session.events);
  for (const f of replayed.findings)
    batch.push(
      recorded(findingStream(f.tableId), FINDING_EVENT_TYPE, d + f.findingId, {
        ...f,
        findingId: d + f.findingId,
        roundId: round(f.roundId),
      }),
    );
  for (const r of replayed.rounds)
    if (r.record)
      batch.push(
        recorded(roundStream(r.tableId), ROUND_EVENT_TYPE, `${d}rec-${r.roundId}`, {
          ...r.record,
          roundId: d + r.record.roundId,
          findingIds: r.record.findingIds.map((id) => d + id),
        }),
      );
  prepareMs += performance.now() - t;
  if (store) {
    // into the event store as ingest and the replay would have put them: runs of one stream, in order
    const parts: StreamAppend[] = [];
    for (const e of batch) {
      const last = parts.at(-1);
      const event = { eventId: e.eventId, type: e.type, data: e.data };
      if (last?.stream === e.stream) (last.events as EventData[]).push(event);
      else parts.push({ stream: e.stream, events: [event] });
    }
    for (let i = 0; i < parts.length; i += 2_000) await store.appendMany!(parts.slice(i, i + 2_000));
  }

  captured.length = 0;
  if (profiler) await profiler.start();
  t = performance.now();
  const cpu = process.cpuUsage();
  // handed over as runProcessor does: the events of the projector's readEventTypes (the store's read by type), in
  // batches of BATCH, each filtered by the projector's own filter
  const typed = batch.filter((e) => projectorTypes.has(e.type));
  for (let i = 0; i < typed.length; i += BATCH)
    await projector.handle(typed.slice(i, i + BATCH).filter(projector.filter));
  projectMs += performance.now() - t;
  projectCpuMs += cpuMs(cpu);
  if (profiler) await profiler.stop();
  events += batch.length;
  handed += typed.length;
  all.push(...captured);

  // the same batches, the two ways a client's insert can reach chDB, in turn so that load affects both alike
  for (const how of ['adapter', 'inline'] as const) {
    t = performance.now();
    const cpu = process.cpuUsage();
    for (const [n, c] of captured.entries()) await insertBody(how, c, n);
    baselineMs[how] += performance.now() - t;
    baselineCpuMs[how] += cpuMs(cpu);
  }
}
{
  // every table's rows of the whole run as one insert
  const t = performance.now();
  const cpu = process.cpuUsage();
  const tables = [...new Set(all.map((c) => c.table))];
  for (const [n, table] of tables.entries()) {
    const parts = all.filter((c) => c.table === table);
    await insertBody(
      'infile-one',
      { table, columns: parts[0]!.columns, body: Buffer.concat(parts.map((c) => c.body)) },
      n,
    );
  }
  baselineMs['infile-one'] = performance.now() - t;
  baselineCpuMs['infile-one'] = cpuMs(cpu);
}

const rows = Object.values(projector.stats.rows).reduce((a, b) => a + b, 0);
const rate = (n: number, ms: number) => Math.round(n / (ms / 1000));
const perSecond = (n: number, ms: number) => rate(n, ms).toLocaleString('en-US');
console.log(
  `analytics data: ${DAYS} days x ${TABLES} tables x ${ROUNDS} rounds = ${(DAYS * TABLES * ROUNDS).toLocaleString('en-US')} rounds, ` +
    `${events.toLocaleString('en-US')} events, ${rows.toLocaleString('en-US')} rows ` +
    `(${JSON.stringify(projector.stats.rows)}); simulate + replay ${(prepareMs / 1000).toFixed(1)} s (not counted); ` +
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
);
console.log(
  `projection into chDB from memory, the ${handed.toLocaleString('en-US')} events of its types in batches of ${BATCH.toLocaleString('en-US')} (as runProcessor hands them): ` +
    `${perSecond(rows, projectMs)} rows/s (${perSecond(events, projectMs)} events of the store/s, ${(projectMs / 1000).toFixed(1)} s, ${projector.stats.lookups} lookups); target ≥ 100,000 rows/s`,
);
console.log(
  `  where the time went: its inserts took ${(insertWaitMs / 1000).toFixed(2)} s and its lookups ` +
    `${(lookupWaitMs / 1000).toFixed(2)} s (chDB; the inserts run while JavaScript builds the next tables' rows), ` +
    `the rest, ${((projectMs - insertWaitMs - lookupWaitMs) / 1000).toFixed(2)} s, JavaScript alone (events to rows, TabSeparated text); ` +
    `CPU time of the process meanwhile ${(projectCpuMs / 1000).toFixed(2)} s (all threads; ${perSecond(rows, projectCpuMs)} rows per CPU second)`,
);
const baselineNames: Record<Baseline, string> = {
  'infile-one': 'one INSERT … FROM INFILE per table for the whole run',
  adapter:
    "client.insert of the projector's bodies in its batches (the chDB adapter: a file and FROM INFILE)",
  inline: "the same bodies appended to the query text (chDB's own connection)",
};
const rates = (Object.keys(baselineMs) as Baseline[]).map((b) => ({ b, rate: rate(rows, baselineMs[b]) }));
const fastest = rates.reduce((x, y) => (y.rate > x.rate ? y : x));
console.log('  baselines, the same rows inserted without the projector, in the same run:');
for (const { b, rate: r } of rates)
  console.log(
    `    ${baselineNames[b]}: ${r.toLocaleString('en-US')} rows/s${b === fastest.b ? ' (the fastest this run)' : ''}` +
      `, ${perSecond(rows, baselineCpuMs[b])} rows per CPU second`,
  );
console.log(
  `  projector / fastest baseline: ${(rate(rows, projectMs) / fastest.rate).toFixed(2)} ` +
    `(the projector also maps events to rows, looks up dealers and games, and its inserts into rounds feed two views); ` +
    `per CPU second: ${(rate(rows, projectCpuMs) / Math.max(...(Object.keys(baselineCpuMs) as Baseline[]).map((b) => rate(rows, baselineCpuMs[b])))).toFixed(2)} of the most frugal baseline`,
);

if (store) {
  // 3. the same events through the event store: its raw read alone, of every type and of the projector's types
  // (batches as runProcessor reads them), then the whole projection as `table-audit analytics` does it
  // (runProcessor: read by type, filter, project) into emptied tables, and the same reading every type (as before
  // the store had a read by type: a projector that names no types)
  const rawRead = async (eventTypes: readonly string[] | undefined, batch = BATCH) => {
    const gc = await gcSoFar();
    const t = performance.now();
    let read = 0;
    let after: bigint | undefined;
    for (;;) {
      let n = 0;
      for await (const e of store.readAll({
        ...(after === undefined ? {} : { fromPosition: after }),
        maxCount: batch,
        ...(eventTypes ? { eventTypes } : {}),
      })) {
        n++;
        after = e.position;
      }
      read += n;
      if (n < batch) break;
    }
    const ms = performance.now() - t;
    return { read, ms, gcMs: (await gcSoFar()) - gc };
  };
  const project = async (everyType: boolean, profile: string | null) => {
    for (const table of [...TABLE_NAMES, 'round_discrepancies', 'round_index'])
      await client.command({ query: `TRUNCATE TABLE ${table}` });
    const p = new AnalyticsProjector(client, { name: everyType ? 'analytics-every-type' : 'analytics' });
    const profiler = profile ? cpuProfiler(profile) : null;
    if (profiler) await profiler.start();
    const gc = await gcSoFar();
    const cpu = process.cpuUsage();
    const t = performance.now();
    const report = await runProcessor(
      store,
      p,
      everyType ? { batchSize: PROJECTION_BATCH_SIZE } : { batchSize: BATCH, readByType: true },
    );
    const ms = performance.now() - t;
    const cpuUsed = cpuMs(cpu);
    const result = {
      ms,
      cpuMs: cpuUsed,
      gcMs: (await gcSoFar()) - gc,
      read: report.read,
      batches: report.batches,
    };
    if (profiler) await profiler.stop();
    // every projected table's rows under FINAL, as a count and an order-free hash of every row
    const tables: Record<string, string> = {};
    for (const table of [...TABLE_NAMES, 'round_discrepancies', 'round_index']) {
      const [row] = await (
        await client.query({
          query: `SELECT count() AS n, groupBitXor(cityHash64(*)) AS h FROM ${table} FINAL`,
          format: 'JSONEachRow',
        })
      ).json<{ n: string; h: string }>();
      tables[table] = `${row!.n}/${row!.h}`;
    }
    return { ...result, rows: Object.values(p.stats.rows).reduce((a, b) => a + b, 0), tables };
  };
  const whole = await rawRead(undefined, PROJECTION_BATCH_SIZE);
  const ofTypes = await rawRead(projector.readEventTypes);
  const profile = process.env.BENCH_PROFILE?.replace(/(\.cpuprofile)?$/, '.store') ?? null;
  const byType = await project(false, profile && `${profile}.cpuprofile`);
  const everyType = await project(true, profile && `${profile}-every-type.cpuprofile`);
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  console.log(
    `through the event store (SQLite, ${whole.read.toLocaleString('en-US')} events, ${ofTypes.read.toLocaleString('en-US')} of the projector's types), ` +
      `in the same run:\n` +
      `  raw read alone, every type (batches of ${PROJECTION_BATCH_SIZE.toLocaleString('en-US')}): ${perSecond(whole.read, whole.ms)} events/s (${s(whole.ms)}, GC ${s(whole.gcMs)}); ` +
      `of the projector's types: ${perSecond(ofTypes.read, ofTypes.ms)} events/s (${s(ofTypes.ms)}, GC ${s(ofTypes.gcMs)})\n` +
      `  runProcessor + projector, reading by type: ${perSecond(byType.rows, byType.ms)} rows/s (${s(byType.ms)}: ` +
      `${byType.read.toLocaleString('en-US')} events read in ${byType.batches} batches, GC ${s(byType.gcMs)}, CPU ${s(byType.cpuMs)}; ` +
      `${perSecond(byType.rows, byType.cpuMs)} rows per CPU second); target ≥ 100,000 rows/s\n` +
      `    / fastest insert baseline ${(rate(byType.rows, byType.ms) / fastest.rate).toFixed(2)}; ` +
      `its read by type is ${((ofTypes.ms / byType.ms) * 100).toFixed(0)}% of it\n` +
      `  runProcessor + projector, reading every type in batches of ${PROJECTION_BATCH_SIZE.toLocaleString('en-US')} (as before the read by type): ${perSecond(everyType.rows, everyType.ms)} rows/s ` +
      `(${s(everyType.ms)}: ${everyType.read.toLocaleString('en-US')} events read in ${everyType.batches} batches, GC ${s(everyType.gcMs)}, ` +
      `CPU ${s(everyType.cpuMs)}); reading by type is ${(everyType.ms / byType.ms).toFixed(1)}× as fast`,
  );
  if (byType.rows !== everyType.rows)
    throw new Error(`the two projections wrote ${byType.rows} and ${everyType.rows} rows`);
  const differ = Object.keys(byType.tables).filter((t) => byType.tables[t] !== everyType.tables[t]);
  if (differ.length > 0)
    throw new Error(`the two projections left different rows under FINAL in ${differ.join(', ')}`);
  console.log(
    `  both left the same rows under FINAL in every projected table (count and a hash of every row): ${Object.entries(
      byType.tables,
    )
      .map(([t, v]) => `${t} ${v.split('/')[0]}`)
      .join(', ')}`,
  );
  await store.close();
}

if (process.env.BENCH_PART === 'projection') {
  await analytics.close();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

// ---------------------------------------------------------------------------------------- 2. panel queries, a month
const MONTH_START = Date.parse('2025-12-31T16:00:00Z'); // Macau 2026-01-01 00:00
const monthDate = (day: number) =>
  new Date(MONTH_START + 8 * 3_600_000 + day * DAY_MS).toISOString().slice(0, 10);

/**
 * One month for MONTH_TABLES tables, made inside ClickHouse (INSERT … SELECT over numbers(), every choice a
 * cityHash64 of the row number, so the same month each run), after the projection's rows are cleared:
 * - tables: the simulated tables just projected (their casinos, concessionaires and game), ids suffixed past them;
 * - rounds: MONTH_ROUNDS per table per Macau day, spread evenly over the 24 hours, 4 dealers a table a day, 1%
 *   of them paid 50 MOP over or under;
 * - bets: LINES per round, stakes 100–5,000 MOP, 45% won, 10% pushed, 0.2% paid 50 MOP over or under;
 * - findings: 3% of rounds, each a copy of one of the findings the replay raised in part 1 (check, severity,
 *   citations, players, details of collusion and betting-system findings) moved onto the generated round;
 * - table health: 1% of rounds (shuffler malfunctions and replacements, voids, half of them misdeals, switches to
 *   the shoe); rejects: one per table per day, a third of them (the truncated ones) of unknown table and casino;
 * - alert states: 40% of the findings not handled, acknowledged 5–125 min after, half of those resolved 1–11 h after.
 * round_starts and alert_state_changes, which no panel reads, are left empty. Totals of a round are not the sums of
 * its generated bets.
 */
async function generateMonth(): Promise<Record<string, number>> {
  const run = (query: string, query_params: Record<string, unknown> = {}) =>
    client.command({ query, query_params, clickhouse_settings: { max_execution_time: 0 } });
  await run(`CREATE TABLE tpl ENGINE = Memory AS SELECT toUInt32(row_number() OVER (ORDER BY finding_id) - 1) AS k, *
    FROM findings FINAL`);
  await run(
    `CREATE TABLE gen_tables ENGINE = Memory AS
    SELECT toUInt32(number) AS t, concat(s.table_id, if(number < n, '', concat('-', toString(number)))) AS table_id,
      s.casino AS casino, s.concessionaire AS concessionaire, s.game AS game
    FROM numbers({tables:UInt32}) AS x
    CROSS JOIN (SELECT groupArray(table_id) AS ids, groupArray(casino) AS cs, groupArray(concessionaire) AS ks,
      groupArray(game) AS gs, count() AS n FROM (SELECT * FROM tables FINAL ORDER BY table_id)) AS a
    ARRAY JOIN [tuple(ids[number % n + 1], cs[number % n + 1], ks[number % n + 1], gs[number % n + 1])] AS s0
    ARRAY JOIN [CAST(s0, 'Tuple(table_id String, casino String, concessionaire String, game String)')] AS s`,
    {
      tables: MONTH_TABLES,
    },
  );
  for (const t of [...TABLE_NAMES.filter((t) => t !== 'tables'), 'round_discrepancies', 'round_index'])
    await run(`TRUNCATE TABLE ${t}`);
  for (const b of Object.keys(baselineMs)) await run(`DROP DATABASE baseline_${b.replace('-', '_')}`);
  const p = { T: MONTH_TABLES, R: MONTH_ROUNDS, D: MONTH_DAYS, L: LINES, start: MONTH_START / 1000 };
  // the round of row `rn`: its table t, day d, number r in the day, start time rs
  const round = (rn: string) => `${rn} % {T:UInt32} AS t, intDiv(${rn}, {T:UInt32}) % {R:UInt32} AS r,
    intDiv(${rn}, {T:UInt32} * {R:UInt32}) AS d,
    toDateTime64({start:UInt32} + d * 86400 + intDiv(r * 86400, {R:UInt32}) + t, 3, 'UTC') AS rs,
    concat('DLR-', toString(t * 4 + intDiv(r * 4, {R:UInt32}))) AS dealer, concat('M', toString(${rn})) AS round_id`;
  const rounds = MONTH_TABLES * MONTH_DAYS * MONTH_ROUNDS;
  await run(
    `INSERT INTO rounds SELECT round_id, g.table_id, g.casino, g.concessionaire, g.game, 'f3cp-2025a',
      toDate(rs, 'Asia/Macau'), rs, dealer, 'SETTLED', NULL, staked, expected, expected + diff, diff,
      staked - expected - diff, {L:UInt32}, 0, [], [], '', 1, greatest(diff, 0), greatest(-diff, 0)
    FROM (SELECT number AS n, ${round('number')}, cityHash64(n) AS h,
      toInt64({L:UInt32} * (1 + h % 50) * 10000) AS staked, toInt64(staked * (h % 200) / 100) AS expected,
      toInt64(if(intDiv(h, 1000) % 100 = 0, if(intDiv(h, 100000) % 2 = 0, 5000, -5000), 0)) AS diff
      FROM numbers({N:UInt64})) AS x
    INNER JOIN gen_tables AS g ON g.t = x.t`,
    { ...p, N: rounds },
  );
  await run(
    `INSERT INTO bets SELECT round_id, line_index, g.table_id, g.casino, g.concessionaire, g.game, 'f3cp-2025a',
      toDate(rs, 'Asia/Macau'), rs, dealer, toUInt16(line_index % 7 + 1),
      ['ANTE', 'PLAY', 'PAIR_PLUS', 'FORTUNE', 'SIX_CARD_BONUS'][h % 5 + 1], NULL, stake, outcome, payout, net,
      payout + diff, net + diff, diff, 1
    FROM (SELECT number AS n, intDiv(n, {L:UInt32}) AS rn, toUInt16(n % {L:UInt32}) AS line_index, ${round('rn')},
      cityHash64(n) AS h, toInt64((1 + h % 50) * 10000) AS stake,
      multiIf(intDiv(h, 100) % 100 < 45, 'WIN', intDiv(h, 100) % 100 < 55, 'PUSH', 'LOSE') AS outcome,
      if(outcome = 'WIN', stake * 2, if(outcome = 'PUSH', stake, 0)) AS payout,
      multiIf(outcome = 'WIN', stake, outcome = 'LOSE', -stake, 0) AS net,
      toInt64(if(intDiv(h, 10000) % 500 = 0, if(intDiv(h, 10000000) % 2 = 0, 5000, -5000), 0)) AS diff
      FROM numbers({N:UInt64})) AS x
    INNER JOIN gen_tables AS g ON g.t = x.t`,
    { ...p, N: rounds * LINES },
  );
  await run(
    `INSERT INTO findings SELECT concat('MF', toString(n)), tpl.check_id, tpl.title, tpl.severity, tpl.handled,
      tpl.rule_set, g.game, g.casino, g.concessionaire, g.table_id, x.round_id, x.dealer, tpl.seats, tpl.players,
      tpl.summary, tpl.expected, tpl.declared, tpl.discrepancy_avos, tpl.citation_keys, tpl.citation_references,
      tpl.interpretation_ids, tpl.evidence_event_ids, x.rs + 60, toDate(x.rs + 60, 'Asia/Macau'), tpl.details, '', 1
    FROM (SELECT number AS n, intDiv(n * 100, 3) AS rn, ${round('rn')},
      toUInt32(cityHash64(n) % (SELECT count() FROM tpl)) AS k FROM numbers({N:UInt64})) AS x
    INNER JOIN gen_tables AS g ON g.t = x.t
    INNER JOIN tpl ON tpl.k = x.k`,
    { ...p, N: Math.floor((rounds * 3) / 100) },
  );
  await run(
    `INSERT INTO table_health SELECT concat('MH', toString(n)), kind, g.table_id, g.casino, g.concessionaire,
      g.game, round_id, NULL, if(kind LIKE 'SHUFFLER%', concat('SH-', toString(t)), NULL), NULL, NULL, NULL,
      kind = 'ROUND_VOIDED' AND h % 2 = 0, NULL, '', rs, toDate(rs, 'Asia/Macau'), 1
    FROM (SELECT number AS n, n * 100 AS rn, ${round('rn')}, cityHash64(n) AS h,
      ['SHUFFLER_MALFUNCTION', 'SHUFFLER_REPLACED', 'ROUND_VOIDED', 'ROUND_VOIDED', 'DEALING_SWITCHED_TO_SHOE'][h % 5 + 1] AS kind
      FROM numbers({N:UInt64})) AS x
    INNER JOIN gen_tables AS g ON g.t = x.t`,
    { ...p, N: Math.floor(rounds / 100) },
  );
  await run(
    `INSERT INTO ingest_rejects SELECT concat('MR', toString(number)), ['TRUNCATED_PAYLOAD', 'SCHEMA_MISMATCH', 'IMPOSSIBLE_EVENT'][number % 3 + 1],
      'generated reject', 'KAFKA', 'ta.table-events', '', toInt32(number % 6), toString(number), NULL, NULL, NULL, 64,
      toDateTime64({start:UInt32} + number * 86400 / {T:UInt32}, 3, 'UTC'),
      toDate(toDateTime64({start:UInt32} + number * 86400 / {T:UInt32}, 3, 'UTC'), 'Asia/Macau'), 1,
      if(number % 3 = 0, 'unknown', g.table_id), if(number % 3 = 0, 'unknown', g.casino),
      if(number % 3 = 0, 'unknown', g.concessionaire)
    FROM numbers({N:UInt64}) AS x INNER JOIN gen_tables AS g ON g.t = x.number % {T:UInt32}`,
    { ...p, N: MONTH_TABLES * MONTH_DAYS },
  );
  await run(
    `INSERT INTO alert_states (finding_id, state, assignee, note, changed_by, changed_at, opened_at, acknowledged_at,
      resolved_at, check_id, severity, casino, table_id, macau_date, version, concessionaire, game, round_id,
      disposition, reopened, last_event)
    SELECT finding_id, if(resolved, 'resolved', 'acknowledged'), 'compliance.officer', '', 'compliance.officer',
      if(resolved, resolved_at, acknowledged_at), event_time, acknowledged_at, if(resolved, resolved_at, NULL),
      check_id, severity, casino, table_id, macau_date, 1, concessionaire, game, round_id,
      if(resolved, 'confirmed', NULL), 0, if(resolved, 'AlertResolved', 'AlertAcknowledged')
    FROM (SELECT *, cityHash64(finding_id) AS h, intDiv(h, 10) % 2 = 0 AS resolved,
        event_time + toIntervalMinute(5 + h % 120) AS acknowledged_at,
        event_time + toIntervalMinute(60 + h % 600) AS resolved_at
      FROM findings WHERE NOT handled AND h % 10 < 4)`,
  );
  await run('DROP TABLE tpl');
  await run('DROP TABLE gen_tables');
  const counts: Record<string, number> = {};
  for (const t of ['rounds', 'bets', 'findings', 'table_health', 'ingest_rejects', 'alert_states'])
    counts[t] = Number(
      (
        await (
          await client.query({ query: `SELECT count() AS n FROM ${t}`, format: 'JSONEachRow' })
        ).json<{ n: string }>()
      )[0]!.n,
    );
  return counts;
}

const t0 = performance.now();
const counts = await generateMonth();
console.log(
  `month for the panel queries: ${monthDate(0)} .. ${monthDate(MONTH_DAYS - 1)} (Macau dates), ${MONTH_TABLES} tables x ` +
    `${MONTH_ROUNDS.toLocaleString('en-US')} rounds a day, generated in ClickHouse in ${((performance.now() - t0) / 1000).toFixed(1)} s: ` +
    Object.entries(counts)
      .map(([t, n]) => `${t} ${n.toLocaleString('en-US')}`)
      .join(', '),
);

async function timed(name: string, run: () => Promise<unknown>): Promise<number> {
  await run(); // warm-up: marks loaded, not counted
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await run();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)]!;
  console.log(
    `  ${name.padEnd(62)} p50 ${q(0.5).toFixed(1).padStart(7)} ms   p99 ${q(0.99).toFixed(1).padStart(7)} ms`,
  );
  return q(0.99);
}

{
  // the generated month's parts are merged in the background for a while after the inserts; the queries are timed
  // once that has settled (a month of production data is not one just written), waiting at most BENCH_SETTLE_S
  const settle = Number(process.env.BENCH_SETTLE_S ?? 180) * 1000;
  const t = performance.now();
  let merging = 0;
  for (;;) {
    const [m] = await (
      await client.query({ query: 'SELECT count() AS n FROM system.merges', format: 'JSONEachRow' })
    ).json<{ n: string }>();
    merging = Number(m?.n ?? 0);
    if (merging === 0 || performance.now() - t > settle) break;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  console.log(
    `background merges: ${merging === 0 ? 'none left' : `${merging} still running`} after ${((performance.now() - t) / 1000).toFixed(0)} s; ` +
      `load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
  );
}
const range = { from: macauDayRange(monthDate(0)).from, to: macauDayRange(monthDate(MONTH_DAYS - 1)).to };
const ALL: VariableSelection = { values: [], all: true };
const [{ round_id: disputed } = { round_id: '' }] = await (
  await client.query({
    query: 'SELECT round_id FROM bets WHERE difference_avos != 0 ORDER BY round_id LIMIT 1',
    format: 'JSONEachRow',
  })
).json<{ round_id: string }>();
const variables: Record<string, VariableSelection> = {
  ...Object.fromEntries(SCOPE_VARIABLES.map((v) => [v, ALL])),
  round: { values: [disputed] },
  api_base_url: { values: ['http://localhost:3000'] },
};
const [{ casino } = { casino: '' }] = await (
  await client.query({
    query: 'SELECT casino FROM findings GROUP BY casino ORDER BY count() DESC LIMIT 1',
    format: 'JSONEachRow',
  })
).json<{ casino: string }>();

console.log(
  `queries, ${RUNS} runs each after one warm-up, the whole month as the time range, every scope variable on All; ` +
    'target p99 < 500 ms:',
);
const baseline = await timed('baseline: SELECT count() FROM rounds', async () =>
  (await client.query({ query: 'SELECT count() FROM rounds', format: 'JSONCompact' })).json(),
);
const over: string[] = [];
const panelCount = dashboards.reduce((n, d) => n + d.panels.length, 0);
for (const d of dashboards)
  for (const panel of d.panels) {
    const sql = expandMacros(panel.sql, { ...range, intervalMs: 3_600_000, variables });
    const p99 = await timed(panel.id, async () =>
      (await client.query({ query: sql, format: 'JSONCompact' })).json(),
    );
    if (p99 >= 500) {
      over.push(panel.id);
      // what it read: the parts and granules each table's indexes left (EXPLAIN indexes = 1)
      const plan = await (
        await client.query({ query: `EXPLAIN indexes = 1 ${sql}`, format: 'TabSeparatedRaw' })
      ).text();
      const read = plan
        .split('\n')
        .filter((l) => /ReadFromMergeTree|Parts: |Granules: /.test(l))
        .map((l) => l.trim());
      console.log(`    plan: ${read.join('; ')}`);
    }
  }
await timed('findings command: one casino, the month, latest 50', () =>
  listFindings(client, { casino, from: monthDate(0), to: monthDate(MONTH_DAYS - 1) }, 50),
);
await timed('findings command: high severity, one week', () =>
  listFindings(client, { severity: 'high', from: monthDate(0), to: monthDate(6) }, 50),
);
console.log(
  over.length
    ? `${over.length} of ${panelCount} panels over the 500 ms target at p99: ${over.join(', ')} (baseline p99 ${baseline.toFixed(1)} ms)`
    : `every panel (${panelCount}) under the 500 ms target at p99 (baseline p99 ${baseline.toFixed(1)} ms)`,
);
console.log(
  `load average at the end: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
await analytics.close();
rmSync(dir, { recursive: true, force: true });
