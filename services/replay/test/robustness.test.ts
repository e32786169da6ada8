// One event must never halt a replay: an event the replay cannot derive is recorded, with the reason, and the
// rest goes on (the store issue: one eventTime of 8.7e15 made every later replay fail with "Invalid time value").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import type { F3cpEvent } from '@table-audit/schemas/events';
import { simulateSession } from '@table-audit/simulator';
import type { TableFold } from '@table-audit/rules';
import { explainRound } from '../src/explain.ts';
import { replayEvents } from '../src/replay-events.ts';
import { ReplayService } from '../src/service.ts';
import { tableStream } from '../src/streams.ts';
import { applySafely } from '../src/tables.ts';

const session = simulateSession({ seed: 11, tables: 3, roundsPerTable: 6, faultRate: 0, handledRate: 0 });
const baseline = replayEvents(session.events);
const UNDATED = 8.7e15; // beyond the ±8.64e15 ms a Date can hold

/** The session with `change` applied to the events of its second table's third round. */
function withRound(change: (e: F3cpEvent) => void): {
  events: F3cpEvent[];
  roundId: string;
  tableId: string;
} {
  const events = structuredClone(session.events) as F3cpEvent[];
  const tableId = session.tables[1]!.tableId;
  const rounds = [
    ...new Set(events.filter((e) => e.data.header.tableId === tableId).map((e) => e.data.header.roundId)),
  ].filter((r): r is string => r !== null);
  const roundId = rounds[2]!;
  for (const e of events) if (e.data.header.roundId === roundId) change(e);
  return { events, roundId, tableId };
}

describe('one event never halts the replay', () => {
  it('a BetPlaced at 8.7e15 ms: the round is judged on its other events, with EVENT.TIME_OUT_OF_LINE naming it', () => {
    let done = false;
    const { events, roundId } = withRound((e) => {
      if (!done && e.type === 'BetPlaced') {
        e.data.header.eventTime = UNDATED;
        done = true;
      }
    });
    const r = replayEvents(events);
    const found = r.findings.filter((f) => f.roundId === roundId);
    assert.deepEqual(
      found.map((f) => f.checkId),
      ['F3CP.EVENT.TIME_OUT_OF_LINE'],
    );
    assert.match(found[0]!.summary, /at 8700000000000000 ms \(not a date\) \(UTC\)/);
    assert.equal(r.rounds.length, baseline.rounds.length);
    assert.equal(r.findings.length, baseline.findings.length + 1);
  });

  it('a round whose every event is at 8.7e15 ms: recorded as not derived, with the event and why; every other round as before', () => {
    const { events, roundId } = withRound((e) => void (e.data.header.eventTime = UNDATED));
    const r = replayEvents(events);
    const failed = r.notDerived.filter((n) => n.reason.code === 'derivation-failed');
    assert.deepEqual(
      failed.map((n) => n.roundId),
      [roundId],
    );
    assert.match(failed[0]!.reason.message, /has eventTime 8700000000000000, which is not a date/);
    assert.deepEqual(
      r.findings.filter((f) => f.roundId !== roundId).map((f) => f.findingId),
      baseline.findings.filter((f) => f.roundId !== roundId).map((f) => f.findingId),
    );
  });

  it('from the store: catchUp goes past it, appends every other finding, and the round can still be explained', async () => {
    const store = new SqliteEventStore(':memory:');
    const { events, roundId, tableId } = withRound((e) => {
      if (e.type === 'BetPlaced') e.data.header.eventTime = UNDATED;
    });
    // stored as a store written before ingest refused such times holds it
    const byTable = new Map<string, F3cpEvent[]>();
    for (const e of events)
      byTable.set(e.data.header.tableId, [...(byTable.get(e.data.header.tableId) ?? []), e]);
    for (const [t, list] of byTable)
      await store.append(
        tableStream(t),
        list.map((e) => ({ eventId: e.data.header.eventId, type: e.type, data: e.data })),
      );
    const service = new ReplayService({ store });
    const stats = await service.catchUp();
    await service.finish();
    assert.equal(stats.tableEvents, events.length);
    assert.ok(stats.findingsAppended > 0);
    const x = await explainRound(store, roundId);
    assert.equal(x.tableId, tableId);
    assert.match(x.text, /8700000000000000 ms \(not a date\)/);
    await store.close();
  });

  it('a fold that throws on an event: the event is recorded as not derived, with its id and the reason', () => {
    const event = session.events[5]!;
    const fold: TableFold = {
      tableId: event.data.header.tableId,
      apply: () => {
        throw new RangeError('Invalid time value');
      },
      finish: () => ({ units: [], findings: [] }),
      explain: () => ({ json: {}, text: '' }),
    };
    const [unit] = applySafely(fold, event);
    assert.equal(unit!.notDerived?.code, 'derivation-failed');
    assert.match(
      unit!.notDerived!.message,
      new RegExp(`^${event.type} ${event.data.header.eventId} could not be applied: Invalid time value`),
    );
  });
});
