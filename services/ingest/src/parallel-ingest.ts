/**
 * File ingest as a pipeline over two threads, for a SQLite store on a file. A worker (ingest-worker.ts) reads and
 * decodes the files, checks each event, and packs each batch for the store — the compact encoding, the content part
 * of each hash form, the dictionary ids — into one ArrayBuffer, handed over as a transferable (nothing is cloned
 * per event). This thread only does what must be sequential, one transaction per batch
 * (SqliteEventStore.appendPrepared): the dictionary's new entries, each stream's revisions, the chain's links
 * (the previous hash, the recorded time), the insert, de-duplication by the event-id index. The worker prepares the
 * next batch while this one is written, up to `depth` batches ahead.
 *
 * What is stored is what ingestFiles stores with the same batches: the same rows, bytes and hashes, the same rejects
 * with the same reasons (a test compares two stores written both ways). A batch the store refuses as prepared — the
 * dictionary changed meanwhile (another writer), or an event id already stored with other content — is stored
 * instead the ordinary way by the worker (IngestPipeline.submit: table by table, event by event where needed, each
 * refused event a reject), and the batches prepared after it are prepared again.
 *
 * The worker is loaded from its TypeScript source (as the replay's shard workers): `loader` is the module that
 * registers the TypeScript loader in it (apps/cli/bin/register-ts.mjs), unless the process was started with it;
 * or from a compiled build of it (`workerUrl`: the CLI's dist/ingest-worker.mjs, made by apps/cli/scripts/build.mjs
 * with the command, which starts in a fraction of the time the loader takes to transpile the sources).
 */
