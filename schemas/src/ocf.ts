/**
 * Events files: Avro object container files whose schema is the union of every event record (in F3CP_EVENT_TYPES
 * order), readable by any Avro implementation. Used by the embedded setup instead of Kafka, and for evidence.
 *
 * The reader parses the blocks itself rather than through avsc's BlockDecoder, which stops at the first bad
 * block: here a damaged block becomes one error item carrying its bytes, the reader finds the next sync marker and
 * goes on, so that ingest keeps the bad bytes with a reason and loses nothing else. Each record is read with the
 * writer's branch resolved to this package's current schema of the same record.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type avro from 'avsc';
import {
  createType,
  eventFullName,
  eventTypeOf,
  eventUnionSchema,
  toPlain,
  validationProblems,
  type Json,
} from './avro.ts';
import {
  CorruptBlockError,
  InvalidEventError,
  NotAnEventsFileError,
  SchemaNotResolvableError,
  UnknownEventTypeError,
} from './errors.ts';
import { F3CP_EVENT_TYPES, type F3cpEvent, type F3cpEventType } from './events.ts';
import { resolverFor } from './wire.ts';

export type EventsFileCodec = 'null' | 'deflate';

export interface WriteEventsFileOptions {
  /** default deflate (every Avro implementation reads it) */
  codec?: EventsFileCodec;
  /** uncompressed bytes after which a block is closed; default 64 KiB */
  blockSize?: number;
}

export interface WriteEventsFileResult {
  events: number;
  blocks: number;
}

/** A record read from an events file; `block` and `index` (both from 0) say where it was. */
export type EventsFileRecord = F3cpEvent & { block: number; index: number };

/**
 * What could not be read: a damaged block (`CorruptBlockError`, no `index`), or one record of a type this
 * reader cannot read (`SchemaNotResolvableError`, with its `index`). `bytes` are the raw bytes set aside.
 */
export interface EventsFileError {
  error: CorruptBlockError | SchemaNotResolvableError;
  block: number;
  index?: number;
  bytes: Buffer;
}

export type EventsFileItem = EventsFileRecord | EventsFileError;

export interface ReadEventsFileOptions {
  /** bytes read from the file at a time; default 1 MiB */
  chunkSize?: number;
}

const MAGIC = Buffer.from('Obj\x01', 'latin1');
const SYNC_LENGTH = 16;
const LONG = createType('long');
const HEADER = createType({
  type: 'record',
  name: 'org.apache.avro.file.Header',
  fields: [
    { name: 'magic', type: { type: 'fixed', name: 'Magic', size: 4 } },
    { name: 'meta', type: { type: 'map', values: 'bytes' } },
    { name: 'sync', type: { type: 'fixed', name: 'Sync', size: SYNC_LENGTH } },
  ],
});

let unionCache: { schema: Json[]; type: avro.types.WrappedUnionType } | undefined;
/** The union of the current event records, built once. */
function eventUnion(): { schema: Json[]; type: avro.types.WrappedUnionType } {
  if (!unionCache) {
    const schema = eventUnionSchema();
    unionCache = {
      schema,
      type: createType(schema, 'the union of event records') as avro.types.WrappedUnionType,
    };
  }
  return unionCache;
}

