// Avro object container files → event store: every event once, a damaged block kept as one reject, the command.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { readEventsFile, writeEventsFile, type TableEvent } from '@table-audit/schemas';
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
  const events: TableEvent[] = session.tables[0]!.events.slice(0, 50);
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
      `^accepted ${session.events.length}, already stored 0, rejected 0 in [\\d.]+ s \\([\\d,]+ events/s, one thread\\)`,
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

/** The file's header (everything before its first block) and its sync marker. */
function headerAndSync(bytes: Buffer): { header: Buffer; sync: Buffer } {
  const sync = bytes.subarray(bytes.length - 16);
  return { header: bytes.subarray(0, bytes.indexOf(sync) + 16), sync };
}

/** A zigzag varint of a non-negative whole number (beyond 2^31 too). */
function varint(n: number): Buffer {
  const out: number[] = [];
  let u = n * 2;
  while (u >= 128) {
    out.push((u % 128) | 0x80);
    u = Math.floor(u / 128);
  }
  out.push(u);
  return Buffer.from(out);
}

test('ten bytes appended: every event stored, the ten bytes kept as one reject, and the next file still read', async () => {
  const junk = Buffer.from('ffffffffffffffffff7f', 'hex'); // a long beyond 2^53: avsc's "potential precision loss"
  const path = join(dir, 'appended.avro');
  writeFileSync(path, Buffer.concat([readFileSync(sessionFile), junk]));
  const next = join(dir, 'after-appended.avro');
  const later = session.tables[0]!.events.slice(0, 20);
  await writeSessionFile(next, later);
  const store = new SqliteEventStore(join(dir, 'appended.sqlite'));
  try {
    const r = await ingestFiles([path, next], new IngestPipeline(store));
    assert.deepEqual(r, { accepted: session.events.length, alreadyStored: later.length, rejected: 1 });
    await assertExactlyOnce(store, session.events);
    const [reject, ...more] = await rejectsIn(store);
    assert.equal(more.length, 0);
    assert.equal(reject!.data.code, 'CORRUPT_BLOCK');
    assert.deepEqual(Buffer.from(reject!.data.rawBase64!, 'base64'), junk);
    assert.match(
      reject!.data.reason,
      new RegExp(`${path}: block \\d+ .*10 byte\\(s\\) at offset \\d+.*record count is beyond`),
    );
  } finally {
    await store.close();
  }
});

test('a block declaring a million or a billion records in a few bytes is one reject; so is a file of empty records', async () => {
  const { header, sync } = headerAndSync(readFileSync(sessionFile));
  const files: string[] = [];
  for (const [name, count] of [
    ['million', 1e6],
    ['billion', 1e9],
  ] as const) {
    const path = join(dir, `${name}.avro`);
    writeFileSync(path, Buffer.concat([header, varint(count), varint(1), Buffer.from([0]), sync]));
    files.push(path);
  }
  // the 75-byte file: a schema of one empty record, 10^6 of them declared in 0 bytes
  const schema = Buffer.from('{"type":"record","name":"E","fields":[]}');
  const key = Buffer.from('avro.schema');
  const empty = Buffer.concat([
    Buffer.from('Obj\x01', 'latin1'),
    varint(1), // one map entry
    varint(key.length),
    key,
    varint(schema.length),
    schema,
    varint(0), // end of the map
    sync,
  ]);
  const emptyPath = join(dir, 'empty-records.avro');
  writeFileSync(emptyPath, Buffer.concat([empty, varint(1e6), varint(0), sync]));
  files.push(emptyPath);
  const store = new SqliteEventStore(join(dir, 'declared.sqlite'));
  try {
    const t0 = performance.now();
    const r = await ingestFiles(files, new IngestPipeline(store));
    assert.ok(performance.now() - t0 < 5000, 'bounded work');
    assert.deepEqual(r, { accepted: 0, alreadyStored: 0, rejected: 3 });
    const rejects = await rejectsIn(store);
    assert.deepEqual(
      rejects.map((x) => x.data.code),
      ['CORRUPT_BLOCK', 'CORRUPT_BLOCK', 'NOT_AN_EVENTS_FILE'],
    );
    assert.match(rejects[1]!.data.reason, /declares 1000000000 records/);
    assert.match(rejects[2]!.data.reason, /its schema has no event record this reader knows \(it has E\)/);
    // the refused file is kept whole, never cut
    assert.deepEqual(Buffer.from(rejects[2]!.data.rawBase64!, 'base64'), readFileSync(emptyPath));
  } finally {
    await store.close();
  }
});

