import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  AnalyticsProjector,
  analyticsTarget,
  DEFAULT_ANALYTICS_DIR,
  migrate,
  openAnalytics,
  PROJECTION_RUN_OPTIONS,
  PROJECTOR_NAME,
  type AnalyticsClient,
  type AnalyticsTarget,
  type ProjectionStats,
} from '@table-audit/analytics';
import { runProcessor, type EventStore, type Processor } from '@table-audit/eventstore';
import type { Readiness } from '@table-audit/observability';
import { out, UsageError, type Command } from './command.ts';
import {
  lagBehind,
  observe,
  OBSERVE_OPTIONS,
  OBSERVE_USAGE,
  SqliteStoreProbe,
  type Observed,
} from './observe.ts';
import { openStore, progress, progressDone, storePath } from './store.ts';

type ClickHouseClient = AnalyticsClient['client'];

const usage = `Usage: table-audit analytics project [--follow] [--checkpoint NAME] [--store PATH] [--analytics DIR]
       table-audit analytics reproject [--database NAME] [--store PATH] [--analytics DIR]

project     projects the event store into ClickHouse (rounds, bets, findings, table health, rejects, alert states)
            from the projector's durable checkpoint (default "${PROJECTOR_NAME}", kept in the store), up to the
            store's head; --follow keeps following new events until interrupted (SIGINT, SIGTERM). Idempotent: a
            batch projected twice shows once.
reproject   rebuilds every projected table from the beginning of the store into a new database (default
            <readers' database>_reproject_<UTC time>; it must not exist), under a checkpoint of its own
            (analytics/reproject-<database>); only once that is complete, switches the readers to the new
            tables by exchanging each with the readers' table of the same name (ClickHouse EXCHANGE TABLES,
            atomic per table), then projects what arrived meanwhile. Nothing is dropped: the replaced tables are
            kept in the new database, which the command names; drop it yourself once you have checked. A table
            of the readers' database that the projection does not make is left alone. On chDB, stop the
            process that holds the directory first (serve, run): one process per chDB directory.

  --analytics DIR   the chDB data directory (default $TABLE_AUDIT_ANALYTICS, else ${DEFAULT_ANALYTICS_DIR}); with
                    CLICKHOUSE_URL set, that ClickHouse server and its database instead
  --store PATH      the event store (default $TABLE_AUDIT_STORE, else data/events.sqlite)

With --follow (long-running): JSON log lines on stderr; with --metrics-port, health and Prometheus metrics (rows
projected by table, projection position and lag):
${OBSERVE_USAGE}

Exit 0 when done, 1 when it could not finish (nothing is switched), 2 for a usage error.`;

/** A database name ClickHouse takes unquoted, and that this command may create. */
const DATABASE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** `20251201T043000Z` */
const utcStamp = (ms: number): string =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');

