/**
 * One code path over @clickhouse/client for both targets: a ClickHouse server by URL in production, chDB
 * (ClickHouse in-process) on a data directory as the embedded default. Everything above this file speaks the same
 * client and the same SQL, with values only ever passed as query parameters ({name:Type}).
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
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
  const { ChdbConnection } = await import('chdb/connection');
  const scratch = insertScratch(path);
  // chdb implements client-common's Connection; @clickhouse/client declares the same interface from its own bundled
  // copy of those types, which TypeScript sees as a different (structurally mismatched) declaration
  const connection = new (scratchFileInserts(ChdbConnection, scratch))({
    path,
  }) as unknown as ClickHouseClientConfigOptions['connection'];
  const client = createClient({ connection });
  chdbPath = path;
  return {
    client,
    description: `chDB (in-process ClickHouse) in ${target.path}`,
    close: () => client.close(),
  };
}

/** The chDB target's scratch directory for insert bodies, inside its data directory (INSERT_SCRATCH_DIR). */
export const INSERT_SCRATCH_DIR = 'insert-scratch';
/** The scratch files this adapter writes: insert-<pid>-<n>.<format>; only these are ever removed. */
const SCRATCH_FILE = /^insert-(\d+)-\d+\.[A-Za-z]+$/;

/** Whether a process of this id runs (its scratch files may be in use): signal 0 tests without signalling. */
function running(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The scratch directory under a chDB data directory, created if missing, cleared of the bodies a killed process left
 * behind (files of this adapter's own pattern, written by a process no longer running: nothing else is touched).
 */
function insertScratch(dataDir: string): string {
  const dir = join(dataDir, INSERT_SCRATCH_DIR);
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(dir)) {
    const m = SCRATCH_FILE.exec(name);
    if (m && !running(Number(m[1]))) rmSync(join(dir, name), { force: true });
  }
  // the path goes into INSERT … FROM INFILE as a string literal (INFILE takes no query parameter): refused, rather
  // than escaped, when it holds a character that would need escaping
  if (!/^[\w./ :+@-]+$/.test(dir))
    throw new Error(
      `the analytics directory ${dataDir} has a character other than letters, digits, space and . / : + @ _ - in its ` +
        'path: choose a plainer path for chDB',
    );
  return dir;
}

/** `INSERT INTO t (a, b) FORMAT F`, as @clickhouse/client's insert writes it (client-common getInsertQuery). */
const INSERT_QUERY = /^(INSERT INTO [\w.`]+(?: \([^)]*\))?) FORMAT (\w+)$/;

type ChdbConnectionClass = (typeof import('chdb/connection'))['ChdbConnection'];
type InsertParams = Parameters<InstanceType<ChdbConnectionClass>['insert']>[0];

/**
 * chDB's Connection with one change below the client: `client.insert` writes its body to a file in the scratch
 * directory and runs `INSERT INTO t (columns) FROM INFILE 'file' FORMAT F`, instead of chDB's default of appending
 * the body to the query text. ClickHouse then reads the body as a file, with its parallel parser, and the query text
 * stays a few hundred bytes: about 1.5–2.5× the rows per second on the projector's bodies (docs/analytics.md). The
 * file is removed once the insert returns or fails. Everything above (the projector, the client's insert call, the
 * formats) is the same as on a ClickHouse server, where the body goes over HTTP.
 */
function scratchFileInserts(Base: ChdbConnectionClass, scratch: string): ChdbConnectionClass {
  let seq = 0;
  return class ScratchFileChdbConnection extends Base {
    override async insert(params: InsertParams) {
      const m = INSERT_QUERY.exec(params.query.trim());
      if (!m) return super.insert(params);
      const body =
        typeof params.values === 'string'
          ? Buffer.from(params.values)
          : await readAll(params.values as Readable);
      if (blank(body)) return super.insert({ ...params, values: body.toString() });
      const file = join(scratch, `insert-${process.pid}-${++seq}.${m[2]!}`);
      await writeFile(file, body);
      try {
        const { values: _sent, ...rest } = params;
        const { query_id, response_headers, http_status_code, summary } = await this.command({
          ...rest,
          query: `${m[1]!} FROM INFILE '${file}' FORMAT ${m[2]!}`,
        });
        return {
          query_id,
          response_headers,
          ...(http_status_code === undefined ? {} : { http_status_code }),
          ...(summary === undefined ? {} : { summary }),
        };
      } finally {
        await rm(file, { force: true });
      }
    }
  } as ChdbConnectionClass;
}

/**
 * A body stream as bytes, written to the scratch file as they came: text chunks encoded once, byte chunks as they
 * are (never decoded to a string and encoded again; a body is megabytes).
 */
async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Uint8Array));
  return chunks.length === 1
    ? Buffer.from(chunks[0]!.buffer, chunks[0]!.byteOffset, chunks[0]!.byteLength)
    : Buffer.concat(chunks);
}

/** Whether a body holds nothing but white space (ClickHouse refuses an INFILE insert of no rows less plainly). */
function blank(body: Buffer): boolean {
  for (const b of body) if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) return false;
  return true;
}
