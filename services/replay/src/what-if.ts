/**
 * What-if replay: re-derives a period under other readings of the law and reports what changes (what-if-core.ts
 * compares). A scratch derivation: the store is opened read-only by every worker and nothing is appended, so the
 * stored findings, round records and checkpoints stay as they are. Sharded by table over worker threads as the
 * parallel replay is (shards.ts: the same stable hash, the same read of a shard's tables), each worker reading its
 * tables' events once and folding them under both readings.
 */
import { Worker } from 'node:worker_threads';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { linkBrokenBecause, type EventStore } from '@table-audit/eventstore';
import {
  allProvisions,
  alternativeReading,
  DEFAULT_REPLAY_OPTIONS,
  INTERPRETATIONS,
  type ReplayOptions,
} from '@table-audit/rules';
import { compiledWorker } from './compiled-worker.ts';
import { explainRound, type RoundExplanation } from './explain.ts';
import { BOUND_HEAP_BY_DEFAULT } from './memory.ts';
import { withoutModuleHooks } from './parallel.ts';
import { answerFromKept, answerFromKeptInWorker, type WhatIfSource } from './readings-ready.ts';
import { isShardEvent, type Shard } from './shards.ts';
import { tableOfStream, tableStream } from './streams.ts';
import { toTableEvent } from './tables.ts';
import {
  DEFAULT_MAX_CHANGED,
  mergeWhatIf,
  WhatIfComparer,
  type WhatIfPartial,
  type WhatIfScope,
} from './what-if-core.ts';

export * from './what-if-core.ts';

/** The longest period a what-if covers: a year of Macau dates (the API bounds it further). */
export const MAX_WHAT_IF_DAYS = 366;

