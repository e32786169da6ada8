/**
 * The one catch-up-and-follow loop over the event-store port, shared by replay, analytics projections and the API
 * (after emmett's consumers and processors): each processor has a name (its durable checkpoint), an optional
 * filter and a batch handler.
 *
 *   await runProcessor(store, { name: 'replay', handle: async (batch) => { ...durable writes... } });
 *   await runProcessors(store, [replay, projection], { live: true, signal, flushMs: 20 });
 *
 * For each batch, in global order: every processor's handler runs, and only once it has resolved — its writes
 * durable — is that processor's checkpoint saved. A crash in between re-delivers the same batch on restart, so
 * handlers must be idempotent (deterministic event ids make appends so; projections upsert). Events a filter
 * leaves out still advance the checkpoint. Several processors share one read; each resumes from its own
 * checkpoint, and a failing processor stops the run (the others keep what they checkpointed).
 *
 * A processor whose writes go to the same store can save its checkpoint in the same write as its batch
 * (`savesCheckpoint: true`: the handler passes `context.checkpoint` to appendMany, one transaction where the store
 * is atomicAcrossStreams, the checkpoint last where it is not); the loop then saves that processor's checkpoint
 * only for batches whose events its filter left out entirely, so it is never saved twice. In catch-up such a
 * processor may also leave a batch's writes to a later batch when more is waiting (`BatchContext.more`: one commit
 * for several batches); the loop calls its `flush` before it reports catching up or stops.
 */
import { InvalidArgument } from './errors.ts';
import type { EventStore, RecordedEvent, Subscription } from './port.ts';

/** Which events a processor's handler receives; the others only advance its checkpoint. */
export type EventFilter =
  | {
      /** Only events of streams starting with (one of) this prefix. */
      streamPrefix?: string | readonly string[];
      /** Only events of these types. */
      eventTypes?: readonly string[];
    }
  | ((event: RecordedEvent) => boolean);

export interface BatchContext {
  /** 'catch-up' while reading what was stored before the run started, then 'live'. */
  mode: 'catch-up' | 'live';
  /** The position the checkpoint will be saved at once the handler resolves: the batch's last event read, filtered or not. */
  position: bigint;
  /**
   * Events read for this batch, including those the filter left out (in a catch-up read by type — every
   * processor names its `readEventTypes` — only the events of those types, and at the end the rest).
   */
  read: number;
  /**
   * Catch-up only: the read was full, so the loop will hand the next batch at once. A processor with
   * `savesCheckpoint` may then leave this batch's writes (and checkpoint) to the write of a later batch, whose
   * checkpoint covers both: fewer commits. It must write them when handed a batch with `more` false, and in `flush`.
   */
  more: boolean;
  /**
   * The checkpoint to save once the batch is handled. A processor with `savesCheckpoint` saves it itself, with its
   * writes (appendMany's `checkpoint` option); for the others the loop saves it after the handler resolved.
   */
  checkpoint: { name: string; position: bigint };
}

