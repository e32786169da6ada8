/**
 * What every long-running table-audit process reports about itself: structured JSON logs (pino), a Prometheus
 * registry (prom-client, as the API uses), and a small HTTP server with `/health/live`, `/health/ready` and
 * `/metrics` that the process starts on the port it is given. No table-audit service is imported here: the
 * services report through callbacks and the commands turn those into metrics (docs/observability.md).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino, type DestinationStream, type Logger } from 'pino';
import { collectDefaultMetrics, Registry } from 'prom-client';

export type { Logger } from 'pino';
export { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The levels LOG_LEVEL may name, quietest last. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The level from an explicit value, else $LOG_LEVEL, else info; an unknown one is refused, naming where it came from. */
export function logLevel(explicit: string | undefined, env: NodeJS.ProcessEnv = process.env): LogLevel {
  const [value, from] =
    explicit !== undefined ? [explicit, '--log-level'] : [env.LOG_LEVEL || 'info', 'LOG_LEVEL'];
  if (!(LOG_LEVELS as readonly string[]).includes(value))
    throw new Error(`${from} "${value}" is not a log level; give one of ${LOG_LEVELS.join(', ')}`);
  return value as LogLevel;
}

export interface LoggerOptions {
  /** `service` in every line: ingest, replay, analytics, … */
  service: string;
  /** default: $LOG_LEVEL, else info */
  level?: string;
  /** default: stderr (fd 2), so that a command's own report on stdout stays readable */
  destination?: DestinationStream;
  env?: NodeJS.ProcessEnv;
}

/**
 * A pino logger writing one JSON object per line: `level` as its name, `time` in ISO 8601 UTC (collectors
 * convert; people read Macau time in the dashboards), `service`, `pid`, `hostname`, `msg`, and the fields given.
 */
export function createLogger(o: LoggerOptions): Logger {
  const level = logLevel(o.level, o.env);
  return pino(
    {
      level,
      base: { service: o.service, pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    o.destination ?? pino.destination({ fd: 2, sync: true }),
  );
}

/**
 * A registry holding the process's default metrics (CPU, memory, event-loop lag, …) with the label `service`,
 * beside which each command registers its own `table_audit_<service>_…` metrics.
 */
export function createRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** What `/health/ready` answers: ready or not, why not, and any figures worth showing. */
export interface Readiness {
  ready: boolean;
  /** why not ready, for people */
  reason?: string;
  details?: Record<string, unknown>;
}

export interface HealthServerOptions {
  port: number;
  /** default 127.0.0.1; 0.0.0.0 in a container, for the orchestrator's probes and Prometheus */
  host?: string;
  registry: Registry;
  /** called on each /health/ready; default: ready once the server listens */
  ready?: () => Readiness | Promise<Readiness>;
  /** called on each /health/live; default: live while the process answers */
  live?: () => Readiness | Promise<Readiness>;
  /** a check slower than this answers 503 (default 5,000 ms) */
  checkTimeoutMs?: number;
  logger?: Logger;
}

export interface HealthServer {
  /** the port it listens on (the one given, or the one the system chose for 0) */
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
}

const json = (value: unknown): string =>
  JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));

/** A check's answer, or not-ready when it throws or does not answer in time. */
async function answer(
  check: (() => Readiness | Promise<Readiness>) | undefined,
  timeoutMs: number,
): Promise<Readiness> {
  if (!check) return { ready: true };
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      Promise.resolve().then(check),
      new Promise<Readiness>((resolve) => {
        timer = setTimeout(
          () => resolve({ ready: false, reason: `the check did not answer within ${timeoutMs} ms` }),
          timeoutMs,
        );
      }),
    ]);
  } catch (err) {
    return { ready: false, reason: `the check failed: ${(err as Error).message}` };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Starts the health and metrics server: GET (or HEAD) `/health/live`, `/health/ready` (200 when ready, 503 with
 * the reason otherwise, JSON) and `/metrics` (Prometheus text format). Anything else is 404, another method 405;
 * request bodies are not read. Rejects when the port cannot be bound (EADDRINUSE, EACCES), naming it.
 */
export async function startHealthServer(o: HealthServerOptions): Promise<HealthServer> {
  if (!Number.isSafeInteger(o.port) || o.port < 0 || o.port > 65_535)
    throw new RangeError(`a metrics port is a whole number from 0 to 65535, got ${o.port}`);
  const host = o.host ?? '127.0.0.1';
  const timeoutMs = o.checkTimeoutMs ?? 5_000;
  const send = (res: ServerResponse, status: number, type: string, body: string, head: boolean) => {
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
    res.end(head ? undefined : body);
  };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const head = req.method === 'HEAD';
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && !head) {
      res.setHeader('allow', 'GET, HEAD');
      return send(res, 405, 'application/json', json({ error: `${req.method} is not allowed` }), false);
    }
    if (path === '/metrics') return send(res, 200, o.registry.contentType, await o.registry.metrics(), head);
    if (path === '/health/live' || path === '/health/ready') {
      const r = await answer(path === '/health/live' ? o.live : o.ready, timeoutMs);
      const status = path === '/health/live' ? 'live' : 'ready';
      const body = r.ready
        ? { status, ...(r.details ? { details: r.details } : {}) }
        : {
            status: `not ${status}`,
            reason: r.reason ?? 'not given',
            ...(r.details ? { details: r.details } : {}),
          };
      return send(res, r.ready ? 200 : 503, 'application/json', json(body), head);
    }
    return send(
      res,
      404,
      'application/json',
      json({ error: `no such path: ${path}; try /health/live, /health/ready or /metrics` }),
      head,
    );
  };
  const server: Server = createServer((req, res) => {
    // GET carries no body: whatever comes is not read, and the connection ends with the answer
    handle(req, res).catch((err: unknown) => {
      o.logger?.error({ err }, 'health server: answering failed');
      if (!res.headersSent)
        send(res, 500, 'application/json', json({ error: (err as Error).message }), false);
      else res.destroy();
    });
  });
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  server.maxHeadersCount = 50;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        new Error(
          `cannot serve health and metrics on ${host}:${o.port}: ${err.code ?? ''} ${err.message}`.replace(
            /\s+/g,
            ' ',
          ),
          { cause: err },
        ),
      ),
    );
    server.listen(o.port, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shown = host.includes(':') ? `[${host}]` : host;
  o.logger?.info({ port, host }, 'health and metrics served');
  return {
    port,
    url: `http://${shown}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/**
 * A metrics port from a flag's text: a whole number from 0 to 65535 (0: any free port). Returns the reason when
 * it is not one, for the command's usage error.
 */
export function parsePort(text: string, flag: string): number | string {
  const n = Number(text);
  if (text.trim() === '' || !Number.isSafeInteger(n) || n < 0 || n > 65_535)
    return `${flag} takes a port, a whole number from 0 to 65535, got "${text}"`;
  return n;
}