/** Writes events to an Avro object container file, atomically (a temporary file renamed into place). */
export async function writeEventsFile(
  path: string,
  events: Iterable<F3cpEvent> | AsyncIterable<F3cpEvent>,
  options: WriteEventsFileOptions = {},
): Promise<WriteEventsFileResult> {
  const codec = options.codec ?? 'deflate';
  const blockSize = options.blockSize ?? 64 * 1024;
  const union = eventUnion();
  const branchOf = new Map<string, number>(F3CP_EVENT_TYPES.map((type, index) => [type, index]));
  const sync = randomBytes(SYNC_LENGTH);
  const temporary = `${path}.${process.pid}.tmp`;
  const file = await open(temporary, 'w');
  let written = false;
  let count = 0;
  let blocks = 0;
  try {
    const meta = {
      'avro.schema': Buffer.from(JSON.stringify(union.schema)),
      'avro.codec': Buffer.from(codec),
    };
    await file.write(HEADER.toBuffer({ magic: MAGIC, meta, sync }));
    let records: Buffer[] = [];
    let recordCount = 0;
    let recordBytes = 0;
    const flush = async (): Promise<void> => {
      if (recordCount === 0) return;
      const raw = Buffer.concat(records, recordBytes);
      const data = codec === 'deflate' ? deflateRawSync(raw) : raw;
      await file.write(Buffer.concat([LONG.toBuffer(recordCount), LONG.toBuffer(data.length), data, sync]));
      blocks += 1;
      records = [];
      recordCount = 0;
      recordBytes = 0;
    };
    for await (const event of events) {
      const branch = branchOf.get(event.type);
      const where = ` (event ${count} of the file)`;
      if (branch === undefined) throw new UnknownEventTypeError(String(event.type), where);
      const recordType = union.type.types[branch]!;
      let record: Buffer;
      try {
        record = recordType.toBuffer(event.data);
      } catch (error) {
        const problems = validationProblems(recordType, event.data);
        throw new InvalidEventError(
          eventFullName(event.type),
          problems.length ? problems : [String(error)],
          where,
        );
      }
      const branchIndex = LONG.toBuffer(branch);
      records.push(branchIndex, record);
      recordCount += 1;
      recordBytes += branchIndex.length + record.length;
      count += 1;
      if (recordBytes >= blockSize) await flush();
    }
    await flush();
    await file.sync();
    written = true;
  } finally {
    await file.close();
    if (written) await rename(temporary, path);
    else await unlink(temporary).catch(() => undefined);
  }
  return { events: count, blocks };
}

/** The part of a file read so far, from file offset `start`; grows on demand, forgets what is behind. */
class FileBytes {
  buffer = Buffer.alloc(0);
  start = 0;
  eof = false;

  constructor(
    private readonly file: FileHandle,
    readonly size: number,
    private readonly chunkSize: number,
  ) {}

  /** The file offset just past what is buffered. */
  get end(): number {
    return this.start + this.buffer.length;
  }

  /** Buffers at least `length` bytes from `offset` (fewer at the end of the file). */
  async fill(offset: number, length: number): Promise<void> {
    while (!this.eof && this.end < offset + length) {
      const chunk = Buffer.alloc(Math.max(this.chunkSize, offset + length - this.end));
      const { bytesRead } = await this.file.read(chunk, 0, chunk.length, this.end);
      if (bytesRead === 0) this.eof = true;
      else this.buffer = Buffer.concat([this.buffer, chunk.subarray(0, bytesRead)]);
    }
  }

  /** Forgets the bytes before `offset`. */
  drop(offset: number): void {
    this.buffer = this.buffer.subarray(offset - this.start);
    this.start = offset;
  }

  /** A copy of the bytes from `from` to `to` (file offsets), so that it does not pin the whole buffer. */
  copy(from: number, to: number): Buffer {
    return Buffer.from(this.buffer.subarray(from - this.start, to - this.start));
  }

  view(from: number, to: number): Buffer {
    return this.buffer.subarray(from - this.start, to - this.start);
  }

  /** A long at `offset`: its value and the offset after it; null when the file ends inside it. */
  async long(offset: number): Promise<{ value: number; next: number } | null> {
    await this.fill(offset, 10);
    const decoded = LONG.decode(this.buffer, offset - this.start);
    return decoded.offset === -1
      ? null
      : { value: decoded.value as number, next: decoded.offset + this.start };
  }

  /** The offset of the next occurrence of `marker` at or after `from`, or -1. */
  async find(marker: Buffer, from: number): Promise<number> {
    let searchFrom = from;
    for (;;) {
      const found = this.buffer.indexOf(marker, searchFrom - this.start);
      if (found !== -1) return found + this.start;
      if (this.eof) return -1;
      searchFrom = Math.max(from, this.end - marker.length + 1);
      await this.fill(this.end, this.chunkSize);
    }
  }
}

/** A block whose frame (count, size, sync marker) is intact; or why it is not. */
type BlockFrame = { count: number; data: Buffer; next: number } | { damage: string };

