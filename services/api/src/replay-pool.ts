/**
 * Disputed-hand replays off the event loop: a small pool of worker threads (replay-worker.ts), each with the store
 * opened read-only and its own RoundDerivations, that read a table's stream, fold it, explain the round and
 * serialize the answer, handing back the body as bytes. The API's main thread then only does HTTP, the caller's
 * scope check and the access record (routes/rounds.ts).
 *
 * - Each table goes to one worker (a hash of its id), so a table is folded once and its later rounds are answered
 *   from that worker's kept fold, as RoundDerivations does in one thread; the bounds on rounds and answers kept are
 *   shared out between the workers (each 1.5 × an even share: with two, up to 1.5 × the one thread's memory).
 * - Bounded: at most as many workers as the machine has cores, and at most `maxQueued` replays waiting for or
 *   inside each worker; one more is refused at once (ReplayPoolBusy: the route answers 503 with Retry-After)
 *   rather than queued without end.
 * - Started from the compiled worker (services/replay's compiledWorker: one JavaScript file made with esbuild and
 *   kept in node_modules/.cache/table-audit-replay), else from the sources with the TypeScript loader the caller
 *   names or the process runs with. A worker that stops is started again; the replays it held fail (500).
 * - Kept answers are served here: the body of each answer a worker keeps is kept in this thread too, with the
 *   table head (and findings head) the worker keeps it under, and sent without asking the worker while one
 *   indexed read finds those heads unchanged — so a kept answer does not wait behind the folds queued in its worker.
 * - The answers are the in-thread route's byte for byte: the same RoundDerivations, the same law lookup, the same
 *   schema serialized by the same fast-json-stringify (replay-body.ts); a test holds them equal.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { RoundNotFound, RoundNotVerified, type BrokenLink } from '@table-audit/replay';
import { workerCode, type WorkerCode, type WorkerCodeOptions } from './worker-code.ts';
import { streamHead, type EventStore } from '@table-audit/eventstore';
import { findingStream, tableStream } from '@table-audit/schemas/streams';
import type { ReplayPlace } from './replay-body.ts';
import {
  RESUME_FALLBACKS,
  type AnswerKey,
  type ResumeFallback,
  type RoundResume,
} from './round-derivations.ts';

export interface ReplayPoolOptions extends WorkerCodeOptions {
  /** the SQLite store's file: each worker opens it read-only */
  readonly storePath: string;
  /** worker threads (at most the machine's cores; default: the cores) */
  readonly threads?: number;
  /** replays waiting for or inside one worker before the next is refused (default 64) */
  readonly maxQueued?: number;
  /** rounds kept (default 5,000, as RoundDerivations), shared out between the workers (see `share`) */
  readonly maxRounds?: number;
  /** answers kept (default 1,000), shared out between the workers (see `share`) */
  readonly maxExplanations?: number;
  /** a round's first replay resumed from its record (RoundDerivationsOptions.resume; default true) */
  readonly resume?: boolean;
  /**
   * the store as the main thread has it: with it, the bodies of answers the workers keep are kept here too (at
   * most `keptBodies`, default `maxExplanations`), each with the table head (and findings head) it was made at,
   * and served without asking a worker while one indexed read finds those heads unchanged
   */
  readonly store?: EventStore;
  readonly keptBodies?: number;
}

/** What a worker is started with. */
export interface ReplayWorkerData {
  readonly storePath: string;
  readonly maxRounds: number;
  readonly maxExplanations: number;
  readonly resume: boolean;
}

/** A replay asked of a worker. */
export interface ReplayAsk {
  readonly id: number;
  readonly roundId: string;
  readonly place: ReplayPlace;
  readonly alternatives: readonly string[];
  /** where the round's events begin and its record (the API's index): a first replay may resume from it */
  readonly resume?: RoundResume | null;
}

/** A worker's count of first replays resumed from a round's record, and of those that folded the table instead. */
export interface ResumeStats {
  resumed: number;
  fallbacks: Record<ResumeFallback, number>;
}

