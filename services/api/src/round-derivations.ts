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
 * Every link read is checked as the replay and explainRound check it, from the table's first event on (and a fold
 * kept and read on, from the last event it checked). A fold stops before the first event whose link does not hold;
 * a round is answered only when it was settled before that event (completed, and the round after it completed too
 * unless the index says nothing about the round is judged with it), else refused with RoundNotVerified naming the
 * break — the round's answer would read the event that failed or events after it.
 *
 * Keyed by (table, interpretation readings): a derivation under an alternative reading is a fold of its own.
 * Bounded: at most `maxRounds` rounds kept over all tables (the least recently used table is dropped first; the
 * table being read is kept whatever its size), and at most `maxExplanations` finished answers (their law texts
 * resolved) kept by (round, table head, readings).
 */
import { canonicalJson, streamHead, type EventStore, type RecordedEvent } from '@table-audit/eventstore';
import {
  brokenLink,
  explainRound,
  RoundNotFound,
  RoundNotVerified,
  storedForm,
  TableFolds,
  toTableEvent,
  type BrokenLink,
  type RoundExplanation,
} from '@table-audit/replay';
import {
  DEFAULT_REPLAY_OPTIONS,
  gameModuleFor,
  StartStateError,
  type DerivedUnit,
  type Finding,
  type GameModule,
  type RoundRecord,
  type TableFold,
} from '@table-audit/rules';
import { findingStream, tableStream } from '@table-audit/schemas/streams';
import { completeExplanation, isCrapsExplanation } from './explanations.ts';
import type { RoundResume } from './store-index.ts';
import { tableView } from './table-view.ts';

export type { RoundResume };

/** Why a first replay did not resume from the round's record and folded the table instead. */
export const RESUME_FALLBACKS = [
  /** no record of the round is stored (or the index's is not the round's) */
  'noRecord',
  /** the record has no start state (written before start states, or the game gave none for the round) */
  'noState',
  /** an event of the round was stored after the record */
  'stale',
  /** the game refused the start state (StartStateError: damaged, another form or version) */
  'stateError',
  /** the resumed round differs from its record (totals, lines, status, finding ids), or a finding it names is not stored */
  'mismatch',
  /**
   * a link of the table's events read does not hold: the full fold, which checks every link from the table's first
   * event, then refuses the round (RoundNotVerified), as explainRound does
   */
  'chainBroken',
  /** the round's record does not match its own hash (its content was changed): the table is folded instead */
  'recordBroken',
  /** the round is not completed by the events stored (still open) */
  'roundOpen',
] as const;
export type ResumeFallback = (typeof RESUME_FALLBACKS)[number];

/** What an answer is kept under (RoundDerivations.answer's `at`). */
export interface AnswerKey {
  head: number;
  findingsHead: number | 'none';
  /**
   * the revision of the round's record the answer may have been checked against ('none': no record used): an
   * answer of a resumed fold is the record's findings, so it is kept only while the round's latest record is this one
   */
  record: number | 'none';
  kept: boolean;
}

/** How an answer of the full fold was made (RoundExplanation.derivedFrom). */
const TABLE_FOLDED = (tableId: string) => `${tableStream(tableId)} folded from its first event`;

/**
 * A round whose first event lies more than this many events past the table's start, or past where the table's fold
 * stopped, is derived by a fold resumed from its own record; nearer, the table's fold (from its first event) goes
 * on, or is made. A resumed round pays about 0.5 ms
 * of CPU beyond its own events (its record read and checked, its start state parsed), folding an event about 15 µs:
 * the break-even is a few dozen events, about one F3CP round (docs/api.md, Performance, measured with
 * bench/cold-replay-ab.ts: 64 took the least CPU a first replay of 0, 64, 256 and 1,024).
 */
export const RESUME_GAP = 64;