export const analyticsCommand: Command = {
  name: 'analytics',
  summary:
    'project the store into ClickHouse (once or following), or rebuild the projection beside the live one',
  usage,
  async run(args) {
    const [sub, ...rest] = args;
    if (sub !== 'project' && sub !== 'reproject')
      throw new UsageError(
        `expected "analytics project" or "analytics reproject"${sub === undefined ? '' : `, got "${sub}"`}\n\n${usage}`,
      );
    const { values } = parseArgs({
      args: rest,
      options: {
        store: { type: 'string' },
        analytics: { type: 'string' },
        follow: { type: 'boolean' },
        checkpoint: { type: 'string' },
        database: { type: 'string' },
        ...OBSERVE_OPTIONS,
      },
    });
    if (sub === 'reproject')
      for (const flag of ['follow', 'checkpoint', 'metrics-port', 'metrics-host', 'log-level'] as const)
        if (values[flag] !== undefined) throw new UsageError(`--${flag} is for "analytics project"`);
    if (sub === 'project' && values.database !== undefined)
      throw new UsageError('--database is for "analytics reproject"');
    if (!values.follow)
      for (const flag of ['metrics-port', 'metrics-host', 'log-level'] as const)
        if (values[flag] !== undefined) throw new UsageError(`--${flag} is for the long-running --follow`);
    if (values.checkpoint !== undefined && !/^[A-Za-z0-9][A-Za-z0-9._/-]{0,99}$/.test(values.checkpoint))
      throw new UsageError(
        `--checkpoint takes a name of letters, digits and . _ / - (at most 100), got "${values.checkpoint}"`,
      );
    if (values.database !== undefined && !DATABASE_NAME.test(values.database))
      throw new UsageError(
        `--database takes a name of letters, digits and _ (not starting with a digit, at most 63), got "${values.database}"`,
      );
    if (values.analytics === '')
      throw new UsageError('--analytics needs a directory, e.g. --analytics data/analytics');
    const target = analyticsTarget(
      process.env,
      values.analytics ?? (process.env.TABLE_AUDIT_ANALYTICS || DEFAULT_ANALYTICS_DIR),
    );
    const observed = values.follow ? await observe('analytics', values) : null;
    const path = storePath(values.store);
    const opened = openStore(path, { mustExist: true });
    try {
      if (sub === 'reproject') {
        const r = await reproject(opened.store, target, values.database);
        return r.switched ? 0 : 1;
      }
      const analytics = await openAnalytics(target);
      try {
        await migrate(analytics.client);
        const projector = new AnalyticsProjector(
          analytics.client,
          values.checkpoint ? { name: values.checkpoint } : {},
        );
        const t0 = performance.now();
        if (!values.follow) {
          const report = await runProcessor(opened.store, projector, PROJECTION_RUN_OPTIONS);
          progressDone();
          out(
            `projected ${report.read.toLocaleString('en-US')} events (${describeRows(projector.stats)}) into ${analytics.description}, ${((performance.now() - t0) / 1000).toFixed(1)} s; checkpoint "${projector.name}" at ${report.checkpoints[projector.name] ?? 'the beginning'}`,
          );
          return 0;
        }
        const o = observed!;
        const log = o.logger;
        const state = {
          position: (await opened.store.loadCheckpoint(projector.name)) as bigint | null,
          caughtUp: false,
        };
        const metrics = observeProjection(o, projector, path, state);
        const abort = new AbortController();
        process.once('SIGINT', () => abort.abort());
        process.once('SIGTERM', () => abort.abort());
        await o.start(() => metrics.readiness());
        log.info(
          {
            store: path,
            analytics: analytics.description,
            checkpoint: projector.name,
            ...(o.server ? { metrics: o.server.url } : {}),
          },
          'projection following the store',
        );
        const processor: Processor = {
          name: projector.name,
          filter: projector.filter,
          handle: (batch) => projector.handle(batch),
          onCheckpoint: (position) => {
            state.position = position;
            progress(`${projector.stats.events.toLocaleString('en-US')} events projected`);
          },
          onCaughtUp: ({ position }) => {
            state.caughtUp = true;
            log.info({ position, rows: projector.stats.rows }, 'caught up; following new events');
          },
        };
        try {
          await runProcessor(opened.store, processor, {
            ...PROJECTION_RUN_OPTIONS,
            live: true,
            signal: abort.signal,
          });
        } catch (err) {
          log.error({ err }, 'the projection stopped');
          throw err;
        } finally {
          metrics.close();
          await o.close();
        }
        progressDone();
        log.info({ events: projector.stats.events, rows: projector.stats.rows }, 'projection stopped');
        out(
          `projected ${projector.stats.events.toLocaleString('en-US')} events (${describeRows(projector.stats)})`,
        );
        return 0;
      } finally {
        await analytics.close();
      }
    } finally {
      await observed?.close();
      await opened.close(false);
    }
  },
};

const describeRows = (s: ProjectionStats): string =>
  Object.entries(s.rows)
    .filter(([, n]) => n > 0)
    .map(([t, n]) => `${t} ${n.toLocaleString('en-US')}`)
    .join(', ') || 'no rows';

/**
 * The projection's metrics: rows projected by table, events and batches, its position, and its lag behind the
 * store's head in events and seconds (the age of the oldest event not projected yet).
 */
