// The projector queues a batch's inserts (one per table, run one at a time while it builds the next tables' rows):
// a failed insert stops the ones after it, and the batch's handle rejects with it only once nothing it started is
// still running (a batch handed over again must not race an insert of the same batch).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClickHouseClient } from '@clickhouse/client';
import { replayEvents, FINDING_EVENT_TYPE, ROUND_EVENT_TYPE } from '@table-audit/replay';
import { findingStream, roundStream, tableStream } from '@table-audit/schemas/streams';
import { simulateSession } from '@table-audit/simulator';
import { AnalyticsProjector } from '../src/projector.ts';
import { recorder } from '../src/testing.ts';
import type { RecordedEvent } from '@table-audit/eventstore';

const batch = (): RecordedEvent[] => {
  const session = simulateSession({ seed: 3, tables: 2, roundsPerTable: 10, faultRate: 0.5, handledRate: 0 });
  const recorded = recorder();
  const events = session.events.map((e) =>
    recorded(tableStream(e.data.header.tableId), e.type, e.data.header.eventId, e.data),
  );
  const replayed = replayEvents(session.events);
  for (const f of replayed.findings)
    events.push(recorded(findingStream(f.tableId), FINDING_EVENT_TYPE, f.findingId, f));
  for (const r of replayed.rounds)
    if (r.record)
      events.push(recorded(roundStream(r.tableId), ROUND_EVENT_TYPE, `rec-${r.roundId}`, r.record));
  return events;
};

/** A client whose inserts take a few ticks, and fail for one table; it records what ran and what overlapped. */
function fakeClient(failing: string | null) {
  const log: string[] = [];
  let running = 0;
  let overlapped = false;
  const client = {
    insert: async ({ table }: { table: string }) => {
      if (running > 0) overlapped = true;
      running++;
      log.push(`start ${table}`);
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
      running--;
      log.push(`end ${table}`);
      if (table === failing) throw new Error(`insert into ${table} failed`);
      return {};
    },
    query: async () => ({ json: async () => [] }),
  };
  return {
    client: client as unknown as ClickHouseClient,
    log,
    running: () => running,
    overlapped: () => overlapped,
  };
}

describe('the projector’s inserts', () => {
  it('run one at a time, every table with rows once', async () => {
    const fake = fakeClient(null);
    const projector = new AnalyticsProjector(fake.client);
    await projector.handle(batch());
    const started = fake.log.filter((l) => l.startsWith('start')).map((l) => l.slice(6));
    assert.deepEqual(
      [...started].sort(),
      ['bets', 'findings', 'round_starts', 'rounds', 'table_health', 'tables'],
      fake.log.join('\n'),
    );
    assert.equal(fake.overlapped(), false);
    assert.ok(projector.stats.rows.bets > 0 && projector.stats.rows.findings > 0);
  });

  it('a failed insert stops the rest, and handle rejects once nothing is running', async () => {
    const fake = fakeClient('bets');
    const projector = new AnalyticsProjector(fake.client);
    await assert.rejects(projector.handle(batch()), /insert into bets failed/);
    assert.equal(fake.running(), 0, 'no insert left running');
    const started = fake.log.filter((l) => l.startsWith('start')).map((l) => l.slice(6));
    assert.deepEqual(started, ['rounds', 'bets'], fake.log.join('\n'));
    assert.equal(projector.stats.rows.bets, 0);
    assert.equal(projector.stats.batches, 0);
  });
});
