/**
 * Not a benchmark that `pnpm bench` runs (it picks only *.bench.ts): the API's store index (services/api's
 * StoreIndex) over a SQLite store of your choice, each figure from a child process of its own (so each has its own
 * peak RSS), in interleaved rounds (A, B, … then again), beside the raw read rate of the same store in the same run:
 *   raw      every row of the store's events table, all columns, in position order, pages of 512 (better-sqlite3,
 *            read-only): the most a reader of the store can get
 *   old      the index as it was before it was kept in a file (BENCH_INDEX_OLD, a git commit: its
 *            services/api/src/store-index.ts), built in memory from every event of the store
 *   first    the index built into a new file (a first start, or a rebuild)
 *   restart  that file opened again with nothing new in the store (a restart)
 *   memory   the index in an in-memory database (buildApp without indexPath), built from the whole store
 * The store is opened read-only and never written; the index files are made in a temporary directory, removed at
 * the end. Prints per figure: wall ms, CPU ms (user + system of the child), µs of CPU per store event, events/s
 * (the store's events over the wall time), peak RSS, and the heap still used once the index is read (after a full
 * collection, the index open: what a server keeps holding).
 *   BENCH_INDEX_STORE=/tmp/copy/events.sqlite [BENCH_INDEX_ROUNDS=2] [BENCH_INDEX_OLD=<commit>] \
 *     [BENCH_INDEX_KINDS=old,first,restart] [BENCH_INDEX_BATCH=<events a transaction>] \
 *     node --import ./apps/cli/bin/register-ts.mjs bench/api-index.ts
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type BetterSqlite3 from '../packages/eventstore/node_modules/@types/better-sqlite3/index.d.ts';

const here = fileURLToPath(import.meta.url);
const root = dirname(dirname(here));
const loader = join(root, 'apps/cli/bin/register-ts.mjs');

interface Figure {
  kind: string;
  wallMs: number;
  cpuMs: number;
  /** events (or rows) read */
  read: number;
  maxRssMB: number;
  /** heap used after the build (a full collection first), with the index still open */
  heldMB: number;
}

async function child(kind: string, storePath: string, indexPath: string, oldModule: string): Promise<Figure> {
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  let read = 0;
  let heldMB = 0;
  /** the JavaScript heap still used once the index is read (after a full collection), MB */
  const held = () => {
    (globalThis as { gc?: () => void }).gc?.();
    return process.memoryUsage().heapUsed / 2 ** 20;
  };
  if (kind === 'raw') {
    const Database = createRequire(import.meta.resolve('@table-audit/eventstore/sqlite'))(
      'better-sqlite3',
    ) as typeof BetterSqlite3;
    const db = new Database(storePath, { readonly: true, fileMustExist: true });
    const page = db
      .prepare<[number], unknown[]>(
        'SELECT position, stream_id, revision, event_id, type_id, data, metadata, recorded_at, hash FROM events WHERE position > ? ORDER BY position LIMIT 512',
      )
      .raw(true);
    for (let after = -1; ;) {
      const rows = page.all(after);
      read += rows.length;
      if (rows.length < 512) break;
      after = rows.at(-1)![0] as number;
    }
    db.close();
  } else {
    const { SqliteEventStore } = await import('@table-audit/eventstore/sqlite');
    const store = new SqliteEventStore(storePath, { readOnly: true });
    // counts the events the index reads (a wrapper: the store's own methods on the store itself)
    const counted = Object.create(store) as typeof store;
    counted.readAll = (options) => {
      const inner = store.readAll(options);
      return {
        async *[Symbol.asyncIterator]() {
          for await (const e of inner) {
            read++;
            yield e;
          }
        },
      };
    };
    counted.readStream = (stream, options) => store.readStream(stream, options);
    counted.headPosition = () => store.headPosition();
    if (kind === 'old') {
      const { StoreIndex } = (await import(oldModule)) as {
        StoreIndex: new (s: typeof store) => { refresh(): Promise<void> };
      };
      const index = new StoreIndex(counted);
      await index.refresh();
      heldMB = held();
    } else {
      const { StoreIndex } = await import('../services/api/src/store-index.ts');
      const batch = process.env.BENCH_INDEX_BATCH;
      const index = new StoreIndex(counted, {
        path: kind === 'memory' ? ':memory:' : indexPath,
        ...(batch ? { batchEvents: Number(batch) } : {}),
      });
      await index.refresh();
      heldMB = held();
      await index.close();
    }
    await store.close();
  }
  const cpu = process.cpuUsage(cpu0);
  return {
    kind,
    wallMs: performance.now() - started,
    cpuMs: (cpu.user + cpu.system) / 1000,
    read,
    maxRssMB: process.resourceUsage().maxRSS / 1024,
    heldMB,
  };
}

