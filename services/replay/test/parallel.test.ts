import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { canonicalJson, type EventStore } from '@table-audit/eventstore';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { simulateSession } from '@table-audit/simulator';
import { replayInParallel } from '../src/parallel.ts';
import { ReplayService } from '../src/service.ts';
import { inShard, readForShard, shardCheckpoint, shardOf } from '../src/shards.ts';
import { FINDING_EVENT_TYPE, ROUND_EVENT_TYPE, tableStream } from '../src/streams.ts';
import { storeEvents } from './stored-session.ts';

/**
 * A labelled session: faults at a rate, handled irregularities, a doubling bettor (30 rounds give its run of 10
 * steps room), colluders.
 */
const session = simulateSession({
  seed: 4242,
  tables: 24,
  roundsPerTable: 30,
  faultRate: 0.15,
  handledRate: 0.06,
  bettingSystemTables: 1,
  collusionTables: 1,
  collusionRounds: 300,
});

/** What the replay wrote: every finding and round record, as stream, id and canonical data. */
async function written(store: EventStore): Promise<string[]> {
  const out: string[] = [];
  for await (const e of store.readAll())
    if (e.type === FINDING_EVENT_TYPE || e.type === ROUND_EVENT_TYPE)
      out.push(`${e.stream} ${e.eventId} ${canonicalJson(e.data)}`);
  return out.sort();
}

describe('parallel replay, sharded by table across worker threads', () => {
  it("readForShard: the global log holding only the shard's table streams; writes go to the store itself", async () => {
    const store = new SqliteEventStore(':memory:');
    try {
      const tables = ['T-A', 'T-B', 'T-C', 'T-D', 'T-E', 'T-F'];
      const shard = { index: 1, count: 2 };
      for (let i = 0; i < 3; i++)
        for (const t of tables)
          await store.append(tableStream(t), [{ eventId: `${t}-${i}`, type: 'X', data: i }]);
      await store.append('findings-T-A', [{ eventId: 'f', type: FINDING_EVENT_TYPE, data: null }]);
      const view = readForShard(store, shard);
      const ours = tables.filter((t) => shardOf(t, 2) === 1);
      assert.ok(ours.length > 0 && ours.length < tables.length, 'the shard holds some tables, not all');
      const read = async (o: Parameters<EventStore['readAll']>[0]) => {
        const out: { id: string; position: bigint }[] = [];
        for await (const e of view.readAll(o)) out.push({ id: e.eventId, position: e.position });
        return out;
      };
      const all = await read({});
      assert.deepEqual(
        all.map((e) => e.id),
        [0, 1, 2].flatMap((i) => ours.map((t) => `${t}-${i}`)),
        "its tables' events only, in global order (no findings stream)",
      );
      assert.deepEqual(await read({ maxCount: 2 }), all.slice(0, 2), 'maxCount counts the events it keeps');
      assert.deepEqual(await read({ fromPosition: all[1]!.position }), all.slice(2));
      // appendMany (one transaction with the checkpoint) is the store's own
      assert.equal(view.atomicAcrossStreams, true);
      await view.appendMany!(
        [{ stream: 'rounds-T-A', events: [{ eventId: 'r', type: ROUND_EVENT_TYPE, data: 1 }] }],
        {
          checkpoint: { name: shardCheckpoint(shard), position: all.at(-1)!.position },
        },
      );
      assert.equal(await store.loadCheckpoint(shardCheckpoint(shard)), all.at(-1)!.position);
      assert.equal((await read({})).length, all.length, 'the rounds stream is not a table stream');
    } finally {
      await store.close();
    }
  });

  it('places every table in one shard, by a stable hash of its id', () => {
    assert.equal(shardOf('LIS-F3CP-001', 4), shardOf('LIS-F3CP-001', 4));
    const tables = [...new Set(session.events.map((e) => e.data.header.tableId))];
    for (const count of [1, 2, 3, 4])
      for (const t of tables) {
        const owners = Array.from({ length: count }, (_, index) => index).filter((index) =>
          inShard(tableStream(t), { index, count }),
        );
        assert.deepEqual(owners, [shardOf(t, count)]);
      }
    // the tables spread over the shards
    const used = new Set(tables.map((t) => shardOf(t, 3)));
    assert.equal(used.size, 3);
    assert.throws(() => shardOf('T', 0), /shard count/);
  });

  it('writes exactly the findings and round records of a single-threaded replay; a re-run writes nothing', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'ta-parallel-'));
    const single = join(dir, 'single.sqlite');
    const parallel = join(dir, 'parallel.sqlite');
    await storeEvents(single, session.events);
    copyFileSync(single, parallel);

    const one = new SqliteEventStore(single, { mustExist: true });
    t.after(() => one.close());
    const service = new ReplayService({ store: one });
    await service.catchUp();
    await service.finish();
    const expected = await written(one);
    assert.ok(service.stats.findingsAppended > 0 && service.stats.roundRecordsAppended > 0);

    const result = await replayInParallel({ storePath: parallel, workers: 3 });
    const many = new SqliteEventStore(parallel, { mustExist: true });
    t.after(() => many.close());
    assert.deepEqual(await written(many), expected);
    assert.equal(result.stats.rounds, service.stats.rounds);
    assert.equal(result.stats.findingsAppended, service.stats.findingsAppended);
    assert.equal(result.stats.roundRecordsAppended, service.stats.roundRecordsAppended);
    assert.equal(result.findings.length, service.stats.findingsAppended);
    assert.ok(
      result.shards.every((s) => s.rounds > 0),
      'every shard replayed some tables',
    );
    // every labelled fault found under its check id, by the shards
    const missed = session.truth.flatMap((x) =>
      x.checkIds.filter(
        (c) =>
          !result.findings.some(
            (f) => f.checkId === c && (x.roundId ? f.roundId === x.roundId : f.tableId === x.tableId),
          ),
      ),
    );
    assert.deepEqual(missed, []);
    for (let index = 0; index < 3; index++)
      assert.ok((await many.loadCheckpoint(shardCheckpoint({ index, count: 3 }))) !== null);

    const again = await replayInParallel({ storePath: parallel, workers: 3 });
    assert.equal(again.stats.findingsAppended + again.stats.roundRecordsAppended, 0);
    assert.deepEqual(await written(many), expected);
  });
});