function observeProjection(
  { lib, registry }: Pick<Observed, 'lib' | 'registry'>,
  projector: AnalyticsProjector,
  storeFile: string,
  state: { position: bigint | null; caughtUp: boolean },
): { readiness(): Readiness; close(): void } {
  const { Counter, Gauge } = lib;
  const checkpoint = projector.name;
  let probe: SqliteStoreProbe | null = null;
  const lag = () => lagBehind((probe ??= new SqliteStoreProbe(storeFile)), state.position);
  const seen = new Map<string, number>();
  new Counter({
    name: 'table_audit_analytics_rows_total',
    help: 'Rows inserted into ClickHouse in this run, by table',
    labelNames: ['checkpoint', 'table'],
    registers: [registry],
    collect() {
      for (const [table, now] of Object.entries(projector.stats.rows)) {
        const before = seen.get(table) ?? 0;
        this.inc({ checkpoint, table }, Math.max(0, now - before));
        seen.set(table, now);
      }
    },
  });
  let events = 0;
  new Counter({
    name: 'table_audit_analytics_events_total',
    help: 'Stored events the projection handled in this run',
    labelNames: ['checkpoint'],
    registers: [registry],
    collect() {
      this.inc({ checkpoint }, Math.max(0, projector.stats.events - events));
      events = projector.stats.events;
    },
  });
  new Gauge({
    name: 'table_audit_analytics_position',
    help: "The projection's checkpoint: the store position projected up to",
    labelNames: ['checkpoint'],
    registers: [registry],
    collect() {
      this.set({ checkpoint }, Number(state.position ?? 0n));
    },
  });
  new Gauge({
    name: 'table_audit_analytics_lag_events',
    help: "Events stored after the projection's checkpoint (one position is one event on SQLite)",
    labelNames: ['checkpoint'],
    registers: [registry],
    collect() {
      this.set({ checkpoint }, Number(lag().events));
    },
  });
  new Gauge({
    name: 'table_audit_analytics_lag_seconds',
    help: 'Age of the oldest stored event not projected yet (0 when caught up)',
    labelNames: ['checkpoint'],
    registers: [registry],
    collect() {
      this.set({ checkpoint }, lag().seconds);
    },
  });
  return {
    readiness() {
      const l = lag();
      const details = {
        checkpoint,
        position: state.position,
        head: l.head?.position ?? null,
        lagEvents: l.events,
        lagSeconds: Math.round(l.seconds * 10) / 10,
      };
      return state.caughtUp
        ? { ready: true, details }
        : { ready: false, reason: `catching up: ${l.events} events behind`, details };
    },
    close() {
      probe?.close();
      probe = null;
    },
  };
}

export interface ReprojectReport {
  /** the database the readers read (its tables now the rebuilt ones) */
  readers: string;
  /** the database this command made: the rebuilt tables were made there, the replaced ones are kept there */
  built: string;
  checkpoint: string;
  events: number;
  /** rows (FINAL) per table: in the readers' tables before, and after the switch */
  rows: Record<string, { before: number | null; after: number }>;
  switched: boolean;
}

const rowsOf = async (client: ClickHouseClient, database: string, table: string): Promise<number> => {
  const r = await client.query({
    query: `SELECT count() AS n FROM ${database}.${table} FINAL`,
    format: 'JSONEachRow',
  });
  return Number((await r.json<{ n: string }>())[0]!.n);
};

const tablesIn = async (client: ClickHouseClient, database: string): Promise<string[]> => {
  const r = await client.query({
    query: 'SELECT name FROM system.tables WHERE database = {db:String} ORDER BY name',
    query_params: { db: database },
    format: 'JSONEachRow',
  });
  return (await r.json<{ name: string }>()).map((x) => x.name);
};

/**
 * Rebuilds the projection into a new database and switches the readers to it once complete (see the usage above).
 * Exported for the test; the command prints what it did at each step.
 */
