import type { F3cpEvent } from '@table-audit/schemas/events';
import type { Finding } from './finding.ts';
import {
  DEFAULT_REPLAY_OPTIONS,
  TableReplayer,
  type ReplayedRound,
  type ReplayOptions,
} from './table-replayer.ts';

export interface ReplayResult {
  rounds: ReplayedRound[];
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
  const rounds: ReplayedRound[] = [];
  for (const e of events) {
    const id = e.data.header.tableId;
    let t = tables.get(id);
    if (!t) tables.set(id, (t = new TableReplayer(id, options)));
    rounds.push(...t.apply(e));
  }
  const findings = rounds.flatMap((r) => r.findings);
  for (const t of tables.values()) {
    const end = t.finish();
    rounds.push(...end.rounds);
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
