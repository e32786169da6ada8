/**
 * What a game is, for the game-neutral services: its events, how one event is validated, how a table's events
 * fold into the units the law judges (a round; for CRAPS, a throw) and how each unit is derived and checked under
 * the rule set in force. The services pick a module by the game a table declares (TableOpened.game) and know
 * nothing else about it. In emmett's terms the fold is `evolve` and the checks are `decide`.
 */
import type { EventHeader, RoundDerived, SourceKind, TableEvent } from '@table-audit/schemas/events';
import type { CheckDefinition, Finding } from './findings.ts';
import type { Rng } from './rng.ts';

export type { TableEvent };

/** Why a unit's outcome could not be re-derived: data, so that no caller reads meaning into message text. */
export interface NotDerived {
  readonly code:
    | 'rule-set-not-implemented'
    | 'no-rules'
    | 'voided'
    | 'cards-incomplete'
    | 'settlement-failed'
    | 'no-events'
    /** a source's events in the round are not in the order it numbered them (a repeat or a step backwards) */
    | 'out-of-order'
    /** deriving the round failed on what an event holds: the replay recorded it and went on */
    | 'derivation-failed';
  readonly message: string;
}

/**
 * What the replay derived for one round, game-neutral (ta.audit.RoundDerived): the replay appends it to the
 * table's `rounds-<table id>` stream for analytics and the API to read instead of folding the round again.
 */
export type RoundRecord = RoundDerived;

/** One unit the law judges (a round), as the services see it: identity, rule set, findings. */
export interface DerivedUnit {
  readonly roundId: string;
  readonly tableId: string;
  readonly ruleSet: string | null;
  readonly notDerived: NotDerived | null;
  readonly findings: readonly Finding[];
  /**
   * The unit's record, filled by its game module; null when there is nothing to place it by (no events, a time
   * with no date); absent for a game that makes none yet, or a unit the replay made when the fold failed.
   */
  readonly record?: RoundRecord | null;
  /**
   * The table's state as the unit began, in the game's own versioned JSON form (`ReplayOptions.startStates`): the
   * fold's state just before it applied the first event, in stored order, whose header names the unit's roundId.
   * `GameModule.resumeTable` starts a fold from it; given the table's events from that event on, the fold returns
   * the unit derived and explained as the full fold did (the art. 18 conduct findings, which need the whole
   * session, excepted: they are read from what the replay stored). Absent or null: not recorded, or the game
   * cannot resume there.
   */
  readonly startState?: string | null;
}

/** A table's fold: events in, judged units out. Pure state, rebuilt from the table's own stream after a restart. */
export interface TableFold<U extends DerivedUnit = DerivedUnit> {
  readonly tableId: string;
  /** applies one event; returns the units it completed, with their findings */
  apply(event: TableEvent): U[];
  /** closes what is open and returns the table-level findings the events so far support */
  finish(): { units: U[]; findings: Finding[] };
  /** a disputed unit step by step: each event, each rule with its article, expected beside declared */
  explain(unit: DerivedUnit, later: readonly Finding[]): { readonly json: object; readonly text: string };
}

/** Options every game understands; a game reads its own part. */
export interface ReplayOptions {
  /** consecutive consistent steps of a result-driven progression before a betting-system finding */
  readonly bettingSystemRun: number;
  /** of which at least this many must be doublings after a loss */
  readonly bettingSystemDoublings: number;
  readonly collusion: {
    /** false switches the statistical check off (e.g. for a quick re-check of payouts only) */
    readonly enabled?: boolean;
    readonly minRounds: number;
    readonly alpha: number;
    readonly evaluateEvery: number;
  };
  /**
   * Interpretation ids whose alternative reading the replay applies instead of the register's chosen one (only
   * those a rule set lets select, e.g. H1 for the 2008 F3CP rules); absent or empty: the chosen readings.
   */
  readonly alternatives?: readonly string[];
  /**
   * The bulk replay's reading: each unit a fold returns carries only what DerivedUnit names (id, table, rule set,
   * why not derived, findings, record), not the round's view and derivation that an explanation reads, and the
   * fold may reuse a closed round's buffers for the next one. The findings and records are the same. Absent or
   * false: the full units (what `explain` needs).
   */
  readonly lean?: boolean;
  /**
   * Each unit carries its `startState` (the replay writes it into the round's record, so that one round can be
   * derived again from its own events without folding the table from its start). Absent or false: none.
   */
  readonly startStates?: boolean;
}

/** A start state this version cannot resume from (damaged, another game's, or written by another form version). */
export class StartStateError extends Error {
  override readonly name = 'StartStateError';
}

export const DEFAULT_REPLAY_OPTIONS: ReplayOptions = {
  bettingSystemRun: 10,
  bettingSystemDoublings: 4,
  collusion: { minRounds: 30, alpha: 0.001, evaluateEvery: 25 },
};

