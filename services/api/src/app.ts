/**
 * buildApp: the API as a Fastify instance, made of encapsulated plugins — observability (request ids, logs,
 * metrics), limits (body size, rate per caller), documentation (OpenAPI at /openapi.json, Swagger UI at /docs,
 * served locally), health, and under /v1 the authenticated, tenant-scoped, audited routes. The web UI plugs in
 * under /ui. Tests drive it with app.inject; `table-audit serve` listens with it.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyServerOptions } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { streamHead, type EventStore } from '@table-audit/eventstore';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { Authenticator, sha256Hex, Unauthenticated, type AuthOptions } from './auth.ts';
import { ACCESS_STREAM, type AnchorSource, type ApiContext } from './context.ts';
import { HttpError } from './errors.ts';
import type { FindingsQuery } from './findings-query.ts';
import { alertRoutes } from './routes/alerts.ts';
import { evidenceRoutes } from './routes/evidence.ts';
import { findingsRoutes } from './routes/findings.ts';
import { roundRoutes } from './routes/rounds.ts';
import { chartRoutes } from './routes/charts.ts';
import { roundReadingsRoutes } from './routes/round-readings.ts';
import { WHAT_IF_MAX_CHANGED, whatIfRoutes } from './routes/what-if.ts';
import { WhatIfRuns, type WhatIfRunsOptions } from './what-if-runs.ts';
import { RunsFileRefused, WhatIfRunsFile } from './what-if-runs-file.ts';
import type { ChartsQuery } from './charts.ts';
import { StoreIndex } from './store-index.ts';
import { AccessLog, type AccessLogOptions } from './access-log.ts';
import { RoundDerivations, type RoundDerivationsOptions } from './round-derivations.ts';
import { derivedAnswer } from './routes/rounds.ts';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { ReplayPool, type ReplayPoolOptions } from './replay-pool.ts';
import { AccessWriterThread } from './access-writer-thread.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** the replay workers, or null when replays are folded in the main thread (see AppOptions.replayWorkers) */
    replayPool: ReplayPool | null;
    /** the what-if runs (what-if-runs.ts) */
    whatIfRuns: WhatIfRuns;
  }
}

/** Something the API depends on that /health/ready checks (ClickHouse, through the analytics client). */
export interface ReadinessCheck {
  readonly name: string;
  ping(): Promise<void>;
}

