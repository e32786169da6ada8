/**
 * Which unclear provisions a disputed round hinges on: the round derived under every selectable alternative reading
 * of its rule set, one at a time, each against the register's readings, as a what-if over a period derives it (the
 * table folded from its first event under each, so what a reading changes in the table's carried state — the
 * Progressive pool, the art. 18.º trackers — reaches the round too). Reads the store only; every link read is
 * checked as explainRound checks it.
 */
import { Worker } from 'node:worker_threads';
import type { EventStore } from '@table-audit/eventstore';
import {
  ALTERNATIVE_READINGS,
  DEFAULT_REPLAY_OPTIONS,
  INTERPRETATIONS,
  WHAT_IF,
  type DerivedUnit,
  type Finding,
  type ReplayOptions,
} from '@table-audit/rules';
import { compiledWorker } from './compiled-worker.ts';
import {
  inRoundTable,
  readTableChecked,
  rebuildRound,
  RoundNotFound,
  RoundNotVerified,
  type BrokenLink,
} from './explain.ts';
import { withoutModuleHooks } from './parallel.ts';
import { TableFolds } from './tables.ts';
import { readingsFor } from './readings-ready.ts';
import { differenceOf, type ChangedRound } from './what-if-core.ts';
import { readingsCompared, type ReadingCompared } from './what-if.ts';

/** What one alternative reading does to the round. */
export interface ReadingEffect {
  readonly reading: ReadingCompared;
  /** how the round differs under it (findings, bets, status); null: derived the same */
  readonly changed: ChangedRound | null;
}

export interface RoundReadings {
  readonly roundId: string;
  readonly tableId: string;
  /** the table's game as its events name it (F3CP, CRAPS, …) */
  readonly game: string;
  readonly ruleSetId: string | null;
  readonly macauDate: string;
  readonly roundStartTime: number;
  /** every selectable alternative of the round's rule set, in register order: those that change the round first */
  readonly readings: readonly ReadingEffect[];
  /** interpretations of the rule set whose alternative cannot be selected, and why */
  readonly notSelectable: readonly { readonly id: string; readonly reason: string }[];
  readonly eventsRead: number;
  readonly elapsedMs: number;
}

/**
 * Derives `roundId` under each selectable alternative reading of its rule set, each alone against the register's
 * readings. Two reads of the round's table: one to find the round and where its answer ends (the round after it
 * completed, as explainRound reads), one to derive it under every reading at once.
 */
export async function roundReadings(
  store: EventStore,
  roundId: string,
  replay: ReplayOptions = DEFAULT_REPLAY_OPTIONS,
  /** the round's table when known (the API's index knows it): spares reading the store to find it */
  knownTableId?: string,
  /** told how far the reads have gone, every PROGRESS_EVENTS events (the CLI shows it on a terminal) */
  onProgress?: (text: string) => void,
): Promise<RoundReadings> {
  const t0 = performance.now();
  return inRoundTable(store, roundId, knownTableId, (tableId) =>
    readingsIn(store, roundId, tableId, replay, t0, onProgress),
  );
}

/** Events read between two progress reports. */
const PROGRESS_EVENTS = 5_000;

