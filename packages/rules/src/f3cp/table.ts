import type { F3cpEvent, TableOpened } from '@table-audit/schemas/events';
import {
  evidenceOf,
  makeFinding,
  type CheckDefinition,
  type Evidence,
  type Finding,
  type FindingContext,
  type FindingInput,
} from '../findings.ts';
import {
  DEFAULT_REPLAY_OPTIONS,
  type DerivedUnit,
  type ReplayOptions,
  type RoundRecord,
  type TableFold,
} from '../game.ts';
import { checkShuffle } from './checks/art-09-shuffle.ts';
import { checkCarriedOver, checkPlayAfterSecondFailure } from './checks/art-17-irregularities.ts';
import { CollusionTracker } from './checks/art-18-collusion.ts';
import { NON_SEATED_OBSERVED } from './checks/art-12-playing.ts';
import { BettingSystemTracker, CARD_REVEAL_OBSERVED, RECORDING_OBSERVED } from './checks/art-18-conduct.ts';
import { judgeObservation } from './checks/observations.ts';
import { checkEventAfterClose, checkReopened, checkSequence, type SequenceKind } from './checks/record.ts';
import { deriveRound, type RoundDerivation } from './derive.ts';
import type { DealingMode } from './events.ts';
import { explainF3cpRound, explanationText, type Explanation } from './explain.ts';
import { buildRoundView, type RoundContext, type RoundView } from './fold.ts';
import { f3cpRoundRecord } from './round-record.ts';
import { as2008 } from './checks/f3cp08-index.ts';
import { checkShufflerNotReplaced } from './checks/f3cp08-art-11-irregularities.ts';
import { ruleSetFor } from '../registry.ts';
import { UnassignedEvents } from '../unassigned.ts';
import {
  checkResumedAt,
  checkSameReadings,
  jsonWith,
  LastJson,
  readStartState,
  StartStateCapture,
  withinBound,
  withStartState,
  writeStartState,
} from '../start-state.ts';
import { F3CP_CHECKS } from './checks/index.ts';
import { F3CP08 } from './checks/f3cp08-definitions.ts';
import {
  F3CP_START_FORM,
  f3cpStartBody,
  readF3cpStartBody,
  type F3cpStartState,
  type StartClosedRound,
} from './start-state.ts';

/** Whether a round at this instant falls under the 2008 rules (Despacho 78/2008). */
function under2008(eventTime: number): boolean {
  const l = ruleSetFor('f3cp', eventTime);
  return l.status === 'implemented' && l.rules.era === '2008';
}

const TABLE_STATE_EVENTS = new Set<string>([
  'TableOpened',
  'TableClosed',
  'ShuffleStarted',
  'ShuffleCompleted',
  'ShufflerMalfunction',
  'ShufflerReplaced',
  'DealingSwitchedToShoe',
  'JackpotPoolChanged',
  'SeatOccupied',
  'SeatVacated',
]);

/** A completed round as the replay saw it: the derivation and every finding attributed to it. */
export interface ReplayedRound extends RoundDerivation, DerivedUnit {
  readonly tableId: string;
  readonly view: RoundView;
  readonly findings: Finding[];
  /** set once the round's findings are all attributed (closeRound) */
  record: RoundRecord | null;
}

interface OpenRound {
  roundId: string;
  events: F3cpEvent[];
  pools: (number | null)[];
  context: RoundContext;
  /** findings decided before the round's own events (shuffle procedure, second failure, table re-opened) */
  pending: FindingInput[];
  /** a source's events in the round repeat or step back in their numbering: the round is not re-derived */
  outOfOrder: boolean;
}

interface CarryOver {
  ctx: FindingContext;
  due: { seat: number; amount: number }[];
  evidence: Evidence[];
}

const NO_ROUNDS: readonly ReplayedRound[] = Object.freeze([]);
/** `done` with `round` after it: a new list when `done` is the shared empty one, else the same list. */
const withRound = (done: ReplayedRound[], round: ReplayedRound): ReplayedRound[] =>
  done === NO_ROUNDS ? [round] : (done.push(round), done);

/**
 * The list, emptied by popping (V8 keeps the storage of a list emptied so, where `length = 0` frees it), so that the
 * next round's events fill it without growing it again.
 */
