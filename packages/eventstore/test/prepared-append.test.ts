/**
 * An append prepared by one connection (a preparer: encoding, dictionary ids given without writing them) and
 * written by another (appendPrepared: revisions, chain, insert) stores exactly what appendMany stores: the same rows,
 * bytes and hashes, and the same dictionary. A dictionary changed meanwhile, or an id stored with other content,
 * refuses the whole batch with nothing stored.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it, mock } from 'node:test';
import Database from 'better-sqlite3';
import { EventIdConflict, InvalidEventData } from '../src/errors.ts';
import type { EventData, StreamAppend } from '../src/port.ts';
import { PreparedOutOfDate, SqliteEventStore } from '../src/sqlite-event-store.ts';
import { verify } from '../src/verify.ts';

const dir = mkdtempSync(join(tmpdir(), 'ta-prepared-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const newPath = () => join(dir, `s${++n}.sqlite`);

const round = (table: string, r: number): EventData[] => {
  const roundId = `${table}-R${String(r).padStart(5, '0')}`;
  return [
    {
      eventId: `${roundId}-open`,
      type: 'RoundStarted',
      data: { header: { eventId: `${roundId}-open`, roundId, tableId: table }, shoe: 'S1' },
      metadata: { source: 'file /in/session.avro', block: r, record: 0 },
    },
    ...[1, 2, 3].map((seat) => ({
      eventId: `${roundId}-bet-${seat}`,
      type: 'BetPlaced',
      data: {
        header: { eventId: `${roundId}-bet-${seat}`, roundId, tableId: table },
        betId: `${roundId}/${seat}-ANTE`,
        amount: 50_000 * seat,
        optional: seat === 2 ? undefined : null,
      },
      metadata: { source: 'file /in/session.avro', block: r, record: seat },
    })),
    { eventId: `${roundId}-end`, type: 'RoundSettled', data: { roundId, payouts: [-1, 0, 2 ** 40] } },
  ];
};

/** Batches of parts: tables interleaved, a repeat in a call, a redelivery of an earlier batch. */
const batches = (): StreamAppend[][] => {
  const out: StreamAppend[][] = [];
  for (let b = 0; b < 4; b++) {
    const parts: StreamAppend[] = ['T1', 'T2', 'T3'].map((t) => ({
      stream: `table-${t}`,
      events: [...round(t, 2 * b), ...round(t, 2 * b + 1)],
    }));
    parts[0]!.events = [...parts[0]!.events, parts[0]!.events[1]!]; // the same event twice in one call
    parts.push({
      stream: 'ingest-rejects',
      events: [{ eventId: `rej-${b}`, type: 'InputRejected', data: { b } }],
    });
    out.push(parts);
  }
  out.push(out[1]!); // delivered again: stored once
  return out;
};

const dump = (path: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return {
      events: db.prepare('SELECT * FROM events ORDER BY position').all(),
      dictionary: db.prepare('SELECT * FROM dictionary ORDER BY id').all(),
    };
  } finally {
    db.close();
  }
};

describe('appendPrepared', () => {
  it('stores exactly the rows, bytes, hashes and dictionary that appendMany stores, with the same results', async () => {
    const now = mock.method(Date, 'now', () => 1_764_000_000_000);
    try {
      const plain = newPath();
      const prepared = newPath();
      const a = new SqliteEventStore(plain);
      const writer = new SqliteEventStore(prepared);
      const reader = new SqliteEventStore(prepared); // the preparing side's own connection
      const preparer = reader.preparer();
      const expected = [];
      const got = [];
      // prepared two batches ahead of the writer, as the pipeline does
      const all = batches();
      const packed = all.slice(0, 2).map((b) => preparer.prepare(b));
      for (let i = 0; i < all.length; i++) {
        expected.push(await a.appendMany(all[i]!));
        got.push(writer.appendPrepared(new Uint8Array(packed[i]!)));
        if (i + 2 < all.length) packed.push(preparer.prepare(all[i + 2]!));
      }
      assert.deepEqual(got, expected);
      assert.equal(got.at(-1)![0]!.appended, 0);
      assert.ok(got.at(-1)![0]!.alreadyStored > 0);
      for (const s of [a, writer, reader]) await s.close();
      const left = dump(plain);
      const right = dump(prepared);
      assert.ok(left.events.length > 40);
      assert.ok(left.dictionary.length > 10);
      assert.deepEqual(right, left);
      const check = new SqliteEventStore(prepared, { readOnly: true });
      try {
        const report = await verify(check);
        assert.equal(report.ok, true, JSON.stringify(report).slice(0, 400));
      } finally {
        await check.close();
      }
    } finally {
      now.mock.restore();
    }
  });

  it('refuses a batch whose dictionary ids were taken meanwhile, storing nothing; after reset it goes in', async () => {
    const path = newPath();
    const writer = new SqliteEventStore(path);
    const reader = new SqliteEventStore(path);
    const preparer = reader.preparer();
    const batch = [{ stream: 'table-X', events: round('X', 1) }];
    const packed = preparer.prepare(batch);
    await writer.append('other', [{ eventId: 'o-1', type: 'Other', data: { k: 1 } }]); // takes the next ids
    assert.throws(() => writer.appendPrepared(new Uint8Array(packed)), PreparedOutOfDate);
    assert.equal(dump(path).events.length, 1);
    preparer.reset();
    const [r] = writer.appendPrepared(new Uint8Array(preparer.prepare(batch)));
    assert.equal(r!.appended, round('X', 1).length);
    for (const s of [writer, reader]) await s.close();
    const check = new SqliteEventStore(path, { readOnly: true });
    assert.equal((await verify(check)).ok, true);
    await check.close();
  });

  it('refuses an event id stored with other content (EventIdConflict), storing nothing of the batch', async () => {
    const path = newPath();
    const writer = new SqliteEventStore(path);
    const reader = new SqliteEventStore(path);
    const preparer = reader.preparer();
    writer.appendPrepared(new Uint8Array(preparer.prepare([{ stream: 'table-X', events: round('X', 1) }])));
    const before = dump(path);
    const changed = round('X', 1).map((e, i) => (i === 2 ? { ...e, data: { other: true } } : e));
    const packed = preparer.prepare([
      { stream: 'table-Y', events: round('Y', 1) },
      { stream: 'table-X', events: changed },
    ]);
    assert.throws(
      () => writer.appendPrepared(new Uint8Array(packed)),
      (err: unknown) => err instanceof EventIdConflict && err.difference === 'data',
    );
    assert.deepEqual(dump(path), before);
    for (const s of [writer, reader]) await s.close();
  });

  it('refuses to prepare what append refuses, giving its dictionary ids back', async () => {
    const path = newPath();
    const reader = new SqliteEventStore(path);
    const writer = new SqliteEventStore(path);
    const preparer = reader.preparer();
    assert.throws(
      () =>
        preparer.prepare([{ stream: 'table-Z', events: [{ eventId: 'z', type: 'T', data: { n: 0.5 } }] }]),
      InvalidEventData,
    );
    const same = [
      { eventId: 'z', type: 'T', data: { n: 1 } },
      { eventId: 'z', type: 'T', data: { n: 2 } },
    ];
    assert.throws(() => preparer.prepare([{ stream: 'table-Z', events: same }]), EventIdConflict);
    const [r] = writer.appendPrepared(
      new Uint8Array(preparer.prepare([{ stream: 'table-Z', events: round('Z', 1) }])),
    );
    assert.equal(r!.appended, 5);
    for (const s of [writer, reader]) await s.close();
  });
});