export interface AppOptions {
  readonly store: EventStore;
  readonly auth: AuthOptions;
  /** where findings are listed from (the ClickHouse adapter); default: the store index */
  readonly findings?: FindingsQuery;
  /**
   * the store index's database (store-index.ts): a file the API creates and owns, kept across restarts (a start
   * reads only what was stored since; an existing file that is not an index of ours is refused). Absent: in memory,
   * built from the whole store at every start.
   */
  readonly indexPath?: string;
  /** chart series from the dashboards' panel SQL (the ClickHouse adapter); without it /v1/charts answers 503 */
  readonly charts?: ChartsQuery;
  /** more dependencies for /health/ready (e.g. ClickHouse) */
  readonly readiness?: readonly ReadinessCheck[];
  /** signed anchors cited by evidence exports (see anchor.ts) */
  readonly anchors?: AnchorSource;
  /** Fastify's logger option (pino); default: off */
  readonly logger?: FastifyServerOptions['logger'];
  /** bytes; default 64 KiB (workflow bodies are small) */
  readonly bodyLimit?: number;
  /** requests per caller per minute; default 600 */
  readonly rateLimitPerMinute?: number;
  /** the longest time range of a findings query, days; default 92 */
  readonly maxRangeDays?: number;
  /** the web UI: a directory of static files served under /ui/, or a plugin registered under /ui */
  readonly ui?: { readonly root: string } | FastifyPluginAsync;
  readonly now?: () => number;
  /**
   * the access log's group commit: the gap between two appends (access-log.ts); `thread: true` appends from a
   * writer thread of its own (access-writer-thread.ts) for a SQLite store on a file, so the commits' waits for the
   * disk do not hold the event loop (another store: appended in the main thread, said in the log)
   */
  readonly accessLog?: Omit<AccessLogOptions, 'writer'> & { readonly thread?: boolean };
  /** bounds of the disputed hands kept in memory (rounds kept, answers kept) */
  readonly derivations?: RoundDerivationsOptions;
  /**
   * Disputed-hand replays folded in worker threads (replay-pool.ts; the bounds of `derivations` shared out between
   * them), for a SQLite store on a file: each worker opens it read-only. Absent, or `threads: 0`, or another store:
   * folded in the main thread. A pool that cannot start is said in the log and replays are folded in the main
   * thread.
   */
  readonly replayWorkers?: Omit<ReplayPoolOptions, 'storePath' | 'maxRounds' | 'maxExplanations' | 'store'>;
  /**
   * What-if runs (what-if-runs.ts): how many at once (1), how many may wait (8), how many finished are kept (32),
   * worker threads a run (1). Compared in worker threads that open a SQLite store on a file read-only; another
   * store: in the main thread, said in the log. The loader defaults to replayWorkers.loader.
   */
  readonly whatIfRuns?: Omit<WhatIfRunsOptions, 'now' | 'log' | 'file'>;
  /**
   * the what-if runs file (what-if-runs-file.ts): a SQLite file the API creates and owns, where the runs kept are
   * written and read back at the next start. Default: beside a file `indexPath`, named after it
   * (whatIfRunsPathFor); without a file index (in memory), none: the runs are kept in memory only. A file there that
   * is not ours, or holds another store's runs, is refused, left as it is, and said in the log (runs in memory).
   */
  readonly whatIfRunsPath?: string;
}

/**
 * Where the what-if runs are kept beside an index file: its name without a final `.sqlite`, then
 * `.what-if-runs.sqlite` (data/events.sqlite.index.sqlite: data/events.sqlite.index.what-if-runs.sqlite). Null for
 * an index in memory.
 */
export function whatIfRunsPathFor(indexPath: string | undefined): string | null {
  if (indexPath === undefined || indexPath === ':memory:' || indexPath === '') return null;
  return `${indexPath.replace(/\.sqlite$/, '')}.what-if-runs.sqlite`;
}