function emptied<T>(list: T[]): T[] {
  while (list.length) list.pop();
  return list;
}

/** Rounds a table remembers as closed, so a late event of one is judged as late and does not open it again. */
const CLOSED_MEMORY = 1_000;
/** Sources a table follows the numbering of (a table has a handful; the least recently seen is forgotten). */
const SOURCE_MEMORY = 1_000;

/** A closed round as the table remembers it: what closed it, and the context its findings carry. */
interface ClosedRound {
  readonly closedBy: string;
  /** null when the round was not judged (no rule set in force on its date, or not derived): its late events are not either */
  readonly ctx: FindingContext | null;
  /** (start states) the count of rounds remembered when it was: a round's state carries only those before it */
  serial?: number;
}

/** Every check of both rule sets by id: a start state names a pending finding's check by its id. */
const CHECKS_BY_ID: ReadonlyMap<string, CheckDefinition> = new Map(
  [...Object.values(F3CP_CHECKS), ...Object.values(F3CP08)].map((c) => [c.id, c]),
);

/** A round's start state while the round is open: the table's state, and what the round's span reads. */
interface Taken {
  readonly state: F3cpStartState & { readonly closed: Map<string, StartClosedRound> };
  /** rounds remembered and forgotten (closedRounds) when it was taken */
  readonly serial: number;
  readonly evictions: number;
}

/** Observations a late SurveillanceObservation is judged by, as it would have been inside its round. */
const OBSERVATION_RULES = [RECORDING_OBSERVED, CARD_REVEAL_OBSERVED, NON_SEATED_OBSERVED];

/**
 * Folds one table's events, in order, into rounds, and runs the per-round and cross-round checks. Its state is
 * built only from the table's own events, so after a restart the replay rebuilds it by re-reading the stream.
 * Every event that names a round ends in a round: one with no RoundStarted is opened by its first event
 * (F3CP.ROUND.NOT_STARTED), one with no closing event is closed by whatever ends it (F3CP.ROUND.NOT_CLOSED).
 */
export class F3cpTable implements TableFold<ReplayedRound> {
  private config: TableOpened | null = null;
  private tableClosed = true;
  private dealingMode: DealingMode = 'SHUFFLER';
  private readonly occupants = new Map<number, string>();
  /** the copy of occupants the rounds since the last seat change share (null: seats changed since) */
  private occupantsCopy: ReadonlyMap<number, string> | null = null;
  private pool: number | null = null;
  private consecutiveFailures = 0;
  private lastFailureEvidence: Evidence[] = [];
  /** shuffler failures since the shuffler was last replaced or a shoe taken (78/2008 art. 11.º 4)) */
  private failuresSinceReplacement: Evidence[] = [];
  private readonly alternatives: readonly string[];
  /** ReplayOptions.lean: units without view and derivation, and a closed round's buffers reused */
  private readonly lean: boolean;
  /** (lean) the event and pool lists of the last round closed, emptied, for the next round to fill */
  private spareEvents: F3cpEvent[] | null = null;
  private sparePools: (number | null)[] | null = null;
  private pendingForNextRound: FindingInput[] = [];
  private carryOver: CarryOver | null = null;
  private open: OpenRound | null = null;
  private readonly closedRounds = new Map<string, ClosedRound>();
  /** findings about closed rounds from their late events, reported with the next round (or at the end) */
  private lateFindings: Finding[] = [];
  /** source device → the sequence number of its last event */
  private readonly lastSequence = new Map<string, number>();
  /** the source of the last event (the last key of lastSequence) */
  private newestSource: string | null = null;
  /** the sequence number of the newest source's last event (lastSequence holds it only once another follows) */
  private newestSequence = 0;
  private readonly bettingSystem: BettingSystemTracker;
  private readonly collusion: CollusionTracker;
  /** events that belong to no round and to no table state (kept in the store, counted here; the first ones kept in memory) */
  readonly unassigned = new UnassignedEvents<F3cpEvent>();
  /** ReplayOptions.startStates: each round's start state, taken before the first event that names it */
  private readonly capture: StartStateCapture<Taken> | null;
  /** rounds remembered in closedRounds, and forgotten from it (start states) */
  private closedSerial = 0;
  private evictions = 0;
  /** a resumed fold: the round it resumed for and the event it must be given first (null once given) */
  private resumedAt: { roundId: string; before: string } | null = null;
  /** the alternative readings, sorted, as start states name them */
  private get readings(): readonly string[] {
    return (this.sortedReadings ??= [...new Set(this.alternatives)].sort());
  }
  private sortedReadings: readonly string[] | null = null;
  /** the JSON text of the TableOpened rounds start from (written once, not with every round) */
  private readonly configJson = new LastJson();
  /** the JSON text of the seats' occupants the rounds since the last seat change share */
  private readonly occupantsJson = new LastJson<ReadonlyMap<number, string>>((m) => JSON.stringify([...m]));

