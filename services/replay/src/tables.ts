import {
  DEFAULT_REPLAY_OPTIONS,
  findingsUnderReadings,
  gameModuleFor,
  type DerivedUnit,
  type GameModule,
  type ReplayOptions,
  type TableEvent,
  type TableFold,
} from '@table-audit/rules';
import type { RecordedEvent } from '@table-audit/eventstore';
import { TABLE_EVENT_TYPES } from '@table-audit/schemas/events';
import { isTableStream } from './streams.ts';

/** A table event as stored by ingest: the stream `table-<id>`, the Avro record name as type, the record as data. */
export function toTableEvent(e: RecordedEvent): TableEvent | null {
  if (!isTableStream(e.stream) || !TABLE_EVENT_TYPES.has(e.type)) return null;
  return { type: e.type, data: e.data } as TableEvent;
}

/** The game a TableOpened declares, or null for any other event. */
export const declaredGame = (e: TableEvent): string | null => (e.type === 'TableOpened' ? e.data.game : null);

/** Why a table's events could not be judged: no TableOpened yet, or a game no module knows. */
export interface UnjudgedTable {
  readonly tableId: string;
  readonly reason: string;
  events: number;
}

/**
 * The folds of the tables replayed so far, each made by the module of the game its TableOpened declares. Events
 * of a table whose game is unknown are counted with the reason, never judged by another game's rules.
 */
export class TableFolds {
  private readonly folds = new Map<string, TableFold>();
  readonly unjudged = new Map<string, UnjudgedTable>();

  constructor(private readonly options: ReplayOptions = DEFAULT_REPLAY_OPTIONS) {}

  get(tableId: string): TableFold | undefined {
    return this.folds.get(tableId);
  }

  values(): IterableIterator<TableFold> {
    return this.folds.values();
  }

  /**
   * Takes a fold made elsewhere as the table's: a fold resumed from a round's start state (GameModule.resumeTable),
   * to be given the table's events from that round's first event on. Replaces any fold the table had.
   */
  adopt(tableId: string, fold: TableFold): void {
    this.folds.set(tableId, readFindingsUnder(fold, this.options.alternatives ?? []));
  }

  /** Forgets a table's fold (a table stopped where its record failed verification): it is not finished. */
  drop(tableId: string): void {
    this.folds.delete(tableId);
  }

  /** The fold for a table opened with `game`; null (and counted) when no module knows the game. */
  open(tableId: string, game: string | null): TableFold | null {
    const known = this.folds.get(tableId);
    if (known) return known;
    const module: GameModule | null = game === null ? null : gameModuleFor(game);
    if (!module) {
      const reason =
        game === null
          ? 'no TableOpened for this table precedes its events'
          : `the table declares game ${game}, which no game module implements`;
      const u = this.unjudged.get(tableId) ?? { tableId, reason, events: 0 };
      u.events++;
      this.unjudged.set(tableId, u);
      return null;
    }
    const fold = readFindingsUnder(module.newTable(tableId, this.options), this.options.alternatives ?? []);
    this.folds.set(tableId, fold);
    return fold;
  }

  /** Applies an event to its table's fold, opening it from a TableOpened; returns the units it completed (null: none). */
  apply(e: TableEvent): DerivedUnit[] | null {
    const tableId = e.data.header.tableId;
    const fold = this.folds.get(tableId) ?? this.open(tableId, declaredGame(e));
    if (!fold) return null;
    // most events complete no unit: null then, so that a caller's loop over the units is skipped, not started
    const done = applySafely(fold, e);
    return done.length ? done : null;
  }
}

/**
 * The fold as the finding-level alternatives (J19, H8, J20) read it: those readings decide which findings a breach
 * raises, not what is derived, so they act on what the game's fold returns — its units' findings, its table-level
 * findings and the later findings an explanation lists. Done here once, so that the period what-if, a round
 * explained under an alternative and the API's derivations all read them alike. The fold itself when no
 * alternative is selected (and its findings as they are when none of the three is).
 */
function readFindingsUnder(fold: TableFold, alternatives: readonly string[]): TableFold {
  if (!alternatives.length) return fold;
  const unit = (u: DerivedUnit): DerivedUnit => {
    const findings = findingsUnderReadings(u.findings, alternatives);
    return findings === u.findings ? u : { ...u, findings };
  };
  return {
    tableId: fold.tableId,
    apply: (e) => fold.apply(e).map(unit),
    finish: () => {
      const { units, findings } = fold.finish();
      return { units: units.map(unit), findings: [...findingsUnderReadings(findings, alternatives)] };
    },
    explain: (u, later) => fold.explain(unit(u), findingsUnderReadings(later, alternatives)),
  };
}

/**
 * Applies one event to a fold; if the fold fails on it, the event is recorded as a unit not derived, with the
 * reason, and the replay goes on with the next event: one event never halts a replay.
 */
export function applySafely(fold: TableFold, e: TableEvent): DerivedUnit[] {
  try {
    return fold.apply(e);
  } catch (error) {
    const h = e.data.header;
    return [
      {
        roundId: h.roundId ?? `table:${h.tableId}`,
        tableId: h.tableId,
        ruleSet: null,
        notDerived: {
          code: 'derivation-failed',
          message: `${e.type} ${h.eventId} could not be applied: ${(error as Error).message ?? String(error)}; the event stays stored, the replay went on`,
        },
        findings: [],
      },
    ];
  }
}
