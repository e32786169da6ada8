import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
// the API and ClickHouse client load only when serve runs, so every other command starts as fast as before
import type { AnalyticsClient } from '@table-audit/analytics';
import type { ApiKey, ChartsQuery, FindingsQuery } from '@table-audit/api';
import { ANCHORS_FILE, runProcessor } from '@table-audit/eventstore';
import { anchorsDir } from './anchors.ts';
import { UsageError, type Command } from './command.ts';
import { openConfiguredStore } from '../adapters.ts';
import { loadConfig } from '../config.ts';
import { storePath } from './store.ts';
import { DEFAULT_TOKEN_KEY, tokenKey, tokenKeyPath } from './token.ts';

/** Where serve keeps its index with an EventStoreDB store, unless --index says. */
export const DEFAULT_ESDB_INDEX = 'data/api-index.sqlite';

const usage = `Usage: table-audit serve [--port P] [--host H] [--store PATH] [--index PATH] [--token-key PEM] [--api-keys FILE]
                         [--anchors DIR] [--findings clickhouse|store]

Starts the API (findings, alerts and their workflow, disputed hands, evidence exports) over the event store, with
the web UI at /ui, the OpenAPI document at /openapi.json and its browsable page at /docs. Logs are JSON lines
(pino) on stdout, each with its request id. Stops on SIGINT or SIGTERM.

  --port P          default 8080          --host H     default 127.0.0.1
  --store PATH      default $TABLE_AUDIT_STORE, else data/events.sqlite (workflow actions and accesses are appended)
  --index PATH      the API's index of the store (rounds, findings, alert states, and how far it has read), a SQLite
                    file the API creates and keeps: a restart reads only what was stored since. Default: beside a
                    SQLite store, STORE.index.sqlite; with EventStoreDB, ${DEFAULT_ESDB_INDEX}; :memory: keeps it in
                    memory (read from the whole store at every start). A file there that is not an index made by
                    the API is refused and left as it is; an index of another store (the store was replaced or
                    rebuilt) is rebuilt, as the log says
  --token-key PEM   the Ed25519 key tokens are verified with (default ${DEFAULT_TOKEN_KEY}, made once if missing;
                    table-audit token signs with it)
  --api-keys FILE   JSON list of machine keys: [{"name", "sha256" (hex of the key), "role", "concessionaire"}]
  --anchors DIR     cite the signed anchors of DIR/${ANCHORS_FILE} in evidence exports (default $TABLE_AUDIT_ANCHORS)
  --findings FROM   clickhouse (default): findings and alerts are listed from ClickHouse — the server at
                    $CLICKHOUSE_URL (projected by services/analytics elsewhere), else chDB in data/analytics, which
                    serve brings up to date before it listens and keeps following the store;
                    store: from the API's own index of the event store (--index)`;

const MAX_KEYS_FILE = 1024 * 1024;

/**
 * The index database's path: --index if given (':memory:' for none on disk), else beside a SQLite store file
 * (STORE.index.sqlite), else (EventStoreDB) data/api-index.sqlite. Never the store's own file.
 */
export function indexPathFor(flag: string | undefined, storeFile: string | undefined): string {
  if (flag === '') throw new UsageError('--index needs a path, e.g. --index data/events.sqlite.index.sqlite');
  const path =
    flag ??
    (storeFile === undefined
      ? DEFAULT_ESDB_INDEX
      : storeFile === ':memory:'
        ? ':memory:'
        : `${storeFile}.index.sqlite`);
  if (path !== ':memory:' && storeFile !== undefined && resolve(path) === resolve(storeFile))
    throw new UsageError(`--index ${path} is the event store's own file; the index needs a file of its own`);
  return path;
}

function readApiKeys(path: string, api: typeof import('@table-audit/api')): ApiKey[] {
  const size = statSync(path).size;
  if (size > MAX_KEYS_FILE)
    throw new Error(`${path}: ${size} bytes; an API keys file holds at most ${MAX_KEYS_FILE}`);
  let list: unknown;
  try {
    list = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new Error(`${path}: not JSON: ${(e as Error).message}`);
  }
  if (!Array.isArray(list))
    throw new Error(`${path}: must be a JSON list of {name, sha256, role, concessionaire}`);
  return list.map((k: Record<string, unknown>, i) => {
    const at = `${path}: [${i}]`;
    if (typeof k?.['name'] !== 'string' || k['name'] === '')
      throw new Error(`${at}.name must be a non-empty string`);
    if (typeof k['sha256'] !== 'string' || !/^[0-9a-f]{64}$/.test(k['sha256']))
      throw new Error(`${at}.sha256 must be the key's SHA-256 in 64 lowercase hex digits`);
    if (!(api.ROLES as readonly unknown[]).includes(k['role']))
      throw new Error(`${at}.role must be one of ${api.ROLES.join(', ')}`);
    const concessionaire = k['concessionaire'] ?? null;
    if (concessionaire !== null && typeof concessionaire !== 'string')
      throw new Error(`${at}.concessionaire must be a string or null`);
    const key = { name: k['name'], sha256: k['sha256'], role: k['role'] as ApiKey['role'], concessionaire };
    const problem = api.principalProblem(key.role, concessionaire);
    if (problem) throw new Error(`${at}: ${problem}`);
    return key;
  });
}