  constructor(
    readonly tableId: string,
    options: ReplayOptions = DEFAULT_REPLAY_OPTIONS,
  ) {
    this.capture = options.startStates === true ? new StartStateCapture() : null;
    this.bettingSystem = new BettingSystemTracker({
      run: options.bettingSystemRun,
      doublings: options.bettingSystemDoublings,
    });
    this.collusion = new CollusionTracker(options.collusion);
    this.alternatives = options.alternatives ?? [];
    this.lean = options.lean === true;
  }

  /** Applies one event; returns the rounds it completed, with their findings. */
  apply(e: F3cpEvent): ReplayedRound[] {
    // most events complete no round: they all return the one frozen empty list instead of a new one each
    let done = NO_ROUNDS as ReplayedRound[];
    const h = e.data.header;
    if (this.resumedAt) {
      checkResumedAt(this.resumedAt, e);
      this.resumedAt = null;
    }
    // start states: the first event that names a round (the numbering as it was before it, the rest once the
    // round it ends, if any, is closed)
    let taking: string | null = null;
    let sequences: [string, number][] | null = null;
    if (this.capture) {
      const named = h.roundId ?? (e.type === 'RoundStarted' ? h.eventId : null);
      if (named !== null && named !== this.open?.roundId && this.capture.wants(named)) {
        taking = named;
        sequences = this.sequencesNow();
      }
    }
    const irregular = this.followSequence(e);
    const tableState = TABLE_STATE_EVENTS.has(e.type);
    if (h.roundId !== null && !tableState && h.roundId !== this.open?.roundId) {
      const closed = this.closedRounds.get(h.roundId);
      if (closed) {
        if (this.capture?.size) this.noteClosedRead(h.roundId, closed);
        this.lateEvent(e, closed);
        // its numbering is judged with the round now open, or the next one
        if (irregular)
          (this.open?.pending ?? this.pendingForNextRound).push(
            checkSequence(e, irregular.previous, irregular.kind, null),
          );
        return done;
      }
    }
    if (e.type === 'RoundStarted') {
      if (this.open) done = [this.closeRound(`RoundStarted of ${h.roundId ?? h.eventId}`)];
    } else if (this.open && h.roundId !== null && h.roundId !== this.open.roundId) {
      // an event of another round while this one is open: the open round ended without its closing event
      done = [this.closeRound(`${e.type} of round ${h.roundId}`)];
    }
    if (taking !== null) this.takeStartState(taking, h.eventId, sequences!);
    if (e.type === 'RoundStarted') this.startRound(e, h.roundId ?? h.eventId);
    if (!this.open && h.roundId !== null && !tableState) this.startRound(e, h.roundId); // a round whose RoundStarted never came
    if (e.type === 'TableClosed' && this.open) done = withRound(done, this.closeRound('TableClosed'));
    if (tableState) this.applyTableState(e); // it changes nothing for the other events (most of them)
    if (this.open && (h.roundId === this.open.roundId || h.roundId === null)) {
      if (irregular) {
        const refuse = irregular.kind !== 'gap';
        if (refuse) this.open.outOfOrder = true;
        this.open.pending.push(
          checkSequence(e, irregular.previous, irregular.kind, refuse ? this.open.roundId : null),
        );
      }
      this.open.events.push(e);
      this.open.pools.push(this.pool);
      if (e.type === 'RoundSettled' || e.type === 'RoundVoided')
        done = withRound(done, this.closeRound(null));
    } else {
      // a table event between rounds: its numbering is reported with the round now open, or the next one
      if (irregular)
        (this.open?.pending ?? this.pendingForNextRound).push(
          checkSequence(e, irregular.previous, irregular.kind, null),
        );
      if (!tableState) this.unassigned.push(e);
    }
    return done;
  }