export async function reproject(
  store: EventStore,
  target: AnalyticsTarget,
  database: string | undefined,
  now: number = Date.now(),
): Promise<ReprojectReport> {
  if ('path' in target && !existsSync(target.path))
    throw new Error(
      `there is no analytics data in ${target.path} to re-project: "table-audit analytics project" (or run) makes it`,
    );
  const readersClient = await openAnalytics(target);
  let builtClient: AnalyticsClient | null = null;
  try {
    const client = readersClient.client;
    const current = async (c: ClickHouseClient) =>
      (
        await (
          await c.query({ query: 'SELECT currentDatabase() AS db', format: 'JSONEachRow' })
        ).json<{ db: string }>()
      )[0]!.db;
    const readers = await current(client);
    const built = database ?? `${readers}_reproject_${utcStamp(now)}`.slice(0, 63);
    if (built === readers) throw new Error(`--database ${built} is the readers' database itself`);
    const exists = await (
      await client.query({
        query: 'SELECT count() AS n FROM system.databases WHERE name = {db:String}',
        query_params: { db: built },
        format: 'JSONEachRow',
      })
    ).json<{ n: string }>();
    if (Number(exists[0]!.n) > 0)
      throw new Error(
        `the database ${built} exists already; reproject builds into a database it creates, and never writes into one it did not: give --database NAME for a new one`,
      );
    const checkpoint = `${PROJECTOR_NAME}/reproject-${built}`;
    if ((await store.loadCheckpoint(checkpoint)) !== null)
      throw new Error(
        `the store holds a checkpoint "${checkpoint}" already: give --database NAME for a new one`,
      );
    const theirs = new Set(await tablesIn(client, readers));

    await client.command({ query: `CREATE DATABASE ${built}` });
    out(`made the database ${built} (${readersClient.description}); the readers read ${readers}`);
    // the projector writes unqualified table names: it is given a client whose current database is the new one
    let builtOn: ClickHouseClient;
    if ('url' in target) {
      const url = new URL(target.url);
      url.pathname = `/${built}`;
      builtClient = await openAnalytics({ url: url.toString() });
      builtOn = builtClient.client;
    } else {
      // chDB: one session per process; its current database is switched for the build and back after
      await client.command({ query: `USE ${built}` });
      builtOn = client;
    }
    if ((await current(builtOn)) !== built)
      throw new Error(`could not make ${built} the projection's current database; nothing was switched`);
    await migrate(builtOn);
    const projector = new AnalyticsProjector(builtOn, { name: checkpoint });
    const t0 = performance.now();
    const report = await runProcessor(
      store,
      {
        name: projector.name,
        filter: projector.filter,
        readEventTypes: projector.readEventTypes,
        handle: (batch) => projector.handle(batch),
        onCheckpoint: () =>
          progress(`re-projecting: ${projector.stats.events.toLocaleString('en-US')} events`),
      },
      PROJECTION_RUN_OPTIONS,
    );
    progressDone();
    out(
      `rebuilt from ${report.read.toLocaleString('en-US')} stored events in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${describeRows(projector.stats)}`,
    );
    if (!('url' in target)) await client.command({ query: `USE ${readers}` });

    // complete: each table exchanged with the readers' one of the same name (or moved in, when they have none)
    const rebuilt = await tablesIn(client, built);
    const before: Record<string, number> = {};
    for (const t of rebuilt) if (theirs.has(t)) before[t] = await rowsOf(client, readers, t);
    for (const t of rebuilt)
      await client.command({
        query: theirs.has(t)
          ? `EXCHANGE TABLES ${readers}.${t} AND ${built}.${t}`
          : `RENAME TABLE ${built}.${t} TO ${readers}.${t}`,
      });
    out(
      `switched: the readers' ${rebuilt.length} tables in ${readers} are the rebuilt ones; the ${rebuilt.filter((t) => theirs.has(t)).length} they replaced are kept in ${built}`,
    );
    // what a projector following the store wrote into the replaced tables while this one rebuilt
    const after = new AnalyticsProjector(client, { name: checkpoint });
    const tail = await runProcessor(store, after, PROJECTION_RUN_OPTIONS);
    if (after.stats.events > 0)
      out(
        `projected the ${tail.read.toLocaleString('en-US')} events stored meanwhile into the switched tables`,
      );
    const rows: ReprojectReport['rows'] = {};
    for (const t of rebuilt) rows[t] = { before: before[t] ?? null, after: await rowsOf(client, readers, t) };
    for (const [t, r] of Object.entries(rows))
      out(`  ${t.padEnd(22)} ${String(r.before ?? '—').padStart(10)} → ${String(r.after).padStart(10)} rows`);
    out(
      `the replaced tables are kept in ${built}; once checked, "DROP DATABASE ${built}" removes them (this command never drops anything)`,
    );
    return {
      readers,
      built,
      checkpoint,
      events: report.read + tail.read,
      rows,
      switched: true,
    };
  } finally {
    await builtClient?.close();
    await readersClient.close();
  }
}
