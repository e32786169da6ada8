import type { F3cpEvent } from '@table-audit/schemas/events';
import type { Finding } from './finding.ts';
import {
  DEFAULT_REPLAY_OPTIONS,
  TableReplayer,
  type ReplayedRound,
  type ReplayOptions,
} from './table-replayer.ts';

/** What a batch replay keeps of each round: its id, table, findings and whether it could be re-derived. */
export interface RoundSummary {
  roundId: string;
  tableId: string;
  ruleSet: string | null;
  notDerived: string | null;
  findings: Finding[];
}

const summary = (r: ReplayedRound): RoundSummary => ({
  roundId: r.roundId,
  tableId: r.tableId,
  ruleSet: r.ruleSet,
  notDerived: r.notDerived,
  findings: r.findings,
});

export interface ReplayResult {
  rounds: RoundSummary[];
  findings: Finding[];
  /** rounds the replay could not re-derive, with the reason (rule set not implemented, incomplete cards, …) */
  notDerived: { roundId: string; reason: string }[];
}

/** Replays events in order (any mix of tables), one TableReplayer per table. Pure: no store, no clock. */
export function replayEvents(
  events: Iterable<F3cpEvent>,
  options: ReplayOptions = DEFAULT_REPLAY_OPTIONS,
): ReplayResult {
  const tables = new Map<string, TableReplayer>();
  const rounds: RoundSummary[] = [];
  for (const e of events) {
    const id = e.data.header.tableId;
    let t = tables.get(id);
    if (!t) tables.set(id, (t = new TableReplayer(id, options)));
    for (const r of t.apply(e)) rounds.push(summary(r)); // the round's events are not kept: memory stays flat
  }
  const findings = rounds.flatMap((r) => r.findings);
  for (const t of tables.values()) {
    const end = t.finish();
    for (const r of end.rounds) rounds.push(summary(r));
    findings.push(...end.rounds.flatMap((r) => r.findings), ...end.findings);
  }
  return {
    rounds,
    findings,
    notDerived: rounds
      .filter((r) => r.notDerived !== null)
      .map((r) => ({ roundId: r.roundId, reason: r.notDerived! })),
  };
}
