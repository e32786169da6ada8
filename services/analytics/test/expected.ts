import type { EventStore } from '@table-audit/eventstore';
import { REJECTS_STREAM } from '@table-audit/ingest';

const HEALTH = new Set([
  'ShufflerMalfunction',
  'ShufflerReplaced',
  'RoundVoided',
  'DealingSwitchedToShoe',
  'TableOpened',
  'TableClosed',
]);

/** What each projected table must hold for a store, counted from the store itself (distinct keys). */
export interface ExpectedCounts {
  findings: number;
  table_health: number;
  ingest_rejects: number;
  round_starts: number;
  tables: number;
}

export async function expectedCounts(store: EventStore): Promise<ExpectedCounts> {
  const findings = new Set<string>();
  const rounds = new Set<string>();
  const tables = new Set<string>();
  let health = 0;
  let rejects = 0;
  for await (const e of store.readAll()) {
    if (e.type === 'FindingRaised') findings.add((e.data as { findingId: string }).findingId);
    else if (e.stream === REJECTS_STREAM) rejects++;
    else if (e.stream.startsWith('table-')) {
      if (HEALTH.has(e.type)) health++;
      if (e.type === 'RoundStarted') rounds.add((e.data as { header: { roundId: string } }).header.roundId);
      if (e.type === 'TableOpened') tables.add((e.data as { header: { tableId: string } }).header.tableId);
    }
  }
  return {
    findings: findings.size,
    table_health: health,
    ingest_rejects: rejects,
    round_starts: rounds.size,
    tables: tables.size,
  };
}