export async function buildApp(o: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: o.logger ?? false,
    bodyLimit: o.bodyLimit ?? 64 * 1024,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', allErrors: false } },
  });
  const index = new StoreIndex(o.store, {
    ...(o.indexPath === undefined ? {} : { path: o.indexPath }),
    log: (message) => app.log.info(message),
  });
  app.addHook('onClose', () => index.close());
  const replayPool = await startReplayPool(app, o);
  app.decorate('replayPool', replayPool);
  if (replayPool) app.addHook('onClose', () => replayPool.close());
  const accessWriter = await startAccessWriter(app, o);
  if (accessWriter) app.addHook('onClose', () => accessWriter.close());
  const ctx: ApiContext = {
    store: o.store,
    index,
    findings: o.findings ?? index,
    charts: o.charts ?? null,
    anchors: o.anchors ?? null,
    now: o.now ?? Date.now,
    accessLog: new AccessLog(o.store, { ...o.accessLog, ...(accessWriter ? { writer: accessWriter } : {}) }),
    derivations: new RoundDerivations(o.store, derivedAnswer, o.derivations),
    replayPool,
  };
  const runsFile = await openRunsFile(app, o);
  let whatIfRuns: WhatIfRuns;
  try {
    whatIfRuns = new WhatIfRuns(storeFile(o.store), o.store, {
      maxChanged: WHAT_IF_MAX_CHANGED,
      ...(o.replayWorkers?.loader === undefined ? {} : { loader: o.replayWorkers.loader }),
      ...o.whatIfRuns,
      ...(runsFile === null ? {} : { file: runsFile }),
      now: ctx.now,
      log: (message) => app.log.info(message),
    });
  } catch (e) {
    runsFile?.close();
    throw e;
  }
  app.decorate('whatIfRuns', whatIfRuns);
  app.addHook('onClose', () => whatIfRuns.close());
  const auth = new Authenticator(o.auth);
  // the index of rounds and findings is read before the first request, not during it (a month's store takes
  // seconds to read from the start; a kept index file reads only what was stored since it last stopped);
  // afterwards each request reads only what was stored since
  app.addHook('onReady', () => index.refresh());

  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  app.setErrorHandler((err: Error & { statusCode?: number; validation?: unknown }, req, reply) => {
    if (err instanceof Unauthenticated)
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .send({ statusCode: 401, error: 'Unauthorized', message: err.message });
    const status =
      err instanceof HttpError
        ? err.statusCode
        : err.validation
          ? 400
          : err.statusCode && err.statusCode >= 400 && err.statusCode < 500
            ? err.statusCode
            : 500;
    if (status === 500) req.log.error({ err }, 'request failed');
    return reply.code(status).send({
      statusCode: status,
      error:
        status === 500
          ? 'Internal Server Error'
          : err.name === 'HttpError'
            ? httpReason(status)
            : httpReason(status),
      message: status === 500 ? `internal error (request ${req.id}; see the API's log)` : err.message,
    });
  });

  await app.register(metricsPlugin);
  await app.register(rateLimit, {
    max: o.rateLimitPerMinute ?? 600,
    timeWindow: 60_000,
    // per caller: the credential they present (hashed), else their address
    keyGenerator: (req) => {
      const credential = req.headers.authorization ?? req.headers['x-api-key'];
      return typeof credential === 'string' ? `c:${sha256Hex(credential)}` : `ip:${req.ip}`;
    },
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'table-audit API',
        version: '1',
        description:
          'Findings, alerts and their workflow, disputed hands and evidence for Macau casino table games. Money is in avos (1/100 MOP); times are UTC milliseconds, with Macau time (UTC+8) beside them.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        },
      },
      security: [{ bearer: [] }, { apiKey: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  app.get('/health/live', { schema: { tags: ['health'], security: [] } }, async () => ({ status: 'ok' }));
  app.get('/health/ready', { schema: { tags: ['health'], security: [] } }, async (_req, reply) => {
    const checks: ReadinessCheck[] = [
      {
        name: 'event store',
        ping: async () => void (await streamHead(o.store, ACCESS_STREAM)),
      },
      { name: `findings (${ctx.findings.description})`, ping: () => ctx.findings.ping() },
      ...(o.readiness ?? []),
    ];
    const results = await Promise.all(
      checks.map(async (c) => {
        try {
          await c.ping();
          return { name: c.name, ok: true, error: null };
        } catch (e) {
          return { name: c.name, ok: false, error: (e as Error).message };
        }
      }),
    );
    const ok = results.every((r) => r.ok);
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ready' : 'not ready', checks: results });
  });

  await app.register(
    async (v1) => {
      v1.addHook('onRequest', async (req) => {
        req.principal = await auth.authenticate(req.headers);
      });
      v1.get(
        '/me',
        { schema: { tags: ['identity'], summary: 'Who the API takes the caller to be' } },
        async (req) => req.principal,
      );
      findingsRoutes(v1, ctx, { maxRangeDays: o.maxRangeDays });
      alertRoutes(v1, ctx, { maxRangeDays: o.maxRangeDays });
      roundRoutes(v1, ctx);
      evidenceRoutes(v1, ctx);
      chartRoutes(v1, ctx, { maxRangeDays: o.maxRangeDays });
      whatIfRoutes(v1, ctx, whatIfRuns);
      roundReadingsRoutes(v1, ctx, {
        storePath: storeFile(o.store),
        ...(o.replayWorkers?.loader === undefined ? {} : { loader: o.replayWorkers.loader }),
      });
    },
    { prefix: '/v1' },
  );

  // the web UI's slot: its own plugin, or its built files
  const ui = o.ui;
  if (ui !== undefined)
    await app.register(
      typeof ui === 'function'
        ? ui
        : (scope) => scope.register(fastifyStatic, { root: ui.root, prefix: '/' }),
      { prefix: '/ui' },
    );
  return app;
}

/** A SQLite store's file, or null (in memory, or another store): what worker threads can open themselves. */
const storeFile = (store: EventStore): string | null =>
  store instanceof SqliteEventStore && store.path !== ':memory:' && store.path !== '' ? store.path : null;

/**
 * The what-if runs file AppOptions.whatIfRunsPath (or its default beside the index) names, or null: none asked, or
 * refused (left as it is; said in the log, and the runs are kept in memory).
 */
async function openRunsFile(app: FastifyInstance, o: AppOptions): Promise<WhatIfRunsFile | null> {
  const path = o.whatIfRunsPath ?? whatIfRunsPathFor(o.indexPath);
  if (path === null) {
    app.log.info(
      'what-if runs are kept in memory only (no index file to keep them beside): a restart loses them',
    );
    return null;
  }
  try {
    return await WhatIfRunsFile.open(path, o.store);
  } catch (e) {
    if (!(e instanceof RunsFileRefused)) throw e;
    app.log.warn(`what-if runs file refused: ${e.message}`);
    return null;
  }
}

/** The access writer thread AppOptions.accessLog.thread asks for, or null (appended in the main thread). */
async function startAccessWriter(app: FastifyInstance, o: AppOptions): Promise<AccessWriterThread | null> {
  if (!o.accessLog?.thread) return null;
  const file = storeFile(o.store);
  if (file === null) {
    app.log.info(
      'access records are appended in the main thread: its writer thread needs a SQLite store on a file',
    );
    return null;
  }
  try {
    return await AccessWriterThread.start(
      file,
      o.replayWorkers?.loader === undefined ? {} : { loader: o.replayWorkers.loader },
    );
  } catch (e) {
    app.log.warn(
      `access records are appended in the main thread: the writer thread did not start (${(e as Error).message})`,
    );
    return null;
  }
}

/** The replay workers AppOptions.replayWorkers asks for, or null (folded in the main thread), said in the log. */
async function startReplayPool(app: FastifyInstance, o: AppOptions): Promise<ReplayPool | null> {
  const w = o.replayWorkers;
  if (w === undefined || w.threads === 0) return null;
  const file = storeFile(o.store);
  if (file === null) {
    app.log.info('replays are folded in the main thread: replay workers need a SQLite store on a file');
    return null;
  }
  try {
    const pool = await ReplayPool.start({
      ...w,
      storePath: file,
      store: o.store,
      ...(o.derivations?.maxRounds === undefined ? {} : { maxRounds: o.derivations.maxRounds }),
      ...(o.derivations?.maxExplanations === undefined
        ? {}
        : { maxExplanations: o.derivations.maxExplanations }),
      ...(o.derivations?.resume === undefined ? {} : { resume: o.derivations.resume }),
    });
    app.log.info(
      { threads: pool.threads, code: pool.code },
      `replays are folded in ${pool.threads} worker thread(s)`,
    );
    return pool;
  } catch (e) {
    app.log.warn(
      `replays are folded in the main thread: the replay workers did not start (${(e as Error).message})`,
    );
    return null;
  }
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};
const httpReason = (status: number): string => REASONS[status] ?? 'Error';

/** Prometheus metrics at /metrics: the process's own, and each route's request durations by status. */
// fastify-plugin: not encapsulated, so its onResponse hook sees every route
const metricsPlugin = fp(async (app: FastifyInstance) => {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const durations = new Histogram({
    name: 'table_audit_api_request_duration_seconds',
    help: 'API request durations by method, route and status code',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  app.addHook('onResponse', async (req, reply) => {
    durations.observe(
      {
        method: req.method,
        route: req.routeOptions.url ?? 'unmatched',
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });
  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) =>
    reply.type(registry.contentType).send(await registry.metrics()),
  );
});
