/**
 * Readings kept ready (services/replay/src/readings-ready.ts) — printed figures, never asserted: what preparing
 * them costs, what preparing again with nothing changed costs, and how fast a one-reading what-if is answered from
 * them beside the same what-if derived (`kept: false`, the same workers), all over the same store in the same run,
 * beside SQLite's raw read rate (of the store's own events table, and of bench/raw-sqlite.ts's rows on the same
 * disk). The kept answer must come from the kept readings (`source.kind === 'kept'`) and must equal the derived
 * report apart from its source, time and workers: otherwise the bench throws (a correctness guard, not a timing).
 *
 * The store: by default BENCH_TABLES × BENCH_ROUNDS (50 × 200) simulated F3CP tables, December 2025, ingested into
 * a temporary store, as bench/what-if.bench.ts's simulated month. With BENCH_STORE=DIR (DIR/events.sqlite, e.g. a
 * store of bench/lib/realistic-store.ts) that store is copied into a temporary directory of the bench's own first
 * (the readings file is written beside the store, and never into a directory the bench did not make) and used.
 * The what-ifs cover BENCH_FROM..BENCH_TO (Macau dates; default 2025-12-01..2025-12-31, the whole of either store).
 *
 * A month at 50 tables (BENCH_ROUNDS_PER_DAY rounds a table a day, default 800) is extrapolated from the measured
 * CPU µs per event of the preparation (said to be extrapolated), with the events a round takes in this store.
 *
 *   node --import ./apps/cli/bin/register-ts.mjs bench/readings-ready.bench.ts
 *   BENCH_TABLES=50 BENCH_ROUNDS=200 BENCH_WORKERS=2 BENCH_READINGS=J11,J9,J2 BENCH_REPEAT=3 (the defaults)
 *   BENCH_STORE=DIR [BENCH_FROM=… BENCH_TO=…] node --import … bench/readings-ready.bench.ts
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import Database from 'better-sqlite3';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { IngestPipeline } from '@table-audit/ingest';
import {
  DEFAULT_MAX_CHANGED,
  prepareReadings,
  readingsFileOf,
  readingsOfGame,
  runWhatIf,
  type WhatIfReport,
} from '@table-audit/replay';
import { ALTERNATIVE_READINGS } from '@table-audit/rules';
import { rawSqlite, readPaged } from './raw-sqlite.ts';
import { cpuSeconds, median, sqliteBytes } from './lib/measure.ts';
import { submitEvents } from './lib/submit.ts';
import { whatIfSession } from './lib/what-if-session.ts';

const TABLES = Number(process.env.BENCH_TABLES ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
const READINGS = (process.env.BENCH_READINGS ?? 'J11,J9,J2').split(',').filter((x) => x !== '');
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const PER_DAY = Number(process.env.BENCH_ROUNDS_PER_DAY ?? 800);
const SCOPE = { from: process.env.BENCH_FROM ?? '2025-12-01', to: process.env.BENCH_TO ?? '2025-12-31' };
const STORE = process.env.BENCH_STORE;
const loader = new URL('../apps/cli/bin/register-ts.mjs', import.meta.url).href;

const load = () => loadavg().map((x) => Number(x.toFixed(2)));
const s2 = (x: number) => Number(x.toFixed(2));
const at = () => ({ utc: new Date().toISOString().slice(11, 19), load: load() });

async function timed<T>(f: () => Promise<T>): Promise<{ value: T; seconds: number; cpuSeconds: number }> {
  const t = performance.now();
  const c = cpuSeconds();
  const value = await f();
  return { value, seconds: (performance.now() - t) / 1000, cpuSeconds: cpuSeconds() - c };
}

/** The report without what says how it was had: its source, time and workers. */
const comparable = (r: WhatIfReport) => {
  const { source: _s, elapsedMs: _e, workers: _w, ...rest } = r;
  return rest;
};

/** The first keys where two reports differ, for the error. */
const differing = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  Object.keys({ ...a, ...b }).filter((k) => !isDeepStrictEqual(a[k], b[k]));

/** Every row of the store's events table, paged by position as arrays: SQLite's own read rate of this store. */
function rawStoreRead(path: string): { rows: number; seconds: number; rowsPerSecond: number } {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const page = db
      .prepare<[number], unknown[]>(
        'SELECT position, stream_id, revision, event_id, type_id, data, metadata, recorded_at, hash FROM events WHERE position > ? ORDER BY position LIMIT 512',
      )
      .raw(true);
    const t = performance.now();
    const rows = readPaged(page);
    const seconds = (performance.now() - t) / 1000;
    return { rows, seconds: s2(seconds), rowsPerSecond: Math.round(rows / seconds) };
  } finally {
    db.close();
  }
}