async function readBlockFrame(bytes: FileBytes, offset: number, sync: Buffer): Promise<BlockFrame> {
  const count = await bytes.long(offset);
  const size = count && (await bytes.long(count.next));
  if (!count || !size) return { damage: 'the file ends inside the block header (record count and size)' };
  if (count.value < 0 || size.value < 0)
    return { damage: `its header declares ${count.value} records in ${size.value} bytes` };
  const dataEnd = size.next + size.value;
  if (dataEnd + SYNC_LENGTH > bytes.size)
    return {
      damage:
        `it declares ${size.value} bytes of data but only ${Math.max(0, bytes.size - size.next - SYNC_LENGTH)} ` +
        `are left in the file before a sync marker (cut short, or its size is damaged)`,
    };
  await bytes.fill(size.next, size.value + SYNC_LENGTH);
  if (!bytes.view(dataEnd, dataEnd + SYNC_LENGTH).equals(sync))
    return {
      damage: `the ${SYNC_LENGTH} bytes after its ${size.value} bytes of data are not the file's sync marker (its size or data is damaged)`,
    };
  return { count: count.value, data: bytes.view(size.next, dataEnd), next: dataEnd + SYNC_LENGTH };
}

/** How one branch of the writer's schema is read: as an event record of the current schemas, or not at all. */
type Reading =
  | { type: F3cpEventType; reader: avro.Type; resolver: avro.Resolver }
  | { writer: avro.Type; error: SchemaNotResolvableError };

/** Reads an events file; see EventsFileItem. Throws NotAnEventsFileError when its header is unreadable. */
export async function* readEventsFile(
  path: string,
  options: ReadEventsFileOptions = {},
): AsyncGenerator<EventsFileItem, void, undefined> {
  const file = await open(path, 'r').catch((error: Error) => {
    throw new NotAnEventsFileError(path, `it cannot be opened (${error.message})`);
  });
  try {
    const bytes = new FileBytes(file, (await file.stat()).size, options.chunkSize ?? 1024 * 1024);
    const { writerBranches, isUnion, codec, sync, headerEnd } = await readHeader(path, bytes);
    const readers = new Map(eventUnion().type.types.map((type) => [String(type.name), type]));
    const readings = new Map<number, Reading>();
    const readingOf = (branch: number): Reading => {
      let reading = readings.get(branch);
      if (!reading) {
        reading = resolveBranch(writerBranches[branch]!, readers);
        readings.set(branch, reading);
      }
      return reading;
    };

    let offset = headerEnd;
    for (let block = 0; ; block += 1) {
      bytes.drop(offset);
      await bytes.fill(offset, 1);
      if (bytes.end <= offset) return;
      const frame = await readBlockFrame(bytes, offset, sync);
      let damage: string;
      let damageEnd: number;
      if ('damage' in frame) {
        // Skip to just past the next sync marker: the end of this block if only its header or data is damaged.
        const marker = await bytes.find(sync, offset + 1);
        damage = frame.damage;
        damageEnd = marker === -1 ? bytes.size : marker + SYNC_LENGTH;
        if (marker === -1) await bytes.fill(offset, bytes.size - offset);
      } else {
        const decoded = decodeBlock(
          frame.data,
          frame.count,
          codec,
          isUnion,
          writerBranches.length,
          readingOf,
        );
        if (!('damage' in decoded)) {
          for (const item of decoded) {
            if ('error' in item) yield { error: item.error, block, index: item.index, bytes: item.bytes };
            else yield { type: item.type, data: item.data, block, index: item.index } as EventsFileRecord;
          }
          offset = frame.next;
          continue;
        }
        damage = decoded.damage;
        damageEnd = frame.next;
      }
      const error = new CorruptBlockError(path, block, offset, damageEnd - offset, damage);
      yield { error, block, bytes: bytes.copy(offset, damageEnd) };
      offset = damageEnd;
    }
  } finally {
    await file.close();
  }
}