  /**
   * How the event's sequence number follows its source's last one: in line (null), or a gap, a repeat or a step
   * backwards, with the number before it.
   */
  private followSequence(e: F3cpEvent): { previous: number; kind: SequenceKind } | null {
    const { sourceDevice, sequence } = e.data.header;
    let previous: number | undefined;
    if (sourceDevice === this.newestSource) {
      // most events follow one from the same source: its number is kept in a field, and the map, whose order is
      // the order sources were last seen, already has it last (its number there is written back on a change)
      previous = this.newestSequence;
      this.newestSequence = sequence;
    } else {
      if (this.newestSource !== null) this.lastSequence.set(this.newestSource, this.newestSequence);
      previous = this.lastSequence.get(sourceDevice);
      this.lastSequence.delete(sourceDevice);
      this.lastSequence.set(sourceDevice, sequence);
      this.newestSource = sourceDevice;
      this.newestSequence = sequence;
      if (this.lastSequence.size > SOURCE_MEMORY)
        this.lastSequence.delete(this.lastSequence.keys().next().value!);
    }
    if (previous === undefined || sequence === previous + 1) return null;
    return { previous, kind: sequence === previous ? 'repeat' : sequence > previous ? 'gap' : 'backwards' };
  }

  /** Closes what is open and returns the table-level findings (collusion) that the events so far support. */
  finish(): { units: ReplayedRound[]; findings: Finding[] } {
    const units = this.open ? [this.closeRound('the end of the events')] : [];
    return { units, findings: [...this.lateFindings.splice(0), ...this.collusion.evaluate(true)] };
  }

  /** A round this table replayed, step by step (the units it returned are its own ReplayedRounds). */
  explain(unit: DerivedUnit, later: readonly Finding[]): { json: Explanation; text: string } {
    if (!('view' in unit))
      throw new Error(
        `round ${unit.roundId} was replayed with ReplayOptions.lean, which keeps no view to explain: replay it without`,
      );
    const explanation = explainF3cpRound(unit as ReplayedRound, later);
    return { json: explanation, text: explanationText(explanation) };
  }

  private applyTableState(e: F3cpEvent): void {
    switch (e.type) {
      case 'TableOpened':
        if (this.config && !this.tableClosed)
          this.pendingForNextRound.push(...checkReopened(this.config, e.data, this.pool));
        this.config = e.data;
        this.tableClosed = false;
        this.dealingMode = e.data.shuffleMode === 'MANUAL' ? 'SHOE' : 'SHUFFLER';
        this.pool = e.data.jackpot ? e.data.jackpot.initialPool : null;
        break;
      case 'TableClosed':
        this.tableClosed = true;
        break;
      case 'ShuffleCompleted':
        this.dealingMode = e.data.mode === 'MANUAL' ? 'SHOE' : 'SHUFFLER';
        this.pendingForNextRound.push(...checkShuffle(e.data));
        break;
      case 'ShufflerMalfunction':
        this.consecutiveFailures++;
        this.lastFailureEvidence.push(evidenceOf(e.data));
        if (e.data.duringDeal && this.failuresSinceReplacement.length < 100)
          this.failuresSinceReplacement.push(evidenceOf(e.data));
        break;
      case 'ShufflerReplaced':
      case 'DealingSwitchedToShoe':
        this.consecutiveFailures = 0;
        this.lastFailureEvidence = [];
        this.failuresSinceReplacement = [];
        if (e.type === 'DealingSwitchedToShoe') this.dealingMode = 'SHOE';
        break;
      case 'JackpotPoolChanged':
        this.pool = e.data.poolAfter;
        break;
      case 'SeatOccupied':
        this.occupants.set(e.data.seat, e.data.playerId);
        this.occupantsCopy = null;
        break;
      case 'SeatVacated':
        if (this.occupants.get(e.data.seat) === e.data.playerId) {
          this.occupants.delete(e.data.seat);
          this.occupantsCopy = null;
        }
        break;
      default:
        break;
    }
  }

