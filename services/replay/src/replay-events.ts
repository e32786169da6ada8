import {
  DEFAULT_REPLAY_OPTIONS,
  type DerivedUnit,
  type Finding,
  type NotDerived,
  type ReplayOptions,
  type RoundRecord,
  type TableEvent,
} from '@table-audit/rules';
import { TableFolds, type UnjudgedTable } from './tables.ts';

/** What a batch replay keeps of each round: its id, table, findings, whether it could be re-derived, its record. */
export interface RoundSummary {
  roundId: string;
  tableId: string;
  ruleSet: string | null;
  notDerived: NotDerived | null;
  findings: readonly Finding[];
  /** what the service appends to `rounds-<table>` (null: the game module made none) */
  record: RoundRecord | null;
}

const summary = (r: DerivedUnit): RoundSummary => ({
  roundId: r.roundId,
  tableId: r.tableId,
  ruleSet: r.ruleSet,
  notDerived: r.notDerived,
  findings: r.findings,
  record: r.record ?? null,
});

export interface ReplayResult {
  rounds: RoundSummary[];
  findings: Finding[];
  /** rounds the replay could not re-derive, with the reason (rule set not implemented, incomplete cards, …) */
  notDerived: { roundId: string; reason: NotDerived }[];
  /** tables whose events no game module could judge, with how many events and why */
  unjudged: UnjudgedTable[];
}

/** Replays events in order (any mix of tables and games), one fold per table. Pure: no store, no clock. */
export function replayEvents(
  events: Iterable<TableEvent>,
  options: ReplayOptions = DEFAULT_REPLAY_OPTIONS,
): ReplayResult {
  // lean: the summaries are all this keeps of a round, so the folds need not hand over the view and derivation
  const tables = new TableFolds(options.lean === undefined ? { ...options, lean: true } : options);
  const rounds: RoundSummary[] = [];
  const apply = (e: TableEvent) => {
    const done = tables.apply(e);
    if (done) for (const r of done) rounds.push(summary(r)); // the round's events are not kept: memory stays flat
  };
  if (Array.isArray(events)) for (let i = 0; i < events.length; i++) apply(events[i] as TableEvent);
  else for (const e of events) apply(e);
  const findings = rounds.flatMap((r) => r.findings);
  for (const t of tables.values()) {
    const end = t.finish();
    for (const r of end.units) rounds.push(summary(r));
    findings.push(...end.units.flatMap((r) => r.findings), ...end.findings);
  }
  return {
    rounds,
    findings,
    notDerived: rounds
      .filter((r) => r.notDerived !== null)
      .map((r) => ({ roundId: r.roundId, reason: r.notDerived! })),
    unjudged: [...tables.unjudged.values()],
  };
}