export interface Processor {
  /** The checkpoint's name: a processor resumes after the last batch it completed under this name. */
  readonly name: string;
  readonly filter?: EventFilter;
  /**
   * The only event types the handler can use, whatever its filter: in a run with `readByType` where every processor
   * names them, the catch-up asks the store for these types only (readAll's `eventTypes`: the SQLite store skips the
   * others inside SQLite, unread and undecoded), then, once that read comes back short, reads the rest of every type,
   * so that the checkpoint still reaches the store's last event. The filter still applies to what is read. Events of
   * other types are then neither handed over nor counted in `BatchContext.read`; live, the subscription reads every
   * type.
   */
  readonly readEventTypes?: readonly string[];
  /**
   * The handler saves `context.checkpoint` itself, inside its own batch write (appendMany's `checkpoint`), even when
   * it has nothing else to write; the loop saves it only for batches it did not hand over (all filtered out).
   * Default false: the loop saves it after the handler resolved.
   */
  readonly savesCheckpoint?: boolean;
  /**
   * Handles a batch (never empty) in global order. Resolves only once its writes are durable; may be given the same
   * batch again after a crash, so it must be idempotent. A rejection stops the run without saving the checkpoint.
   */
  handle(batch: readonly RecordedEvent[], context: BatchContext): Promise<void> | void;
  /**
   * Where to resume, given the checkpoint saved in the store (null: none): by default from it. A processor that
   * holds a trusted copy elsewhere (a signed anchor) can resume from an earlier position; handlers are idempotent.
   */
  resumeFrom?(saved: bigint | null): Promise<bigint | null> | bigint | null;
  /** Before the first read, with the checkpoint the processor resumes from (null: from the beginning). */
  onStart?(context: { checkpoint: bigint | null }): Promise<void> | void;
  /**
   * After the handler resolved and the checkpoint was saved (metrics, health, progress); for a processor that left
   * a batch's writes to a later one (`BatchContext.more`), that checkpoint is durable only once it wrote them.
   */
  onCheckpoint?(position: bigint): void;
  /**
   * The loop has no batch to hand at once (caught up, or stopping on the signal): a processor that left writes to a
   * later batch (`BatchContext.more`) writes them now, with their checkpoint.
   */
  flush?(): Promise<void> | void;
  /** Once everything stored before the run started is handled (and before following live). */
  onCaughtUp?(context: { position: bigint | null }): Promise<void> | void;
}

export interface ProcessorRunOptions {
  /** After catching up, follow new events until `signal` aborts. Default false: return once caught up. */
  live?: boolean;
  /** Stops the run: during catch-up after the current batch, when live after a final flush of what was received. */
  signal?: AbortSignal;
  /** Events read per batch (filtered ones included), in catch-up and at most in live mode. Default 1000. */
  batchSize?: number;
  /** Live: a batch is handled at most this long after its first event arrived. Default 50. */
  flushMs?: number;
  /**
   * Catch-up reads only the event types the processors name (`readEventTypes`, when every one of them does), so
   * `batchSize` counts events of those types: a batch then spans more of the store. Default false: every type.
   */
  readByType?: boolean;
}

export interface ProcessorRunReport {
  /** Events read in this run, filtered ones included. */
  read: number;
  /** Batches handed over (per run, not per processor). */
  batches: number;
  /** Each processor's checkpoint at the end of the run. */
  checkpoints: Record<string, bigint | null>;
  /** True when the signal stopped the run before catch-up finished. */
  aborted: boolean;
}

/** A handler rejected: names the processor and the batch, whose checkpoint was not saved. */
export class ProcessorHandlerFailed extends Error {
  override readonly name = 'ProcessorHandlerFailed';
  readonly firstPosition: bigint;
  readonly lastPosition: bigint;
  readonly firstEventId: string;
  readonly lastEventId: string;
  constructor(
    readonly processor: string,
    batch: readonly RecordedEvent[],
    override readonly cause: unknown,
  ) {
    const first = batch[0]!;
    const last = batch.at(-1)!;
    const range =
      batch.length === 1
        ? `event "${first.eventId}" (stream "${first.stream}", position ${first.position})`
        : `${batch.length} events from "${first.eventId}" (position ${first.position}) to "${last.eventId}" (position ${last.position})`;
    super(
      `processor "${processor}" failed on ${range}: ${cause instanceof Error ? cause.message : String(cause)}; its checkpoint was not saved`,
      { cause },
    );
    this.firstPosition = first.position;
    this.lastPosition = last.position;
    this.firstEventId = first.eventId;
    this.lastEventId = last.eventId;
  }
}

function matcher(filter: EventFilter | undefined): (e: RecordedEvent) => boolean {
  if (filter === undefined) return () => true;
  if (typeof filter === 'function') return filter;
  const prefixes =
    filter.streamPrefix === undefined
      ? null
      : typeof filter.streamPrefix === 'string'
        ? [filter.streamPrefix]
        : [...filter.streamPrefix];
  const types = filter.eventTypes === undefined ? null : new Set(filter.eventTypes);
  return (e) =>
    (prefixes === null || prefixes.some((p) => e.stream.startsWith(p))) &&
    (types === null || types.has(e.type));
}

