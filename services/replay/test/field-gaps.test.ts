// A field a check depends on must not vanish silently (issue: playerId removed from BetPlaced's schema, then the
// BETTING_SYSTEM finding disappeared): the replay reports which checks it could not run, for which rounds, and why.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { IngestPipeline, type IngestInput } from '@table-audit/ingest';
import type { F3cpEvent } from '@table-audit/schemas/events';
import { simulateSession } from '@table-audit/simulator';
import { ReplayService } from '../src/service.ts';

const session = simulateSession({
  seed: 3,
  tables: 2,
  roundsPerTable: 40,
  faultRate: 0,
  handledRate: 0,
  bettingSystemTables: 1,
});
const bettor = session.truth.find((t) => t.fault === 'betting-system')!;
const BETTING = 'F3CP.CONDUCT.BETTING_SYSTEM';

/** Ingests the session; `writtenWithout` makes the bettor's table's BetPlaced written with a schema lacking playerId. */
async function replay(writtenWithout: boolean) {
  const store = new SqliteEventStore(':memory:');
  const pipeline = new IngestPipeline(store);
  const inputs: IngestInput[] = session.events.map((event, index) => {
    const source = { kind: 'in-process' as const, producer: 'test', index };
    if (!writtenWithout || event.type !== 'BetPlaced' || event.data.header.tableId !== bettor.tableId)
      return { source, event };
    const e = structuredClone(event) as F3cpEvent & { type: 'BetPlaced' };
    e.data.playerId = null; // what the reader makes of a writer without the field: its default
    return { source, event: e, provenance: { writerSchemaId: 99, defaultedFields: ['playerId'] } };
  });
  await pipeline.submit(inputs);
  const findings: string[] = [];
  const service = new ReplayService({ store, onFinding: (f) => findings.push(`${f.tableId} ${f.checkId}`) });
  const stats = await service.catchUp();
  await service.finish();
  await store.close();
  return { stats, findings };
}

describe('checks that could not run for lack of a field are reported, per round, with why', () => {
  it('every BetPlaced of a table written without playerId: the checks on players are reported not run on its rounds', async () => {
    const { stats, findings } = await replay(true);
    assert.ok(
      !findings.includes(`${bettor.tableId} ${BETTING}`),
      'the finding cannot be made without players',
    );
    const rounds = new Set(
      session.events
        .filter((e) => e.data.header.tableId === bettor.tableId && e.type === 'BetPlaced')
        .map((e) => e.data.header.roundId),
    );
    assert.equal(stats.checksNotRun, rounds.size, 'one report per round of the table with bets');
    for (const r of stats.checksNotRunRounds) {
      assert.equal(r.tableId, bettor.tableId);
      assert.ok(rounds.has(r.roundId));
      assert.deepEqual(r.checks, ['F3CP.BET.OTHER_HAND', BETTING, 'F3CP.CONDUCT.COLLUSION']);
      assert.match(
        r.reason,
        /^BetPlaced\.playerId was not in the writer schema \(id 99\) of \d+ event\(s\) \(.+\), read as its default: F3CP\.BET\.OTHER_HAND, F3CP\.CONDUCT\.BETTING_SYSTEM, F3CP\.CONDUCT\.COLLUSION could not be run/,
      );
    }
  });

  it('the same session written with playerId: the betting system is found and no check is reported not run', async () => {
    const { stats, findings } = await replay(false);
    assert.ok(findings.includes(`${bettor.tableId} ${BETTING}`));
    assert.equal(stats.checksNotRun, 0);
    assert.deepEqual(stats.checksNotRunRounds, []);
  });
});