// the store, in a directory of the bench's own
const dir = mkdtempSync(join(tmpdir(), 'ta-bench-readings-ready-'));
const path = join(dir, 'events.sqlite');
let built: Record<string, unknown>;
if (STORE !== undefined) {
  const from = join(STORE, 'events.sqlite');
  if (!existsSync(from)) throw new Error(`BENCH_STORE: no events.sqlite in ${STORE}`);
  const t = performance.now();
  copyFileSync(from, path);
  if (existsSync(`${from}-wal`)) copyFileSync(`${from}-wal`, `${path}-wal`);
  built = { copiedFrom: STORE, copySeconds: s2((performance.now() - t) / 1000) };
} else {
  const session = whatIfSession(TABLES, ROUNDS);
  const store = new SqliteEventStore(path);
  await submitEvents(new IngestPipeline(store), session.events);
  await store.close();
  built = { simulated: { tables: TABLES, roundsPerTable: ROUNDS, events: session.events.length } };
}
const storeBytes = sqliteBytes(path);

try {
  // the baselines: SQLite reading this store's rows, and bench/raw-sqlite.ts's rows on the same disk
  const rawStore = { ...rawStoreRead(path), ...at() };
  const raw = { readRowsPerSecond: rawSqlite(dir, 200_000).readRowsPerSecond, ...at() };
  rmSync(join(dir, 'raw.sqlite'), { force: true });

  // preparing: every table derived under each reading of its game, in WORKERS threads
  const beforePrepare = at();
  const prepared = await timed(() => prepareReadings({ storePath: path, workers: WORKERS }));
  const p = prepared.value;
  const afterPrepare = at();
  // preparing again, nothing changed: only the heads are read
  const again = await timed(() => prepareReadings({ storePath: path, workers: WORKERS }));
  const file = readingsFileOf(path);

  // what the file keeps: rounds (the units compared with themselves), readings a table, (table, date) buckets
  const db = new Database(file, { readonly: true, fileMustExist: true });
  const rounds = (
    db
      .prepare(
        `SELECT coalesce(sum(json_extract(partial, '$.roundsCompared')), 0) AS n FROM buckets WHERE reading = ''`,
      )
      .get() as { n: number }
  ).n;
  const perTable = db
    .prepare(
      `SELECT t.table_id, t.game, (SELECT count(DISTINCT reading) FROM buckets b WHERE b.table_id = t.table_id AND b.reading <> '') AS readings FROM tables t`,
    )
    .all() as { table_id: string; game: string | null; readings: number }[];
  const games = [...new Set(perTable.map((t) => t.game))];
  const tableDates = db.prepare(
    `SELECT count(*) AS n FROM buckets WHERE reading = ? AND macau_date BETWEEN ? AND ?`,
  );
  const changedByDate = db.prepare(
    `SELECT macau_date, count(*) AS n FROM changed WHERE reading = ? AND macau_date BETWEEN ? AND ? GROUP BY macau_date`,
  );
  const keptCounts = (reading: string) => {
    const byDate = changedByDate.all(reading, SCOPE.from, SCOPE.to) as { macau_date: string; n: number }[];
    return {
      tableDates: (tableDates.get(reading, SCOPE.from, SCOPE.to) as { n: number }).n,
      dates: byDate.length,
      changedKept: byDate.reduce((n, d) => n + d.n, 0),
      changedRowsRead: byDate.reduce((n, d) => n + Math.min(d.n, DEFAULT_MAX_CHANGED), 0),
    };
  };
  const counts = new Map(READINGS.map((r) => [r, keptCounts(r)]));
  // where the file's bytes are: each table and index (SQLite's dbstat), and the rows of each table
  const bytesBy = Object.fromEntries(
    (
      db.prepare('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC').all() as {
        name: string;
        bytes: number;
      }[]
    ).map((r) => [r.name, r.bytes]),
  );
  const rowsOf = Object.fromEntries(
    ['tables', 'buckets', 'table_findings', 'changed'].map((t) => [
      t,
      (db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n,
    ]),
  );
  // the changed rounds kept, by reading: the readings that change most rounds make most of the file
  const changedByReading = (
    db
      .prepare(
        'SELECT reading, count(*) AS rows, sum(length(round)) AS jsonBytes FROM changed GROUP BY reading ORDER BY rows DESC',
      )
      .all() as { reading: string; rows: number; jsonBytes: number }[]
  ).map((r) => ({ ...r, shareOfRounds: s2(r.rows / rounds) }));
  db.close();
  const fileBytes = sqliteBytes(file);

  // each reading: the what-if answered from the kept readings (REPEAT times), then derived, the same scope
  const whatIfs: Record<string, unknown> = {};
  for (const reading of READINGS) {
    const keptRuns: number[] = [];
    let kept: WhatIfReport | null = null;
    for (let i = 0; i < REPEAT; i++) {
      const k = await timed(() =>
        runWhatIf({ storePath: path, alternatives: [reading], scope: SCOPE, workers: WORKERS, loader }),
      );
      if (k.value.source.kind !== 'kept')
        throw new Error(
          `${reading}: the what-if was not answered from the kept readings: ${k.value.source.why ?? '(no reason given)'}`,
        );
      keptRuns.push(k.seconds * 1000);
      kept = k.value;
    }
    const keptAt = at();
    const derived = await timed(() =>
      runWhatIf({
        storePath: path,
        alternatives: [reading],
        scope: SCOPE,
        workers: WORKERS,
        loader,
        kept: false,
      }),
    );
    if (derived.value.source.kind !== 'derived') throw new Error(`${reading}: kept: false was not derived`);
    const a = comparable(kept!) as unknown as Record<string, unknown>;
    const b = comparable(derived.value) as unknown as Record<string, unknown>;
    if (!isDeepStrictEqual(a, b))
      throw new Error(
        `${reading}: the kept answer differs from the derived report in ${differing(a, b).join(', ')}`,
      );
    const keptMs = median(keptRuns);
    whatIfs[reading] = {
      roundsCompared: derived.value.roundsCompared,
      roundsChanged: derived.value.roundsChanged,
      ...counts.get(reading),
      kept: {
        wallMs: { first: s2(keptRuns[0]!), median: s2(keptMs), runs: REPEAT },
        ...keptAt,
      },
      derived: {
        wallSeconds: s2(derived.seconds),
        cpuSeconds: s2(derived.cpuSeconds),
        roundsPerSecond: Math.round(derived.value.roundsCompared / derived.seconds),
        cpuMicrosecondsPerEvent: s2((derived.cpuSeconds * 1e6) / derived.value.events),
        ...at(),
      },
      derivedOverKept: Math.round((derived.seconds * 1000) / keptMs),
      reportsEqual: true,
    };
  }

  const cpuPerEvent = (prepared.cpuSeconds * 1e6) / p.eventsRead;
  const eventsPerRound = p.eventsRead / rounds;
  const monthRounds = 50 * PER_DAY * 31;
  const monthEvents = Math.round(monthRounds * eventsPerRound);
  console.log(
    JSON.stringify(
      {
        note: `a shared 2-core machine: each figure with the UTC time and load average (1, 5, 15 min) it was taken at; wall times include worker start-up`,
        store: {
          ...built,
          bytes: storeBytes,
          tables: p.tables,
          games,
          events: p.eventsRead,
          rounds,
          scope: SCOPE,
          workers: WORKERS,
        },
        rawSqlite: {
          storeEventsTable: rawStore,
          rawSqliteTs: raw,
        },
        prepare: {
          wallSeconds: s2(prepared.seconds),
          cpuSeconds: s2(prepared.cpuSeconds),
          tablesDerived: p.tablesDerived,
          events: p.eventsRead,
          rounds,
          cpuMicrosecondsPerEvent: s2(cpuPerEvent),
          eventsPerSecond: Math.round(p.eventsRead / prepared.seconds),
          readingsPerTable: {
            min: Math.min(...perTable.map((t) => t.readings)),
            max: Math.max(...perTable.map((t) => t.readings)),
            f3cpReadings: readingsOfGame('F3CP'),
            selectableReadings: ALTERNATIVE_READINGS.length,
          },
          cpuMicrosecondsPerEventPerReading: s2(cpuPerEvent / (readingsOfGame('F3CP').length + 1)),
          before: beforePrepare,
          after: afterPrepare,
        },
        prepareAgainNothingChanged: {
          wallSeconds: s2(again.seconds),
          cpuSeconds: s2(again.cpuSeconds),
          tablesDerived: again.value.tablesDerived,
          ...at(),
        },
        whatIf: whatIfs,
        readingsFile: {
          bytes: fileBytes,
          bytesPerRound: Math.round(fileBytes / rounds),
          bytesPerEvent: s2(fileBytes / p.eventsRead),
          ratioToStore: s2(fileBytes / storeBytes),
          bytesByTableAndIndex: bytesBy,
          rows: rowsOf,
          changedByReading,
        },
        monthAt50Tables: {
          extrapolated: true,
          roundsPerTablePerDay: PER_DAY,
          rounds: monthRounds,
          events: monthEvents,
          eventsPerRound: s2(eventsPerRound),
          prepareCpuSeconds: Math.round((monthEvents * cpuPerEvent) / 1e6),
          prepareWallSecondsOnTwoFreeCores: Math.round((monthEvents * cpuPerEvent) / 1e6 / 2),
          bytesOfReadingsFile: Math.round((fileBytes / rounds) * monthRounds),
        },
      },
      null,
      2,
    ),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