/**
 * The event types a catch-up may ask the store for: the union of the processors' `readEventTypes` when every one
 * of them names them (undefined: every type). The loop still applies each filter itself, so a store that ignores
 * the option (a decorator written before it) changes nothing.
 */
function readTypes(running: readonly Running[]): string[] | undefined {
  const types = new Set<string>();
  for (const { processor } of running) {
    if (processor.readEventTypes === undefined) return undefined;
    for (const t of processor.readEventTypes) types.add(t);
  }
  return [...types];
}

/** A processor's `flush`, its failure named. */
async function flushOne(p: Processor): Promise<void> {
  if (!p.flush) return;
  try {
    await p.flush();
  } catch (err) {
    throw new Error(
      `processor "${p.name}" failed writing what it had left from earlier batches: ${err instanceof Error ? err.message : String(err)}; its checkpoint was not saved`,
      { cause: err },
    );
  }
}

interface Running {
  processor: Processor;
  matches: (e: RecordedEvent) => boolean;
  checkpoint: bigint | null;
}

export function runProcessor(
  store: EventStore,
  processor: Processor,
  options: ProcessorRunOptions = {},
): Promise<ProcessorRunReport> {
  return runProcessors(store, [processor], options);
}

/** Catches up every processor from its checkpoint over one read of the store, then (live) follows it. */
export async function runProcessors(
  store: EventStore,
  processors: readonly Processor[],
  options: ProcessorRunOptions = {},
): Promise<ProcessorRunReport> {
  const batchSize = options.batchSize ?? 1000;
  const flushMs = options.flushMs ?? 50;
  if (!Number.isSafeInteger(batchSize) || batchSize < 1)
    throw new InvalidArgument(`batchSize must be a positive integer, got ${String(batchSize)}`);
  if (!Number.isFinite(flushMs) || flushMs < 0)
    throw new InvalidArgument(`flushMs must be a finite number ≥ 0, got ${String(flushMs)}`);
  if (processors.length === 0) throw new InvalidArgument('runProcessors needs at least one processor');
  const names = new Set<string>();
  for (const p of processors) {
    if (names.has(p.name))
      throw new InvalidArgument(`two processors are named "${p.name}": they would share one checkpoint`);
    names.add(p.name);
  }
  const { signal } = options;

  const running: Running[] = [];
  for (const processor of processors) {
    const saved = await store.loadCheckpoint(processor.name);
    const checkpoint = processor.resumeFrom ? await processor.resumeFrom(saved) : saved;
    await processor.onStart?.({ checkpoint });
    running.push({ processor, matches: matcher(processor.filter), checkpoint });
  }
  const report: ProcessorRunReport = { read: 0, batches: 0, checkpoints: {}, aborted: false };
  const finish = () => {
    for (const r of running) report.checkpoints[r.processor.name] = r.checkpoint;
    return report;
  };

  /** Hands a batch to each processor in turn, saving each one's checkpoint after its handler resolved. */
  const deliver = async (batch: readonly RecordedEvent[], mode: BatchContext['mode'], more = false) => {
    const last = batch.at(-1);
    if (last === undefined) return;
    report.read += batch.length;
    report.batches++;
    for (const r of running) {
      const { checkpoint } = r;
      // a processor whose checkpoint is ahead of the shared read has handled these already
      if (checkpoint !== null && last.position <= checkpoint) continue;
      const mine = batch.filter((e) => (checkpoint === null || e.position > checkpoint) && r.matches(e));
      const save = { name: r.processor.name, position: last.position };
      if (mine.length > 0) {
        try {
          await r.processor.handle(mine, {
            mode,
            position: last.position,
            read: batch.length,
            more,
            checkpoint: save,
          });
        } catch (err) {
          throw new ProcessorHandlerFailed(r.processor.name, mine, err);
        }
      }
      // saved with the handler's own writes when it says so (and it was handed something); what it left to a later
      // batch is written first, so that its checkpoint never goes back
      if (mine.length === 0 || !r.processor.savesCheckpoint) {
        await flushOne(r.processor);
        await store.saveCheckpoint(save.name, save.position);
      }
      r.checkpoint = last.position;
      r.processor.onCheckpoint?.(last.position);
    }
  };

  // catch-up from the checkpoint furthest behind (none: the beginning), one bounded read per batch so that no read
  // stays open across a handler's writes
  let after: bigint | null = running[0]!.checkpoint;
  for (const { checkpoint } of running)
    if (after !== null && (checkpoint === null || checkpoint < after)) after = checkpoint;
  const flushAll = async () => {
    for (const r of running) await flushOne(r.processor);
  };
  // readByType, and every processor names the event types it reads: the store is asked for those types only (the
  // others are skipped inside it); once such a read comes back short, one read of every type takes what is left, so
  // that the checkpoints reach the store's last event and not only the last event of those types
  const types = options.readByType ? readTypes(running) : undefined;
  let typed = types !== undefined;
  for (;;) {
    if (signal?.aborted) {
      await flushAll();
      report.aborted = true;
      return finish();
    }
    const batch: RecordedEvent[] = [];
    for await (const e of store.readAll({
      ...(after === null ? {} : { fromPosition: after }),
      maxCount: batchSize,
      ...(typed ? { eventTypes: types } : {}),
    }))
      batch.push(e);
    await deliver(batch, 'catch-up', batch.length === batchSize);
    if (batch.length > 0) after = batch.at(-1)!.position;
    if (batch.length === batchSize) typed = types !== undefined;
    else if (typed) typed = false;
    else break;
  }
  await flushAll();
  for (const r of running) await r.processor.onCaughtUp?.({ position: r.checkpoint });
  if (!options.live || signal?.aborted) return finish();

  await follow(store, after, { batchSize, flushMs, signal }, (batch) => deliver(batch, 'live'));
  return finish();
}

