/**
 * What-if runs: a what-if over a period is a job, not a request. A run is submitted (validated and scoped by the
 * route first), waits in a bounded queue, is compared by `runWhatIf` in worker threads (each opens the store
 * read-only, as the CLI's workers do) — never in the API's main thread, which keeps answering while it goes on —
 * tells its progress, and keeps its report for a bounded number of runs. It can be cancelled: its workers are
 * terminated. With a runs file (what-if-runs-file.ts) the runs kept are also written there as they change, and read
 * back at the next start: finished runs as they were, and a run that was queued or running when the API stopped as
 * `interrupted` (not started again: its caller may submit it again). Without one they are kept in memory only.
 *
 * A store that worker threads cannot open (not a SQLite store on a file) is compared in the main thread instead,
 * said in the log: such a run holds the main thread while it reads (see docs/api.md).
 */
import { randomUUID } from 'node:crypto';
import type { EventStore } from '@table-audit/eventstore';
import {
  compareShard,
  mergeWhatIf,
  readingsCompared,
  runWhatIf,
  WhatIfAborted,
  type WhatIfPartial,
  type WhatIfProgress,
  type WhatIfReport,
  type WhatIfScope,
} from '@table-audit/replay';
import { whatIfLabel } from '@table-audit/rules';
import { MAX_KEPT_REPORT_BYTES, type RunRow, type WhatIfRunsFile } from './what-if-runs-file.ts';

export type WhatIfRunStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled' | 'interrupted';

/** A run's progress is written to the runs file at most this often, ms (its state changes are written at once). */
export const PROGRESS_WRITE_MS = 1000;

export interface WhatIfRunsOptions {
  /** runs compared at once; default 1 */
  readonly concurrency?: number;
  /** runs that may wait beyond those running; default 8 (one more: refused, see WhatIfQueueFull) */
  readonly maxQueued?: number;
  /** finished runs kept for their callers (the oldest dropped first); default 32 */
  readonly keep?: number;
  /** worker threads a run is sharded over; default 1 */
  readonly workers?: number;
  /** changed rounds a report lists (all are counted) */
  readonly maxChanged?: number;
  /** the TypeScript loader for workers started from the sources (see WhatIfOptions.loader) */
  readonly loader?: string;
  /** start the workers from the compiled worker (WhatIfOptions.compiledWorker); default true */
  readonly compiledWorker?: boolean;
  /** a shard says its progress every this many events it reads; default PROGRESS_EVERY (50,000) */
  readonly progressEvery?: number;
  /**
   * where the runs kept are written and read back from at start (opened by the caller: WhatIfRunsFile.open);
   * closed by close(). Absent: in memory only.
   */
  readonly file?: WhatIfRunsFile;
  /** the longest report a kept run keeps, bytes of JSON; default MAX_KEPT_REPORT_BYTES (4 MiB) */
  readonly maxReportBytes?: number;
  readonly now?: () => number;
  readonly log?: (message: string) => void;
}

/** What a run compares, under whose scope (the route checked it before submitting). */
export interface WhatIfRunRequest {
  readonly alternatives: readonly string[];
  readonly scope: WhatIfScope;
  /** the caller's concessionaire (null: the regulator, every concessionaire): only callers with it see the run */
  readonly owner: string | null;
  /** false: not kept once finished (GET /v1/what-if's runs, whose caller waits for them) */
  readonly kept?: boolean;
}

export interface WhatIfRun {
  readonly id: string;
  status: WhatIfRunStatus;
  readonly request: WhatIfRunRequest;
  readonly queuedAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  progress: WhatIfProgress;
  report: WhatIfReport | null;
  /** that it failed, and where the cause is (status failed; the cause itself is in the API's log) */
  error: string | null;
  /** status interrupted: when, and why (the API stopped while the run was queued or running) */
  interrupted: { readonly at: number; readonly reason: string } | null;
  /** settles when the run is finished (done, failed, cancelled or interrupted; every worker of it has exited) */
  readonly finished: Promise<WhatIfRun>;
}

/** Defaults of WhatIfRunsOptions. */
export const WHAT_IF_RUNS_DEFAULTS = { concurrency: 1, maxQueued: 8, keep: 32, workers: 1 } as const;
/** What a refused submission's Retry-After says, seconds. */
export const WHAT_IF_RETRY_AFTER_S = 30;

