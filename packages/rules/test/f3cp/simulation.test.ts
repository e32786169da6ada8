/**
 * The F3CP simulation part on its own, one table at a time: each fault, injected into a round of an otherwise
 * clean session, is found under exactly its check ids and nothing else is; each handled irregularity happens and
 * raises nothing; the catalogue names every check. (The labelled session over 205 tables is in services/replay.)
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EventHeader, F3cpEvent, SourceKind } from '@table-audit/schemas/events';
import { ALL_F3CP_CHECK_IDS } from '../../src/f3cp/checks/index.ts';
import { F3CP_MODULE } from '../../src/f3cp/module.ts';
import { F3CP_HANDLED_IRREGULARITIES, F3CP_ROUND_FAULTS } from '../../src/f3cp/simulation/index.ts';
import type { SimulatedTable, TableClock } from '../../src/game.ts';
import { seededRng } from '../../src/rng.ts';
import { replayTable } from './spec.ts';

/** Two seconds between events, one sequence per device. */
function testClock(tableId: string): TableClock {
  let time = Date.parse('2025-12-01T04:00:00Z');
  const sequences = new Map<string, number>();
  return {
    now: () => time,
    pause: (ms) => void (time += ms),
    stamp: (source: SourceKind, roundId, staffId): EventHeader => {
      time += 2_000;
      const device = `${source}-${tableId}`;
      const sequence = (sequences.get(device) ?? 0) + 1;
      sequences.set(device, sequence);
      return {
        eventId: `${device}-${sequence}`,
        eventTime: time,
        receivedTime: null,
        sourceKind: source,
        sourceDevice: device,
        sequence,
        casino: 'Casino Teste',
        concessionaire: 'Concessionária Teste',
        tableId,
        roundId,
        staffId,
      };
    },
  };
}

const simulation = F3CP_MODULE.simulation!;

/** Each device's events numbered 1, 2, 3 … in the order the table emitted them (faults add and remove some). */
function renumber(events: readonly F3cpEvent[]): void {
  const sequences = new Map<string, number>();
  for (const e of events) {
    const h = e.data.header;
    h.sequence = (sequences.get(h.sourceDevice) ?? 0) + 1;
    sequences.set(h.sourceDevice, h.sequence);
  }
}

/**
 * A table that plays clean rounds until it can show `name`, plays it, then a clean round after it (where a
 * forgotten carry-over is judged). Tables are tried seed after seed until one offers what the fault needs.
 */
function sessionWith(
  name: string,
  kind: 'fault' | 'handled',
): { events: F3cpEvent[]; roundId: string | null } {
  for (let seed = 1; seed <= 40; seed++) {
    const rng = seededRng(seed);
    const tableId = `T-${seed}`;
    const table: SimulatedTable = simulation.openTable({
      tableId,
      rng,
      clock: testClock(tableId),
      conduct: null,
    });
    const events = table.open() as F3cpEvent[];
    for (let round = 0; round < 6; round++) {
      const can = kind === 'fault' ? table.canInject(name, false) : table.canHandle(name);
      if (!can) {
        events.push(...(table.playRound(null, null).events as F3cpEvent[]));
        continue;
      }
      const played = kind === 'fault' ? table.playRound(name, null) : table.playRound(null, name);
      events.push(...(played.events as F3cpEvent[]));
      events.push(...(table.playRound(null, null).events as F3cpEvent[]), ...(table.close() as F3cpEvent[]));
      // as the session runner does: each device numbers its events as emitted, then some arrive out of order
      renumber(events);
      for (const { event, before } of played.deliveredOutOfOrder ?? []) {
        events.splice(events.indexOf(event as F3cpEvent), 1);
        events.splice(events.indexOf(before as F3cpEvent), 0, event as F3cpEvent);
      }
      return { events, roundId: played.faultyRoundId };
    }
  }
  throw new Error(`no table of 40 offered what ${name} needs`);
}

describe('the F3CP faults, each on its own table', () => {
  for (const fault of F3CP_ROUND_FAULTS)
    it(`${fault.name} → ${fault.checkIds.join(' + ')}, and nothing else`, () => {
      const { events, roundId } = sessionWith(fault.name, 'fault');
      const findings = replayTable(events).findings.map(
        (f) => `${f.roundId === roundId ? 'fault' : f.roundId}: ${f.checkId}`,
      );
      assert.deepEqual(
        [...new Set(findings)].sort(),
        [...new Set(fault.checkIds)].map((id) => `fault: ${id}`).sort(),
      );
    });
});

/** What shows that each handled irregularity happened. */
const HAPPENED: Record<string, (events: readonly F3cpEvent[]) => boolean> = {
  'malfunction-handled': (events) =>
    events.some((e) => e.type === 'ShufflerMalfunction') &&
    events.some((e) => e.type === 'RoundVoided' && e.data.reason === 'SHUFFLER_MALFUNCTION'),
  'one-card-exposed': (events) => events.some((e) => e.type === 'CardExposed' && e.data.target === 'SEAT'),
  'card-to-empty-seat': (events) => {
    const betOn = new Set(
      events.flatMap((e) => (e.type === 'BetPlaced' ? [`${e.data.header.roundId}:${e.data.seat}`] : [])),
    );
    return events.some(
      (e) =>
        e.type === 'CardDealt' &&
        e.data.target === 'SEAT' &&
        !betOn.has(`${e.data.header.roundId}:${e.data.seat}`),
    );
  },
};

describe('the irregularities a table handles as the law says', () => {
  for (const h of F3CP_HANDLED_IRREGULARITIES)
    it(`${h.name}: it happens, and nothing is found`, () => {
      const { events } = sessionWith(h.name, 'handled');
      assert.ok(HAPPENED[h.name]!(events), `${h.name} shows in the events`);
      assert.deepEqual(
        replayTable(events).findings.map((f) => `${f.roundId}: ${f.checkId} ${f.summary}`),
        [],
      );
    });
});

describe('the fault catalogue', () => {
  it('names each fault once, with known check ids; the handled irregularities with none', () => {
    const names = [...F3CP_ROUND_FAULTS, ...F3CP_HANDLED_IRREGULARITIES].map((f) => f.name);
    assert.equal(new Set(names).size, names.length);
    assert.equal(F3CP_ROUND_FAULTS.length, 44);
    for (const f of F3CP_ROUND_FAULTS) {
      assert.ok(f.checkIds.length > 0, f.name);
      for (const id of f.checkIds) assert.ok(ALL_F3CP_CHECK_IDS.includes(id), `${f.name}: ${id}`);
    }
    assert.deepEqual(
      F3CP_HANDLED_IRREGULARITIES.map((h) => [h.name, h.checkIds.length]),
      [
        ['malfunction-handled', 0],
        ['one-card-exposed', 0],
        ['card-to-empty-seat', 0],
      ],
    );
  });

  it('exercises every check id: by a round fault or by a conduct over the session', () => {
    const targeted = new Set([
      ...F3CP_ROUND_FAULTS.flatMap((f) => f.checkIds),
      ...Object.values(simulation.conduct).flatMap((c) => c.checkIds),
    ]);
    assert.deepEqual(
      ALL_F3CP_CHECK_IDS.filter((id) => !targeted.has(id)),
      [],
    );
  });
});
