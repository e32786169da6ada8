/**
 * Tamper evidence on the SQLite store: rows are changed with better-sqlite3 behind the open store's back, and
 * verify() must name exactly the first event whose link no longer holds.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type Database from 'better-sqlite3';
import { openForTampering } from '../src/sqlite-tamper.ts';
import { eventHash, verify, type VerifyReport } from '../src/index.ts';
import { SqliteEventStore } from '../src/sqlite-event-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'ta-tamper-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

/** A file store with two interleaved streams: table-1 revisions 0..4 and table-2 revisions 0..2. */
async function storeWithEvents(): Promise<{ store: SqliteEventStore; db: Database.Database }> {
  const store = new SqliteEventStore(join(dir, `tamper-${++n}.sqlite`));
  const e = (stream: string, i: number) => ({
    eventId: `${stream}/${i}`,
    type: 'PayoutDeclared',
    data: { seat: i, amount: 1000 * (i + 1) },
    metadata: { dealer: 'D-17' },
  });
  await store.append('table-1', [e('table-1', 0), e('table-1', 1)]);
  await store.append('table-2', [e('table-2', 0)]);
  await store.append('table-1', [e('table-1', 2), e('table-1', 3)]);
  await store.append('table-2', [e('table-2', 1), e('table-2', 2)]);
  await store.append('table-1', [e('table-1', 4)]);
  assert.deepEqual(await verify(store), { ok: true, streams: 2, events: 8 });
  return { store, db: openForTampering(store.path) };
}

async function tampered(
  edit: (db: Database.Database) => void,
  options?: { stream?: string },
): Promise<VerifyReport> {
  const { store, db } = await storeWithEvents();
  try {
    edit(db);
    return await verify(store, options);
  } finally {
    db.close();
    await store.close();
  }
}

describe('tamper evidence (SQLite file edited behind the store)', () => {
  it("names the event whose data was edited, and only that stream's chain is broken", async () => {
    const edit = (db: Database.Database) =>
      db
        .prepare(
          `UPDATE events SET data = '{"amount":99000,"seat":2}' WHERE stream = 'table-1' AND revision = 2`,
        )
        .run();
    const report = await tampered(edit);
    assert.equal(report.ok, false);
    assert.deepEqual(
      { ...report.firstBroken, reason: undefined },
      {
        stream: 'table-1',
        revision: 2,
        eventId: 'table-1/2',
        reason: undefined,
      },
    );
    assert.match(report.firstBroken!.reason, /hash .* does not match its content/);
    assert.deepEqual(await tampered(edit, { stream: 'table-2' }), { ok: true, streams: 1, events: 3 });
    const single = await tampered(edit, { stream: 'table-1' });
    assert.equal(single.firstBroken?.eventId, 'table-1/2');
  });

  it('names the event whose metadata, type or id was edited', async () => {
    for (const set of [
      `metadata = '{"dealer":"D-99"}'`,
      `type = 'PayoutCorrected'`,
      `event_id = 'table-1/x'`,
    ]) {
      const report = await tampered((db) =>
        db.prepare(`UPDATE events SET ${set} WHERE stream = 'table-1' AND revision = 3`).run(),
      );
      assert.equal(report.firstBroken?.revision, 3, set);
      assert.match(report.firstBroken!.reason, /does not match its content/);
    }
  });

  it('names the event after a deleted one', async () => {
    const report = await tampered((db) =>
      db.prepare(`DELETE FROM events WHERE stream = 'table-1' AND revision = 2`).run(),
    );
    assert.deepEqual(report.firstBroken, {
      stream: 'table-1',
      revision: 3,
      eventId: 'table-1/3',
      reason: 'revision 2 is missing before it',
    });
    const first = await tampered((db) =>
      db.prepare(`DELETE FROM events WHERE stream = 'table-2' AND revision = 0`).run(),
    );
    assert.equal(first.firstBroken?.eventId, 'table-2/1');
    assert.match(first.firstBroken!.reason, /revision 0 is missing/);
  });

  it('names the first event whose hash was swapped with the next one’s (a re-ordered link)', async () => {
    // since store schema 5 the previous hash is not stored apart: each event's hash ends its successor's hash form
    const report = await tampered((db) => {
      const row = db.prepare(`SELECT position, hash FROM events WHERE stream = 'table-1' AND revision = ?`);
      const r2 = row.get(2) as { position: number; hash: Buffer };
      const r3 = row.get(3) as { position: number; hash: Buffer };
      const set = db.prepare('UPDATE events SET hash = ? WHERE position = ?');
      set.run(r3.hash, r2.position);
      set.run(r2.hash, r3.position);
    });
    assert.equal(report.firstBroken?.eventId, 'table-1/2');
    assert.match(report.firstBroken!.reason, /hash .* does not match its content/);
  });

  it('catches a forger who also recomputes the edited event’s hash, at the next event', async () => {
    const report = await tampered((db) => {
      const row = db
        .prepare(
          `SELECT *, lower(hex(previous_hash)) AS previous_hash FROM events WHERE stream = 'table-1' AND revision = 2`,
        )
        .get() as {
        position: number;
        previous_hash: string;
        event_id: string;
        type: string;
        metadata: string;
        recorded_at: number;
      };
      const data = { amount: 99000, seat: 2 };
      const hash = eventHash(row.previous_hash, {
        stream: 'table-1',
        revision: 2,
        eventId: row.event_id,
        type: row.type,
        recordedAt: row.recorded_at,
        data,
        metadata: JSON.parse(row.metadata) as Record<string, unknown>,
      });
      db.prepare('UPDATE events SET data = ?, hash = unhex(?) WHERE position = ?').run(
        JSON.stringify(data),
        hash,
        row.position,
      );
    });
    assert.equal(report.firstBroken?.eventId, 'table-1/3');
    assert.match(report.firstBroken!.reason, /does not match .*the hash of the event before it/);
  });

  it('reports the first broken link in global order, and stored bytes that cannot be read', async () => {
    const report = await tampered((db) => {
      db.prepare(`UPDATE events SET data = '{"amount":1.5}' WHERE stream = 'table-2' AND revision = 1`).run();
      db.prepare(`UPDATE events SET data = '{}' WHERE stream = 'table-1' AND revision = 2`).run();
    });
    assert.equal(report.firstBroken?.eventId, 'table-1/2', 'table-1/2 was appended before table-2/1');
    const float = await tampered((db) =>
      db.prepare(`UPDATE events SET data = '{"amount":1.5}' WHERE stream = 'table-2' AND revision = 1`).run(),
    );
    // the compact form has no floats: the edit writes bytes that do not decode, read as a broken link that says so
    assert.equal(float.firstBroken?.eventId, 'table-2/1');
    assert.match(float.firstBroken!.reason, /does not match its content/);
    assert.match(
      float.firstBroken!.reason,
      /stored data of the event at position \d+ cannot be read: unknown tag 255/,
    );
  });
});
