// Reading an events file a block at a time (readEventsFileChunks), and the plain records the reader decodes.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  MAX_ITEMS_PER_CHUNK,
  readEventsFile,
  readEventsFileChunks,
  toPlain,
  writeEventsFile,
  type EventsFileItem,
} from '../src/index.ts';
import { manyEvents } from './examples.ts';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ta-ocf-chunks-'));
});
after(() => rm(dir, { recursive: true, force: true }));

/** The walk of a value: every object or array that is not plain (another prototype) is counted. */
function notPlain(v: unknown): number {
  if (Array.isArray(v))
    return (
      (Object.getPrototypeOf(v) === Array.prototype ? 0 : 1) + v.reduce((n: number, x) => n + notPlain(x), 0)
    );
  if (v === null || typeof v !== 'object' || Buffer.isBuffer(v)) return 0;
  return (
    (Object.getPrototypeOf(v) === Object.prototype ? 0 : 1) +
    Object.values(v).reduce((n: number, x) => n + notPlain(x), 0)
  );
}

describe('readEventsFileChunks', () => {
  it('Given a block of more records than a chunk holds, Then the chunks hold the same items as readEventsFile, in order, none over the bound', async () => {
    const path = join(dir, 'big-block.avro');
    const events = manyEvents(MAX_ITEMS_PER_CHUNK * 2 + 17);
    // one block for all of them: a block size larger than the whole file
    await writeEventsFile(path, events, { blockSize: 64 * 1024 * 1024 });
    const one: EventsFileItem[] = [];
    for await (const item of readEventsFile(path)) one.push(item);
    const chunks: EventsFileItem[][] = [];
    for await (const chunk of readEventsFileChunks(path)) chunks.push(chunk);
    assert.deepEqual(
      chunks.map((c) => c.length),
      [MAX_ITEMS_PER_CHUNK, MAX_ITEMS_PER_CHUNK, 17],
    );
    assert.deepEqual(chunks.flat(), one);
    assert.equal(one.length, events.length);
  });

  it('Given a damaged record in a block, Then it is one error item in its place among the chunks, the rest records', async () => {
    const path = join(dir, 'damaged.avro');
    await writeEventsFile(path, manyEvents(300), { codec: 'null' });
    const bytes = await readFile(path);
    // 40 bytes well inside the data (past the header's schema) set to 0xff: a long of more than 10 bytes
    bytes.fill(0xff, bytes.length - 2000, bytes.length - 1960);
    await writeFile(path, bytes);
    const one: EventsFileItem[] = [];
    for await (const item of readEventsFile(path)) one.push(item);
    const chunked: EventsFileItem[] = [];
    for await (const chunk of readEventsFileChunks(path)) chunked.push(...chunk);
    assert.deepEqual(chunked, one);
    assert.ok(one.some((i) => 'error' in i));
    assert.ok(one.filter((i) => !('error' in i)).length > 250);
  });
});

describe('decoded records are plain objects', () => {
  it('Given a file of every example event, Then each record read is deeply equal to its toPlain copy and has no object of another prototype', async () => {
    const path = join(dir, 'plain.avro');
    await writeEventsFile(path, manyEvents(200));
    let n = 0;
    for await (const item of readEventsFile(path)) {
      assert.ok(!('error' in item));
      assert.equal(notPlain(item.data), 0);
      assert.deepStrictEqual(item.data, toPlain(item.data));
      n++;
    }
    assert.equal(n, 200);
  });
});