test('a large region without a sync marker, and a large file that is not an events file, are kept by reference', async () => {
  const garbage = Buffer.alloc(3 * 1024 * 1024, 0x41);
  const tail = join(dir, 'long-tail.avro');
  writeFileSync(tail, Buffer.concat([readFileSync(sessionFile), garbage]));
  const big = join(dir, 'big-junk.bin');
  writeFileSync(big, garbage);
  const store = new SqliteEventStore(join(dir, 'by-reference.sqlite'));
  try {
    const r = await ingestFiles([tail, big], new IngestPipeline(store), { maxKeptBytes: 64 * 1024 });
    assert.deepEqual(r, { accepted: session.events.length, alreadyStored: 0, rejected: 2 });
    const [region, file] = await rejectsIn(store);
    const sha256 = createHash('sha256').update(garbage).digest('hex');
    assert.equal(region!.data.rawBase64, null);
    assert.deepEqual(region!.data.rawRef, {
      path: tail,
      offset: readFileSync(sessionFile).length,
      length: garbage.length,
      sha256,
    });
    assert.equal(file!.data.code, 'NOT_AN_EVENTS_FILE');
    assert.equal(file!.data.rawBase64, null);
    assert.deepEqual(file!.data.rawRef, { path: big, offset: 0, length: garbage.length, sha256 });
  } finally {
    await store.close();
  }
});

test('a wrong union branch in one record: that record alone is rejected, with its bytes; its block is stored', async () => {
  const path = join(dir, 'one-bad-record.avro');
  await writeEventsFile(path, session.events, { codec: 'null' });
  const bytes = readFileSync(path);
  const spans = blocks(bytes);
  const [start] = spans[1]!;
  // record 0 of block 1 starts after the block's count and size (two varints)
  let at = start;
  for (let longs = 0; longs < 2; at++) if (!(bytes[at]! & 0x80)) longs++;
  bytes[at] = 0x7e; // union index 63
  writeFileSync(path, bytes);
  const firstOfBlock1: string[] = [];
  const original = join(dir, 'one-bad-record-original.avro');
  await writeEventsFile(original, session.events, { codec: 'null' });
  for await (const item of readEventsFile(original))
    if (!('error' in item) && item.block === 1 && item.index === 0)
      firstOfBlock1.push(item.data.header.eventId);
  const lost = new Set(firstOfBlock1);
  assert.equal(lost.size, 1);
  const store = new SqliteEventStore(join(dir, 'one-bad-record.sqlite'));
  const warnings: string[] = [];
  try {
    const r = await ingestFiles([path], new IngestPipeline(store), { onWarning: (w) => warnings.push(w) });
    const survivors = session.events.filter((e) => !lost.has(e.data.header.eventId));
    assert.deepEqual(r, { accepted: survivors.length, alreadyStored: 0, rejected: 1 });
    await assertExactlyOnce(store, survivors);
    const [reject] = await rejectsIn(store);
    assert.equal(reject!.data.code, 'CORRUPT_RECORD');
    assert.deepEqual(reject!.data.source, { kind: 'file', path, block: 1, index: 0 });
    assert.match(
      reject!.data.reason,
      new RegExp(
        `block 1 record 0 does not decode \\(file offset ${at}, \\d+ byte\\(s\\)\\): its union index is 63`,
      ),
    );
    const raw = Buffer.from(reject!.data.rawBase64!, 'base64');
    assert.deepEqual(raw, bytes.subarray(at, at + raw.length));
    assert.deepEqual(warnings, [
      `${path}: codec null carries no checksum: a damaged byte can change an event without being seen (write snappy, whose blocks carry a CRC32)`,
    ]);
  } finally {
    await store.close();
  }
});