  private startRound(e: F3cpEvent, roundId: string): void {
    // no TableOpened: nothing to judge the round against; the event stays with the table's unassigned events
    if (!this.config) return;
    const pending = this.pendingForNextRound;
    this.pendingForNextRound = [];
    if (this.dealingMode === 'SHUFFLER') {
      if (this.failuresSinceReplacement.length && under2008(e.data.header.eventTime))
        pending.push(
          ...checkShufflerNotReplaced(
            this.failuresSinceReplacement.length,
            this.failuresSinceReplacement,
            evidenceOf(e.data),
          ),
        );
      else
        pending.push(
          ...checkPlayAfterSecondFailure(
            this.consecutiveFailures,
            this.lastFailureEvidence,
            evidenceOf(e.data),
          ),
        );
    }
    // lean: the lists of the round closed last, which nothing holds any more, are filled again
    const events = this.spareEvents ?? [];
    const pools = this.sparePools ?? [];
    this.spareEvents = this.sparePools = null;
    this.open = {
      roundId,
      events,
      pools,
      context: {
        config: this.config,
        dealingMode: this.dealingMode,
        // rounds between two seat changes see the same seats: they share one read-only copy
        occupants: (this.occupantsCopy ??= new Map(this.occupants)),
      },
      pending,
      outOfOrder: false,
    };
  }

  private closeRound(endedBy: string | null): ReplayedRound {
    const o = this.open!;
    const unit = this.closeUnrecorded(endedBy);
    unit.record = f3cpRoundRecord(unit);
    if (this.capture) withStartState(unit, this.startStateOf(unit.roundId));
    if (!this.lean) return unit;
    // lean: the unit as DerivedUnit names it; the view and derivation (which alone held the round's lists) are
    // dropped here, so the lists are emptied and kept for the next round
    this.spareEvents = emptied(o.events);
    this.sparePools = emptied(o.pools);
    const lean: DerivedUnit = {
      roundId: unit.roundId,
      tableId: unit.tableId,
      ruleSet: unit.ruleSet,
      notDerived: unit.notDerived,
      findings: unit.findings,
      record: unit.record,
    };
    return (this.capture ? { ...lean, startState: unit.startState } : lean) as ReplayedRound; // lean units are DerivedUnits: explain refuses them (no view)
  }

  private closeUnrecorded(endedBy: string | null): ReplayedRound {
    const o = this.open!;
    this.open = null;
    const view = buildRoundView(o.roundId, o.events, o.context, o.pools, endedBy);
    if (!o.events.length) return this.emptyRound(o.roundId, view);
    try {
      return this.deriveClosed(o, view, endedBy);
    } catch (error) {
      // one round's events must never halt the replay: the round is recorded as not derived, with the reason
      this.remember(o.roundId, { closedBy: endedBy ?? o.events[o.events.length - 1]!.type, ctx: null });
      return this.failedRound(o, view, error);
    }
  }

  private deriveClosed(o: OpenRound, view: RoundView, endedBy: string | null): ReplayedRound {
    const derivation = deriveRound(
      view,
      o.pending,
      o.outOfOrder
        ? {
            code: 'out-of-order',
            message:
              "a source's events in the round are not in the order it numbered them (F3CP.EVENT.SEQUENCE): the round is not re-derived",
          }
        : null,
      this.alternatives,
    );
    const ctx = derivation.context;
    this.remember(o.roundId, {
      closedBy: endedBy ?? o.events[o.events.length - 1]!.type,
      ctx: derivation.judged ? ctx : null,
    });
    // the derivation's own list (made for this round) takes what follows, after any late findings
    const findings = this.lateFindings.length
      ? [...this.lateFindings.splice(0), ...derivation.findings]
      : derivation.findings;
    if (derivation.judged && this.carryOver) findings.push(...this.checkCarryOver(view));
    this.carryOver = derivation.carryOverDue.length
      ? {
          ctx,
          due: derivation.carryOverDue,
          evidence: view.voided ? [evidenceOf(view.voided)] : [],
        }
      : null;
    if (derivation.completedNormally) {
      this.consecutiveFailures = 0;
      this.lastFailureEvidence = [];
    }
    // 78/2008 has no conduct article (no counterpart of 89/2025 art. 18.º): 2008 rounds feed no conduct tracker
    if (derivation.settled && derivation.settled.ruleSet.era === '2025') {
      this.bettingSystem.record(derivation.settled, ctx, findings);
      this.collusion.record(derivation.settled, ctx);
      this.collusion.evaluate(false, findings);
    }
    // the fields of { ...derivation, findings, tableId, view }, in that order (the derivation's context among
    // them), without the copy of a spread
    const unit = {
      roundId: derivation.roundId,
      ruleSet: derivation.ruleSet,
      context: derivation.context,
      notDerived: derivation.notDerived,
      judged: derivation.judged,
      settled: derivation.settled,
      facts: derivation.facts,
      settlement: derivation.settlement,
      findings,
      carryOverDue: derivation.carryOverDue,
      completedNormally: derivation.completedNormally,
      tableId: this.tableId,
      view,
      record: null,
    };
    return unit;
  }