/** The old StoreIndex from git, written where its imports resolve (its own imports made absolute). */
function oldIndexModule(commit: string, dir: string): string {
  const source = execFileSync('git', ['show', `${commit}:services/api/src/store-index.ts`], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 4 * 1024 * 1024,
  });
  const api = pathToFileURL(join(root, 'services/api/src/')).href;
  const rewritten = source
    .replace(/from '\.\/([^']+)'/g, (_, f: string) => `from '${api}${f}'`)
    .replace(/from '(@table-audit\/[^']+)'/g, (_, spec: string) => `from '${import.meta.resolve(spec)}'`);
  const file = join(dir, 'old-store-index.ts');
  writeFileSync(file, rewritten);
  return pathToFileURL(file).href;
}

const [, , role, ...rest] = process.argv;
if (role === '--child') {
  const [kind, storePath, indexPath, oldModule] = rest as [string, string, string, string];
  process.stdout.write(`${JSON.stringify(await child(kind, storePath, indexPath, oldModule))}\n`);
} else {
  const storePath = process.env.BENCH_INDEX_STORE;
  if (!storePath) throw new Error('BENCH_INDEX_STORE: a SQLite event store (a copy: it is opened read-only)');
  const rounds = Number(process.env.BENCH_INDEX_ROUNDS ?? 2);
  const kinds = (process.env.BENCH_INDEX_KINDS ?? 'raw,old,first,restart,memory').split(',');
  if (!kinds.includes('raw')) kinds.unshift('raw'); // every figure is beside the raw read of the same run
  const commit =
    process.env.BENCH_INDEX_OLD ??
    execFileSync('git', ['merge-base', 'HEAD', 'main'], { cwd: root, encoding: 'utf8' }).trim();
  const scratch = mkdtempSync(join(tmpdir(), 'ta-api-index-'));
  try {
    const oldModule = oldIndexModule(commit, scratch);
    const run = (kind: string, indexPath: string): Figure => {
      const r = spawnSync(
        process.execPath,
        ['--expose-gc', '--import', loader, here, '--child', kind, storePath, indexPath, oldModule],
        { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
      );
      if (r.status !== 0) throw new Error(`${kind}: exit ${r.status}\n${r.stderr}`);
      return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Figure;
    };
    console.log(
      `store ${storePath}; old index from ${commit.slice(0, 10)}; ${cpus().length} cores, load ${loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')} (figures under load: the machine is shared)`,
    );
    const all: Figure[] = [];
    let events = 0;
    for (let i = 0; i < rounds; i++) {
      const indexPath = join(scratch, `round-${i}.index.sqlite`);
      for (const kind of kinds) {
        const f = run(kind, indexPath);
        if (kind === 'raw') events = f.read;
        all.push(f);
        console.log(
          [
            `round ${i + 1}`,
            kind.padEnd(8),
            `wall ${f.wallMs.toFixed(0).padStart(6)} ms`,
            `cpu ${f.cpuMs.toFixed(0).padStart(6)} ms`,
            `${((f.cpuMs * 1000) / events).toFixed(2).padStart(6)} µs cpu/store event`,
            `${Math.round(events / (f.wallMs / 1000))
              .toLocaleString('en-US')
              .padStart(10)} store events/s`,
            `read ${f.read.toLocaleString('en-US').padStart(9)} events`,
            `peak RSS ${f.maxRssMB.toFixed(0).padStart(5)} MB`,
            `heap held ${f.heldMB.toFixed(0).padStart(4)} MB`,
          ].join('  '),
        );
      }
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]!;
    const of = (kind: string, k: 'wallMs' | 'cpuMs') =>
      median(all.filter((f) => f.kind === kind).map((f) => f[k]));
    console.log(
      `medians over ${rounds} rounds (${events.toLocaleString('en-US')} store events): ` +
        kinds
          .map((k) => `${k} ${of(k, 'wallMs').toFixed(0)} ms wall / ${of(k, 'cpuMs').toFixed(0)} ms cpu`)
          .join('; ') +
        (kinds.includes('old') && kinds.includes('first')
          ? `; first build ÷ old: ${(of('first', 'cpuMs') / of('old', 'cpuMs')).toFixed(2)} cpu, ` +
            `old ÷ raw: ${(of('old', 'wallMs') / of('raw', 'wallMs')).toFixed(1)} wall, first ÷ raw: ${(of('first', 'wallMs') / of('raw', 'wallMs')).toFixed(1)} wall`
          : ''),
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
