import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { after, before, describe, it } from 'node:test';
import { createHash } from 'node:crypto';
import { crc32, deflateRawSync } from 'node:zlib';
import avro from 'avsc';
import * as snappy from 'snappyjs';
import {
  ChecksumMismatchError,
  CorruptBlockError,
  CorruptRecordError,
  TABLE_EVENT_TYPE_LIST,
  eventFullName,
  eventUnionSchema,
  InvalidEventError,
  NotAnEventsFileError,
  readEventsFile,
  SchemaNotResolvableError,
  writeEventsFile,
  type EventsFileCodec,
  type EventsFileError,
  type EventsFileInfo,
  type EventsFileItem,
  type ReadEventsFileOptions,
  type EventsFileRecord,
  type F3cpEvent,
  type F3cpEvents,
  type Json,
} from '../src/index.ts';
import { EXAMPLES, eventOf, exampleEvents, manyEvents } from './examples.ts';

async function readAll(path: string, options?: number | ReadEventsFileOptions): Promise<EventsFileItem[]> {
  const items: EventsFileItem[] = [];
  const o = typeof options === 'number' ? { chunkSize: options } : (options ?? {});
  for await (const item of readEventsFile(path, o)) items.push(item);
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

/** Avro's snappy block for avsc: snappy data, then the CRC32 (big-endian) of the uncompressed data, checked. */
function avscSnappy(buffer: Buffer, callback: (error: Error | null, data?: Buffer) => void): void {
  try {
    const raw = Buffer.from(snappy.uncompress(buffer.subarray(0, buffer.length - 4)));
    if (crc32(raw) >>> 0 !== buffer.readUInt32BE(buffer.length - 4)) throw new Error('snappy CRC32 mismatch');
    callback(null, raw);
  } catch (error) {
    callback(error as Error);
  }
}

/** Writes an object container file with avsc's own encoder. */
async function writeWithAvsc(
  path: string,
  schema: Json,
  values: unknown[],
  codec = 'deflate',
): Promise<void> {
  await pipeline(
    Readable.from(values),
    new avro.streams.BlockEncoder(schema as avro.Schema, { codec }),
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
    const decoder = avro
      .createFileDecoder(ours, { codecs: { snappy: avscSnappy } })
      .on('data', (value: Record<string, unknown>) => {
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

    it('sets aside only a record that does not decode, with its bytes, and reads the rest of its block', async () => {
      const result = await corrupt('bad-union-index', 'null', (file, span) => {
        const { dataStart } = blockLayout(file, span);
        file.fill(0x7e, dataStart, dataStart + 8); // the first record's union branch becomes 63
        return file;
      });
      const errors = result.after.filter((i): i is EventsFileError => 'error' in i);
      assert.equal(errors.length, 1, errors.map((e) => e.error.message).join('\n'));
      const bad = errors[0]!;
      assert.ok(bad.error instanceof CorruptRecordError);
      assert.equal(bad.error.code, 'CORRUPT_RECORD');
      assert.deepEqual([bad.block, bad.index], [result.middle, 0]);
      assert.match(
        bad.error.message,
        new RegExp(
          `block ${result.middle} record 0 does not decode \\(file offset \\d+, \\d+ byte\\(s\\)\\): its union index is 63 \\(at byte 0\\), but the file's schema has ${TABLE_EVENT_TYPE_LIST.length} branches`,
        ),
      );
      // the bytes kept are the damaged record's, exactly: the first record of the block as the file now holds it
      const { dataStart } = blockLayout(result.damaged, result.span);
      assert.deepEqual(bad.bytes, result.damaged.subarray(dataStart, dataStart + bad.bytes!.length));
      assert.equal(bad.region.offset, result.span.start);
      // every other record, the rest of the damaged block included, in order and with its place
      assert.deepStrictEqual(
        result.after.filter((i) => !('error' in i)),
        result.before.filter((i) => !(i.block === result.middle && 'index' in i && i.index === 0)),
      );
    });

    it('sets aside a record whose string claims more bytes than the block has, naming the field and the offset', async () => {
      const result = await corrupt('bad-string', 'null', (file, span) => {
        const { dataStart } = blockLayout(file, span);
        // record 0: union index (1 byte), then the header's eventId string: its length becomes 2^40
        file.set([0x80, 0x80, 0x80, 0x80, 0x80, 0x40], dataStart + 1);
        return file;
      });
      const errors = result.after.filter((i): i is EventsFileError => 'error' in i);
      assert.equal(errors.length, 1, errors.map((e) => e.error.message).join('\n'));
      assert.ok(errors[0]!.error instanceof CorruptRecordError);
      assert.match(
        errors[0]!.error.message,
        /record 0 does not decode .*header\.eventId at byte 1: a string declares \d+ bytes but only \d+ are left/,
      );
      assert.equal(
        result.after.filter((i) => !('error' in i)).length,
        result.before.length - 1,
        'only that record is lost',
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
      assert.equal(cut.bytes!.length, last.end - 100 - last.start);
    });
  });

  describe('trusting nothing the file declares', () => {
    /** The header of an events file of `codec`, and its sync marker, from a real file. */
    const headerOf = async (codec: EventsFileCodec) => {
      const path = join(dir, `header-${codec}.avro`);
      await writeEventsFile(path, exampleEvents().slice(0, 3), { codec });
      const file = await readFile(path);
      const first = blockSpans(file)[0]!;
      return { header: file.subarray(0, first.start), sync: file.subarray(file.length - 16) };
    };
    const long = avro.Type.forSchema('long');
    const varint = (n: number): Buffer => {
      // zigzag varint of a non-negative number beyond 2^31 too (avsc's long refuses nothing here)
      const bytes: number[] = [];
      let u = n * 2;
      while (u >= 128) {
        bytes.push((u % 128) | 0x80);
        u = Math.floor(u / 128);
      }
      bytes.push(u);
      return Buffer.from(bytes);
    };

    it('reads every event of a file with ten bytes appended, and keeps those ten bytes', async () => {
      const path = join(dir, 'appended.avro');
      await writeEventsFile(path, events, { blockSize: 8 * 1024 });
      const junk = Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]);
      await writeFile(path, Buffer.concat([await readFile(path), junk]));
      const items = await readAll(path);
      assert.deepStrictEqual(records(items), events);
      const errors = items.filter((i): i is EventsFileError => 'error' in i);
      assert.equal(errors.length, 1);
      assert.ok(errors[0]!.error instanceof CorruptBlockError);
      assert.deepEqual(errors[0]!.bytes, junk);
      assert.match(
        errors[0]!.error.message,
        /10 byte\(s\) at offset \d+\) is corrupt: its header \(record count and size\) is not two Avro longs: the record count is beyond ±2\^53/,
      );
    });

    for (const [declared, size] of [
      [1e6, 0],
      [1e9, 2],
      [2 ** 52, 1],
    ] as const) {
      it(`keeps a block declaring ${declared} records in ${size} byte(s) as one error item`, async () => {
        const { header, sync } = await headerOf('null');
        const path = join(dir, `declares-${declared}.avro`);
        const block = Buffer.concat([varint(declared), long.toBuffer(size), Buffer.alloc(size), sync]);
        await writeFile(path, Buffer.concat([header, block]));
        const items = await readAll(path);
        assert.equal(items.length, 1);
        const only = items[0]!;
        assert.ok(
          'error' in only && only.error instanceof CorruptBlockError,
          String('error' in only && only.error),
        );
        assert.match(only.error.message, /records/);
        assert.deepEqual(only.bytes, block);
      });
    }

    it('keeps a long region without a sync marker by reference (offset, length, SHA-256), never whole', async () => {
      const path = join(dir, 'no-sync.avro');
      await writeEventsFile(path, events.slice(0, 200), { codec: 'null', blockSize: 4 * 1024 });
      const good = await readFile(path);
      const garbage = Buffer.alloc(3 * 1024 * 1024 + 7, 0x5a);
      await writeFile(path, Buffer.concat([good, garbage]));
      const items = await readAll(path, { maxKeptBytes: 64 * 1024, chunkSize: 256 * 1024 });
      assert.deepStrictEqual(records(items), events.slice(0, 200));
      const errors = items.filter((i): i is EventsFileError => 'error' in i);
      assert.equal(errors.length, 1);
      const { bytes, region } = errors[0]!;
      assert.equal(bytes, null);
      assert.deepEqual(region, {
        path,
        offset: good.length,
        length: garbage.length,
        sha256: createHash('sha256').update(garbage).digest('hex'),
      });
    });

    it('refuses a block that decompresses to more than maxBlockSize, and goes on', async () => {
      const path = join(dir, 'bomb.avro');
      await writeEventsFile(path, events.slice(0, 100), { codec: 'deflate', blockSize: 1024 });
      const { header, sync } = await headerOf('deflate');
      const bomb = deflateRawSync(Buffer.alloc(8 * 1024 * 1024));
      const file = await readFile(path);
      const bombBlock = Buffer.concat([
        long.toBuffer(5),
        long.toBuffer(bomb.length),
        bomb,
        file.subarray(-16),
      ]);
      await writeFile(path, Buffer.concat([file, bombBlock]));
      const items = await readAll(path, { maxBlockSize: 1024 * 1024 });
      assert.deepStrictEqual(records(items), events.slice(0, 100));
      const last = items.at(-1)!;
      assert.ok('error' in last && last.error instanceof CorruptBlockError);
      assert.match(last.error.message, /decompresses to more than 1048576 bytes/);
      assert.ok(header.length > 0 && sync.length === 16);
    });
  });

  describe('codecs', () => {
    for (const codec of ['null', 'deflate', 'snappy'] satisfies EventsFileCodec[]) {
      it(`writes and reads ${codec}, and tells what protects its blocks`, async () => {
        const path = join(dir, `codec-${codec}.avro`);
        await writeEventsFile(path, events.slice(0, 500), { codec, blockSize: 4096 });
        const infos: EventsFileInfo[] = [];
        const items: EventsFileItem[] = [];
        for await (const item of readEventsFile(path, { onInfo: (i) => infos.push(i) })) items.push(item);
        assert.deepStrictEqual(records(items), events.slice(0, 500));
        assert.equal(infos.length, 1);
        assert.equal(infos[0]!.codec, codec);
        assert.equal(infos[0]!.protection === null, codec !== 'snappy');
      });
    }

    it('writes snappy by default', async () => {
      const path = join(dir, 'default-codec.avro');
      await writeEventsFile(path, exampleEvents());
      assert.ok((await readFile(path)).includes(Buffer.from('snappy')));
    });

    it('finds a single flipped bit in a snappy block by its CRC32, keeps the block and reads the others', async () => {
      const path = join(dir, 'flip.avro');
      await writeEventsFile(path, events, { codec: 'snappy', blockSize: 4 * 1024 });
      const original = await readFile(path);
      const spans = blockSpans(original);
      const middle = spans[Math.floor(spans.length / 2)]!;
      const before = await readAll(path);
      // a literal byte deep in the block's data: it still decompresses, to other bytes
      const damaged = Buffer.from(original);
      const at = middle.end - 16 - 4 - 40;
      damaged[at] = damaged[at]! ^ 0x01;
      await writeFile(path, damaged);
      const after = await readAll(path);
      const errors = after.filter((i): i is EventsFileError => 'error' in i);
      assert.equal(errors.length, 1);
      const bad = errors[0]!;
      assert.ok(
        bad.error instanceof ChecksumMismatchError || bad.error instanceof CorruptBlockError,
        bad.error.message,
      );
      assert.deepEqual(bad.bytes, damaged.subarray(middle.start, middle.end));
      const badBlock = bad.block;
      assert.deepStrictEqual(records(after), records(before.filter((i) => i.block !== badBlock)));
    });

    it('refuses a codec outside the specification, naming it', async () => {
      const path = join(dir, 'lz4.avro');
      await writeEventsFile(path, exampleEvents(), { codec: 'null' });
      const file = await readFile(path);
      const at = file.indexOf(Buffer.from('avro.codec\x08null', 'latin1'));
      assert.ok(at > 0);
      file.write('lz4x', at + 11, 'latin1');
      await writeFile(path, file);
      await assert.rejects(
        readAll(path),
        /its codec "lz4x" is not one of the Avro specification's \(null, deflate, snappy, zstandard, bzip2, xz\)/,
      );
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
    assert.ok(unknown.bytes!.length > 20);
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