/** The queue is full: the caller is to try again later (503 with Retry-After). */
export class WhatIfQueueFull extends Error {
  override readonly name = 'WhatIfQueueFull';
  readonly retryAfterSeconds = WHAT_IF_RETRY_AFTER_S;
  constructor(running: number, queued: number) {
    super(
      `the what-if queue is full (${running} running, ${queued} waiting, at most ${queued} may wait); try again in ${WHAT_IF_RETRY_AFTER_S} s`,
    );
  }
}

/** A cancel of a run that has finished already. */
export class WhatIfRunFinished extends Error {
  override readonly name = 'WhatIfRunFinished';
}

interface Entry {
  readonly run: WhatIfRun;
  readonly abort: AbortController;
  readonly settle: () => void;
  /** when its progress was last written to the runs file */
  progressWritten: number;
}

const isStatus = (s: string): s is WhatIfRunStatus =>
  ['queued', 'running', 'done', 'failed', 'cancelled', 'interrupted'].includes(s);

const bounded = (name: string, v: number | undefined, fallback: number, min: number): number => {
  const n = v ?? fallback;
  if (!Number.isSafeInteger(n) || n < min)
    throw new RangeError(`what-if runs: ${name} is a whole number of at least ${min}, got ${v}`);
  return n;
};

export class WhatIfRuns {
  readonly concurrency: number;
  readonly maxQueued: number;
  readonly keep: number;
  readonly workers: number;
  readonly maxReportBytes: number;
  readonly #o: WhatIfRunsOptions;
  readonly #now: () => number;
  /** every run not dropped: queued, running and kept (Map order: submission order) */
  readonly #runs = new Map<string, Entry>();
  readonly #queue: Entry[] = [];
  readonly #running = new Set<Entry>();
  /** finished runs kept, oldest first */
  readonly #finished: string[] = [];
  readonly #file: WhatIfRunsFile | null;
  #closed = false;

