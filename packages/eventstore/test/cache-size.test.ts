// The page cache of a store's connection: what a writer may hold for SQLite's pages (ingest's memory).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { InvalidArgument } from '../src/errors.ts';
import { SqliteEventStore } from '../src/sqlite-event-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'ta-cache-size-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('SqliteEventStore cacheSizeKiB', () => {
  it('Given 16 MiB, Then events append and read back as with the default', async () => {
    const store = new SqliteEventStore(join(dir, 'small.sqlite'), { cacheSizeKiB: 16 * 1024 });
    await store.append('s', [{ eventId: 'e1', type: 'T', data: { a: 1 } }]);
    const read = [];
    for await (const e of store.readStream('s')) read.push(e.data);
    assert.deepEqual(read, [{ a: 1 }]);
    await store.close();
  });

  it('Given a size that is not a whole number of KiB from 64, Then the store refuses to open, naming the option', () => {
    for (const bad of [10, 1.5, -1, Number.NaN])
      assert.throws(
        () => new SqliteEventStore(join(dir, `bad.sqlite`), { cacheSizeKiB: bad }),
        (e: unknown) => e instanceof InvalidArgument && /cacheSizeKiB/.test(e.message),
      );
  });
});