/** A replay's answer as the route sends it: the body, and how it was derived (the route's provenance header). */
export interface ReplayBody {
  readonly body: Uint8Array;
  /** RoundExplanation.derivedFrom of the answer: the full fold, or the round's record and its own events */
  readonly derivedFrom: string | null;
}

/**
 * A worker's answer: the body as UTF-8 bytes, or RoundNotFound's message, or what RoundNotVerified names (the round
 * refused: its table's chain breaks where its answer reads), or another failure's message.
 */
export type ReplayAnswer =
  | {
      readonly id: number;
      readonly body: Uint8Array;
      readonly key: AnswerKey;
      readonly derivedFrom: string | null;
      readonly resumeStats: ResumeStats;
    }
  | { readonly id: number; readonly notFound: string }
  | {
      readonly id: number;
      readonly notVerified: {
        readonly roundId: string;
        readonly tableId: string;
        readonly broken: BrokenLink;
      };
    }
  | { readonly id: number; readonly error: string };

/** Every worker already holds `maxQueued` replays: asked again later, it may have room. */
export class ReplayPoolBusy extends Error {
  override readonly name = 'ReplayPoolBusy';
  /** seconds after which asking again makes sense (the route's Retry-After) */
  readonly retryAfterSeconds = 1;
}

interface Slot {
  worker: Worker | null;
  /** the worker starting (resolves once it said it is ready) */
  starting: Promise<Worker> | null;
  readonly pending: Map<
    number,
    {
      resolve: (a: { body: Uint8Array; key: AnswerKey; derivedFrom: string | null }) => void;
      reject: (e: Error) => void;
    }
  >;
  /** the worker's resume counts as it last reported them */
  resume: ResumeStats | null;
}

/**
 * One worker's share of a bound kept over all of them: half as much again as an even share (at most the whole),
 * since tables fall to workers by a hash, not evenly: 150 tables of 6 rounds asked in turn (900 answers, within
 * the default 1,000) overrun an even share of 500 whenever the hash gives one worker more than 83 of them, and a
 * worker over its share drops the answers it is asked for next (in the benchmark's first run with even shares,
 * the rounds of folded tables cost twice the CPU a request).
 */
const share = (bound: number, n: number): number => Math.min(bound, Math.ceil((1.5 * bound) / n));

/** FNV-1a of a table id: which worker folds it. */
function slotOf(tableId: string, n: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < tableId.length; i++) {
    h ^= tableId.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % n;
}

export class ReplayPool {
  readonly #slots: Slot[];
  readonly #maxQueued: number;
  readonly #entry: URL;
  readonly #execArgv: string[];
  readonly #data: ReplayWorkerData;
  #nextId = 0;
  #closed = false;
  /** how the replays went, for tests and the benchmark */
  readonly stats = {
    asked: 0,
    answered: 0,
    keptHere: 0,
    notFound: 0,
    /** refused: the table's chain breaks where the round's answer reads (RoundNotVerified) */
    notVerified: 0,
    failed: 0,
    busy: 0,
    restarts: 0,
  };
  /** bodies the workers keep, kept here too by (readings, table, round), least recently used first */
  readonly #kept = new Map<
    string,
    {
      readonly head: number;
      readonly findingsHead: number | 'none';
      readonly record: number | 'none';
      readonly body: Uint8Array;
      readonly derivedFrom: string | null;
    }
  >();
  #store: EventStore | null = null;
  #maxKept = 0;
  /** what the workers were started from: the compiled worker, or the sources and why */
  readonly code: WorkerCode;

