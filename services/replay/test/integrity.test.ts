/**
 * What the replay relies on: it checks the chain of every table event it reads, and stops a table whose record
 * failed verification with a STORE.CHAIN_BROKEN finding while the other tables go on; and, given the signed
 * checkpoint, a checkpoint moved forward in the store hides nothing from it.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Anchorer, FileAnchorSink, type Anchor } from '@table-audit/eventstore';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { openForTampering } from '@table-audit/eventstore/sqlite-tamper';
import { IngestPipeline } from '@table-audit/ingest';
import type { Finding } from '@table-audit/rules';
import { simulateSession } from '@table-audit/simulator';
import { STORE_CHAIN_BROKEN } from '../src/integrity.ts';
import { replayEvents } from '../src/replay-events.ts';
import { ReplayService } from '../src/service.ts';
import { findingStream, FINDING_EVENT_TYPE } from '../src/streams.ts';

// openForTampering: the file edited behind the store's back as sqlite3 would, through a view that shows the
// stored compact payloads as JSON text and writes edits back in the stored form

const session = simulateSession({ seed: 31, tables: 4, roundsPerTable: 20, faultRate: 0.2 });
const tables = session.tables.map((t) => t.tableId);

const ingest = (store: SqliteEventStore, events: typeof session.events, from = 0) =>
  new IngestPipeline(store, () => 0).submit(
    events.map((event, index) => ({
      source: { kind: 'in-process' as const, producer: 't', index: from + index },
      event,
    })),
  );

async function ingested(
  events = session.events,
): Promise<{ store: SqliteEventStore; path: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'ta-replay-integrity-'));
  const path = join(dir, 'events.sqlite');
  const store = new SqliteEventStore(path);
  await ingest(store, events);
  return { store, path, dir };
}

async function findingsOf(store: SqliteEventStore, tableId: string): Promise<Finding[]> {
  const out: Finding[] = [];
  for await (const e of store.readStream(findingStream(tableId)))
    if (e.type === FINDING_EVENT_TYPE) out.push(e.data as Finding);
  return out;
}

describe('replay checks the chain of what it reads', () => {
  it('stops a table at an edited event with STORE.CHAIN_BROKEN, and the other tables go on', async (t) => {
    const { store, path } = await ingested();
    t.after(() => store.close());
    const [broken, ...others] = tables as [string, ...string[]];
    const db = openForTampering(path);
    // a payout doubled behind the store's back, hash not recomputed
    const row = db
      .prepare(
        `SELECT revision, event_id, data FROM events WHERE stream = ? AND type = 'PayoutMade' ORDER BY revision LIMIT 1`,
      )
      .get(`table-${broken}`) as { revision: number; event_id: string; data: string };
    db.prepare('UPDATE events SET data = ? WHERE stream = ? AND revision = ?').run(
      row.data.replace(/"amount":(\d+)/, (_m, a: string) => `"amount":${Number(a) * 2 + 100}`),
      `table-${broken}`,
      row.revision,
    );
    db.close();
    assert.match(row.data, /"amount":\d+/, 'the edit changed a payout');

    const service = new ReplayService({ store });
    await service.catchUp();
    await service.finish();
    assert.equal(service.stats.stoppedTables, 1);
    assert.ok(service.stats.eventsNotReplayed > 0);
    const mine = await findingsOf(store, broken);
    const chain = mine.filter((f) => f.checkId === STORE_CHAIN_BROKEN);
    assert.equal(chain.length, 1);
    assert.deepEqual(chain[0]!.evidenceEventIds, [row.event_id]);
    assert.deepEqual(chain[0]!.citations, []);
    assert.match(
      chain[0]!.summary,
      new RegExp(
        `the record itself failed verification: stream "table-${broken}" revision ${row.revision} \\(event ${row.event_id}, position \\d+\\): its hash .* does not match its content`,
      ),
    );
    // nothing derived from the broken event on: only findings of events before it
    const pure = replayEvents(session.events).findings;
    for (const tableId of others) {
      const stored = (await findingsOf(store, tableId)).map((f) => f.findingId).sort();
      assert.deepEqual(
        stored,
        pure
          .filter((f) => f.tableId === tableId)
          .map((f) => f.findingId)
          .sort(),
        tableId,
      );
    }

    // a restart rebuilds the table from its stream, checking it again: the same finding (kept once), still stopped
    const again = new ReplayService({ store });
    await again.catchUp();
    await again.finish();
    assert.equal((await findingsOf(store, broken)).filter((f) => f.checkId === STORE_CHAIN_BROKEN).length, 1);
  });

  it('a replay checkpoint moved to the end: resumed from the signed one, and the findings are raised', async (t) => {
    const { store, path, dir } = await ingested();
    t.after(() => store.close());
    const key = generateKeyPairSync('ed25519').privateKey;
    const sink = new FileAnchorSink(join(dir, 'anchors'), key);
    const anchorer = new Anchorer(store, sink, { key, storeId: 't', checkpoints: ['replay'] });
    const signed = await anchorer.anchor();
    const db = openForTampering(path);
    db.prepare(
      `INSERT INTO checkpoints (name, position, saved_at) VALUES ('replay', (SELECT max(position) FROM events), 0)`,
    ).run();
    db.close();

    // the attack itself: trusting the store's checkpoint, the replay sees no event and raises nothing
    const fromStore = new ReplayService({ store });
    await fromStore.catchUp();
    assert.equal(fromStore.stats.tableEvents, 0);
    assert.equal(fromStore.stats.findingsAppended, 0);
    const signedCheckpoint = async (a: Anchor = signed) => {
      const v = a.checkpoints.replay;
      return v === undefined ? undefined : v === null ? null : BigInt(v);
    };
    const service = new ReplayService({ store, signedCheckpoint: () => signedCheckpoint() });
    await service.catchUp();
    await service.finish();
    assert.deepEqual(service.stats.checkpointDistrusted, {
      saved: BigInt(session.events.length),
      resumedFrom: null,
    });
    const expected = replayEvents(session.events).findings.length;
    let stored = 0;
    for (const tableId of tables) stored += (await findingsOf(store, tableId)).length;
    assert.equal(stored, expected);
    assert.ok(expected > 0);
  });

  it('after a restart, a table rebuilt from its stream is checked too: an event edited before the checkpoint', async (t) => {
    const half = Math.floor(session.events.length / 2);
    const { store, path } = await ingested(session.events.slice(0, half));
    t.after(() => store.close());
    const first = new ReplayService({ store });
    await first.catchUp();
    assert.equal(first.stats.stoppedTables, 0);
    const broken = tables[1]!;
    const db = openForTampering(path);
    const row = db
      .prepare(
        `SELECT revision, event_id FROM events WHERE stream = ? AND type = 'PayoutMade' ORDER BY revision LIMIT 1`,
      )
      .get(`table-${broken}`) as { revision: number; event_id: string };
    db.prepare(
      `UPDATE events SET data = replace(data, '"amount":', '"amount":1') WHERE stream = ? AND revision = ?`,
    ).run(`table-${broken}`, row.revision);
    db.close();
    await ingest(store, session.events.slice(half), half);

    const restarted = new ReplayService({ store });
    await restarted.catchUp();
    assert.equal(restarted.stats.stoppedTables, 1);
    const chain = (await findingsOf(store, broken)).filter((f) => f.checkId === STORE_CHAIN_BROKEN);
    assert.deepEqual(
      chain.map((f) => f.evidenceEventIds),
      [[row.event_id]],
    );
  });
});
