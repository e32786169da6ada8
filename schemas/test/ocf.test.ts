import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { after, before, describe, it } from 'node:test';
import avro from 'avsc';
import {
  CorruptBlockError,
  F3CP_EVENT_TYPES,
  eventFullName,
  eventUnionSchema,
  InvalidEventError,
  NotAnEventsFileError,
  readEventsFile,
  SchemaNotResolvableError,
  writeEventsFile,
  type EventsFileCodec,
  type EventsFileItem,
  type EventsFileRecord,
  type F3cpEvent,
  type F3cpEvents,
  type Json,
} from '../src/index.ts';
import { EXAMPLES, eventOf, exampleEvents, manyEvents } from './examples.ts';

async function readAll(path: string, chunkSize?: number): Promise<EventsFileItem[]> {
  const items: EventsFileItem[] = [];
  for await (const item of readEventsFile(path, chunkSize ? { chunkSize } : {})) items.push(item);
  return items;
}

const records = (items: EventsFileItem[]): F3cpEvent[] =>
  items
    .filter((i): i is EventsFileRecord => !('error' in i))
    .map((i) => ({ type: i.type, data: i.data }) as F3cpEvent);

/** Where each block lies in a file: from its first byte to just past its sync marker. */
function blockSpans(file: Buffer): { start: number; end: number }[] {
  const header = avro.Type.forSchema({
    type: 'record',
    name: 'Header',
    fields: [
      { name: 'magic', type: { type: 'fixed', name: 'Magic', size: 4 } },
      { name: 'meta', type: { type: 'map', values: 'bytes' } },
      { name: 'sync', type: { type: 'fixed', name: 'Sync', size: 16 } },
    ],
  });
  const { value, offset } = header.decode(file, 0);
  const spans: { start: number; end: number }[] = [];
  for (
    let start = offset, at = file.indexOf(value.sync, offset);
    at !== -1;
    at = file.indexOf(value.sync, start)
  ) {
    spans.push({ start, end: at + 16 });
    start = at + 16;
  }
  return spans;
}

/** The offsets of a block's size and data. */
function blockLayout(file: Buffer, span: { start: number }): { sizeStart: number; dataStart: number } {
  const long = avro.Type.forSchema('long');
  const sizeStart = long.decode(file, span.start).offset;
  return { sizeStart, dataStart: long.decode(file, sizeStart).offset };
}

/** Writes an object container file with avsc's own encoder. */
async function writeWithAvsc(path: string, schema: Json, values: unknown[]): Promise<void> {
  await pipeline(
    Readable.from(values),
    new avro.streams.BlockEncoder(schema as avro.Schema, { codec: 'deflate' }),
    createWriteStream(path),
  );
}