/** What `serve` needs, said once for `table-audit serve` and for the end of `table-audit run`. */
export interface ServeOptions {
  readonly port: number;
  readonly host: string;
  /** a SQLite store file (--store); undefined: the configured store (config.ts: SQLite or EventStoreDB) */
  readonly storeFile: string | undefined;
  /** the index database (--index); undefined: its default for the store (indexPathFor) */
  readonly indexFile?: string | undefined;
  readonly tokenKeyFile: string | undefined;
  readonly apiKeysFile?: string | undefined;
  readonly anchorsDir?: string | undefined;
  readonly findings: 'clickhouse' | 'store';
  /** the chDB directory when CLICKHOUSE_URL is not set (default data/analytics) */
  readonly analyticsDir?: string;
  /** pino's level (default $LOG_LEVEL, else info) */
  readonly logLevel?: string;
  /** called once the server listens, with its base URL (e.g. http://127.0.0.1:8080) */
  readonly onListening?: (url: string) => void;
}

/**
 * Serves the API and the UI over the store until SIGINT or SIGTERM, then closes everything it opened and returns.
 * Errors before listening (a store that is not there, a port taken) are thrown.
 */
export async function serveUntilStopped(o: ServeOptions): Promise<void> {
  const api = await import('@table-audit/api');
  const { AnalyticsProjector, analyticsTarget, migrate, openAnalytics, PROJECTION_RUN_OPTIONS } =
    await import('@table-audit/analytics');
  const { buildApp, ClickHouseCharts, ClickHouseFindings, fileAnchorSource } = api;
  const key = tokenKey(tokenKeyPath(o.tokenKeyFile));
  const apiKeys = o.apiKeysFile === undefined ? [] : readApiKeys(o.apiKeysFile, api);
  const dir = anchorsDir(o.anchorsDir);
  const anchors = dir === undefined ? undefined : fileAnchorSource(dir);
  const opened = await openConfiguredStore({ flag: o.storeFile, mustExist: true });
  let indexPath: string;
  try {
    indexPath = indexPathFor(o.indexFile, opened.path);
  } catch (e) {
    await opened.close(false);
    throw e;
  }
  const abort = new AbortController();
  let analytics: AnalyticsClient | null = null;
  let projecting: Promise<unknown> = Promise.resolve();
  try {
    let findings: FindingsQuery | undefined;
    let charts: ChartsQuery | undefined;
    if (o.findings === 'clickhouse') {
      const target = analyticsTarget(process.env, o.analyticsDir);
      analytics = await openAnalytics(target);
      await migrate(analytics.client);
      if ('path' in target) {
        // the embedded chDB is this process's own: bring it up to date, then follow the store while serving
        const projector = new AnalyticsProjector(analytics.client);
        await runProcessor(opened.store, projector, PROJECTION_RUN_OPTIONS);
        projecting = runProcessor(opened.store, projector, { live: true, signal: abort.signal }).catch(
          (e: unknown) =>
            process.stderr.write(
              `table-audit serve: the analytics projection stopped: ${(e as Error).message}\n`,
            ),
        );
      }
      findings = new ClickHouseFindings(analytics.client, analytics.description);
      charts = new ClickHouseCharts(analytics.client, analytics.description);
    }
    const app = await buildApp({
      store: opened.store,
      indexPath,
      auth: { tokenKey: key, apiKeys },
      ...(anchors ? { anchors } : {}),
      ...(findings ? { findings } : {}),
      ...(charts ? { charts } : {}),
      ui: (await import('@table-audit/ui')).uiPlugin(),
      logger: { level: o.logLevel ?? process.env.LOG_LEVEL ?? 'info' },
      // a SQLite store on a file: replays folded in worker threads, access records appended by a thread of their own
      replayWorkers: { loader: new URL('../../bin/register-ts.mjs', import.meta.url).href },
      accessLog: { thread: true },
    });
    const stopped = new Promise<void>((resolve) => {
      const stop = () => void app.close().then(resolve, resolve);
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    let url: string;
    try {
      url = await app.listen({ port: o.port, host: o.host });
    } catch (e) {
      if ((e as { code?: string }).code === 'EADDRINUSE')
        throw new Error(
          `port ${o.port} on ${o.host} is taken; give another with --port P (0: any free port)`,
        );
      throw e;
    }
    o.onListening?.(url);
    await stopped;
  } finally {
    abort.abort();
    await projecting;
    await analytics?.close();
    await opened.close(false);
  }
}

/** --port as a number from 0 to 65535 (0: any free port). */
export function portOf(text: string | undefined, fallback: number): number {
  const port = text === undefined ? fallback : Number(text);
  if (text === '' || !Number.isSafeInteger(port) || port < 0 || port > 65_535)
    throw new UsageError(`--port takes a port number from 0 to 65535, got "${text}"`);
  return port;
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'start the API (and its OpenAPI page) over the event store',
  usage,
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        store: { type: 'string' },
        index: { type: 'string' },
        'token-key': { type: 'string' },
        'api-keys': { type: 'string' },
        anchors: { type: 'string' },
        findings: { type: 'string' },
      },
    });
    const config = loadConfig();
    const from = values.findings ?? 'clickhouse';
    if (from !== 'clickhouse' && from !== 'store')
      throw new UsageError(`--findings is clickhouse or store, got "${from}"`);
    await serveUntilStopped({
      port: portOf(values.port, config.api.port),
      host: values.host ?? config.api.host,
      storeFile: values.store === undefined ? undefined : storePath(values.store),
      indexFile: values.index,
      tokenKeyFile: values['token-key'],
      apiKeysFile: values['api-keys'],
      anchorsDir: values.anchors,
      findings: from,
    });
    return 0;
  },
};
