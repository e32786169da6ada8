import type { EventStore } from '@table-audit/eventstore';
import {
  DEFAULT_REPLAY_OPTIONS,
  type DerivedUnit,
  type Finding,
  type ReplayOptions,
  type TableEvent,
} from '@table-audit/rules';
import { tableStream } from './streams.ts';
import { TableFolds, toTableEvent } from './tables.ts';

export class RoundNotFound extends Error {
  override readonly name = 'RoundNotFound';
}

/** A disputed round, rebuilt from the store alone: its explanation as data (JSON) and as text for people. */
export interface RoundExplanation {
  readonly roundId: string;
  readonly tableId: string;
  readonly json: object;
  readonly text: string;
  /**
   * How the explanation was made, for people (the API sends it as a header, not in the body): the table folded
   * from its first event, or the fold resumed from the start state of the round's record (its stream and revision).
   * Absent: the table folded from its first event.
   */
  readonly derivedFrom?: string;
}

/** What explainRound may be told besides the replay options. */
export interface ExplainOptions {
  /** each finding of the explanation as shown (e.g. services/replay's storedForm); default: as the fold made it */
  readonly findingsAs?: (f: Finding) => Finding;
}

/**
 * Rebuilds a round from the event store alone and explains it with its game's module: every event, every rule
 * applied with its article, expected beside declared, and the findings about it (those judged in the next round,
 * such as a Progressive bet not carried over, included). `options.alternatives`: interpretation ids read the
 * alternative way (e.g. H1 for a 2008 round).
 */
export async function explainRound(
  store: EventStore,
  roundId: string,
  options: ReplayOptions = DEFAULT_REPLAY_OPTIONS,
  explain: ExplainOptions = {},
): Promise<RoundExplanation> {
  let tableId: string | null = null;
  for await (const e of store.readAll()) {
    const ev = toTableEvent(e);
    if (ev && ev.data.header.roundId === roundId) {
      tableId = ev.data.header.tableId;
      break;
    }
  }
  if (!tableId) throw new RoundNotFound(`no event of round "${roundId}" is in the store`);
  const tables = new TableFolds(options);
  let target: DerivedUnit | null = null;
  const later: Finding[] = [];
  let roundsAfter = 0;
  for await (const stored of store.readStream(tableStream(tableId))) {
    const e: TableEvent | null = toTableEvent(stored);
    if (!e) continue;
    for (const r of tables.apply(e) ?? []) {
      if (r.roundId === roundId) target = r;
      else if (target) {
        roundsAfter++;
        later.push(...r.findings.filter((f) => f.roundId === roundId)); // cross-round checks judged later
      }
    }
    if (target && roundsAfter >= 1) break;
  }
  const fold = tables.get(tableId);
  if (!target && fold) target = fold.finish().units.find((r) => r.roundId === roundId) ?? null;
  const unjudged = tables.unjudged.get(tableId);
  if (!target || !fold)
    throw new RoundNotFound(
      `round "${roundId}" of table ${tableId} could not be rebuilt${unjudged ? `: ${unjudged.reason}` : ''}`,
    );
  const as = explain.findingsAs;
  const { json, text } = as
    ? fold.explain({ ...target, findings: target.findings.map(as) }, later.map(as))
    : fold.explain(target, later);
  return { roundId, tableId, json, text };
}
