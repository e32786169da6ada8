/**
 * Disputed hands derived once per table, not once per request. The first request for a round of a table reads
 * that table's stream once (the table's own events only, never the rest of the store) and folds it with the
 * replay's own table folds (services/replay's TableFolds, the game module's fold), keeping every round the fold
 * completed with the findings judged about it in the round after — exactly what services/replay's explainRound
 * keeps for one round, for all of them at once. Later requests for any round of that table explain from what was
 * kept. When the table's stream grows, the kept fold goes on from where it stopped (only the new events are
 * read). A round the fold has not completed (still open at the stream's head) and every failure fall back to
 * explainRound itself, so the answer and its error messages are always explainRound's.
 *
 * Keyed by (table, interpretation readings): a derivation under an alternative reading is a fold of its own.
 * Bounded: at most `maxRounds` rounds kept over all tables (the least recently used table is dropped first; the
 * table being read is kept whatever its size), and at most `maxExplanations` finished answers (their law texts
 * resolved) kept by (round, table head, readings).
 */
import type { EventStore } from '@table-audit/eventstore';
import {
  explainRound,
  RoundNotFound,
  TableFolds,
  toTableEvent,
  type RoundExplanation,
} from '@table-audit/replay';
import { DEFAULT_REPLAY_OPTIONS, type DerivedUnit, type Finding, type TableFold } from '@table-audit/rules';
import { findingStream, tableStream } from '@table-audit/schemas/streams';
import { completeExplanation } from './explanations.ts';
import { tableView } from './table-view.ts';

/** A round the fold completed: the unit and the findings about it judged with the units after it. */
interface KeptRound {
  unit: DerivedUnit;
  readonly later: Finding[];
  /** units completed after it so far (explainRound stops after the event that completes the first of them) */
  after: number;
}

/** One table's fold under one set of readings, and the rounds it completed. */
interface TableDerivation {
  readonly tableId: string;
  readonly folds: TableFolds;
  /** the table's stream revision folded up to (-1: none) */
  revision: number;
  readonly rounds: Map<string, KeptRound>;
  /** rounds whose window of later findings is still open */
  pending: KeptRound[];
  /** a fold in progress: requests arriving meanwhile wait for it */
  busy: Promise<void> | null;
}

export interface RoundDerivationsOptions {
  /**
   * rounds kept over all tables (default 5,000; an F3CP round kept with its table's fold took about 40 KB of heap
   * in the benchmark's month, so about 200 MB). The table being read is kept whatever its size.
   */
  readonly maxRounds?: number;
  /** finished explanations kept (default 1,000; about 80 KB each with the JSON sent) */
  readonly maxExplanations?: number;
}

/** A finished answer kept by (round, table head, readings): T is what the route makes of an explanation. */
export class RoundDerivations<T = RoundExplanation> {
  readonly #tables = new Map<string, TableDerivation>();
  readonly #answers = new Map<string, Promise<T>>();
  #rounds = 0;
  readonly #maxRounds: number;
  readonly #maxAnswers: number;
  /** how the work was done, for tests and the benchmark */
  readonly stats = { folds: 0, eventsRead: 0, fallbacks: 0, answersKept: 0, answersMade: 0 };

  constructor(
    private readonly store: EventStore,
    private readonly finish: (x: RoundExplanation, alternatives: readonly string[]) => T,
    options: RoundDerivationsOptions = {},
  ) {
    this.#maxRounds = options.maxRounds ?? 5_000;
    this.#maxAnswers = options.maxExplanations ?? 1_000;
  }

  /** The revision of the table's last event (-1: no events). One indexed read. */
  head(tableId: string): Promise<number> {
    return this.#streamHead(tableStream(tableId));
  }