/**
 * Live: a subscription from `after`; received events are handed over at most `flushMs` after the first of them, or
 * as soon as `batchSize` are waiting (then reading waits for the handlers: back-pressure). On abort, what was
 * received is handed over in a final flush. A failed flush ends the subscription and is thrown.
 */
async function follow(
  store: EventStore,
  after: bigint | null,
  o: { batchSize: number; flushMs: number; signal: AbortSignal | undefined },
  deliver: (batch: readonly RecordedEvent[]) => Promise<void>,
): Promise<void> {
  const sub: Subscription = store.subscribeToAll(after === null ? {} : { fromPosition: after });
  let pending: RecordedEvent[] = [];
  let timer: NodeJS.Timeout | null = null;
  let flushing: Promise<void> = Promise.resolve();
  let failure: { error: unknown } | null = null;

  const flush = (): Promise<void> => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    const batch = pending;
    pending = [];
    flushing = flushing.then(async () => {
      if (failure !== null || batch.length === 0) return;
      try {
        await deliver(batch);
      } catch (error) {
        failure = { error };
        await sub.close();
      }
    });
    return flushing;
  };
  const stop = () => void sub.close();
  o.signal?.addEventListener('abort', stop, { once: true });
  try {
    if (o.signal?.aborted) return;
    for await (const e of sub) {
      pending.push(e);
      if (pending.length >= o.batchSize) await flush();
      else if (timer === null) timer = setTimeout(() => void flush(), o.flushMs);
      if (failure !== null) break;
    }
    // the final flush: what was received before the abort is handled and checkpointed
    await flush();
  } catch (error) {
    // the subscription itself failed: hand over what it delivered, then report its error (and a failed flush's)
    await flush();
    const flushFailure = failure as { error: unknown } | null;
    failure = {
      error:
        flushFailure === null
          ? error
          : new AggregateError([flushFailure.error, error], 'the live subscription and a flush both failed'),
    };
  } finally {
    if (timer !== null) clearTimeout(timer);
    o.signal?.removeEventListener('abort', stop);
    await sub.close();
  }
  if (failure !== null) throw (failure as { error: unknown }).error;
}
