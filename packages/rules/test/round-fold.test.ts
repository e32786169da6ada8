import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EventHeader, TableEvent } from '@table-audit/schemas/events';
import type { DerivedUnit } from '../src/game.ts';
import { RoundTableFold } from '../src/round-fold.ts';

/**
 * The shared round fold (13 Cards, the Mah-Jong deal): a round runs from RoundStarted to RoundSettled or
 * RoundVoided; the next RoundStarted, TableClosed or the end of the events close one left open; events of no open
 * round are kept, never dropped; the game sees each round's events in order and the TableOpened before it.
 */
let seq = 0;
const header = (roundId: string | null): EventHeader => ({
  eventId: `e-${++seq}`,
  eventTime: Date.parse('2025-12-01T04:00:00Z') + seq,
  receivedTime: null,
  sourceKind: 'TABLE_CONTROLLER',
  sourceDevice: 'd',
  sequence: seq,
  casino: 'Casino Lisboa',
  concessionaire: 'SJM Resorts',
  tableId: 'T',
  roundId,
  staffId: null,
});
const started = (r: string): TableEvent => ({
  type: 'RoundStarted',
  data: { header: header(r), roundNumber: 1, dealerId: null, shuffleId: null },
});
const settled = (r: string): TableEvent => ({ type: 'RoundSettled', data: { header: header(r) } });
const voided = (r: string): TableEvent =>
  ({ type: 'RoundVoided', data: { header: header(r), reason: 'OTHER', note: null } }) as TableEvent;
const other = (r: string | null): TableEvent =>
  ({ type: 'SeatOccupied', data: { header: header(r), seat: 1, playerId: 'p' } }) as TableEvent;

interface Unit extends DerivedUnit {
  readonly types: string[];
  readonly opened: boolean;
}

function fold() {
  const closed: Unit[] = [];
  const f = new RoundTableFold<TableEvent, Unit>('T', {
    close(roundId, events, table) {
      const u: Unit = {
        roundId,
        tableId: table.tableId,
        ruleSet: null,
        notDerived: null,
        findings: [],
        types: events.map((e) => e.type),
        opened: table.opened !== null,
      };
      closed.push(u);
      return u;
    },
    explain: (u, findings) => ({ json: { roundId: u.roundId, findings }, text: u.roundId }),
  });
  const run = (events: TableEvent[]) => events.flatMap((e) => f.apply(e));
  return { f, run, closed };
}

describe('the shared round fold', () => {
  it('closes a round at RoundSettled or RoundVoided, with its events in order', () => {
    const { run } = fold();
    const units = run([started('r1'), other('r1'), settled('r1'), started('r2'), voided('r2')]);
    assert.deepEqual(
      units.map((u) => [u.roundId, u.types.join(',')]),
      [
        ['r1', 'RoundStarted,SeatOccupied,RoundSettled'],
        ['r2', 'RoundStarted,RoundVoided'],
      ],
    );
    assert.ok(
      units.every((u) => !u.opened),
      'no TableOpened came',
    );
  });

  it('closes a round left open at the next RoundStarted, at TableClosed, and at the end', () => {
    const { f, run } = fold();
    assert.deepEqual(
      run([started('r1'), started('r2')]).map((u) => u.roundId),
      ['r1'],
    );
    assert.deepEqual(
      run([{ type: 'TableClosed', data: { header: header(null), reason: 'end' } } as TableEvent]).map(
        (u) => u.roundId,
      ),
      ['r2'],
    );
    run([started('r3')]);
    assert.deepEqual(
      f.finish().units.map((u) => u.roundId),
      ['r3'],
    );
    assert.deepEqual(f.finish().units, [], 'nothing twice');
  });

  it('keeps events of no open round, and another round’s settlement, in unassigned', () => {
    const { f, run } = fold();
    const stray = other(null);
    const late = settled('r0');
    const units = run([stray, started('r1'), late, other('r9'), settled('r1')]);
    assert.deepEqual(
      units.map((u) => u.types.length),
      [2],
    );
    assert.deepEqual(
      f.unassigned.kept.map((e) => e.data.header.eventId),
      [stray.data.header.eventId, late.data.header.eventId, f.unassigned.kept[2]!.data.header.eventId],
    );
    assert.equal(f.unassigned.length, 3);
  });

  it('hands the game the last TableOpened, and the findings judged later with a round’s own', () => {
    const { f, run } = fold();
    const [u] = run([
      { type: 'TableOpened', data: { header: header(null) } } as unknown as TableEvent,
      started('r1'),
      settled('r1'),
    ]);
    assert.equal(u!.opened, true);
    const later = { roundId: 'r1', checkId: 'X' } as never;
    const elsewhere = { roundId: 'r2', checkId: 'Y' } as never;
    assert.deepEqual((f.explain(u!, [later, elsewhere]).json as { findings: unknown[] }).findings, [later]);
  });
});