export class WhatIfRequestError extends Error {
  override readonly name = 'WhatIfRequestError';
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days from `from` to `to` inclusive, or an error naming the field. Dates are Macau calendar dates. */
export function periodDays(from: string, to: string, max = MAX_WHAT_IF_DAYS): number {
  const day = (field: string, d: string) => {
    const m = DATE.exec(d);
    const t = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
    if (!m || new Date(t).toISOString().slice(0, 10) !== d)
      throw new WhatIfRequestError(`${field}: "${d}" is not a date (YYYY-MM-DD, Macau time)`);
    return t;
  };
  const a = day('from', from);
  const b = day('to', to);
  if (b < a) throw new WhatIfRequestError(`to (${to}) is before from (${from})`);
  const days = (b - a) / 86_400_000 + 1;
  if (days > max) throw new WhatIfRequestError(`the period is ${days} days; at most ${max} at once`);
  return days;
}

/** A reading compared, with its question and both readings, for the report's reader. */
export interface ReadingCompared {
  readonly key: string;
  readonly id: string;
  readonly question: string;
  readonly chosen: string;
  readonly alternative: string;
  /** what the replay does differently under the alternative */
  readonly effect: string;
  readonly articles: readonly {
    readonly key: string;
    readonly pt: string | null;
    readonly zh: string | null;
  }[];
}

const provisions = new Map(allProvisions().map((p) => [p.key, p]));

/** The readings compared, each with its question, both readings and the provisions in PT and ZH. */
export function readingsCompared(keys: readonly string[]): ReadingCompared[] {
  return keys.map((key) => {
    const alt = alternativeReading(key);
    if (!alt) throw new WhatIfRequestError(`no selectable alternative reading "${key}"`);
    const i = INTERPRETATIONS.find((x) => x.id === alt.id)!;
    return {
      key,
      id: alt.id,
      question: i.question,
      chosen: i.reading,
      alternative: i.alternative,
      effect: alt.effect,
      articles: i.articles.map((k) => {
        const p = provisions.get(k);
        return { key: k, pt: p?.pt ?? null, zh: p?.zh || null };
      }),
    };
  });
}

export interface WhatIfOptions {
  /** the SQLite store file, opened read-only */
  readonly storePath: string;
  /** readings.ts keys: 'J2', 'J3:2', … */
  readonly alternatives: readonly string[];
  readonly scope: WhatIfScope;
  /** worker threads; 1 runs in this thread */
  readonly workers: number;
  readonly replay?: ReplayOptions;
  /** changed rounds listed (all are counted); default DEFAULT_MAX_CHANGED */
  readonly maxChanged?: number;
  /** the TypeScript loader for the workers (see ParallelReplayOptions.loader) */
  readonly loader?: string;
  /**
   * Start the workers from the compiled what-if worker (compiled-worker.ts), not from the TypeScript sources.
   * Default true; when it cannot be made, the sources are used.
   */
  readonly compiledWorker?: boolean;
  /** Each worker bounds V8's heap growth (see ParallelReplayOptions.boundHeap). Default off. */
  readonly boundHeap?: boolean;
  /**
   * Compare in worker threads even when `workers` is 1 (one worker thread then reads the whole store), so that the
   * calling thread stays free: the API's what-if runs. Default false (1 worker: in this thread).
   */
  readonly inWorkers?: boolean;
  /**
   * How far the run has read, at most every PROGRESS_EVERY events a shard reads (and once at the start): the
   * store's log read through (each shard's last position read, averaged over the shards) against the store's head
   * when the run started (null when the store cannot say it). Never changes what the report says.
   */
  readonly onProgress?: (p: WhatIfProgress) => void;
  /** A shard says its progress at most once every this many events it reads; default PROGRESS_EVERY. */
  readonly progressEvery?: number;
  /**
   * Aborting it ends the run: its workers are terminated and runWhatIf rejects with WhatIfAborted once every one
   * of them has exited (whatever they had read: an aborted run has no report).
   */
  readonly signal?: AbortSignal;
  /**
   * Answer from the readings kept ready beside the store (readings-ready.ts) when they can answer: one reading, the
   * default replay options, every table current. Default true; false always derives.
   */
  readonly kept?: boolean;
}

/** How far a what-if has read (see WhatIfOptions.onProgress). */
export interface WhatIfProgress {
  /** positions of the store's log read through, averaged over the shards (at most eventsTotal) */
  readonly eventsRead: number;
  /** the store's head position when the run started; null when the store cannot say it */
  readonly eventsTotal: number | null;
}

/** A shard's progress is said at most once every this many events it reads. */
export const PROGRESS_EVERY = 50_000;

/** A what-if ended by its AbortSignal. */
export class WhatIfAborted extends Error {
  override readonly name = 'WhatIfAborted';
  constructor() {
    super('the what-if was cancelled');
  }
}

/** What a shard's read tells as it goes (compareShard's `watch`). */
export interface ShardWatch {
  /** every how many events read onProgress is called; default PROGRESS_EVERY */
  readonly every?: number;
  /** called every `every` events read, with the events read and the last position read */
  readonly onProgress?: (events: number, position: bigint) => void;
  /** checked as the shard reads: an aborted read stops with WhatIfAborted */
  readonly signal?: AbortSignal;
}

export interface WhatIfReport extends WhatIfPartial {
  readonly readings: readonly ReadingCompared[];
  readonly scope: WhatIfScope;
  readonly workers: number;
  readonly elapsedMs: number;
  /** derived now, or read from the readings kept ready (and why it was not, when it was derived) */
  readonly source: WhatIfSource;
}

/** @internal what what-if.ts hands a worker */
export interface WhatIfWorkerData {
  storePath: string;
  shard: Shard;
  alternatives: readonly string[];
  scope: WhatIfScope;
  replay: ReplayOptions | null;
  maxChanged: number;
  boundHeap: boolean;
  /** post a progress message every this many events read (absent: none) */
  progressEvery?: number;
  /** only these tables (absent: every table) */
  tables?: readonly string[];
}

/** @internal what a what-if worker posts: progress as it reads, then its partial */
export type WhatIfWorkerMessage =
  | { readonly kind: 'progress'; readonly events: number; readonly position: string }
  | { readonly kind: 'partial'; readonly partial: WhatIfPartial };

/**
 * Reads the store as one shard sees it (only the scope's table when one is named) and compares every unit under
 * both readings. Reads only: nothing is appended, no checkpoint moves.
 */
export async function compareShard(
  store: EventStore,
  shard: Shard,
  alternatives: readonly string[],
  scope: WhatIfScope,
  replay: ReplayOptions = DEFAULT_REPLAY_OPTIONS,
  maxChanged = DEFAULT_MAX_CHANGED,
  watch: ShardWatch = {},
  /** only these tables (the others' answers are had otherwise: readings kept ready); default every table */
  tables: readonly string[] | null = null,
): Promise<WhatIfPartial> {
  const comparer = new WhatIfComparer(scope, alternatives, replay, maxChanged);
  const only = scope.tableId === undefined ? null : tableStream(scope.tableId);
  const among = tables === null ? null : new Set(tables.map(tableStream));
  const streams = (s: string) =>
    (only === null || s === only) && (among === null || among.has(s)) && isShardEvent(s, shard);
  let events = 0;
  // every link of what is read is checked, as the replay checks it: a table is never compared on events that are
  // not what was recorded (each stream is read from its first event, so its chain is followed from the genesis)
  const heads = new Map<string, { revision: number; hash: string }>();
  const broken = new Set<string>();
  const { onProgress, signal } = watch;
  const every = watch.every ?? PROGRESS_EVERY;
  for await (const stored of store.readAll({ streams })) {
    events++;
    if (events % every === 0) {
      if (signal?.aborted) throw new WhatIfAborted();
      onProgress?.(events, stored.position);
    }
    if (broken.has(stored.stream)) continue;
    const previous = heads.get(stored.stream);
    const reason = linkBrokenBecause(stored, previous, true);
    if (reason !== null) {
      broken.add(stored.stream);
      comparer.stopTable(tableOfStream(stored.stream), {
        stream: stored.stream,
        revision: stored.revision,
        eventId: stored.eventId,
        reason,
      });
      continue;
    }
    if (previous === undefined) heads.set(stored.stream, { revision: stored.revision, hash: stored.hash });
    else {
      previous.revision = stored.revision;
      previous.hash = stored.hash;
    }
    const e = toTableEvent(stored);
    if (e) comparer.apply(e);
  }
  return comparer.finish(events);
}

const WHAT_IF_WORKER = new URL('./what-if-worker.ts', import.meta.url);

/** Runs the what-if over the store: sharded over `workers` threads (1: in this thread unless `inWorkers`). */
export async function runWhatIf(o: WhatIfOptions): Promise<WhatIfReport> {
  if (!Number.isSafeInteger(o.workers) || o.workers < 1 || o.workers > 64)
    throw new RangeError(`workers is a whole number from 1 to 64, got ${o.workers}`);
  if (!o.alternatives.length)
    throw new WhatIfRequestError('name at least one alternative reading (e.g. J2=ALT)');
  periodDays(o.scope.from, o.scope.to);
  const readings = readingsCompared(o.alternatives);
  const maxChanged = o.maxChanged ?? DEFAULT_MAX_CHANGED;
  const signal = o.signal;
  if (signal?.aborted) throw new WhatIfAborted();
  const t0 = performance.now();
  const report = (parts: WhatIfPartial[], source: WhatIfSource): WhatIfReport => ({
    ...mergeWhatIf(parts, maxChanged),
    readings,
    scope: o.scope,
    workers: o.workers,
    elapsedMs: performance.now() - t0,
    source,
  });
  let notKept: string | null = null;
  if (o.kept !== false) {
    if (o.replay !== undefined) notKept = 'readings are kept under the default replay options only';
    else {
      // in a worker when the caller keeps this thread free (the API's runs)
      const k = await (o.inWorkers ? answerFromKeptInWorker : answerFromKept)({
        storePath: o.storePath,
        alternatives: o.alternatives,
        scope: o.scope,
        maxChanged,
      });
      if ('partial' in k) {
        // the tables the kept readings cannot answer for (new events since, say) are derived now and added
        const now = k.derive.length
          ? await deriveParts(
              o,
              maxChanged,
              k.derive.map((d) => d.tableId),
            )
          : [];
        return report([k.partial, ...now], k.source);
      }
      notKept = k.why;
    }
    if (signal?.aborted) throw new WhatIfAborted();
  }
  return report(await deriveParts(o, maxChanged, null), { kind: 'derived', why: notKept });
}

/** Derives the what-if of `tables` (null: every table) in `o.workers` shards: one partial a shard. */
async function deriveParts(
  o: WhatIfOptions,
  maxChanged: number,
  tables: readonly string[] | null,
): Promise<WhatIfPartial[]> {
  const signal = o.signal;
  if (o.workers === 1 && !o.inWorkers) {
    const store = new SqliteEventStore(o.storePath, { readOnly: true });
    try {
      const progress = await progressOf(store, 1, o.onProgress);
      return [
        await compareShard(
          store,
          { index: 0, count: 1 },
          o.alternatives,
          o.scope,
          o.replay,
          maxChanged,
          {
            onProgress: (_events, position) => progress?.(0, position),
            ...(o.progressEvery === undefined ? {} : { every: o.progressEvery }),
            ...(signal ? { signal } : {}),
          },
          tables,
        ),
      ];
    } finally {
      await store.close();
    }
  }
  let progress: ((shard: number, position: bigint) => void) | null = null;
  if (o.onProgress) {
    const store = new SqliteEventStore(o.storePath, { readOnly: true });
    try {
      progress = await progressOf(store, o.workers, o.onProgress);
    } finally {
      await store.close();
    }
  }
  const shards = Array.from({ length: o.workers }, (_, index) => ({ index, count: o.workers }));
  // from the compiled worker when it can be had: each worker then loads one file, not the sources through the
  // TypeScript loader (the what-if bench's two workers spent about a second starting from the sources)
  const compiled =
    o.compiledWorker === false ? null : (await compiledWorker(WHAT_IF_WORKER, 'what-if-worker')).url;
  if (signal?.aborted) throw new WhatIfAborted();
  const entry = compiled ?? WHAT_IF_WORKER;
  // one shard failing (or the run aborted) ends the others: their threads are not left reading
  const stop = new AbortController();
  const ended = () => stop.abort();
  signal?.addEventListener('abort', ended, { once: true });
  try {
    const settled = await Promise.allSettled(
      shards.map((shard) =>
        runWorker(
          entry,
          {
            storePath: o.storePath,
            shard,
            alternatives: o.alternatives,
            scope: o.scope,
            replay: o.replay ?? null,
            maxChanged,
            boundHeap: o.boundHeap ?? BOUND_HEAP_BY_DEFAULT,
            ...(progress === null ? {} : { progressEvery: o.progressEvery ?? PROGRESS_EVERY }),
            ...(tables === null ? {} : { tables }),
          },
          compiled === null ? o.loader : undefined,
          stop.signal,
          progress === null ? undefined : (position) => progress!(shard.index, position),
        ).catch((e: unknown) => {
          stop.abort();
          throw e;
        }),
      ),
    );
    // every worker has exited here, whatever ended the run
    if (signal?.aborted) throw new WhatIfAborted();
    const failed = settled.find((x) => x.status === 'rejected' && !(x.reason instanceof WhatIfAborted));
    if (failed) throw (failed as PromiseRejectedResult).reason;
    return settled.map((x) => {
      if (x.status === 'rejected') throw x.reason;
      return x.value;
    });
  } finally {
    signal?.removeEventListener('abort', ended);
  }
}

/**
 * The progress of `shards` shards, told to `onProgress` (at once: nothing read yet): each shard's last position read,
 * averaged, against the store's head now. Null without `onProgress`.
 */
async function progressOf(
  store: EventStore,
  shards: number,
  onProgress: WhatIfOptions['onProgress'],
): Promise<((shard: number, position: bigint) => void) | null> {
  if (!onProgress) return null;
  const head = store.headPosition ? await store.headPosition() : null;
  const eventsTotal = head === null ? null : Math.max(0, Number(head));
  const read = new Array<number>(shards).fill(0);
  onProgress({ eventsRead: 0, eventsTotal });
  return (shard, position) => {
    read[shard] = eventsTotal === null ? Number(position) : Math.min(Number(position), eventsTotal);
    onProgress({ eventsRead: Math.floor(read.reduce((a, b) => a + b, 0) / shards), eventsTotal });
  };
}

function runWorker(
  entry: URL,
  data: WhatIfWorkerData,
  loader: string | undefined,
  signal: AbortSignal,
  onProgress: ((position: bigint) => void) | undefined,
): Promise<WhatIfPartial> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new WhatIfAborted());
    const worker = new Worker(entry, {
      workerData: data,
      execArgv: loader
        ? [...process.execArgv, '--import', loader]
        : entry.pathname.endsWith('.mjs')
          ? withoutModuleHooks(process.execArgv)
          : process.execArgv,
    });
    let result: WhatIfPartial | null = null;
    let aborted = false;
    const abort = () => {
      aborted = true;
      void worker.terminate();
    };
    signal.addEventListener('abort', abort, { once: true });
    worker.on('message', (m: WhatIfWorkerMessage) => {
      if (m.kind === 'progress') onProgress?.(BigInt(m.position));
      else result = m.partial;
    });
    // settled when the thread has exited, whatever ended it: a caller told of the end finds no thread left
    let failed: unknown = null;
    worker.once('error', (e) => (failed = e));
    worker.once('exit', (code) => {
      signal.removeEventListener('abort', abort);
      if (aborted) reject(new WhatIfAborted());
      else if (failed !== null) reject(failed);
      else if (result) resolve(result);
      else reject(new Error(`what-if shard ${data.shard.index} exited (code ${code}) before reporting`));
    });
  });
}

/** One round derived under both readings, explained side by side. */
export interface RoundWhatIf {
  readonly roundId: string;
  readonly tableId: string;
  readonly readings: readonly ReadingCompared[];
  readonly chosen: RoundExplanation;
  readonly alternative: RoundExplanation;
}

/** Explains one round under the register's readings and under the alternatives (store read only). */
export async function explainRoundWhatIf(
  store: EventStore,
  roundId: string,
  alternatives: readonly string[],
  replay: ReplayOptions = DEFAULT_REPLAY_OPTIONS,
  /** the round's table when known (the API's index): found once in the store otherwise */
  tableId?: string,
): Promise<RoundWhatIf> {
  const readings = readingsCompared(alternatives);
  const chosen = await explainRound(
    store,
    roundId,
    { ...replay, alternatives: [] },
    tableId ? { tableId } : {},
  );
  const alternative = await explainRound(
    store,
    roundId,
    { ...replay, alternatives },
    { tableId: tableId ?? chosen.tableId },
  );
  return { roundId, tableId: chosen.tableId, readings, chosen, alternative };
}
