/**
 * What a game is, for the game-neutral services: its events, how one event is validated, how a table's events
 * fold into the units the law judges (a round; for CRAPS, a throw) and how each unit is derived and checked under
 * the rule set in force. The services pick a module by the game a table declares (TableOpened.game) and know
 * nothing else about it. In emmett's terms the fold is `evolve` and the checks are `decide`.
 */
import type { TableEvent } from '@table-audit/schemas/events';
import type { CheckDefinition, Finding } from './findings.ts';

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

/** One unit the law judges (a round), as the services see it: identity, rule set, findings. */
export interface DerivedUnit {
  readonly roundId: string;
  readonly tableId: string;
  readonly ruleSet: string | null;
  readonly notDerived: NotDerived | null;
  readonly findings: readonly Finding[];
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
  /** warms what the fold computes lazily (decision tables), so a live replay's first rounds do not pay for it */
  warm?(): void;
}
