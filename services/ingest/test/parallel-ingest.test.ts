// The file ingest over two threads stores what the one-thread ingest stores: the same rows, bytes and hashes; and
// where the store refuses a prepared batch, the same counts and the same rejects with the same reasons.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { after, mock, test } from 'node:test';
import { verify } from '@table-audit/eventstore';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { writeEventsFile, type TableEvent } from '@table-audit/schemas';
import { simulateSession, writeSessionFile } from '@table-audit/simulator';
import { IngestPipeline, ingestFiles, ingestFilesParallel } from '../src/index.ts';
import { rejectsIn } from './helpers.ts';

// the store's own SQLite driver (this package does not depend on it directly)
const Database = createRequire(import.meta.resolve('@table-audit/eventstore/sqlite'))(
  'better-sqlite3',
) as new (
  path: string,
  options: { readonly: boolean },
) => { prepare(sql: string): { all(): unknown[] }; close(): void };

const dir = mkdtempSync(join(tmpdir(), 'ta-ingest-parallel-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const session = simulateSession({
  seed: 5,
  tables: 4,
  roundsPerTable: 12,
  faultRate: 0.1,
  handledRate: 0.05,
  bettingSystemTables: 1,
});
const sessionFile = join(dir, 'session.avro');
await writeSessionFile(sessionFile, session.events);

/** Events of a table never opened: each a reject. */
const oddFile = join(dir, 'odd.avro');
const odd: TableEvent[] = session.events
  .filter((e) => e.type !== 'TableOpened')
  .slice(0, 40)
  .map((e, i) => {
    const copy = structuredClone(e) as TableEvent;
    copy.data.header.eventId = `odd-${i}`;
    copy.data.header.tableId = 'NO-SUCH-TABLE';
    return copy;
  });
await writeEventsFile(oddFile, odd);

/** Some of the session's event ids again with other content: the store refuses them (EventIdConflict). */
const conflictFile = join(dir, 'conflict.avro');
const changed: TableEvent[] = session.events.slice(0, 30).map((e, i) => {
  const copy = structuredClone(e) as TableEvent;
  if (i % 3 === 0) copy.data.header.sequence += 1_000;
  return copy;
});
await writeEventsFile(conflictFile, changed);

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

const reasons = async (path: string) => {
  const store = new SqliteEventStore(path, { readOnly: true });
  try {
    return (await rejectsIn(store)).map((r) => `${r.data.code} ${r.data.sourceText}: ${r.data.reason}`);
  } finally {
    await store.close();
  }
};

const verified = async (path: string) => {
  const store = new SqliteEventStore(path, { readOnly: true });
  try {
    return (await verify(store)).ok;
  } finally {
    await store.close();
  }
};

test('two threads store exactly the rows, bytes and hashes one thread stores, with the same totals', async () => {
  const clock = mock.method(Date, 'now', () => 1_764_000_000_000);
  try {
    const one = join(dir, 'one.sqlite');
    const two = join(dir, 'two.sqlite');
    const a = new SqliteEventStore(one);
    const pipeline = new IngestPipeline(a, () => 0);
    const files = [sessionFile, oddFile, sessionFile];
    const expected = await ingestFiles(files, pipeline, { batchSize: 300 });
    await a.close();
    const b = new SqliteEventStore(two);
    const got = await ingestFilesParallel(files, b, { batchSize: 300, now: 0 });
    await b.close();
    assert.deepEqual(
      { accepted: got.accepted, alreadyStored: got.alreadyStored, rejected: got.rejected },
      expected,
    );
    assert.equal(expected.accepted, session.events.length);
    assert.equal(expected.alreadyStored, session.events.length);
    assert.equal(expected.rejected, odd.length);
    assert.deepEqual(got.byReason, pipeline.totals.byReason);
    assert.deepEqual(got.sequence, pipeline.totals.sequence);
    assert.ok(got.batches.prepared > 4, `batches ${JSON.stringify(got.batches)}`);
    assert.equal(got.batches.ordinary, 0);
    assert.deepEqual(dump(two), dump(one));
    assert.equal(await verified(two), true);
  } finally {
    clock.mock.restore();
  }
});

test('a batch the store refuses as prepared is stored the ordinary way: same counts and rejects as one thread', async () => {
  const one = join(dir, 'one-conflict.sqlite');
  const two = join(dir, 'two-conflict.sqlite');
  const files = [sessionFile, conflictFile, oddFile];
  const a = new SqliteEventStore(one);
  const pipeline = new IngestPipeline(a, () => 0);
  const expected = await ingestFiles(files, pipeline, { batchSize: 250 });
  await a.close();
  const b = new SqliteEventStore(two);
  const got = await ingestFilesParallel(files, b, { batchSize: 250, now: 0 });
  await b.close();
  assert.deepEqual(
    { accepted: got.accepted, alreadyStored: got.alreadyStored, rejected: got.rejected },
    expected,
  );
  assert.ok(expected.rejected >= 10 + odd.length, JSON.stringify(expected));
  assert.deepEqual(got.byReason, pipeline.totals.byReason);
  assert.ok(got.batches.ordinary >= 1, `batches ${JSON.stringify(got.batches)}`);
  assert.deepEqual(await reasons(two), await reasons(one));
  assert.equal(await verified(two), true);
});

test('a smaller first batch: the same counts and events, a chain that verifies', async () => {
  const path = join(dir, 'first-batch.sqlite');
  const store = new SqliteEventStore(path);
  const batches: number[] = [];
  const got = await ingestFilesParallel([sessionFile, oddFile], store, {
    batchSize: 1000,
    firstBatchSize: 100,
    now: 0,
    onBatch: (n) => batches.push(n),
  });
  await store.close();
  assert.deepEqual(
    { accepted: got.accepted, alreadyStored: got.alreadyStored, rejected: got.rejected },
    { accepted: session.events.length, alreadyStored: 0, rejected: odd.length },
  );
  assert.equal(batches[0], 100);
  assert.equal(batches[1], 1000);
  assert.equal(await verified(path), true);
});

test('an in-memory store is refused: the worker opens the same file', () => {
  const store = new SqliteEventStore(':memory:');
  assert.throws(() => ingestFilesParallel([sessionFile], store), /store on a file/);
  void store.close();
});