async function readingsIn(
  store: EventStore,
  roundId: string,
  tableId: string,
  replay: ReplayOptions,
  t0: number,
  onProgress?: (text: string) => void,
): Promise<RoundReadings> {
  // first read: the round under the register's readings, and the last revision its answer reads
  const first = await rebuildRound(store, roundId, tableId, replay, (n) => {
    if (n % PROGRESS_EVENTS === 0)
      onProgress?.(`finding round ${roundId} in table ${tableId}: ${n.toLocaleString('en-US')} events read`);
  });
  const { record } = first.unit;
  if (!record)
    throw new RoundNotFound(`round "${roundId}" of table ${tableId} has nothing to place it by: no record`);
  const last = first.lastRevision;
  const firstRead = first.eventsRead;

  // second read, to the same revision: the table folded once under each reading (the register's fold of the first
  // read is what each is compared with), and the findings about the round judged in later rounds kept for each
  const keys = readingsFor(record.game, record.ruleSetId);
  const folds = keys.map((k) => new TableFolds({ ...replay, alternatives: [k] }));
  const units: (DerivedUnit | null)[] = keys.map(() => null);
  const later: Finding[][] = keys.map(() => []);
  let events = 0;
  await readTableChecked(store, roundId, tableId, (e, revision) => {
    if (++events % PROGRESS_EVENTS === 0)
      onProgress?.(
        `deriving under ${keys.length} readings: ${events.toLocaleString('en-US')} of ${firstRead.toLocaleString('en-US')} events`,
      );
    for (let i = 0; i < folds.length; i++) collect(folds[i]!.apply(e), i);
    return revision < last;
  });
  for (let i = 0; i < folds.length; i++) if (!units[i]) collect(folds[i]!.get(tableId)?.finish().units, i);
  function collect(done: readonly DerivedUnit[] | null | undefined, i: number) {
    for (const u of done ?? []) {
      if (u.roundId === roundId) units[i] = u;
      else if (units[i]) later[i]!.push(...u.findings.filter((f) => f.roundId === roundId));
    }
  }
  const chosenUnit = first.unit;
  const chosenFindings = [...chosenUnit.findings, ...first.later];
  const compared = readingsCompared(keys);
  const effects: ReadingEffect[] = keys.map((_, i) => {
    const unit = units[i];
    // the same events complete the same rounds under every reading: a fold that did not is a fault, not a difference
    if (!unit)
      throw new Error(
        `round "${roundId}" was completed under the register's readings but not under ${keys[i]}`,
      );
    return {
      reading: compared[i]!,
      changed: differenceOf(chosenUnit, unit, chosenFindings, [...unit.findings, ...later[i]!]),
    };
  });
  const ruleSetId = record.ruleSetId;
  return {
    roundId,
    tableId,
    game: record.game,
    ruleSetId,
    macauDate: record.macauDate,
    roundStartTime: Number(record.roundStartTime),
    readings: [...effects.filter((x) => x.changed), ...effects.filter((x) => !x.changed)],
    notSelectable:
      ruleSetId === null
        ? []
        : INTERPRETATIONS.filter(
            (i) => i.ruleSets.includes(ruleSetId) && !ALTERNATIVE_READINGS.some((a) => a.id === i.id),
          ).map((i) => ({ id: i.id, reason: notSelectableBecause(i.id) })),
    eventsRead: events,
    elapsedMs: performance.now() - t0,
  };
}

function notSelectableBecause(id: string): string {
  const w = WHAT_IF[id];
  return w && w.status !== 'implemented' ? w.reason : 'no alternative reading of it is implemented';
}

/** @internal what roundReadingsInWorker hands its worker */
export interface RoundReadingsWorkerData {
  readonly storePath: string;
  readonly roundId: string;
  readonly tableId?: string;
}

/** @internal what the worker posts back */
export type RoundReadingsWorkerMessage =
  | { readonly kind: 'done'; readonly result: RoundReadings }
  | { readonly kind: 'not-found'; readonly message: string }
  | { readonly kind: 'not-verified'; readonly tableId: string; readonly broken: BrokenLink };

const WORKER = new URL('./round-readings-worker.ts', import.meta.url);

/**
 * roundReadings in a worker thread over the SQLite store at `storePath` (the API's way: a round late in a long
 * table folds for seconds, which its main thread must not). The same answer and the same refusals
 * (RoundNotFound, RoundNotVerified); an aborted signal ends the thread.
 */
export async function roundReadingsInWorker(o: {
  readonly storePath: string;
  readonly roundId: string;
  readonly tableId?: string;
  /** the TypeScript loader, when the compiled worker cannot be made */
  readonly loader?: string;
  readonly signal?: AbortSignal;
}): Promise<RoundReadings> {
  const compiled = (await compiledWorker(WORKER, 'round-readings-worker')).url;
  const data: RoundReadingsWorkerData = {
    storePath: o.storePath,
    roundId: o.roundId,
    ...(o.tableId === undefined ? {} : { tableId: o.tableId }),
  };
  return new Promise((resolve, reject) => {
    const worker = new Worker(compiled ?? WORKER, {
      workerData: data,
      execArgv: compiled
        ? withoutModuleHooks(process.execArgv)
        : o.loader
          ? [...process.execArgv, '--import', o.loader]
          : process.execArgv,
    });
    let message: RoundReadingsWorkerMessage | null = null;
    let failed: unknown = null;
    const abort = () => void worker.terminate();
    o.signal?.addEventListener('abort', abort, { once: true });
    worker.on('message', (m: RoundReadingsWorkerMessage) => (message = m));
    worker.once('error', (e) => (failed = e));
    worker.once('exit', (code) => {
      o.signal?.removeEventListener('abort', abort);
      const m = message as RoundReadingsWorkerMessage | null;
      if (failed !== null) reject(failed);
      else if (m?.kind === 'done') resolve(m.result);
      else if (m?.kind === 'not-found') reject(new RoundNotFound(m.message));
      else if (m?.kind === 'not-verified') reject(new RoundNotVerified(o.roundId, m.tableId, m.broken));
      else
        reject(
          new Error(
            o.signal?.aborted
              ? `the readings of round ${o.roundId} were cancelled`
              : `the readings worker of round ${o.roundId} exited (code ${code}) before answering`,
          ),
        );
    });
  });
}
