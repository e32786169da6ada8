/**
 * Version 2 stores (hashes as hex text) are refused with the command that converts them, never misread; the
 * converter writes a new version 3 file with the same events, positions, hashes and checkpoints.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { collect } from '../src/conformance.ts';
import { SqliteEventStore } from '../src/sqlite-event-store.ts';
import { migrateStore } from '../src/sqlite-migrate.ts';

const dir = mkdtempSync(join(tmpdir(), 'ta-migrate-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

/**
 * A version 2 store: written by this code, then turned back into version 2's form (the same tables, hashes as
 * 64 hex digits, user_version 2). Returns its path and its events as version 3 read them.
 */
async function versionTwoStore() {
  const path = join(dir, `v2-${++n}.sqlite`);
  const store = new SqliteEventStore(path);
  for (let i = 0; i < 3; i++)
    await store.appendMany(
      [
        { stream: 'table-1', events: [{ eventId: `a${i}`, type: 'Dealt', data: { card: `A${i}` } }] },
        {
          stream: 'table-2',
          events: [{ eventId: `b${i}`, type: 'Paid', data: { amount: i }, metadata: { m: i } }],
        },
      ],
      { checkpoint: { name: 'replay', position: BigInt(i + 1) } },
    );
  const events = await collect(store.readAll());
  await store.close();
  const db = new Database(path);
  db.exec(`UPDATE events SET hash = lower(hex(hash)), previous_hash = lower(hex(previous_hash));
           PRAGMA user_version = 2; PRAGMA wal_checkpoint(TRUNCATE);`);
  db.close();
  return { path, events };
}

describe('store schema version 2', () => {
  it('is refused, naming the file, its version and the command that converts it', async () => {
    const { path } = await versionTwoStore();
    assert.throws(
      () => new SqliteEventStore(path),
      (err: Error) => {
        assert.match(
          err.message,
          new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} has event-store schema version 2`),
        );
        assert.match(err.message, /table-audit store migrate .* NEW\.sqlite/);
        return true;
      },
    );
  });

  it('is converted into a new file: the same events, positions, hashes and checkpoints, chains verified', async () => {
    const { path, events } = await versionTwoStore();
    const before = readFileSync(path);
    const to = join(dir, `v3-${n}.sqlite`);
    const report = await migrateStore(path, to);
    assert.deepEqual(
      { ...report, verify: report.verify.ok },
      { from: path, to, fromVersion: 2, toVersion: 3, events: 6, checkpoints: 1, verify: true },
    );
    assert.deepEqual(readFileSync(path), before, 'the old file is only read');
    const store = new SqliteEventStore(to);
    try {
      assert.deepEqual(await collect(store.readAll()), events);
      assert.equal(await store.loadCheckpoint('replay'), 3n);
      const r = await store.append('table-1', [{ eventId: 'a3', type: 'Dealt', data: {} }]);
      assert.ok(r.position > events.at(-1)!.position, 'positions go on after the copied ones');
    } finally {
      await store.close();
    }
  });

  it('never overwrites, converts only version 2, and names a damaged hash leaving no file behind', async () => {
    const { path } = await versionTwoStore();
    const taken = join(dir, 'taken.sqlite');
    writeFileSync(taken, 'mine');
    await assert.rejects(migrateStore(path, taken), /taken\.sqlite already exists/);
    assert.equal(readFileSync(taken, 'utf8'), 'mine');
    const three = join(dir, `three-${n}.sqlite`);
    await migrateStore(path, three);
    await assert.rejects(migrateStore(three, join(dir, 'x.sqlite')), /already an event store of version 3/);

    const db = new Database(path);
    db.prepare(`UPDATE events SET hash = 'zz' WHERE event_id = 'b1'`).run();
    db.close();
    const to = join(dir, `damaged-${n}.sqlite`);
    await assert.rejects(
      migrateStore(path, to),
      /position 4 \(stream "table-2" revision 1\) has a hash that is not 64 lower-case hex digits \("zz"\)/,
    );
    assert.equal(existsSync(to), false);
  });
});