describe('events files (Avro object container files)', () => {
  let dir: string;
  const events = manyEvents(3000);
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'schemas-ocf-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  for (const codec of ['deflate', 'null'] satisfies EventsFileCodec[]) {
    it(`round-trips thousands of events of every type (${codec} codec), saying where each was`, async () => {
      const path = join(dir, `many-${codec}.avro`);
      const written = await writeEventsFile(path, events, { codec, blockSize: 8 * 1024 });
      assert.equal(written.events, 3000);
      assert.ok(written.blocks > 20, `${written.blocks} blocks`);
      const items = await readAll(path);
      assert.deepStrictEqual(records(items), events);
      assert.equal(new Set(items.map((i) => i.block)).size, written.blocks);
      const firstOfBlock1 = items.findIndex((i) => i.block === 1);
      assert.deepEqual(
        items.slice(firstOfBlock1 - 1, firstOfBlock1 + 2).map((i) => [i.block, i.index]),
        [
          [0, firstOfBlock1 - 1],
          [1, 0],
          [1, 1],
        ],
      );
    });
  }

  it('reads the same, chunk by chunk, when the file is read a few bytes at a time', async () => {
    const path = join(dir, 'small-chunks.avro');
    await writeEventsFile(path, manyEvents(150), { codec: 'null', blockSize: 1024 });
    assert.deepStrictEqual(records(await readAll(path, 13)), manyEvents(150));
  });

  it('writes files that avsc reads, and reads files that avsc writes', async () => {
    const ours = join(dir, 'ours.avro');
    await writeEventsFile(ours, exampleEvents());
    const seen: string[] = [];
    const decoder = avro.createFileDecoder(ours).on('data', (value: Record<string, unknown>) => {
      seen.push(Object.keys(value)[0]!);
    });
    await once(decoder, 'end');
    assert.deepEqual(
      seen,
      exampleEvents().map((e) => eventFullName(e.type)),
    );

    const theirs = join(dir, 'theirs.avro');
    await writeWithAvsc(
      theirs,
      eventUnionSchema(),
      exampleEvents().map((event) => ({ [eventFullName(event.type)]: event.data })),
    );
    assert.deepStrictEqual(records(await readAll(theirs)), exampleEvents());
  });

  describe('with a damaged block', () => {
    const corrupt = async (
      name: string,
      codec: EventsFileCodec,
      damage: (file: Buffer, span: { start: number; end: number }) => Buffer,
    ) => {
      const path = join(dir, `${name}.avro`);
      await writeEventsFile(path, events, { codec, blockSize: 4 * 1024 });
      const original = await readFile(path);
      const spans = blockSpans(original);
      const middle = Math.floor(spans.length / 2);
      const before = await readAll(path);
      const damaged = damage(Buffer.from(original), spans[middle]!);
      await writeFile(path, damaged);
      return { path, damaged, span: spans[middle]!, middle, before, after: await readAll(path) };
    };

    const assertOneBadBlock = (result: Awaited<ReturnType<typeof corrupt>>, reason: RegExp): void => {
      const errors = result.after.filter((i) => 'error' in i);
      assert.equal(errors.length, 1, JSON.stringify(errors.map((e) => 'error' in e && e.error.message)));
      const bad = errors[0]!;
      assert.ok('error' in bad && bad.error instanceof CorruptBlockError);
      assert.equal(bad.error.code, 'CORRUPT_BLOCK');
      assert.equal(bad.block, result.middle);
      assert.equal(bad.index, undefined);
      assert.deepEqual(
        bad.bytes,
        result.damaged.subarray(result.span.start, result.span.end),
        'the bytes kept',
      );
      assert.match(
        bad.error.message,
        new RegExp(
          `block ${result.middle} \\(counting from 0, \\d+ byte\\(s\\) at offset ${result.span.start}\\) is corrupt`,
        ),
      );
      assert.match(bad.error.message, reason);
      // every record of every other block, in order, with the same places; the bad block's bytes kept
      const expected = result.before.filter((i) => i.block !== result.middle);
      assert.deepStrictEqual(
        result.after.filter((i) => !('error' in i)),
        expected,
      );
      assert.ok(expected.length < events.length && expected.length > events.length * 0.8);
    };

    it('yields the records of the other blocks and one error item for a record that does not decode', async () => {
      const result = await corrupt('bad-union-index', 'null', (file, span) => {
        const { dataStart } = blockLayout(file, span);
        file.fill(0x7e, dataStart, dataStart + 8); // the first record's union branch becomes 63
        return file;
      });
      assertOneBadBlock(
        result,
        new RegExp(
          `record 0 of \\d+ has union branch 63, but the file's schema has ${F3CP_EVENT_TYPES.length}`,
        ),
      );
    });

    it('finds the next block by its sync marker when the block size is damaged', async () => {
      const result = await corrupt('bad-size', 'null', (file, span) => {
        const { sizeStart, dataStart } = blockLayout(file, span);
        assert.equal(dataStart - sizeStart, 2);
        file[sizeStart] = 0x02; // a 2-byte size made a 1-byte size of 1
        return file;
      });
      assertOneBadBlock(result, /are not the file's sync marker/);
    });

    it('reports deflate data that does not inflate', async () => {
      const result = await corrupt('bad-deflate', 'deflate', (file, span) => {
        const { dataStart } = blockLayout(file, span);
        file.fill(0xff, dataStart, dataStart + 4); // a deflate block of the reserved type 3
        return file;
      });
      assertOneBadBlock(result, /its deflate data does not inflate/);
    });

    it('keeps the bytes of a last block cut short', async () => {
      const path = join(dir, 'cut.avro');
      await writeEventsFile(path, events.slice(0, 500), { codec: 'null', blockSize: 4 * 1024 });
      const whole = await readAll(path);
      const file = await readFile(path);
      const last = blockSpans(file).at(-1)!;
      const lastBlock = whole.at(-1)!.block;
      await writeFile(path, file.subarray(0, last.end - 100));
      const items = await readAll(path);
      assert.deepStrictEqual(
        items.slice(0, -1),
        whole.filter((i) => i.block !== lastBlock),
      );
      const cut = items.at(-1)!;
      assert.ok('error' in cut && cut.error instanceof CorruptBlockError);
      assert.equal(cut.block, lastBlock);
      assert.match(cut.error.message, /bytes of data but only \d+ are left in the file/);
      assert.equal(cut.bytes.length, last.end - 100 - last.start);
    });
  });

  it('yields one error item per record of a type this reader does not know, and reads the rest', async () => {
    const coffee: Json = {
      type: 'record',
      name: 'CoffeeServed',
      namespace: 'ta.f3cp',
      doc: 'a newer event type',
      fields: [
        { name: 'header', type: 'ta.common.EventHeader', doc: 'header' },
        { name: 'seat', type: 'int', doc: 'seat' },
      ],
    };
    const path = join(dir, 'newer.avro');
    await writeWithAvsc(
      path,
      [...eventUnionSchema(), coffee],
      [
        { 'ta.common.RoundStarted': EXAMPLES.RoundStarted },
        { 'ta.f3cp.CoffeeServed': { header: EXAMPLES.RoundStarted.header, seat: 4 } },
        { 'ta.common.RoundSettled': EXAMPLES.RoundSettled },
      ],
    );
    const items = await readAll(path);
    assert.equal(items.length, 3);
    assert.deepStrictEqual(records(items), [
      eventOf('RoundStarted', EXAMPLES.RoundStarted),
      eventOf('RoundSettled', EXAMPLES.RoundSettled),
    ]);
    const unknown = items[1]!;
    assert.ok('error' in unknown && unknown.error instanceof SchemaNotResolvableError);
    assert.equal(unknown.index, 1);
    assert.match(unknown.error.message, /this reader has no event record ta\.f3cp\.CoffeeServed/);
    assert.ok(unknown.bytes.length > 20);
  });

  it('refuses what is not an events file, saying what it found', async () => {
    const cases: [string, Buffer, RegExp][] = [
      ['empty', Buffer.alloc(0), /it is empty/],
      ['json', Buffer.from('{"type":"RoundStarted"}'), /starts with 7b227479 instead of 4f626a01/],
      [
        'header-cut',
        Buffer.concat([Buffer.from('Obj\x01', 'latin1'), Buffer.from([0x04, 0x16])]),
        /ends inside its header/,
      ],
    ];
    for (const [name, bytes, reason] of cases) {
      const path = join(dir, `${name}.avro`);
      await writeFile(path, bytes);
      await assert.rejects(readAll(path), (error: unknown) => {
        assert.ok(error instanceof NotAnEventsFileError, `${name}: ${String(error)}`);
        assert.equal(error.code, 'NOT_AN_EVENTS_FILE');
        assert.match(error.message, reason);
        return true;
      });
    }
    await assert.rejects(readAll(join(dir, 'missing.avro')), /cannot be opened/);
  });

  it('refuses to write an invalid event, naming it, and leaves no file behind', async () => {
    const bad = { ...EXAMPLES.CardDealt, seat: 'three' } as unknown as F3cpEvents['CardDealt'];
    const path = join(dir, 'invalid', 'x.avro');
    await mkdir(join(dir, 'invalid'));
    await assert.rejects(
      writeEventsFile(path, [...exampleEvents().slice(0, 5), eventOf('CardDealt', bad)]),
      (error: unknown) => {
        assert.ok(error instanceof InvalidEventError);
        assert.match(error.message, /invalid ta\.f3cp\.CardDealt \(event 5 of the file\): seat is "three"/);
        return true;
      },
    );
    assert.deepEqual(await readdir(join(dir, 'invalid')), []);
  });
});