  /**
   * @param storePath the SQLite store's file the workers open read-only; null: the store is compared in the main
   *   thread (`store`)
   */
  constructor(
    private readonly storePath: string | null,
    private readonly store: EventStore,
    o: WhatIfRunsOptions = {},
  ) {
    this.concurrency = bounded('concurrency', o.concurrency, WHAT_IF_RUNS_DEFAULTS.concurrency, 1);
    this.maxQueued = bounded('maxQueued', o.maxQueued, WHAT_IF_RUNS_DEFAULTS.maxQueued, 0);
    this.keep = bounded('keep', o.keep, WHAT_IF_RUNS_DEFAULTS.keep, 1);
    this.workers = bounded('workers', o.workers, WHAT_IF_RUNS_DEFAULTS.workers, 1);
    this.maxReportBytes = bounded('maxReportBytes', o.maxReportBytes, MAX_KEPT_REPORT_BYTES, 1);
    this.#o = o;
    this.#now = o.now ?? Date.now;
    this.#file = o.file ?? null;
    if (storePath === null)
      o.log?.(
        'what-if runs are compared in the main thread: worker threads need a SQLite store on a file (a long run holds every request behind it)',
      );
    if (this.#file) this.#load(this.#file);
  }

  /** The runs the file kept: finished ones as they were; one queued or running when the API stopped, interrupted. */
  #load(file: WhatIfRunsFile): void {
    const rows = file.load(this.keep, this.concurrency + this.maxQueued, this.maxReportBytes);
    const at = this.#now();
    let interrupted = 0;
    const unfinished: Entry[] = [];
    for (const row of rows) {
      // the file is the API's own, but what it reads back is checked: a row it cannot read is kept, failed, saying why
      const unreadable: string[] = [];
      const parse = <T>(field: string, json: string, ok: (v: unknown) => boolean, fallback: T): T => {
        try {
          const v: unknown = JSON.parse(json);
          if (ok(v)) return v as T;
          unreadable.push(`${field}: not of its form`);
        } catch (e) {
          unreadable.push(`${field}: ${(e as Error).message}`);
        }
        return fallback;
      };
      const alternatives = parse<string[]>(
        'alternatives',
        row.alternatives,
        (v) => Array.isArray(v) && v.every((x) => typeof x === 'string'),
        [],
      );
      const scope = parse<WhatIfScope>(
        'scope',
        row.scope,
        (v) =>
          typeof v === 'object' &&
          v !== null &&
          typeof (v as WhatIfScope).from === 'string' &&
          typeof (v as WhatIfScope).to === 'string',
        { from: '', to: '' },
      );
      const report =
        row.report === null
          ? null
          : parse<WhatIfReport | null>(
              'report',
              row.report,
              (v) => typeof v === 'object' && v !== null,
              null,
            );
      if (!isStatus(row.status)) unreadable.push(`status: "${row.status}" is not one this API knows`);
      const status = unreadable.length ? 'failed' : (row.status as WhatIfRunStatus);
      if (unreadable.length)
        this.#o.log?.(
          `what-if runs ${file.path}: run ${row.id} cannot be read back (${unreadable.join('; ')})`,
        );
      const run: WhatIfRun = {
        id: row.id,
        status,
        request: { alternatives, scope, owner: row.owner },
        queuedAt: row.queued_at,
        startedAt: row.started_at,
        finishedAt: row.finished_at,
        progress: { eventsRead: row.events_read, eventsTotal: row.events_total },
        report: unreadable.length ? null : report,
        error: unreadable.length
          ? `kept in a form this API cannot read back (${unreadable.join('; ')}): submit the run again`
          : row.error,
        interrupted:
          row.interrupted_at === null || row.interrupted === null
            ? null
            : { at: row.interrupted_at, reason: row.interrupted },
        // finished already: settles with the run itself
        finished: Promise.resolve().then(() => run),
      };
      const entry: Entry = { run, abort: new AbortController(), settle: () => {}, progressWritten: 0 };
      this.#runs.set(run.id, entry);
      if (status === 'queued' || status === 'running') {
        const was = status;
        run.status = 'interrupted';
        run.finishedAt = at;
        run.interrupted = {
          at,
          reason: `the API stopped while this run was ${was} (it did not close cleanly: found at its next start); nothing was kept of it but its progress: submit it again`,
        };
        interrupted++;
        unfinished.push(entry);
      } else this.#finished.push(run.id); // as kept (a report not read back stays in the file as it is)
    }
    // marked interrupted now: they finished after every run finished before the stop
    for (const e of unfinished) {
      this.#finished.push(e.run.id);
      this.#write(e);
    }
    this.#trim();
    this.#o.log?.(
      `what-if runs ${file.path}: ${this.#finished.length} kept run(s) read back${interrupted ? `, ${interrupted} of them interrupted (queued or running when the API stopped)` : ''}`,
    );
  }

  /** Writes a kept run's state to the runs file (when there is one); `reportJson`: its report as JSON, if made. */
  #write(e: Entry, reportJson?: string): void {
    if (this.#file === null || e.run.request.kept === false) return;
    const r = e.run;
    const row: RunRow = {
      id: r.id,
      owner: r.request.owner,
      alternatives: JSON.stringify(r.request.alternatives),
      scope: JSON.stringify(r.request.scope),
      status: r.status,
      queued_at: r.queuedAt,
      started_at: r.startedAt,
      finished_at: r.finishedAt,
      events_read: r.progress.eventsRead,
      events_total: r.progress.eventsTotal,
      error: r.error,
      interrupted_at: r.interrupted?.at ?? null,
      interrupted: r.interrupted?.reason ?? null,
      report: r.report === null ? null : (reportJson ?? JSON.stringify(r.report)),
    };
    const file = this.#file;
    this.#onFile(`write what-if run ${r.id}`, () => file.put(row));
  }

  /**
   * A write to the runs file. One that fails (a full disk, a file made read-only) does not stop the runner: the run
   * goes on in memory, and the log says what was not written and why.
   */
  #onFile(what: string, write: () => void): void {
    try {
      write();
    } catch (e) {
      this.#o.log?.(
        `what-if runs file ${this.#file?.path}: could not ${what} (${(e as Error).message}); it is kept in memory only until the API stops`,
      );
    }
  }

  /** Drops the oldest finished runs beyond `keep` (from the file too). */
  #trim(): void {
    while (this.#finished.length > this.keep) {
      const id = this.#finished.shift()!;
      this.#runs.delete(id);
      const file = this.#file;
      if (file) this.#onFile(`remove what-if run ${id}`, () => file.remove(id));
    }
  }

  /** Where the runs are compared: 'worker threads' or 'main thread'. */
  get where(): string {
    return this.storePath === null ? 'main thread' : 'worker threads';
  }

  /** Queues a run (started at once when a slot is free). Throws WhatIfQueueFull when it cannot wait. */
  submit(request: WhatIfRunRequest): WhatIfRun {
    if (this.#closed) throw new Error('what-if runs: closed');
    if (this.#running.size >= this.concurrency && this.#queue.length >= this.maxQueued)
      throw new WhatIfQueueFull(this.#running.size, this.#queue.length);
    let settle!: () => void;
    const run: WhatIfRun = {
      id: randomUUID(),
      status: 'queued',
      request,
      queuedAt: this.#now(),
      startedAt: null,
      finishedAt: null,
      progress: { eventsRead: 0, eventsTotal: null },
      report: null,
      error: null,
      interrupted: null,
      finished: new Promise<WhatIfRun>((resolve) => (settle = () => resolve(run))),
    };
    const entry: Entry = { run, abort: new AbortController(), settle, progressWritten: 0 };
    this.#runs.set(run.id, entry);
    this.#queue.push(entry);
    this.#write(entry);
    this.#next();
    return run;
  }

  /** The run, if the caller's scope is the one it was made under (otherwise, and for no such run: undefined). */
  get(id: string, owner: string | null): WhatIfRun | undefined {
    const e = this.#runs.get(id);
    return e && e.run.request.owner === owner ? e.run : undefined;
  }

  /** Where a queued run waits: 1 for the next to start; null when it is not queued. */
  queuePosition(run: WhatIfRun): number | null {
    const i = this.#queue.findIndex((e) => e.run === run);
    return i < 0 ? null : i + 1;
  }

  /**
   * Cancels a queued or running run (a running run's workers are terminated; resolves once they have exited).
   * Throws WhatIfRunFinished for a run already finished. The run must have been found with `get`.
   */
  async cancel(run: WhatIfRun): Promise<WhatIfRun> {
    const e = this.#runs.get(run.id);
    if (!e || e.run !== run) throw new Error(`what-if runs: no run ${run.id}`);
    if (run.status === 'queued') {
      this.#queue.splice(this.#queue.indexOf(e), 1);
      this.#finish(e, 'cancelled');
      return run;
    }
    if (run.status !== 'running')
      throw new WhatIfRunFinished(`run ${run.id} is ${run.status} already: there is nothing to cancel`);
    e.abort.abort();
    return run.finished;
  }

  /**
   * Stops: every queued or running run ends `interrupted` (written so to the runs file), the running ones once their
   * workers have exited; then the runs file is closed.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const e of this.#queue.splice(0)) this.#finish(e, 'interrupted');
    const running = [...this.#running];
    for (const e of running) e.abort.abort();
    await Promise.all(running.map((e) => e.run.finished));
    this.#file?.close();
  }

  /** How a run ends whose signal was aborted: interrupted when the API is closing, else cancelled. */
  #aborted(): 'cancelled' | 'interrupted' {
    return this.#closed ? 'interrupted' : 'cancelled';
  }

  #next(): void {
    while (this.#running.size < this.concurrency && this.#queue.length) {
      const e = this.#queue.shift()!;
      this.#running.add(e);
      e.run.status = 'running';
      e.run.startedAt = this.#now();
      this.#write(e);
      void this.#compare(e).then(
        (report) => {
          // cancelled after the last worker's report came in but before this: still cancelled
          if (e.abort.signal.aborted) this.#finish(e, this.#aborted());
          else {
            e.run.report = report;
            if (e.run.progress.eventsTotal !== null)
              e.run.progress = {
                eventsRead: e.run.progress.eventsTotal,
                eventsTotal: e.run.progress.eventsTotal,
              };
            this.#finish(e, 'done');
          }
        },
        (err: unknown) => {
          if (err instanceof WhatIfAborted || e.abort.signal.aborted) this.#finish(e, this.#aborted());
          else {
            // the cause stays in the API's log (it may name the server's files), as for any internal error
            e.run.error = `internal error (what-if run ${e.run.id}; see the API's log)`;
            this.#o.log?.(
              `what-if run ${e.run.id} over ${this.storePath ?? "the API's store"} failed: ${(err as Error).stack ?? String(err)}`,
            );
            this.#finish(e, 'failed');
          }
        },
      );
    }
  }

  #finish(e: Entry, status: 'done' | 'failed' | 'cancelled' | 'interrupted'): void {
    const was = e.run.status;
    e.run.status = status;
    e.run.finishedAt = this.#now();
    if (status === 'interrupted')
      e.run.interrupted = {
        at: e.run.finishedAt,
        reason: `the API was stopped while this run was ${was}; nothing was kept of it but its progress: submit it again`,
      };
    if (this.#running.delete(e) && !this.#closed) this.#next();
    if (e.run.request.kept === false) this.#runs.delete(e.run.id);
    else {
      let json: string | undefined;
      if (status === 'done' && e.run.report !== null) {
        // a kept report is bounded: a larger one is not kept, and the run says so
        json = JSON.stringify(e.run.report);
        const bytes = Buffer.byteLength(json);
        if (bytes > this.maxReportBytes) {
          json = undefined;
          e.run.report = null;
          e.run.status = 'failed';
          e.run.error = `its report is ${bytes} bytes of JSON, more than the ${this.maxReportBytes} a kept run keeps: not kept; compare a shorter period, one casino or one table`;
        }
      }
      this.#finished.push(e.run.id);
      this.#write(e, json);
      this.#trim();
    }
    e.settle();
  }

  async #compare(e: Entry): Promise<WhatIfReport> {
    const { alternatives, scope } = e.run.request;
    const onProgress = (p: WhatIfProgress) => {
      e.run.progress = p;
      const now = this.#now();
      if (
        this.#file !== null &&
        e.run.request.kept !== false &&
        now - e.progressWritten >= PROGRESS_WRITE_MS
      ) {
        e.progressWritten = now;
        const file = this.#file;
        this.#onFile(`write the progress of what-if run ${e.run.id}`, () =>
          file.progress(e.run.id, p.eventsRead, p.eventsTotal),
        );
      }
    };
    const signal = e.abort.signal;
    const o = this.#o;
    if (this.storePath !== null)
      return runWhatIf({
        storePath: this.storePath,
        alternatives,
        scope,
        workers: this.workers,
        inWorkers: true,
        onProgress,
        signal,
        ...(o.maxChanged === undefined ? {} : { maxChanged: o.maxChanged }),
        ...(o.loader === undefined ? {} : { loader: o.loader }),
        ...(o.compiledWorker === undefined ? {} : { compiledWorker: o.compiledWorker }),
        ...(o.progressEvery === undefined ? {} : { progressEvery: o.progressEvery }),
      });
    // no file the workers could open: in this thread, from the API's own store
    const t0 = performance.now();
    const head = this.store.headPosition ? await this.store.headPosition() : null;
    const eventsTotal = head === null ? null : Math.max(0, Number(head));
    onProgress({ eventsRead: 0, eventsTotal });
    const partial: WhatIfPartial = await compareShard(
      this.store,
      { index: 0, count: 1 },
      alternatives,
      scope,
      undefined,
      o.maxChanged,
      {
        signal,
        ...(o.progressEvery === undefined ? {} : { every: o.progressEvery }),
        onProgress: (_events, position) =>
          onProgress({
            eventsRead: eventsTotal === null ? Number(position) : Math.min(Number(position), eventsTotal),
            eventsTotal,
          }),
      },
    );
    return {
      ...mergeWhatIf([partial], o.maxChanged),
      readings: readingsCompared(alternatives),
      scope,
      workers: 1,
      elapsedMs: performance.now() - t0,
      source: {
        kind: 'derived',
        why: 'the store is not a SQLite file: readings are kept beside SQLite stores only',
      },
    };
  }
}

/** A run as the API answers it (times in UTC ms; the report only when done). */
export function runView(runs: WhatIfRuns, run: WhatIfRun) {
  const { eventsRead, eventsTotal } = run.progress;
  return {
    id: run.id,
    status: run.status,
    readings: run.request.alternatives.map((key) => ({ key, label: whatIfLabel(key) })),
    scope: run.request.scope,
    progress: {
      eventsRead,
      eventsTotal,
      fraction:
        run.status === 'done'
          ? 1
          : eventsTotal
            ? Math.min(1, Math.floor((eventsRead / eventsTotal) * 1000) / 1000)
            : null,
    },
    queuePosition: runs.queuePosition(run),
    queuedAt: run.queuedAt,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    error: run.error,
    interrupted: run.interrupted,
    report: run.status === 'done' ? run.report : null,
  };
}