export interface GameModule<U extends DerivedUnit = DerivedUnit> {
  /** the registry's game id, e.g. 'f3cp' */
  readonly game: string;
  /** the symbol of TableOpened.game that names it, e.g. 'F3CP' */
  readonly tableGame: string;
  readonly title: string;
  /** the record names of its events (common table events included) */
  readonly eventTypes: ReadonlySet<string>;
  /** every check of every rule set of the game */
  readonly checks: readonly CheckDefinition[];
  /**
   * The event fields some checks cannot run without ("BetPlaced.playerId"): when an event was written with a
   * schema that lacked the field (read as its default), the replay reports those checks as not run for the round.
   */
  readonly fieldDependencies?: Readonly<Record<string, readonly string[]>>;
  /**
   * Problems with a single event that no table could have produced (no such card, seat or bet), each naming the
   * field; an empty list when the event may describe something real, however wrong.
   */
  validate(event: TableEvent): string[];
  /** a fresh fold for one table */
  newTable(tableId: string, options?: ReplayOptions): TableFold<U>;
  /**
   * A fold resumed from a unit's `startState`, to be given the table's events from the first that names the unit's
   * roundId (see DerivedUnit.startState); throws StartStateError when it cannot resume from that state. Absent: the
   * game cannot resume a fold (callers fold the table from its start).
   */
  resumeTable?(tableId: string, startState: string, options?: ReplayOptions): TableFold<U>;
  /** warms what the fold computes lazily (decision tables), so a live replay's first rounds do not pay for it */
  warm?(): void;
  /** how the simulator plays the game's tables, clean and with labelled faults; absent: not simulated yet */
  readonly simulation?: GameSimulation;
}

// ---------------------------------------------------------------------------------------------------------------
// Simulation: the game-neutral simulator owns tables, seeds, the clock, casinos, the fault schedule and the ground
// truth; the game owns what a round is, how a correct table reports it and what each fault changes in it.

/** A fault the simulator injects and the checks that must find it; also a conduct played over a whole session. */
export interface FaultLabel {
  readonly name: string;
  readonly checkIds: readonly string[];
}

/** Conduct over many rounds, played by the players the game seats at a table (art. 18.º for F3CP). */
export type SessionConduct = 'betting-system' | 'collusion';

/** The simulated table's clock and devices, kept by the simulator: every event's header comes from here. */
export interface TableClock {
  /** the time now, UTC ms (the rule set in force follows from it) */
  now(): number;
  /** a pause: between rounds, while players sit down */
  pause(ms: number): void;
  /** the header of the next event: the clock moves on a little, the device's sequence by one */
  stamp(source: SourceKind, roundId: string | null, staffId: string | null): EventHeader;
}

export interface SimulatedTableSpec {
  readonly tableId: string;
  readonly rng: Rng;
  readonly clock: TableClock;
  /** the conduct the table's players show over the session, or null for ordinary players */
  readonly conduct: SessionConduct | null;
}

/** What one call to `playRound` produced: the events in emission order and the rounds that carry the fault. */
export interface PlayedRounds {
  readonly events: TableEvent[];
  /** the round that carries the injected fault (null: none was injected) */
  readonly faultyRoundId: string | null;
  /**
   * Events the pipeline receives in another order than the table emitted (and numbered) them: each `event`
   * arrives just before `before`. The runner numbers a table's events in emission order, then moves these.
   */
  readonly deliveredOutOfOrder?: readonly { readonly event: TableEvent; readonly before: TableEvent }[];
}

export interface SimulatedTable {
  /** the players whose conduct (if any) the checks must find, by player id */
  readonly conductPlayers: readonly string[];
  /** the table's opening events: the table opened, the first players seated */
  open(): TableEvent[];
  /** whether the next round can show this fault (enough seats, the right dealing, not the last round, …) */
  canInject(fault: string, lastRound: boolean): boolean;
  /** whether the next round can show this correctly handled irregularity */
  canHandle(irregularity: string): boolean;
  /**
   * Plays the next round, clean or with one fault or one handled irregularity; a fault may need rounds before
   * it (two shuffler failures before the round that should not have been dealt). Players then come and go.
   */
  playRound(fault: string | null, handled: string | null): PlayedRounds;
  close(): TableEvent[];
}

export interface GameSimulation {
  /** every fault the game can inject into a round, with the check ids that must find it */
  readonly roundFaults: readonly FaultLabel[];
  /** irregularities the table handles as the law says: negative controls that must raise nothing */
  readonly handledIrregularities: readonly string[];
  /** the check ids that must find each conduct over a session (a game without such checks names none) */
  readonly conduct: Readonly<Partial<Record<SessionConduct, FaultLabel>>>;
  /**
   * The catalogue in force for a table opened at `time` (UTC ms), when the game's rule sets differ in what a fault
   * breaks (F3CP: the 2008 rules have their own check ids); `roundFaults`/`handledIrregularities` otherwise.
   */
  catalogueAt?(time: number): {
    readonly roundFaults: readonly FaultLabel[];
    readonly handledIrregularities: readonly string[];
  };
  openTable(spec: SimulatedTableSpec): SimulatedTable;
}
