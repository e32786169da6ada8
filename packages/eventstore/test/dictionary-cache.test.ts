/**
 * The dictionary's caches are bounded (MAX_CACHED_ENTRIES): a store with more string entries than the bound is read
 * back whole, every link checked, by a reader whose cache has forgotten the first entries by the time it meets them
 * again, and appended to by a writer that has forgotten some ids (it finds them again: no entry is added twice).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import Database from 'better-sqlite3';
import { linkBrokenBecause } from '../src/link.ts';
import { MAX_CACHED_ENTRIES, SqliteEventStore } from '../src/sqlite-event-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'ta-dictionary-cache-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// each event's own string seen three times: one dictionary entry per event
const ENTRIES = MAX_CACHED_ENTRIES + 2_000;
const event = (i: number) => {
  const id = `R${String(i).padStart(6, '0')}`;
  return { eventId: `E-${i}`, type: 'T', data: { a: id, b: id, c: id, i } };
};

it('a store with more dictionary strings than the caches hold is read back whole, links checked', async () => {
  const path = join(dir, 'many.sqlite');
  const writer = new SqliteEventStore(path);
  await writer.append(
    's',
    Array.from({ length: ENTRIES }, (_, i) => event(i)),
  );
  await writer.close();
  const db = new Database(path, { readonly: true });
  const strings = (db.prepare('SELECT count(*) AS n FROM dictionary WHERE kind = 1').get() as { n: number })
    .n;
  db.close();
  assert.ok(strings >= ENTRIES, `${strings} string entries`);

  const store = new SqliteEventStore(path, { mustExist: true });
  // twice: the second pass meets again entries the first one cached and the cache then forgot
  for (let pass = 0; pass < 2; pass++) {
    let previous: { revision: number; hash: string } | undefined;
    let n = 0;
    for await (const e of store.readAll()) {
      assert.equal(linkBrokenBecause(e, previous, true), null);
      assert.deepEqual(e.data, event(n).data);
      previous = e;
      n++;
    }
    assert.equal(n, ENTRIES);
  }
  // appending the first strings again finds their entries: none is added twice
  await store.append(
    't',
    [0, 1, 2].map((i) => ({ ...event(i), eventId: `F-${i}` })),
  );
  await store.close();
  const after = new Database(path, { readonly: true });
  const again = (after.prepare('SELECT count(*) AS n FROM dictionary WHERE kind = 1').get() as { n: number })
    .n;
  after.close();
  assert.equal(again, strings);
});