  async #streamHead(stream: string): Promise<number> {
    for await (const e of this.store.readStream(stream, {
      direction: 'backwards',
      maxCount: 1,
    }))
      return e.revision;
    return -1;
  }

  /**
   * The round's answer, as explainRound(store, roundId, {alternatives}) explains it, made into T. `tableId` is
   * the round's table (the API's index knows it). Rejects with RoundNotFound as explainRound does.
   */
  async answer(roundId: string, tableId: string, alternatives: readonly string[] = []): Promise<T> {
    const readings = [...alternatives].sort().join(',');
    const head = await this.head(tableId);
    // a CRAPS throw's answer shows the findings stored about it: kept only while the findings stream is unchanged
    const findingsHead = await this.#streamHead(findingStream(tableId));
    const key = `${head}/${findingsHead}\u0000${readings}\u0000${tableId}\u0000${roundId}`;
    const kept = this.#answers.get(key);
    if (kept) {
      this.#answers.delete(key);
      this.#answers.set(key, kept); // most recently used last
      this.stats.answersKept++;
      return kept;
    }
    const made = this.#explain(roundId, tableId, readings, head)
      .then((x) => completeExplanation(this.store, x, tableId, roundId))
      .then((x) => this.finish(x, alternatives));
    this.#answers.set(key, made);
    made.catch(() => this.#answers.delete(key)); // a failure is not kept
    if (this.#answers.size > this.#maxAnswers) this.#answers.delete(this.#answers.keys().next().value!);
    this.stats.answersMade++;
    return made;
  }

  async #explain(
    roundId: string,
    tableId: string,
    readings: string,
    head: number,
  ): Promise<RoundExplanation> {
    const alternatives = readings === '' ? [] : readings.split(',');
    const d = await this.#folded(tableId, readings, alternatives, head);
    const kept = d.rounds.get(roundId);
    const fold: TableFold | undefined = d.folds.get(tableId);
    if (kept && fold) {
      const { json, text } = fold.explain(kept.unit, kept.later);
      return { roundId, tableId, json, text };
    }
    // not completed by the fold up to the head (the round still open), or not judged at all: explainRound's answer
    this.stats.fallbacks++;
    return explainRound(tableView(this.store, tableId), roundId, {
      ...DEFAULT_REPLAY_OPTIONS,
      alternatives,
    });
  }

  /** The table's derivation folded up to at least `head`. */
  async #folded(
    tableId: string,
    readings: string,
    alternatives: readonly string[],
    head: number,
  ): Promise<TableDerivation> {
    const key = `${readings}\u0000${tableId}`;
    let d = this.#tables.get(key);
    if (!d) {
      d = {
        tableId,
        folds: new TableFolds({ ...DEFAULT_REPLAY_OPTIONS, alternatives }),
        revision: -1,
        rounds: new Map(),
        pending: [],
        busy: null,
      };
      this.#tables.set(key, d);
    } else {
      this.#tables.delete(key);
      this.#tables.set(key, d); // most recently used last
    }
    while (d.revision < head) {
      if (d.busy) await d.busy;
      else {
        const from = d.revision;
        d.busy = this.#continue(d, from).finally(() => (d!.busy = null));
        await d.busy;
        if (d.revision === from) break; // the stream gave nothing past `from`: nothing more to fold
      }
    }
    this.#bound(key);
    return d;
  }

  /** Folds the table's events after revision `from`, keeping each round completed and its later findings. */
  async #continue(d: TableDerivation, from: number): Promise<void> {
    this.stats.folds++;
    const before = d.rounds.size;
    for await (const stored of this.store.readStream(
      tableStream(d.tableId),
      from < 0 ? {} : { fromRevision: from + 1 },
    )) {
      d.revision = stored.revision;
      this.stats.eventsRead++;
      const e = toTableEvent(stored);
      if (!e) continue;
      const units = d.folds.apply(e);
      if (!units || units.length === 0) continue;
      for (const unit of units) {
        // as explainRound: every unit completed after a round counts as after it, and its findings about that
        // round are the round's later findings
        for (const p of d.pending)
          if (p.unit.roundId !== unit.roundId) {
            p.after++;
            for (const f of unit.findings) if (f.roundId === p.unit.roundId) p.later.push(f);
          }
        const known = d.rounds.get(unit.roundId);
        if (known && d.pending.includes(known))
          known.unit = unit; // explainRound takes the last while it reads
        else if (!known) {
          const k: KeptRound = { unit, later: [], after: 0 };
          d.rounds.set(unit.roundId, k);
          d.pending.push(k);
        }
        // a round seen again after its window closed: explainRound would have stopped before it; the first stays
      }
      // explainRound stops after the event that completed the first unit after its round
      d.pending = d.pending.filter((p) => p.after < 1);
    }
    this.#rounds += d.rounds.size - before;
  }

  /** Drops the least recently used tables until the rounds kept are within the bound (never `keep`). */
  #bound(keep: string): void {
    for (const [key, d] of this.#tables) {
      if (this.#rounds <= this.#maxRounds) return;
      if (key === keep || d.busy) continue;
      this.#tables.delete(key);
      this.#rounds -= d.rounds.size;
    }
  }
}

export { RoundNotFound };
