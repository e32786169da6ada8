// Avro object container files → event store: every event once, a damaged block kept as one reject, the command.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { readEventsFile, type F3cpEvent } from '@table-audit/schemas';
import { simulateSession, writeSessionFile } from '@table-audit/simulator';
import { IngestPipeline, ingestFiles, tableStream } from '../src/index.ts';
import { assertExactlyOnce, rejectsIn, tableEventCount } from './helpers.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'ta-ingest-file-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// As `table-audit simulate` makes them: faults, handled irregularities and a betting-system player included.
const session = simulateSession({
  seed: 11,
  tables: 4,
  roundsPerTable: 15,
  faultRate: 0.1,
  handledRate: 0.05,
  bettingSystemTables: 1,
});
const sessionFile = join(dir, 'session.avro');
const written = await writeSessionFile(sessionFile, session.events);
/** The block the tests damage, and the ids of the events in it. */
const DAMAGED = 1;
const inDamagedBlock = new Set<string>();
for await (const item of readEventsFile(sessionFile))
  if (!('error' in item) && item.block === DAMAGED) inDamagedBlock.add(item.data.header.eventId);

test('a simulated session: every event stored once; ingested again, nothing new', async () => {
  assert.equal(written.events, session.events.length);
  const store = new SqliteEventStore(join(dir, 'once.sqlite'));
  try {
    const first = await ingestFiles([sessionFile], new IngestPipeline(store), { batchSize: 1000 });
    assert.deepEqual(first, { accepted: session.events.length, alreadyStored: 0, rejected: 0 });
    await assertExactlyOnce(store, session.events);

    // again, through another spelling of the same path and another pipeline (a restarted process)
    const progress: number[] = [];
    const second = await ingestFiles([join(dir, '.', 'session.avro')], new IngestPipeline(store), {
      onProgress: (p) => progress.push(p.records),
    });
    assert.deepEqual(second, { accepted: 0, alreadyStored: session.events.length, rejected: 0 });
    assert.equal(progress.at(-1), session.events.length);
    assert.equal(await tableEventCount(store), session.events.length);
    assert.deepEqual(await rejectsIn(store), []);
  } finally {
    await store.close();
  }
});

/** [start, end) of each block in an events file: from after one sync marker to after the next. */
function blocks(bytes: Buffer): [number, number][] {
  const sync = bytes.subarray(bytes.length - 16);
  const ends: number[] = [];
  for (let at = bytes.indexOf(sync); at !== -1; at = bytes.indexOf(sync, at + 16)) ends.push(at + 16);
  return ends.slice(1).map((end, i) => [ends[i]!, end]);
}

test('a damaged middle block: one reject with its bytes and block number, every other block stored', async () => {
  const original = readFileSync(sessionFile);
  const spans = blocks(original);
  assert.equal(spans.length, written.blocks);
  assert.ok(spans.length >= 3, `the session should fill at least 3 blocks, got ${spans.length}`);
  const damaged = DAMAGED;
  const [start, end] = spans[damaged]!;
  const bytes = Buffer.from(original);
  bytes.fill(0xff, start + 20, start + 52); // inside the block's deflate data
  const path = join(dir, 'damaged.avro');
  writeFileSync(path, bytes);

  const inBlock = inDamagedBlock;
  assert.ok(inBlock.size > 0);
  const survivors = session.events.filter((e) => !inBlock.has(e.data.header.eventId));

  const store = new SqliteEventStore(join(dir, 'damaged.sqlite'));
  try {
    const r = await ingestFiles([path], new IngestPipeline(store));
    // the events of later blocks whose table's TableOpened was in the damaged block are refused as unknown
    const opensLost = new Set(
      session.events
        .filter((e) => e.type === 'TableOpened' && inBlock.has(e.data.header.eventId))
        .map((e) => e.data.header.tableId),
    );
    assert.equal(opensLost.size, 0, 'this seed opens every table in block 0');
    assert.deepEqual(r, { accepted: survivors.length, alreadyStored: 0, rejected: 1 });
    await assertExactlyOnce(store, survivors);
    const [reject, ...more] = await rejectsIn(store);
    assert.equal(more.length, 0);
    assert.equal(reject!.data.code, 'CORRUPT_BLOCK');
    assert.deepEqual(reject!.data.source, { kind: 'file', path, block: damaged });
    assert.equal(reject!.data.sourceText, `file ${path} block ${damaged}`);
    assert.match(reject!.data.reason, new RegExp(`^CORRUPT_BLOCK: .*block ${damaged} .*is corrupt`));
    assert.deepEqual(Buffer.from(reject!.data.rawBase64!, 'base64'), bytes.subarray(start, end));

    // ingested again: nothing new, the reject kept once
    assert.deepEqual(await ingestFiles([path], new IngestPipeline(store)), {
      accepted: 0,
      alreadyStored: survivors.length,
      rejected: 1,
    });
    assert.equal((await rejectsIn(store)).length, 1);
  } finally {
    await store.close();
  }
});

test('a file that is not an events file is kept as a reject and the next file is still ingested', async () => {
  const junk = join(dir, 'junk.avro');
  writeFileSync(junk, 'table,event\nT1,opened\n');
  const small = join(dir, 'small.avro');
  const events: F3cpEvent[] = session.tables[0]!.events.slice(0, 50);
  await writeSessionFile(small, events);
  const store = new SqliteEventStore(join(dir, 'junk.sqlite'));
  try {
    const r = await ingestFiles([junk, small], new IngestPipeline(store));
    assert.deepEqual(r, { accepted: 50, alreadyStored: 0, rejected: 1 });
    await assertExactlyOnce(store, events);
    const [reject] = await rejectsIn(store);
    assert.equal(reject!.data.code, 'NOT_AN_EVENTS_FILE');
    assert.deepEqual(reject!.data.source, { kind: 'file', path: junk, block: -1 });
    assert.equal(Buffer.from(reject!.data.rawBase64!, 'base64').toString(), 'table,event\nT1,opened\n');
    await assert.rejects(
      ingestFiles([join(dir, 'missing.avro')], new IngestPipeline(store)),
      /missing.avro: cannot be read/,
    );
  } finally {
    await store.close();
  }
});

const cli = (args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [join(ROOT, 'apps/cli/bin/table-audit.js'), ...args],
      { cwd: ROOT },
      (err, stdout, stderr) => resolve({ code: err ? ((err.code as number) ?? 1) : 0, stdout, stderr }),
    );
  });

test('table-audit ingest FILE.avro: every event once, then nothing new; a damaged file exits 1', async () => {
  const store = join(dir, 'cli.sqlite');
  const first = await cli(['ingest', sessionFile, '--store', store]);
  assert.equal(first.code, 0, first.stderr);
  assert.match(
    first.stdout,
    new RegExp(
      `^accepted ${session.events.length}, already stored 0, rejected 0 in [\\d.]+ s \\([\\d,]+ events/s\\)`,
    ),
  );
  const second = await cli(['ingest', sessionFile, join(dir, 'damaged.avro'), '--store', store]);
  assert.equal(second.code, 1, 'rejects make the exit code 1');
  assert.match(
    second.stdout,
    new RegExp(`^accepted 0, already stored ${session.events.length * 2 - inDamagedBlock.size}, rejected 1 `),
  );
  const s = new SqliteEventStore(store, { readOnly: true });
  try {
    await assertExactlyOnce(s, session.events);
    let n = 0;
    for await (const e of s.readStream(tableStream(session.tables[0]!.tableId))) if (e.eventId) n++;
    assert.equal(n, session.tables[0]!.events.length);
  } finally {
    await s.close();
  }
});
