import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { openForTampering } from '@table-audit/eventstore/sqlite-tamper';
import { simulateSession } from '@table-audit/simulator';
import { explainRound, tableOfRoundRecord } from '../src/explain.ts';
import { roundReadings } from '../src/round-readings.ts';
import { ReplayService } from '../src/service.ts';
import { roundStream } from '../src/streams.ts';
import { storeEvents } from './stored-session.ts';

const session = simulateSession({ seed: 21, tables: 3, roundsPerTable: 8, faultRate: 0 });
const [t1, t2] = session.tables.map((t) => t.tableId) as [string, string];
const roundOf = (tableId: string, i: number): string =>
  [
    ...new Set(
      session.events
        .filter((e) => e.data.header.tableId === tableId && e.data.header.roundId !== null)
        .map((e) => e.data.header.roundId!),
    ),
  ][i]!;

async function replayedStore(): Promise<string> {
  const path = await storeEvents(
    join(mkdtempSync(join(tmpdir(), 'ta-round-table-')), 'events.sqlite'),
    session.events,
  );
  const store = new SqliteEventStore(path);
  const replay = new ReplayService({ store });
  await replay.catchUp();
  await replay.finish();
  await store.close();
  return path;
}

describe("a round's table, found through the round records", () => {
  it('is the table its record names; a record that names another table is only a hint, and the events decide', async () => {
    const path = await replayedStore();
    const round = roundOf(t1, 3);
    let store = new SqliteEventStore(path, { readOnly: true });
    const before = await explainRound(store, round);
    assert.equal(await tableOfRoundRecord(store, round), t1);
    assert.equal(await tableOfRoundRecord(store, 'NO-SUCH-ROUND'), null);
    await store.close();

    // the round's own record edited to name another round, and a record of table 2 edited to name it: the hint
    // points at table 2, which does not hold the round
    const db = openForTampering(path);
    const own = db
      .prepare(`SELECT revision, data FROM events WHERE stream = ? AND type = 'RoundDerived' AND data LIKE ?`)
      .get(roundStream(t1), `%"roundId":"${round}"%`) as { revision: number; data: string };
    db.prepare('UPDATE events SET data = ? WHERE stream = ? AND revision = ?').run(
      own.data.replace(`"roundId":"${round}"`, '"roundId":"ELSEWHERE"'),
      roundStream(t1),
      own.revision,
    );
    const row = db
      .prepare(
        `SELECT revision, data FROM events WHERE stream = ? AND type = 'RoundDerived' ORDER BY revision LIMIT 1`,
      )
      .get(roundStream(t2)) as { revision: number; data: string };
    const edited = row.data.replace(/"roundId":"[^"]+"/, `"roundId":"${round}"`);
    assert.notEqual(edited, row.data);
    db.prepare('UPDATE events SET data = ? WHERE stream = ? AND revision = ?').run(
      edited,
      roundStream(t2),
      row.revision,
    );
    db.close();

    store = new SqliteEventStore(path, { readOnly: true });
    try {
      assert.equal(
        await tableOfRoundRecord(store, round),
        t2,
        'the only record naming the round is the edited one',
      );
      const after = await explainRound(store, round);
      assert.equal(after.tableId, t1);
      assert.equal(after.text, before.text);
      assert.equal((await roundReadings(store, round)).tableId, t1);
    } finally {
      await store.close();
    }
  });
});
