/**
 * One code path over @clickhouse/client for both targets: a ClickHouse server by URL in production, chDB
 * (ClickHouse in-process) on a data directory as the embedded default. Everything above this file speaks the same
 * client and the same SQL, with values only ever passed as query parameters ({name:Type}).
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { createClient, type ClickHouseClient, type ClickHouseClientConfigOptions } from '@clickhouse/client';

/** Where the analytics data lives: a ClickHouse server, or a chDB data directory. */
export type AnalyticsTarget = { readonly url: string } | { readonly path: string };

export interface AnalyticsClient {
  readonly client: ClickHouseClient;
  /** "ClickHouse at http://…" or "chDB in data/analytics", for people. */
  readonly description: string;
  close(): Promise<void>;
}

/** The embedded default, beside the default event store. */
export const DEFAULT_ANALYTICS_DIR = 'data/analytics';

/** libchdb binds one data directory per process: a second, different one would silently read the first. */
let chdbPath: string | undefined;

/** CLICKHOUSE_URL (production) wins over a chDB directory (the embedded default). */
export function analyticsTarget(
  env: NodeJS.ProcessEnv,
  dir: string = DEFAULT_ANALYTICS_DIR,
): AnalyticsTarget {
  const url = env.CLICKHOUSE_URL;
  return url ? { url } : { path: dir };
}

export async function openAnalytics(target: AnalyticsTarget): Promise<AnalyticsClient> {
  if ('url' in target) {
    let parsed: URL;
    try {
      parsed = new URL(target.url);
    } catch {
      throw new Error(
        `CLICKHOUSE_URL "${target.url}" is not a URL; give e.g. http://user:password@host:8123/database`,
      );
    }
    const client = createClient({ url: target.url, request_timeout: 60_000 });
    const shown = `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
    return { client, description: `ClickHouse at ${shown}`, close: () => client.close() };
  }
  const path = resolve(target.path);
  if (chdbPath !== undefined && chdbPath !== path)
    throw new Error(
      `chDB is already open on ${chdbPath} in this process and libchdb binds one data directory per process; ` +
        `${path} cannot be opened beside it (use one analytics directory per process)`,
    );
  if (existsSync(path) && !statSync(path).isDirectory())
    throw new Error(`the analytics directory ${path} is a file, not a directory`);
  mkdirSync(path, { recursive: true });
  // chdb's engine is ~550 MB: loaded only when the embedded target is used
  const { createChdbConnection } = await import('chdb/connection');
  // chdb implements client-common's Connection; @clickhouse/client declares the same interface from its own bundled
  // copy of those types, which TypeScript sees as a different (structurally mismatched) declaration
  const connection = createChdbConnection({ path }) as unknown as ClickHouseClientConfigOptions['connection'];
  const client = createClient({ connection });
  chdbPath = path;
  return {
    client,
    description: `chDB (in-process ClickHouse) in ${target.path}`,
    close: () => client.close(),
  };
}
