import type { RecordedEvent } from '@table-audit/eventstore';
import { gameModuleFor, type DerivedUnit, type TableEvent } from '@table-audit/rules';

/** Checks the replay could not run on a round, and why: a field they need was not in the event's writer schema. */
export interface ChecksNotRun {
  readonly tableId: string;
  readonly roundId: string;
  readonly checks: readonly string[];
  readonly reason: string;
}

interface Gap {
  checks: Set<string>;
  /** "BetPlaced.playerId" → writer schema ids and event ids (a few) */
  fields: Map<string, { schemaIds: Set<number>; events: string[]; count: number }>;
}

/** Rounds followed at a time (a round is forgotten once it completes; the oldest first beyond this). */
const OPEN_ROUNDS = 10_000;

/** The event types named by a game's field dependencies (`BetPlaced.playerId` → BetPlaced), once per game. */
const DEPENDENT_TYPES = new WeakMap<object, ReadonlySet<string>>();
function typesWithDependencies(
  dependencies: Readonly<Record<string, readonly string[]>>,
): ReadonlySet<string> {
  let types = DEPENDENT_TYPES.get(dependencies);
  if (!types) {
    types = new Set(
      Object.entries(dependencies)
        .filter(([, checks]) => checks.length > 0)
        .map(([key]) => (key.includes('.') ? key.slice(0, key.indexOf('.')) : key)),
    );
    DEPENDENT_TYPES.set(dependencies, types);
  }
  return types;
}

/**
 * Follows, per round, the events whose writer schema lacked a field some check depends on (ingest keeps the
 * fields read as defaults in the stored metadata, `defaultedFields`), and reports those checks for the round once
 * it completes: a field that vanished from a producer's schema never makes a finding silently disappear.
 */
export class FieldGaps {
  private readonly open = new Map<string, Gap>();

  /** Notes an event's defaulted fields that a check of its table's game depends on. */
  note(stored: RecordedEvent, e: TableEvent, game: string | null): void {
    if (game === null) return;
    const dependencies = gameModuleFor(game)?.fieldDependencies;
    // the metadata is read only for the event types some check depends on a field of: a store that decodes it
    // lazily never decodes it for the others
    if (!dependencies || !typesWithDependencies(dependencies).has(e.type)) return;
    const defaulted = stored.metadata?.['defaultedFields'];
    if (!Array.isArray(defaulted) || defaulted.length === 0) return;
    const h = e.data.header;
    const key = `${h.tableId}\u0000${h.roundId ?? ''}`;
    for (const field of defaulted) {
      const checks = dependencies[`${e.type}.${String(field)}`];
      if (!checks?.length) continue;
      let gap = this.open.get(key);
      if (!gap) {
        this.open.set(key, (gap = { checks: new Set(), fields: new Map() }));
        if (this.open.size > OPEN_ROUNDS) this.open.delete(this.open.keys().next().value!);
      }
      for (const c of checks) gap.checks.add(c);
      const name = `${e.type}.${String(field)}`;
      const f = gap.fields.get(name) ?? { schemaIds: new Set<number>(), events: [], count: 0 };
      gap.fields.set(name, f);
      const id = stored.metadata?.['writerSchemaId'];
      if (typeof id === 'number') f.schemaIds.add(id);
      if (f.events.length < 3) f.events.push(h.eventId);
      f.count++;
    }
  }

  /** The checks not run on a completed round, if any (and the round is forgotten). */
  completed(unit: DerivedUnit): ChecksNotRun | null {
    const key = `${unit.tableId}\u0000${unit.roundId}`;
    const gap = this.open.get(key);
    if (!gap) return null;
    this.open.delete(key);
    const fields = [...gap.fields].map(
      ([name, f]) =>
        `${name} was not in the writer schema${f.schemaIds.size ? ` (id ${[...f.schemaIds].join(', ')})` : ''} of ${f.count} event(s) (${f.events.join(', ')}${f.count > f.events.length ? ', …' : ''}), read as its default`,
    );
    const checks = [...gap.checks].sort();
    return {
      tableId: unit.tableId,
      roundId: unit.roundId,
      checks,
      reason: `${fields.join('; ')}: ${checks.join(', ')} could not be run on the round's ${[...gap.fields.keys()].join(', ')}`,
    };
  }
}
