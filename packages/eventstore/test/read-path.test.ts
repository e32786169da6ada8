/**
 * The SQLite store's read path, as a bulk reader uses it: a page cache of the size asked for (cacheMiB, refused with
 * the field named when it is not a whole number of MiB in range), and dictionary entries read ahead on a miss
 * (a reader meets them in about id order) with every payload decoded and every link checked as before, including
 * entries another connection adds after the reader has read ahead; the same with fewer entries read at once
 * (dictionaryReadAhead, as a reader of scattered events opens it), refused when out of range.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import Database from 'better-sqlite3';
import { InvalidArgument } from '../src/errors.ts';
import { linkBrokenBecause } from '../src/link.ts';
import { SqliteEventStore } from '../src/sqlite-event-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'ta-read-path-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// each event's own string seen three times (one dictionary entry per event), and a prefixed one (a bet id)
const event = (i: number) => {
  const id = `ROUND-${String(i).padStart(6, '0')}`;
  return { eventId: `E-${i}`, type: 'T', data: { a: id, b: id, c: id, bet: `${id}/1-ANTE`, i } };
};

function sqliteDefaultKiB(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return -(db.pragma('cache_size', { simple: true }) as number);
  } finally {
    db.close();
  }
}

it('opens with the page cache asked for, and refuses a size that is not a whole number of MiB in range', async () => {
  const path = join(dir, 'cache.sqlite');
  await new SqliteEventStore(path).close();
  for (const [cacheMiB, readOnly, kib] of [
    [8, false, 8 * 1024],
    [3, true, 3 * 1024],
    [undefined, false, 64 * 1024],
    // SQLite's own default, as this build of better-sqlite3 sets it
    [undefined, true, sqliteDefaultKiB(path)],
  ] as const) {
    const store = new SqliteEventStore(path, {
      ...(cacheMiB === undefined ? {} : { cacheMiB }),
      readOnly,
      mustExist: true,
    });
    assert.equal(store.pageCacheKiB, kib, `cacheMiB ${cacheMiB}, read-only ${readOnly}`);
    await store.close();
  }
  for (const bad of [0, -1, 1.5, 5000, Number.NaN])
    assert.throws(
      () => new SqliteEventStore(path, { cacheMiB: bad, mustExist: true }),
      (err: unknown) =>
        err instanceof InvalidArgument &&
        err.message.includes('cacheMiB') &&
        err.message.includes(String(bad)),
    );
});

for (const readAhead of [undefined, 1, 2])
  it(`reads dictionary entries ${readAhead === undefined ? 'ahead on a miss' : `${readAhead} at once on a miss`}, and decodes and checks every event as before`, async () => {
    const path = join(dir, `ahead-${readAhead}.sqlite`);
    const writer = new SqliteEventStore(path);
    await writer.append(
      's',
      Array.from({ length: 500 }, (_, i) => event(i)),
    );
    const reader = new SqliteEventStore(path, {
      mustExist: true,
      ...(readAhead === undefined ? {} : { dictionaryReadAhead: readAhead }),
    });
    const check = async (from: number, to: number) => {
      let previous: { revision: number; hash: string } | undefined;
      let i = 0;
      for await (const e of reader.readStream('s')) {
        assert.equal(linkBrokenBecause(e, previous, true), null, `event ${e.revision}`);
        if (i >= from) assert.deepEqual(e.data, event(i).data, `event ${i}`);
        previous = e;
        i++;
      }
      assert.equal(i, to);
    };
    await check(0, 500);
    // entries added by another connection after the reader read ahead past the end of the dictionary
    await writer.append(
      's',
      Array.from({ length: 300 }, (_, k) => event(500 + k)),
    );
    await check(0, 800);
    await writer.close();
    await reader.close();
  });

it('refuses a dictionaryReadAhead that is not a whole number from 1 to 4096, naming it', async () => {
  const path = join(dir, 'bad-ahead.sqlite');
  await new SqliteEventStore(path).close();
  for (const bad of [0, -1, 1.5, 5000, Number.NaN])
    assert.throws(
      () => new SqliteEventStore(path, { dictionaryReadAhead: bad, readOnly: true }),
      (err: unknown) =>
        err instanceof InvalidArgument &&
        err.message.includes('dictionaryReadAhead') &&
        err.message.includes(String(bad)),
    );
});
