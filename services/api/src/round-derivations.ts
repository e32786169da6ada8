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
import type { EventStore, RecordedEvent } from '@table-audit/eventstore';
import {
  explainRound,
  RoundNotFound,
  TableFolds,
  toTableEvent,
  type RoundExplanation,
} from '@table-audit/replay';
import { DEFAULT_REPLAY_OPTIONS, type DerivedUnit, type Finding, type TableFold } from '@table-audit/rules';
import { findingStream, tableStream } from '@table-audit/schemas/streams';
import { completeExplanation, isCrapsExplanation } from './explanations.ts';
import { tableView } from './table-view.ts';

/** What an answer is kept under (RoundDerivations.answer's `at`). */
export interface AnswerKey {
  head: number;
  findingsHead: number | 'none';
  kept: boolean;
}

/** Events read at once by a fold that may stop early (a round needs the stream only up to the round after it). */
const FIRST_CHUNK = 128;
/** …doubling up to this (the SQLite store's own page of rows) */
const LAST_CHUNK = 512;

/** The revision of a stream's last event (-1: no events). One indexed read. */
export async function streamHead(store: EventStore, stream: string): Promise<number> {
  for await (const e of store.readStream(stream, { direction: 'backwards', maxCount: 1 })) return e.revision;
  return -1;
}

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
  /** the last read of the stream found nothing after `revision` (its head then, as far as this fold knows) */
  atEnd: boolean;
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
  readonly #answers = new Map<string, { readonly table: string; readonly answer: Promise<T> }>();
  /** answers kept by table (readings and table id): a table with none and no fold kept is not known at all */
  readonly #answered = new Map<string, number>();
  #rounds = 0;
  readonly #maxRounds: number;
  readonly #maxAnswers: number;
  /** how the work was done, for tests and the benchmark */
  readonly stats = {
    /** tables folded from their first event (a table dropped by the bound and asked again: once more) */
    folds: 0,
    /** folds taken on from where one stopped (the table grew, or a later round needed more of it) */
    continued: 0,
    eventsRead: 0,
    fallbacks: 0,
    answersKept: 0,
    answersMade: 0,
  };

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
    return streamHead(this.store, tableStream(tableId));
  }

  #streamHead(stream: string): Promise<number> {
    return streamHead(this.store, stream);
  }

  /**
   * The round's answer, as explainRound(store, roundId, {alternatives}) explains it, made into T. `tableId` is
   * the round's table (the API's index knows it); `game` the round's game when the caller knows it: only a CRAPS
   * throw's answer shows the findings stored about it, so another game's answer is kept without reading the findings
   * stream's head (unknown: it is read). Rejects with RoundNotFound as explainRound does. `at`, when given, is told
   * what the answer is kept under (the table's head and, for a CRAPS throw or a game not known, the findings
   * stream's head) and whether it is kept: a copy of the answer kept elsewhere holds exactly while these do.
   */
  async answer(
    roundId: string,
    tableId: string,
    alternatives: readonly string[] = [],
    game?: string | null,
    at?: AnswerKey,
  ): Promise<T> {
    const readings = [...alternatives].sort().join(',');
    const tableKey = `${readings}\u0000${tableId}`;
    const findingsMatter = game === undefined || game === null || game === 'CRAPS';
    // a table neither folded nor answered before is folded first, only as far as the round needs (to the event that
    // completes the round after it): its head is then the revision the fold reached if that was the stream's end,
    // else read; for a table known, one indexed read says whether what is kept is current
    let head: number;
    if (this.#tables.has(tableKey) || this.#answered.has(tableKey)) head = await this.head(tableId);
    else {
      const d = await this.#folded(tableId, readings, alternatives, null, roundId);
      head = d.atEnd ? d.revision : await this.head(tableId);
    }
    // a CRAPS throw's answer shows the findings stored about it: kept only while the findings stream is unchanged
    const findingsHead = findingsMatter ? await this.#streamHead(findingStream(tableId)) : 'none';
    const key = `${head}/${findingsHead}\u0000${tableKey}\u0000${roundId}`;
    if (at) {
      at.head = head;
      at.findingsHead = findingsHead;
      at.kept = true;
    }
    const kept = this.#answers.get(key);
    if (kept) {
      this.#answers.delete(key);
      this.#answers.set(key, kept); // most recently used last
      this.stats.answersKept++;
      return kept.answer;
    }
    const made = this.#explain(roundId, tableId, readings, head)
      .then((x) => completeExplanation(this.store, x, tableId, roundId))
      .then((x) => {
        // the caller said another game, yet the answer shows stored findings: made, never kept
        if (!findingsMatter && isCrapsExplanation(x.json)) {
          this.#forget(key, entry);
          if (at) at.kept = false;
        }
        return this.finish(x, alternatives);
      });
    const entry = { table: tableKey, answer: made };
    this.#answers.set(key, entry);
    this.#answered.set(tableKey, (this.#answered.get(tableKey) ?? 0) + 1);
    made.catch(() => this.#forget(key, entry)); // a failure is not kept
    if (this.#answers.size > this.#maxAnswers) {
      const [oldest, e] = this.#answers.entries().next().value!;
      this.#forget(oldest, e);
    }
    this.stats.answersMade++;
    return made;
  }

  /** Drops a kept answer (if it is still the one kept under its key). */
  #forget(key: string, entry: { table: string; answer: Promise<T> }): void {
    if (this.#answers.get(key) !== entry) return;
    this.#answers.delete(key);
    const n = (this.#answered.get(entry.table) ?? 1) - 1;
    if (n > 0) this.#answered.set(entry.table, n);
    else this.#answered.delete(entry.table);
  }

  async #explain(
    roundId: string,
    tableId: string,
    readings: string,
    head: number,
  ): Promise<RoundExplanation> {
    const alternatives = readings === '' ? [] : readings.split(',');
    const d = await this.#folded(tableId, readings, alternatives, head, roundId);
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

  /**
   * The table's derivation folded far enough for `roundId`: until the round is settled (completed, and the unit
   * after it too, where explainRound stops reading), or else up to `head` (null: to the stream's end as it is now).
   */
  async #folded(
    tableId: string,
    readings: string,
    alternatives: readonly string[],
    head: number | null,
    roundId: string,
  ): Promise<TableDerivation> {
    const key = `${readings}\u0000${tableId}`;
    let d = this.#tables.get(key);
    if (!d) {
      d = {
        tableId,
        folds: new TableFolds({ ...DEFAULT_REPLAY_OPTIONS, alternatives }),
        revision: -1,
        atEnd: false,
        rounds: new Map(),
        pending: [],
        busy: null,
      };
      this.#tables.set(key, d);
    } else {
      this.#tables.delete(key);
      this.#tables.set(key, d); // most recently used last
    }
    const settled = (t: TableDerivation) => {
      const k = t.rounds.get(roundId);
      return k !== undefined && !t.pending.includes(k);
    };
    for (;;) {
      if (settled(d) || (head === null ? d.atEnd : d.revision >= head)) break;
      if (d.busy) {
        await d.busy; // another request's fold: look again once it is done
        continue;
      }
      const from = d.revision;
      d.busy = this.#continue(d, from, settled).finally(() => (d!.busy = null));
      await d.busy;
      if (d.revision === from) break; // the stream gave nothing past `from`: nothing more to fold
    }
    this.#bound(key);
    return d;
  }

  /**
   * Folds the table's events after revision `from`, keeping each round completed and its later findings, until
   * `enough` holds (read in growing chunks, so a fold that stops early reads little past where it stops) or the
   * stream ends.
   */
  async #continue(d: TableDerivation, from: number, enough: (d: TableDerivation) => boolean): Promise<void> {
    if (from < 0) this.stats.folds++;
    else this.stats.continued++;
    const before = d.rounds.size;
    let chunk = FIRST_CHUNK;
    try {
      for (;;) {
        let read = 0;
        for await (const stored of this.store.readStream(tableStream(d.tableId), {
          fromRevision: d.revision + 1,
          maxCount: chunk,
        })) {
          read++;
          d.revision = stored.revision;
          this.stats.eventsRead++;
          this.#apply(d, stored);
          if (enough(d)) {
            d.atEnd = false;
            return;
          }
        }
        if (read < chunk) {
          d.atEnd = true;
          return;
        }
        chunk = Math.min(chunk * 2, LAST_CHUNK);
      }
    } finally {
      this.#rounds += d.rounds.size - before;
    }
  }

  /** One stored event into the table's fold, keeping each round it completes. */
  #apply(d: TableDerivation, stored: RecordedEvent): void {
    const e = toTableEvent(stored);
    if (!e) return;
    const units = d.folds.apply(e);
    if (!units || units.length === 0) return;
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