  private constructor(
    threads: number,
    maxQueued: number,
    entry: URL,
    execArgv: string[],
    data: ReplayWorkerData,
    code: WorkerCode,
  ) {
    this.#slots = Array.from({ length: threads }, () => ({
      worker: null,
      starting: null,
      pending: new Map(),
      resume: null,
    }));
    this.#maxQueued = maxQueued;
    this.#entry = entry;
    this.#execArgv = execArgv;
    this.#data = data;
    this.code = code;
  }

  /** Starts the workers; rejects (naming why) when one cannot start, after stopping those that did. */
  static async start(o: ReplayPoolOptions): Promise<ReplayPool> {
    const cores = availableParallelism();
    const threads = o.threads ?? cores;
    if (!Number.isSafeInteger(threads) || threads < 1)
      throw new RangeError(`threads is a whole number ≥ 1, got ${threads}`);
    const maxQueued = o.maxQueued ?? 64;
    if (!Number.isSafeInteger(maxQueued) || maxQueued < 1)
      throw new RangeError(`maxQueued is a whole number ≥ 1, got ${maxQueued}`);
    const n = Math.min(threads, cores);
    const { entry, execArgv, code } = await workerCode(
      new URL('./replay-worker.ts', import.meta.url),
      'api-replay-worker',
      o,
    );
    const pool = new ReplayPool(
      n,
      maxQueued,
      entry,
      execArgv,
      {
        storePath: o.storePath,
        maxRounds: share(o.maxRounds ?? 5_000, n),
        maxExplanations: share(o.maxExplanations ?? 1_000, n),
        resume: o.resume ?? true,
      },
      code,
    );
    pool.#store = o.store ?? null;
    pool.#maxKept = o.keptBodies ?? o.maxExplanations ?? 1_000;
    try {
      await Promise.all(pool.#slots.map((s) => pool.#started(s)));
    } catch (e) {
      await pool.close();
      throw e;
    }
    return pool;
  }

  /** How many workers the pool runs. */
  get threads(): number {
    return this.#slots.length;
  }

  /**
   * First replays the workers derived from a round's record and its own events, and those that could have and
   * folded the table instead, by why (each worker's counts as it last reported them, added up).
   */
  get resumeStats(): ResumeStats {
    const out: ResumeStats = {
      resumed: 0,
      fallbacks: Object.fromEntries(RESUME_FALLBACKS.map((k) => [k, 0])) as Record<ResumeFallback, number>,
    };
    for (const s of this.#slots)
      if (s.resume) {
        out.resumed += s.resume.resumed;
        for (const k of RESUME_FALLBACKS) out.fallbacks[k] += s.resume.fallbacks[k];
      }
    return out;
  }

  /** Replays waiting for or inside each worker now. */
  get queued(): number[] {
    return this.#slots.map((s) => s.pending.size);
  }

  /** The worker of a slot, started if it is not running (a first start, or after it stopped). */
  #started(slot: Slot): Promise<Worker> {
    if (slot.worker) return Promise.resolve(slot.worker);
    slot.starting ??= new Promise<Worker>((resolve, reject) => {
      const worker = new Worker(this.#entry, { workerData: this.#data, execArgv: this.#execArgv });
      worker.unref(); // held only while it has replays to answer (below)
      let ready = false;
      worker.on('message', (m: ReplayAnswer | { ready: true } | { failed: string }) => {
        if ('ready' in m) {
          ready = true;
          slot.worker = worker;
          slot.starting = null;
          resolve(worker);
          return;
        }
        if ('failed' in m) return reject(new Error(`a replay worker could not open the store: ${m.failed}`));
        const p = slot.pending.get(m.id);
        if (!p) return;
        slot.pending.delete(m.id);
        if (slot.pending.size === 0) worker.unref();
        if ('body' in m) {
          this.stats.answered++;
          slot.resume = m.resumeStats;
          p.resolve(m);
        } else if ('notFound' in m) {
          this.stats.notFound++;
          p.reject(new RoundNotFound(m.notFound));
        } else if ('notVerified' in m) {
          this.stats.notVerified++;
          const x = m.notVerified;
          p.reject(new RoundNotVerified(x.roundId, x.tableId, x.broken));
        } else {
          this.stats.failed++;
          p.reject(new Error(m.error));
        }
      });
      let gone = false;
      const stopped = (why: string) => {
        if (gone) return; // an error is followed by the exit
        gone = true;
        if (slot.worker === worker) slot.worker = null;
        if (!ready) {
          slot.starting = null;
          reject(new Error(`a replay worker did not start: ${why}`));
          return;
        }
        if (!this.#closed) this.stats.restarts++;
        const pending = [...slot.pending.values()];
        slot.pending.clear();
        this.stats.failed += pending.length;
        for (const p of pending) p.reject(new Error(`the replay worker stopped (${why}) before answering`));
      };
      worker.on('error', (e) => stopped(e.message));
      worker.on('exit', (code) => stopped(`exit code ${code}`));
    });
    return slot.starting;
  }

  /**
   * The body of the round's replay answer as UTF-8 bytes (what the route sends). Rejects with ReplayPoolBusy
   * when the table's worker already holds `maxQueued` replays, with RoundNotFound as explainRound does, and with
   * an Error for anything else.
   */
  async replay(
    roundId: string,
    place: ReplayPlace,
    alternatives: readonly string[],
    resume?: RoundResume | null,
  ): Promise<ReplayBody> {
    if (this.#closed) throw new Error('the replay pool is closed');
    const keptKey = `${[...alternatives].sort().join(',')}\u0000${place.tableId}\u0000${roundId}`;
    const kept = this.#kept.get(keptKey);
    if (kept && this.#store) {
      // served here while the heads it was made at are the heads now, as its worker would serve it
      const head = await streamHead(this.#store, tableStream(place.tableId));
      const findingsHead =
        kept.findingsHead === 'none' ? 'none' : await streamHead(this.#store, findingStream(place.tableId));
      // the round's record as the index knows it now (no read): an answer checked against another is made anew
      const record = kept.record === 'none' ? 'none' : (resume?.record?.revision ?? 'none');
      if (head === kept.head && findingsHead === kept.findingsHead && record === kept.record) {
        this.#kept.delete(keptKey);
        this.#kept.set(keptKey, kept); // most recently used last
        this.stats.keptHere++;
        return kept;
      }
      this.#kept.delete(keptKey);
    }
    const answer = await this.#ask(roundId, place, alternatives, resume);
    if (answer.key.kept && this.#store && this.#maxKept > 0) {
      this.#kept.delete(keptKey);
      this.#kept.set(keptKey, {
        head: answer.key.head,
        findingsHead: answer.key.findingsHead,
        record: answer.key.record,
        body: answer.body,
        derivedFrom: answer.derivedFrom,
      });
      if (this.#kept.size > this.#maxKept) this.#kept.delete(this.#kept.keys().next().value!);
    }
    return { body: answer.body, derivedFrom: answer.derivedFrom };
  }

  /** Asks the table's worker (refused at once when it holds its bound). */
  async #ask(
    roundId: string,
    place: ReplayPlace,
    alternatives: readonly string[],
    resume: RoundResume | null | undefined,
  ): Promise<{ body: Uint8Array; key: AnswerKey; derivedFrom: string | null }> {
    this.stats.asked++;
    const slot = this.#slots[slotOf(place.tableId, this.#slots.length)]!;
    if (slot.pending.size >= this.#maxQueued) {
      this.stats.busy++;
      throw new ReplayPoolBusy(
        `the replay workers are busy (${slot.pending.size} replays waiting for this round's worker); ask again in a second`,
      );
    }
    const id = this.#nextId++;
    const answered = new Promise<{ body: Uint8Array; key: AnswerKey; derivedFrom: string | null }>(
      (resolve, reject) => slot.pending.set(id, { resolve, reject }),
    );
    let worker: Worker;
    try {
      worker = await this.#started(slot);
    } catch (e) {
      slot.pending.delete(id);
      this.stats.failed++;
      throw e;
    }
    if (!slot.pending.has(id)) return answered; // failed meanwhile (the worker stopped): answered rejects
    worker.ref(); // until it has answered everything it holds
    const ask: ReplayAsk = {
      id,
      roundId,
      place: {
        tableId: place.tableId,
        casino: place.casino,
        concessionaire: place.concessionaire,
        game: place.game,
      },
      alternatives: [...alternatives],
      ...(resume === undefined ? {} : { resume }),
    };
    worker.postMessage(ask);
    return answered;
  }

  /** Stops the workers; replays not answered yet fail. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(
      this.#slots.map(async (s) => {
        const w = s.worker ?? (s.starting ? await s.starting.catch(() => null) : null);
        s.worker = null;
        if (w) await w.terminate();
      }),
    );
  }
}
