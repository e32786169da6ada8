/**
 * The table fold of a game whose unit is one round from RoundStarted to RoundSettled (or RoundVoided): 13 Cards
 * and the Mah-Jong deal. The fold gathers each round's events, in order, and hands them to the game when the round
 * closes — at its RoundSettled or RoundVoided, at the next RoundStarted, at TableClosed or when the events end.
 * Events that belong to no open round are counted in `unassigned` (the first ones kept; the store keeps them all). The game supplies only what
 * differs: what it keeps from TableOpened, how a closed round is judged, and how a judged round is explained.
 */
import type { TableEvent, TableOpened } from '@table-audit/schemas/events';
import type { Finding } from './findings.ts';
import { StartStateError, type DerivedUnit, type TableFold } from './game.ts';
import { utcText } from './present.ts';
import {
  checkResumedAt,
  LastJson,
  objectAt,
  readStartState,
  readTableOpened,
  StartStateCapture,
  withinBound,
  withStartState,
  writeStartState,
  type StartStateForm,
} from './start-state.ts';
import { UnassignedEvents } from './unassigned.ts';

/** A round's timeline: every event in stored order, its time as UTC text (shown in Macau time), in words. */
export const timelineOf = <E extends TableEvent>(events: readonly E[], describe: (e: E) => string) =>
  events.map((e) => ({
    time: utcText(e.data.header.eventTime),
    eventId: e.data.header.eventId,
    type: e.type,
    text: describe(e),
  }));

/** What a game supplies to the shared fold. */
export interface RoundGame<E extends TableEvent, U extends DerivedUnit> {
  /** judges one closed round: its id and its events in order, the first being its RoundStarted */
  close(roundId: string, events: readonly E[], table: { tableId: string; opened: TableOpened | null }): U;
  /** a judged round step by step, with the findings about it (those judged later included) */
  explain(unit: U, findings: readonly Finding[]): { json: object; text: string };
}

const ENDS = new Set(['RoundSettled', 'RoundVoided']);

/** The round fold's start state: version 1 holds the last TableOpened (its data, or null), nothing else. */
const FORM = { form: 'round-fold', v: 1 } as const;

/**
 * The round an event names for the start state: its header's roundId (a RoundStarted without one opens a round
 * named by its own event id, so it names that).
 */
const namedRound = (e: TableEvent): string | null =>
  e.data.header.roundId ?? (e.type === 'RoundStarted' ? e.data.header.eventId : null);

export class RoundTableFold<E extends TableEvent, U extends DerivedUnit> implements TableFold<U> {
  /** the last TableOpened, the table's configuration */
  private opened: TableOpened | null = null;
  private open: { roundId: string; events: E[] } | null = null;
  /** events that belong to no open round (counted, the first ones kept; the store keeps them all) */
  readonly unassigned = new UnassignedEvents<E>();

  /** ReplayOptions.startStates: the last TableOpened each round's first event saw */
  private readonly capture: StartStateCapture<TableOpened | null> | null;
  /** the JSON text of the TableOpened rounds start from (written once, not with every round) */
  private readonly openedJson = new LastJson();
  /** a resumed fold: the round it resumed for and the event it must be given first (null once given) */
  private resumedAt: { roundId: string; before: string } | null = null;

  /**
   * `tableGame` (TableOpened.game) names the game in the start states; `startStates` makes each unit carry one.
   */
  constructor(
    readonly tableId: string,
    private readonly game: RoundGame<E, U>,
    private readonly tableGame: string = 'UNKNOWN',
    startStates = false,
  ) {
    this.capture = startStates ? new StartStateCapture() : null;
  }

  /**
   * Sets a fresh fold to a unit's start state (../start-state.ts; version 1: the last TableOpened); throws
   * StartStateError, naming what is wrong, when the text is not such a state of this game and table.
   */
  resume(startState: string): this {
    const s = readStartState(startState, this.form(), this.tableId);
    const body = objectAt(s.body, "the start state's body");
    if (!('opened' in body)) throw new StartStateError('the start state\'s body has no field "opened"');
    this.opened =
      body.opened === null
        ? null
        : readTableOpened(body.opened, "the start state's body.opened", this.tableGame, this.tableId);
    this.resumedAt = { roundId: s.roundId, before: s.before };
    return this;
  }

  private form(): StartStateForm {
    return { ...FORM, game: this.tableGame };
  }

  apply(event: TableEvent): U[] {
    const e = event as E; // the services hand a table's fold only the events of its game
    if (this.resumedAt) {
      checkResumedAt(this.resumedAt, e);
      this.resumedAt = null;
    }
    if (this.capture) {
      const named = namedRound(e);
      if (named !== null && named !== this.open?.roundId && this.capture.wants(named))
        this.capture.take(named, e.data.header.eventId, this.opened);
    }
    if (e.type === 'TableOpened') {
      this.opened = (e.data as TableOpened) ?? null;
      return [];
    }
    if (e.type === 'TableClosed') return this.open ? [this.close()] : [];
    const roundId = e.data.header.roundId;
    if (e.type === 'RoundStarted') {
      const done = this.open ? [this.close()] : [];
      this.open = { roundId: roundId ?? e.data.header.eventId, events: [e] };
      return done;
    }
    if (!this.open || roundId !== this.open.roundId) {
      this.unassigned.push(e);
      return [];
    }
    this.open.events.push(e);
    return ENDS.has(e.type) ? [this.close()] : [];
  }

  finish(): { units: U[]; findings: Finding[] } {
    return { units: this.open ? [this.close()] : [], findings: [] };
  }

  explain(unit: DerivedUnit, later: readonly Finding[]): { json: object; text: string } {
    const findings = [...unit.findings, ...later.filter((f) => f.roundId === unit.roundId)];
    return this.game.explain(unit as U, findings);
  }

  private close(): U {
    const { roundId, events } = this.open!;
    this.open = null;
    const unit = this.game.close(roundId, events, { tableId: this.tableId, opened: this.opened });
    if (!this.capture) return unit;
    const taken = this.capture.returnedRound(roundId);
    if (!taken) return withStartState(unit, null);
    const text = writeStartState(
      this.form(),
      { tableId: this.tableId, roundId, before: taken.before },
      `{"opened":${this.openedJson.text(taken.state)}}`,
    );
    return withStartState(unit, withinBound(text) ? text : null);
  }
}