  private remember(roundId: string, closed: ClosedRound): void {
    if (this.capture) closed.serial = ++this.closedSerial;
    this.closedRounds.set(roundId, closed);
    if (this.closedRounds.size > CLOSED_MEMORY) {
      this.closedRounds.delete(this.closedRounds.keys().next().value!);
      this.evictions++;
    }
  }

  // --- start states (ReplayOptions.startStates, resumeTable) ----------------------------------------------------

  /** each source's last sequence number, in the order last seen (the newest last, with its current number) */
  private sequencesNow(): [string, number][] {
    const out: [string, number][] = [];
    for (const [source, n] of this.lastSequence)
      out.push([source, source === this.newestSource ? this.newestSequence : n]);
    return out;
  }

  /** the table's state as the round `roundId` begins (no round is open here: the event closed any) */
  private takeStartState(roundId: string, before: string, sequences: [string, number][]): void {
    this.capture!.take(roundId, before, {
      serial: this.closedSerial,
      evictions: this.evictions,
      state: {
        alternatives: this.readings,
        sequences,
        config: this.config,
        tableClosed: this.tableClosed,
        dealingMode: this.dealingMode,
        // the read-only copy the rounds since the last seat change share (no copy made per round)
        occupants: (this.occupantsCopy ??= new Map(this.occupants)),
        pool: this.pool,
        consecutiveFailures: this.consecutiveFailures,
        lastFailureEvidence: [...this.lastFailureEvidence],
        failuresSinceReplacement: [...this.failuresSinceReplacement],
        pendingForNextRound: [...this.pendingForNextRound],
        carryOver: this.carryOver,
        lateFindings: [...this.lateFindings],
        closed: new Map(),
      },
    });
  }

  /** a late event's closed round, read while rounds wait for their start states: those begun after it carry it */
  private noteClosedRead(roundId: string, closed: ClosedRound): void {
    for (const {
      state: { serial, state },
    } of this.capture!.waiting())
      if ((closed.serial ?? 0) <= serial && !state.closed.has(roundId))
        state.closed.set(roundId, { closedBy: closed.closedBy, ctx: closed.ctx });
  }

  /**
   * The start state of a round the fold returns; null when it has none: its id was a unit's before, the rounds
   * remembered were forgotten in part while a closed one its span read waited (a resumed fold would still know
   * it), a pending finding's check is not one of the game's, or the state is over MAX_START_STATE_BYTES.
   */
  private startStateOf(roundId: string): string | null {
    const taken = this.capture!.returnedRound(roundId);
    if (!taken) return null;
    const { state, evictions } = taken.state;
    if (evictions !== this.evictions && state.closed.size) return null;
    const body = f3cpStartBody(state, CHECKS_BY_ID);
    if (!body) return null;
    const text = writeStartState(
      F3CP_START_FORM,
      { tableId: this.tableId, roundId, before: taken.before },
      jsonWith(
        { config: this.configJson.text(state.config), occupants: this.occupantsJson.text(state.occupants) },
        body,
      ),
    );
    return withinBound(text) ? text : null;
  }