async function readHeader(path: string, bytes: FileBytes) {
  await bytes.fill(0, MAGIC.length);
  const magic = bytes.view(0, MAGIC.length);
  if (!magic.equals(MAGIC))
    throw new NotAnEventsFileError(
      path,
      bytes.size === 0
        ? 'it is empty'
        : `it starts with ${magic.toString('hex')} instead of 4f626a01 ("Obj" and format version 1)`,
    );
  let decoded: { value: { meta: Record<string, Buffer>; sync: Buffer }; offset: number };
  for (;;) {
    try {
      decoded = HEADER.decode(bytes.buffer, 0);
    } catch (error) {
      throw new NotAnEventsFileError(path, `its header is damaged (${(error as Error).message})`);
    }
    if (decoded.offset !== -1) break;
    if (bytes.eof) throw new NotAnEventsFileError(path, 'the file ends inside its header');
    await bytes.fill(0, bytes.buffer.length * 2);
  }
  const { meta, sync } = decoded.value;
  const schemaText = meta['avro.schema'];
  if (!schemaText) throw new NotAnEventsFileError(path, 'its header has no avro.schema');
  let writer: avro.Type;
  try {
    writer = createType(JSON.parse(schemaText.toString('utf8')) as Json, 'its schema');
  } catch (error) {
    throw new NotAnEventsFileError(path, `its schema cannot be read (${(error as Error).message})`);
  }
  const codec = meta['avro.codec']?.toString('utf8') || 'null';
  if (codec !== 'null' && codec !== 'deflate')
    throw new NotAnEventsFileError(path, `its codec "${codec}" is not supported (null and deflate are)`);
  const isUnion = writer.typeName.startsWith('union');
  const writerBranches = isUnion ? (writer as avro.types.WrappedUnionType).types : [writer];
  return { writerBranches, isUnion, codec, sync: Buffer.from(sync), headerEnd: decoded.offset };
}

function resolveBranch(writer: avro.Type, readers: ReadonlyMap<string, avro.Type>): Reading {
  const fullName = String(writer.name ?? writer.typeName);
  // a file written before a record moved namespace names it by its former full name: read it as the current one
  const type = eventTypeOf(fullName);
  const reader = type && readers.get(eventFullName(type));
  const names = {
    writer: `${fullName} of the file's schema`,
    reader: `this reader's ${type ? eventFullName(type) : fullName}`,
  };
  if (!type || !reader)
    return {
      writer,
      error: new SchemaNotResolvableError(
        names.writer,
        'an event',
        `this reader has no event record ${fullName}`,
      ),
    };
  try {
    return { type, reader, resolver: resolverFor(reader, writer, names) };
  } catch (error) {
    return { writer, error: error as SchemaNotResolvableError };
  }
}

type DecodedItem =
  | { type: F3cpEventType; data: unknown; index: number }
  | { error: SchemaNotResolvableError; index: number; bytes: Buffer };

/** Every record of a block, or why the block cannot be trusted (then none of its records are used). */
function decodeBlock(
  stored: Buffer,
  count: number,
  codec: string,
  isUnion: boolean,
  branches: number,
  readingOf: (branch: number) => Reading,
): DecodedItem[] | { damage: string } {
  let data: Buffer;
  try {
    data = codec === 'deflate' ? inflateRawSync(stored) : stored;
  } catch (error) {
    return { damage: `its deflate data does not inflate (${(error as Error).message})` };
  }
  const items: DecodedItem[] = [];
  let offset = 0;
  for (let index = 0; index < count; index += 1) {
    const where = `record ${index} of ${count}`;
    try {
      let branch = 0;
      if (isUnion) {
        const decoded = LONG.decode(data, offset);
        if (decoded.offset === -1) return { damage: `${where} starts past the end of the block's data` };
        branch = decoded.value as number;
        offset = decoded.offset;
        if (branch < 0 || branch >= branches)
          return { damage: `${where} has union branch ${branch}, but the file's schema has ${branches}` };
      }
      const reading = readingOf(branch);
      const start = offset;
      const decoded =
        'error' in reading
          ? reading.writer.decode(data, offset)
          : reading.reader.decode(data, offset, reading.resolver);
      if (decoded.offset === -1) return { damage: `${where} runs past the end of the block's data` };
      offset = decoded.offset;
      if ('error' in reading)
        items.push({ error: reading.error, index, bytes: Buffer.from(data.subarray(start, offset)) });
      else items.push({ type: reading.type, data: toPlain(decoded.value), index });
    } catch (error) {
      return { damage: `${where} does not decode (${(error as Error).message})` };
    }
  }
  if (offset !== data.length)
    return { damage: `${data.length - offset} byte(s) are left after its ${count} records` };
  return items;
}