/** Events read at once by a fold that may stop early (a round needs the stream only up to the round after it). */
const FIRST_CHUNK = 128;
/** …doubling up to this (the SQLite store's own page of rows) */
const LAST_CHUNK = 512;

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
  /** the first revision folded: 0, or for a fold resumed from a round's record, that round's first event's */
  readonly from: number;
  /**
   * a fold resumed from a round's record (GameModule.resumeTable): the round, and the record's stream and revision;
   * null for a fold from the table's first event. A resumed fold answers its own round only, once checked against
   * the round's record, with the findings the record reports (#fromRecord): a start state carries what its round
   * needs (e.g. only the closed rounds whose late events arrive during it), so the property proven of it
   * (packages/rules/test/resume-property.ts) holds for its round, not for the rounds a fold from it would reach next.
   */
  readonly resumed: {
    readonly roundId: string;
    readonly stream: string;
    readonly revision: number;
    /** the record there, read once: the round it was resumed for is checked against it without reading it again */
    readonly record: RoundRecord;
  } | null;
  /** every fold checks each link of what it reads: the last event read (null: none yet) */
  previous: { revision: number; hash: string } | null;
  /** why the fold stopped: a broken link, or (a resumed fold) the round's first event not the round's */
  broken: ResumeFallback | null;
  /** where the link broke ('chainBroken'): nothing at or after it was folded */
  brokenLink: BrokenLink | null;
}

/** What a first replay may resume from: the round's place in the index, and its game's module. */
interface ResumeFrom {
  readonly resume: RoundResume;
  readonly module: GameModule;
}