import { Worker } from 'node:worker_threads';
import { EventIdConflict } from '@table-audit/eventstore';
import { PreparedOutOfDate, type SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { DEFAULT_FILE_BATCH, type FileIngestOptions } from './file-ingest.ts';
import type { IngestResult } from './pipeline.ts';
import type { SequenceSummary } from './sequence.ts';

/** What the worker is started with. */
export interface IngestWorkerData {
  storePath: string;
  paths: string[];
  batchSize: number;
  firstBatchSize: number | undefined;
  maxKeptBytes: number | undefined;
  maxBlockSize: number | undefined;
  depth: number;
  /** the rejects' receivedAt (a fixed clock, for tests); null: Date.now */
  now: number | null;
}

/** Worker → writer. */
export type ToWriter =
  | {
      kind: 'batch';
      generation: number;
      n: number;
      batch: ArrayBuffer;
      /** how many of the parts are tables (the rest, when rejectsPart, is the rejects stream) */
      tables: number;
      rejectsPart: boolean;
      events: number;
      path: string;
      records: number;
    }
  | {
      kind: 'stored';
      generation: number;
      result: IngestResult;
      events: number;
      ms: number;
      path: string;
      records: number;
    }
  | { kind: 'progress'; path: string; records: number }
  | { kind: 'warning'; message: string }
  | { kind: 'done'; byReason: [string, number][]; sequence: SequenceSummary }
  | { kind: 'failed'; message: string; stack: string };

/** Writer → worker. */
export type FromWriter =
  | { kind: 'ack'; n: number; results: { appended: number; alreadyStored: number }[] }
  | { kind: 'refused'; n: number };

export interface ParallelFileIngestOptions extends FileIngestOptions {
  /** batches prepared ahead of the one being written (default 2) */
  depth?: number;
  /**
   * The size of the very first batch (default batchSize): smaller, the writer starts sooner instead of waiting for a
   * whole batch to be decoded and packed (the CLI uses a tenth of the batch). Batches stored in other sizes keep
   * each batch's events grouped by table in other places, so the positions differ from an ingest in other batches.
   */
  firstBatchSize?: number;
  /** see the module's comment */
  loader?: string;
  /** the worker's module, when not its TypeScript source beside this file (a compiled build of it) */
  workerUrl?: URL;
  /** called once each batch is durable (signs an anchor of the store's heads); awaited before the next batch */
  anchor?: () => Promise<unknown>;
  /** the rejects' receivedAt, fixed (tests) */
  now?: number;
}

/** The totals of a parallel ingest: as IngestPipeline.totals. */
export interface ParallelIngestTotals extends IngestResult {
  byReason: Map<string, number>;
  sequence: SequenceSummary;
  /** batches stored as prepared, and the ordinary way (a refusal, or an event the store refuses) */
  batches: { prepared: number; ordinary: number };
}

export function ingestFilesParallel(
  paths: readonly string[],
  store: SqliteEventStore,
  options: ParallelFileIngestOptions = {},
): Promise<ParallelIngestTotals> {
  if (store.path === ':memory:' || store.path === '')
    throw new Error('the parallel ingest needs a store on a file: its worker opens the same file');
  const data: IngestWorkerData = {
    storePath: store.path,
    // as given (the worker has this process's working directory): a path that cannot be read is named as given
    paths: [...paths],
    batchSize: options.batchSize ?? DEFAULT_FILE_BATCH,
    firstBatchSize: options.firstBatchSize,
    maxKeptBytes: options.maxKeptBytes,
    maxBlockSize: options.maxBlockSize,
    depth: options.depth ?? 2,
    now: options.now ?? null,
  };
  const worker = new Worker(options.workerUrl ?? new URL('./ingest-worker.ts', import.meta.url), {
    workerData: data,
    ...(options.loader ? { execArgv: [...process.execArgv, '--import', options.loader] } : {}),
  });
  const total: ParallelIngestTotals = {
    accepted: 0,
    alreadyStored: 0,
    rejected: 0,
    byReason: new Map(),
    sequence: { gaps: 0, missing: 0, repeats: 0, backwards: 0, first: [] },
    batches: { prepared: 0, ordinary: 0 },
  };
  let generation = 0;
  let settled = false;
  return new Promise<ParallelIngestTotals>((resolvePromise, rejectPromise) => {
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      rejectPromise(err);
    };
    const progress = (path: string, records: number) =>
      options.onProgress?.({
        path,
        records,
        result: { accepted: total.accepted, alreadyStored: total.alreadyStored, rejected: total.rejected },
      });
    const handle = async (m: ToWriter): Promise<void> => {
      switch (m.kind) {
        case 'batch': {
          if (m.generation !== generation) return; // prepared after a refused batch: prepared again
          const t0 = performance.now();
          let results;
          try {
            results = store.appendPrepared(new Uint8Array(m.batch));
          } catch (err) {
            if (!(err instanceof PreparedOutOfDate) && !(err instanceof EventIdConflict)) throw err;
            generation++;
            worker.postMessage({ kind: 'refused', n: m.n } satisfies FromWriter);
            return;
          }
          for (let i = 0; i < m.tables; i++) {
            total.accepted += results[i]!.appended;
            total.alreadyStored += results[i]!.alreadyStored;
          }
          if (m.rejectsPart) total.rejected += results.at(-1)!.appended + results.at(-1)!.alreadyStored;
          total.batches.prepared++;
          if (options.anchor) await options.anchor();
          worker.postMessage({
            kind: 'ack',
            n: m.n,
            results: results.map((r) => ({ appended: r.appended, alreadyStored: r.alreadyStored })),
          } satisfies FromWriter);
          options.onBatch?.(m.events, performance.now() - t0);
          progress(m.path, m.records);
          return;
        }
        case 'stored':
          generation = m.generation;
          total.accepted += m.result.accepted;
          total.alreadyStored += m.result.alreadyStored;
          total.rejected += m.result.rejected;
          total.batches.ordinary++;
          if (options.anchor) await options.anchor();
          options.onBatch?.(m.events, m.ms);
          progress(m.path, m.records);
          return;
        case 'progress':
          progress(m.path, m.records);
          return;
        case 'warning':
          options.onWarning?.(m.message);
          return;
        case 'done':
          total.byReason = new Map(m.byReason);
          total.sequence = m.sequence;
          settled = true;
          void worker.terminate();
          resolvePromise(total);
          return;
        case 'failed': {
          const err = new Error(m.message);
          err.stack = m.stack;
          throw err;
        }
      }
    };
    // one message at a time, in order (an anchor is awaited before the next batch is written)
    let chain = Promise.resolve();
    worker.on('message', (m: ToWriter) => {
      chain = chain.then(() => (settled ? undefined : handle(m))).catch(fail);
    });
    worker.once('error', fail);
    worker.once('exit', (code) => {
      void chain.then(() => fail(new Error(`the ingest worker exited (code ${code}) before it was done`)));
    });
  });
}
