/**
 * What the pure-replay measurements share (bench/replay-memory.bench.ts, bench/replay-cpu.ts, bench/replay-ab.ts):
 * the simulated session they replay and the grouping baseline they compare it with.
 */
import type { TableEvent } from '@table-audit/rules';
import { simulateSession } from '@table-audit/simulator';

/** The pure-replay benches' session: `tables` tables of `rounds` rounds plus `collusionTables` of colluders. */
export const pureReplaySession = (tables: number, rounds: number, collusionTables = 2) =>
  simulateSession({
    seed: 11,
    tables: tables + collusionTables,
    roundsPerTable: rounds,
    faultRate: 0.05,
    handledRate: 0.02,
    bettingSystemTables: 2,
    collusionTables,
    collusionRounds: 400,
  });

/**
 * The grouping baseline: each event appended to its table's open round; when a round ends (an event of another
 * round, or the end), its events are read again (type and time), as a fold reads them when it closes the round.
 * Returns the rounds so grouped and a sum of what was read, so that nothing is optimised away.
 */
export function groupOnly(list: readonly TableEvent[]): { rounds: number; read: number } {
  const open = new Map<string, { roundId: string | null; events: TableEvent[] }>();
  let grouped = 0;
  let read = 0;
  const close = (o: { events: TableEvent[] }) => {
    for (const e of o.events) read += (e.data.header.eventTime & 1) + (e.type === 'RoundSettled' ? 1 : 0);
    grouped++;
    o.events = [];
  };
  for (const e of list) {
    const h = e.data.header;
    let o = open.get(h.tableId);
    if (!o) open.set(h.tableId, (o = { roundId: null, events: [] }));
    if (h.roundId !== null && h.roundId !== o.roundId) {
      if (o.events.length) close(o);
      o.roundId = h.roundId;
    }
    o.events.push(e);
  }
  for (const o of open.values()) if (o.events.length) close(o);
  return { rounds: grouped, read };
}