  /**
   * Sets a fresh fold to a round's start state (./start-state.ts); throws StartStateError naming what is wrong
   * when the text is not an F3CP start state of this table, or was taken under other alternative readings.
   */
  resume(startState: string): this {
    const s = readStartState(startState, F3CP_START_FORM, this.tableId);
    const b = readF3cpStartBody(s.body, this.tableId, CHECKS_BY_ID);
    checkSameReadings(b.alternatives, this.readings);
    this.lastSequence.clear();
    for (const [source, n] of b.sequences) this.lastSequence.set(source, n);
    const newest = b.sequences[b.sequences.length - 1];
    this.newestSource = newest ? newest[0] : null;
    this.newestSequence = newest ? newest[1] : 0;
    this.config = b.config;
    this.tableClosed = b.tableClosed;
    this.dealingMode = b.dealingMode;
    this.occupants.clear();
    for (const [seat, player] of b.occupants) this.occupants.set(seat, player);
    this.occupantsCopy = null;
    this.pool = b.pool;
    this.consecutiveFailures = b.consecutiveFailures;
    this.lastFailureEvidence = [...b.lastFailureEvidence];
    this.failuresSinceReplacement = [...b.failuresSinceReplacement];
    this.pendingForNextRound = [...b.pendingForNextRound];
    this.carryOver = b.carryOver && {
      ctx: b.carryOver.ctx,
      due: [...b.carryOver.due],
      evidence: [...b.carryOver.evidence],
    };
    this.lateFindings = [...b.lateFindings];
    for (const [roundId, c] of b.closed) this.closedRounds.set(roundId, { closedBy: c.closedBy, ctx: c.ctx });
    this.resumedAt = { roundId: s.roundId, before: s.before };
    return this;
  }

  /**
   * An event of a round already closed. A late surveillance observation is judged as it would have been in its
   * round; anything else is F3CP.ROUND.EVENT_AFTER_CLOSE. Either way the finding names the late event's round
   * and is reported with the next round the table closes (the disputed-hand replay collects it from there).
   */
  private lateEvent(e: F3cpEvent, closed: ClosedRound): void {
    if (!closed.ctx) {
      this.unassigned.push(e); // a round not judged (no rule set in force, or not derived): nor is its late event
      return;
    }
    const inputs =
      e.type === 'SurveillanceObservation'
        ? OBSERVATION_RULES.flatMap((rule) => judgeObservation(e.data, rule) ?? [])
        : checkEventAfterClose(e, closed.closedBy);
    const era2008 = closed.ctx.ruleSet.startsWith('f3cp-2008');
    for (const f of inputs) {
      const g = era2008 ? as2008(f) : f;
      if (g) this.lateFindings.push(makeFinding(closed.ctx, g));
    }
  }

  /** The Progressive bets a voided round had to carry over must be re-stated, carried over, in this round. */
  private checkCarryOver(next: RoundView): Finding[] {
    const c = this.carryOver!;
    this.carryOver = null;
    return checkCarriedOver(c.due, c.evidence, next.roundId, next.betEvents).map((f) =>
      makeFinding(c.ctx, f),
    );
  }

  private failedRound(o: OpenRound, view: RoundView, error: unknown): ReplayedRound {
    const undated = o.events.find((e) => Number.isNaN(new Date(e.data.header.eventTime).getTime()));
    const reason = undated
      ? `${undated.type} ${undated.data.header.eventId} has eventTime ${undated.data.header.eventTime}, which is not a date`
      : `${(error as Error).message ?? String(error)}`;
    return {
      ...this.emptyRound(o.roundId, view),
      notDerived: {
        code: 'derivation-failed',
        message: `round ${o.roundId} could not be derived: ${reason}; its ${o.events.length} event(s) stay stored as they came, and the replay went on`,
      },
    };
  }

  private emptyRound(roundId: string, view: RoundView): ReplayedRound {
    return {
      roundId,
      tableId: this.tableId,
      view,
      ruleSet: null,
      notDerived: { code: 'no-events', message: 'no events' },
      judged: null,
      settled: null,
      facts: null,
      settlement: null,
      findings: [],
      carryOverDue: [],
      completedNormally: false,
      record: null,
    };
  }
}