export interface RoundDerivationsOptions {
  /**
   * rounds kept over all tables (default 5,000; an F3CP round kept with its table's fold took about 40 KB of heap
   * in the benchmark's month, so about 200 MB). The table being read is kept whatever its size.
   */
  readonly maxRounds?: number;
  /** finished explanations kept (default 1,000; about 80 KB each with the JSON sent) */
  readonly maxExplanations?: number;
  /**
   * a round's first replay, its table not folded, resumed from the round's record when the caller gives where it
   * is (default true; false: every table folded from its first event, as before start states, for comparisons)
   */
  readonly resume?: boolean;
  /** RESUME_GAP (tests: 0 resumes every round past a table's first event) */
  readonly resumeGap?: number;
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
  readonly #resume: boolean;
  readonly #gap: number;
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
    /** answers derived by a fold resumed from a round's record, each checked against its own record */
    resumed: 0,
    /** folds resumed from a round's record (the table not folded from its first event) */
    resumedFolds: 0,
    /** findings a resumed round's record names that its fold did not give (conduct: the whole session's), shown as stored */
    findingsFromStore: 0,
    /** first replays that could have resumed and folded the table instead, by why */
    resumeFallbacks: Object.fromEntries(RESUME_FALLBACKS.map((k) => [k, 0])) as Record<
      ResumeFallback,
      number
    >,
  };

  constructor(
    private readonly store: EventStore,
    private readonly finish: (x: RoundExplanation, alternatives: readonly string[]) => T,
    options: RoundDerivationsOptions = {},
  ) {
    this.#maxRounds = options.maxRounds ?? 5_000;
    this.#maxAnswers = options.maxExplanations ?? 1_000;
    this.#resume = options.resume ?? true;
    this.#gap = options.resumeGap ?? RESUME_GAP;
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
    resume?: RoundResume | null,
  ): Promise<T> {
    const readings = [...alternatives].sort().join(',');
    const tableKey = `${readings}\u0000${tableId}`;
    if (!this.#resume) resume = undefined; // every table folded from its first event
    // under the chosen readings, a round of a game that can resume a fold, with its record: derived by a fold resumed
    // from a round's record when the table has no fold from its first event (#folded), shown with the findings its
    // record reports, as stored — so its answer depends on the findings stream too
    const module = game ? gameModuleFor(game) : null;
    const from: ResumeFrom | null =
      resume?.record && !resume.stale && readings === '' && module?.resumeTable ? { resume, module } : null;
    const d = this.#tables.get(tableKey);
    const resumable = from !== null && this.#resumes(d, roundId, from);
    if (resume && !from && readings === '' && module?.resumeTable && (d === undefined || d.resumed !== null))
      this.stats.resumeFallbacks[resume.record ? 'stale' : 'noRecord']++;
    // an answer may come from a fold resumed from a record whenever the round has a usable one (the table's fold may
    // be one): kept under the record's revision too (the index's, no read: a record appended anew is another key)
    const findingsMatter = game === undefined || game === null || game === 'CRAPS';
    const recordAt = from ? from.resume.record!.revision : 'none';
    // a table neither folded nor answered before is folded first, only as far as the round needs (to the event that
    // completes the round after it): its head is then the revision the fold reached if that was the stream's end,
    // else read; for a table known, one indexed read says whether what is kept is current
    let head: number;
    if (resumable || this.#tables.has(tableKey) || this.#answered.has(tableKey))
      head = await this.head(tableId);
    else {
      const folded = await this.#folded(tableId, readings, alternatives, null, roundId, null, resume);
      head = folded.atEnd ? folded.revision : await this.head(tableId);
    }
    // a CRAPS throw's answer shows the findings stored about it: kept only while the findings stream is unchanged
    const findingsHead = findingsMatter ? await this.#streamHead(findingStream(tableId)) : 'none';
    const key = `${head}/${findingsHead}/${recordAt}\u0000${tableKey}\u0000${roundId}`;
    if (at) {
      at.head = head;
      at.findingsHead = findingsHead;
      at.record = recordAt;
      at.kept = true;
    }
    const kept = this.#answers.get(key);
    if (kept) {
      this.#answers.delete(key);
      this.#answers.set(key, kept); // most recently used last
      this.stats.answersKept++;
      return kept.answer;
    }
    const made = this.#explain(roundId, tableId, readings, head, from, resume)
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
    from: ResumeFrom | null,
    resume: RoundResume | undefined | null,
  ): Promise<RoundExplanation> {
    const alternatives = readings === '' ? [] : readings.split(',');
    const key = `${readings}\u0000${tableId}`;
    let d = await this.#folded(tableId, readings, alternatives, head, roundId, from, resume);
    /** the broken link a resumed fold met among the events read for the round: never answered from a fold then */
    let resumedBreak: BrokenLink | null = null;
    if (d.resumed) {
      const x = await this.#fromRecord(d, roundId, from!.resume);
      if (typeof x !== 'string') return x;
      // not the round its record says, or not reached, or a link broken: the table folded from its first event
      // instead (which, checking every link from there, meets that break too, or one before it, and refuses)
      this.stats.resumeFallbacks[x]++;
      if (x === 'chainBroken') resumedBreak = d.brokenLink;
      this.#drop(key, d);
      d = await this.#folded(tableId, readings, alternatives, head, roundId, null, resume);
    }
    const kept = d.rounds.get(roundId);
    // the fold stopped at a broken link before the round was settled: its answer would read the event whose link
    // failed, or events after it. Refused; the fold is dropped, so the next request reads the table again
    if (d.brokenLink && !(kept && settledIn(d, roundId, resume?.settled === true))) {
      this.#drop(key, d);
      throw new RoundNotVerified(roundId, tableId, d.brokenLink);
    }
    if (resumedBreak) throw new RoundNotVerified(roundId, tableId, resumedBreak);
    const fold: TableFold | undefined = d.folds.get(tableId);
    const derivedFrom = TABLE_FOLDED(tableId);
    if (kept && fold) {
      // findings shown as stored, as a resumed derivation shows them (#fromRecord): the same round, the same answer
      const { json, text } = fold.explain(
        { ...kept.unit, findings: kept.unit.findings.map(storedForm) },
        kept.later.map(storedForm),
      );
      return { roundId, tableId, json, text, derivedFrom };
    }
    // not completed by the fold up to the head (the round still open), or not judged at all: explainRound's answer
    this.stats.fallbacks++;
    const x = await explainRound(
      tableView(this.store, tableId),
      roundId,
      { ...DEFAULT_REPLAY_OPTIONS, alternatives },
      { findingsAs: storedForm },
    );
    return { ...x, derivedFrom };
  }

  /**
   * A round of a fold resumed from a record, explained as the full fold explains it (the same bytes: a test holds
   * them equal), or why it cannot be: the round not reached (still open), or not the round its own record says —
   * its status, rule set, totals, lines and finding ids must be the record's. The findings shown are those the
   * replay reported with the round, in its order: the fold's, and, as stored, those the resumed fold cannot give
   * (judged over the whole session: the art. 18 conduct findings, the table's collusion).
   */
  async #fromRecord(
    d: TableDerivation,
    roundId: string,
    resume: RoundResume,
  ): Promise<RoundExplanation | ResumeFallback> {
    if (d.broken) return d.broken;
    const kept = d.rounds.get(roundId);
    const fold = d.folds.get(d.tableId);
    if (!kept || !fold) return 'roundOpen';
    const at = resume.record!;
    const r = d.resumed!;
    const record =
      r.roundId === roundId && r.stream === at.stream && r.revision === at.revision
        ? r.record
        : await this.#record(at, roundId, d.tableId);
    if (typeof record === 'string') return record;
    const unit = kept.unit;
    if (!unit.record || !sameRecord(unit.record, record)) return 'mismatch';
    const reported = record.reportedFindingIds ?? record.findingIds;
    const own = new Map(unit.findings.map((f) => [f.findingId, f]));
    const stored = new Map(resume.findings.map((f) => [f.findingId, f]));
    const findings: Finding[] = [];
    let fromStore = 0;
    for (const id of reported) {
      const f = own.get(id) ?? stored.get(id);
      if (!f) return 'mismatch';
      if (!own.has(id)) fromStore++;
      findings.push(storedForm(f));
    }
    // a finding the fold gives that the replay did not report with the round: not the round the record says
    for (const id of own.keys()) if (!reported.includes(id)) return 'mismatch';
    const { json, text } = fold.explain({ ...unit, findings }, kept.later.map(storedForm));
    this.stats.resumed++;
    this.stats.findingsFromStore += fromStore;
    return {
      roundId,
      tableId: d.tableId,
      json,
      text,
      derivedFrom: `the start state in ${r.stream} revision ${r.revision} (the replay's record of round ${r.roundId}), then ${tableStream(d.tableId)} from revision ${d.from}, each link checked; checked against ${at.stream} revision ${at.revision}`,
    };
  }

  /**
   * Whether the round is to be derived by a fold resumed from its own record rather than by the table's fold `d`:
   * never when `d` is the round's own resumed fold, or a fold from the table's first event that has the round or is
   * within RESUME_GAP events of it, nor for a round within RESUME_GAP events of the table's start (the table is
   * folded from its first event); else it is (a fold resumed for another round never answers this one).
   */
  #resumes(d: TableDerivation | undefined, roundId: string, from: ResumeFrom): boolean {
    if (d?.resumed?.roundId === roundId) return false;
    if (d?.resumed === null && d.rounds.has(roundId)) return false;
    const first = from.resume.firstRevision;
    // near the table's start: folded from its first event, which then covers every later round too
    if (first <= this.#gap) return false;
    if (!d || d.resumed !== null) return true;
    return first - (d.revision + 1) > this.#gap;
  }

  /**
   * A round's record as stored at `at`, or why it is not used: 'noRecord' when what is there is not the round's
   * record, 'recordBroken' when its content does not match its own hash (linkBrokenBecause, the record's link to
   * the hash before it as stored). One indexed read.
   */
  async #record(
    at: { readonly stream: string; readonly revision: number },
    roundId: string,
    tableId: string,
  ): Promise<RoundRecord | 'noRecord' | 'recordBroken'> {
    for await (const e of this.store.readStream(at.stream, { fromRevision: at.revision, maxCount: 1 }))
      if (e.revision === at.revision && e.type === 'RoundDerived') {
        const before = e.revision === 0 ? undefined : { revision: e.revision - 1, hash: e.previousHash };
        if (brokenLink(e, before) !== null) return 'recordBroken';
        const r = e.data as RoundRecord;
        return r.roundId === roundId && r.tableId === tableId ? r : 'noRecord';
      }
    return 'noRecord';
  }

  /**
   * A derivation of the table resumed from the round's record: its fold made from the record's start state, to be
   * given the table's events from the round's first event on; or why it cannot be (counted by the caller).
   */
  async #resumedDerivation(
    tableId: string,
    roundId: string,
    alternatives: readonly string[],
    from: ResumeFrom,
  ): Promise<TableDerivation | ResumeFallback> {
    const at = from.resume.record!;
    const record = await this.#record(at, roundId, tableId);
    if (typeof record === 'string') return record;
    if (typeof record.startState !== 'string') return 'noState';
    let fold: TableFold;
    try {
      fold = from.module.resumeTable!(tableId, record.startState, DEFAULT_REPLAY_OPTIONS);
    } catch (e) {
      if (e instanceof StartStateError) return 'stateError';
      throw e;
    }
    const folds = new TableFolds({ ...DEFAULT_REPLAY_OPTIONS, alternatives });
    folds.adopt(tableId, fold);
    this.stats.resumedFolds++;
    return {
      tableId,
      folds,
      revision: from.resume.firstRevision - 1,
      atEnd: false,
      rounds: new Map(),
      pending: [],
      busy: null,
      from: from.resume.firstRevision,
      resumed: { roundId, stream: at.stream, revision: at.revision, record },
      previous: null,
      broken: null,
      brokenLink: null,
    };
  }

  /** Forgets a table's derivation (if it is still the one kept under its key). */
  #drop(key: string, d: TableDerivation): void {
    if (this.#tables.get(key) !== d) return;
    this.#tables.delete(key);
    this.#rounds -= d.rounds.size;
  }

  /**
   * The table's derivation folded far enough for `roundId`: until the round is settled (completed, and the unit
   * after it too, where explainRound stops reading, unless the index says nothing about the round is judged with
   * it: `resume.settled`), or else up to `head` (null: to the stream's end as it is now). With `from`, a fold
   * resumed from a round's record is used when the table has one that covers the round, else made from this round's
   * record (replacing one that does not cover it); when it cannot be made, and without `from`, the fold from the
   * table's first event (replacing a resumed one).
   */
  async #folded(
    tableId: string,
    readings: string,
    alternatives: readonly string[],
    head: number | null,
    roundId: string,
    from: ResumeFrom | null,
    resume: RoundResume | undefined | null,
  ): Promise<TableDerivation> {
    const key = `${readings}\u0000${tableId}`;
    let d = this.#tables.get(key);
    if (from && this.#resumes(d, roundId, from)) {
      const made = await this.#resumedDerivation(tableId, roundId, alternatives, from);
      if (typeof made === 'string') {
        this.stats.resumeFallbacks[made]++;
        from = null;
      } else {
        if (d) this.#drop(key, d);
        d = made;
        this.#tables.set(key, d);
      }
      d = this.#tables.get(key);
    }
    // a fold resumed for another round, or without the round's record to check it against, does not answer: the
    // table's from its first event does
    if (d?.resumed && (!from || d.resumed.roundId !== roundId)) {
      this.#drop(key, d);
      d = undefined;
    }
    if (!d) {
      d = {
        tableId,
        folds: new TableFolds({ ...DEFAULT_REPLAY_OPTIONS, alternatives }),
        revision: -1,
        atEnd: false,
        rounds: new Map(),
        pending: [],
        busy: null,
        from: 0,
        resumed: null,
        previous: null,
        broken: null,
        brokenLink: null,
      };
      this.#tables.set(key, d);
    } else {
      this.#tables.delete(key);
      this.#tables.set(key, d); // most recently used last
    }
    const early = resume?.settled === true;
    const settled = (t: TableDerivation) => settledIn(t, roundId, early);
    for (;;) {
      if (d.broken || settled(d) || (head === null ? d.atEnd : d.revision >= head)) break;
      if (d.busy) {
        await d.busy; // another request's fold: look again once it is done
        continue;
      }
      const before = d.revision;
      // a settled round is completed by its last event: the first read goes that far, and no further
      d.busy = this.#continue(d, before, settled, early ? resume.lastRevision : undefined).finally(
        () => (d!.busy = null),
      );
      await d.busy;
      if (d.revision === before) break; // the stream gave nothing past `before`: nothing more to fold
    }
    this.#bound(key);
    return d;
  }

  /**
   * Folds the table's events after revision `from`, keeping each round completed and its later findings, until
   * `enough` holds (read in growing chunks, so a fold that stops early reads little past where it stops) or the
   * stream ends. Every link read is checked as the replay checks it (linkBrokenBecause from the bytes as read), on
   * from the last event checked: a fold from the table's first event from the genesis (revision 0), a resumed fold
   * from its first event (that event's own hash, then each event's link to the one before), which must also be its
   * round's. The fold stops before the first event that does not hold (`broken`, `brokenLink`): nothing at or after
   * it is folded.
   */
  async #continue(
    d: TableDerivation,
    from: number,
    enough: (d: TableDerivation) => boolean,
    through?: number,
  ): Promise<void> {
    if (from < 0) this.stats.folds++;
    else this.stats.continued++;
    const before = d.rounds.size;
    let chunk =
      through !== undefined && through > d.revision
        ? Math.min(through - d.revision, LAST_CHUNK)
        : FIRST_CHUNK;
    try {
      for (;;) {
        let read = 0;
        for await (const stored of this.store.readStream(tableStream(d.tableId), {
          fromRevision: d.revision + 1,
          maxCount: chunk,
        })) {
          read++;
          const broken = brokenLink(
            stored,
            d.previous ??
              // a resumed fold's first event: linked to the hash stored before it; else from the genesis
              (d.resumed && d.from > 0 ? { revision: d.from - 1, hash: stored.previousHash } : undefined),
          );
          if (broken !== null) {
            d.broken = 'chainBroken';
            d.brokenLink = broken;
            return;
          }
          if (d.previous === null) d.previous = { revision: stored.revision, hash: stored.hash };
          else {
            d.previous.revision = stored.revision; // updated in place: no object per event
            d.previous.hash = stored.hash;
          }
          if (
            d.resumed &&
            stored.revision === d.from &&
            (stored.data as { header?: { roundId?: unknown } } | null)?.header?.roundId !== d.resumed.roundId
          ) {
            d.broken = 'mismatch'; // the index's first event of the round is not the round's
            return;
          }
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

export { RoundNotFound, RoundNotVerified };

/**
 * Whether the fold has settled the round: completed it, and completed the unit after it too (where explainRound
 * stops reading) unless `early` (the index says nothing about the round is judged with the round after it).
 */
function settledIn(d: TableDerivation, roundId: string, early: boolean): boolean {
  const k = d.rounds.get(roundId);
  return k !== undefined && (early || !d.pending.includes(k));
}

/**
 * Whether a round derived again is the one its stored record says: status, rule set, totals and lines alike, and
 * every finding it gives about the round among the record's (the record may name more: the conduct findings only
 * the whole session gives).
 */
function sameRecord(mine: RoundRecord, stored: RoundRecord): boolean {
  if (
    mine.roundId !== stored.roundId ||
    mine.status !== stored.status ||
    mine.statusReason !== stored.statusReason ||
    mine.ruleSetId !== stored.ruleSetId ||
    mine.totalStakedAvos !== stored.totalStakedAvos ||
    mine.expectedPaidAvos !== stored.expectedPaidAvos ||
    mine.declaredPaidAvos !== stored.declaredPaidAvos ||
    mine.houseResultAvos !== stored.houseResultAvos ||
    mine.lines.length !== stored.lines.length
  )
    return false;
  const ids = new Set(stored.findingIds);
  if (!mine.findingIds.every((id) => ids.has(id))) return false;
  return canonicalJson(mine.lines) === canonicalJson(stored.lines);
}
