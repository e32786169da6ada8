/**
 * Events files: Avro object container files whose schema is the union of every event record (in TABLE_EVENT_TYPE_LIST
 * order), readable by any Avro implementation. Used by the embedded setup instead of Kafka, and for evidence.
 *
 * The reader parses the blocks itself rather than through avsc's BlockDecoder, which stops at the first bad block
 * and trusts what the file declares. Here nothing read from the file sizes anything before it is checked: a
 * block's record count against its data, its size against `maxBlockSize` and the file, every long, string, bytes
 * and array length against the bytes left (avro-bounds.ts). Then:
 *
 * - a damaged block frame (count, size, sync marker) or data that does not decompress or fails its checksum becomes
 *   one error item; the reader finds the next sync marker by streaming the file (never holding the damaged region
 *   whole) and goes on. A region over `maxKeptBytes` is kept as a reference (`region`: offset, length, SHA-256),
 *   not as bytes;
 * - in a sound block, records are decoded one by one: a record that does not decode becomes one error item with its
 *   bytes, and the reader finds where the next record starts (the first offset from which the rest of the block
 *   reads as exactly the records the block still declares) and goes on;
 * - a record of a type this reader does not know is one error item with its bytes.
 *
 * Each record is read with the writer's branch resolved to this package's current schema of the same record (an
 * enum symbol the reader does not have reads as the enum's default, UNKNOWN, which ingest refuses).
 */
import { createHash, randomBytes } from 'node:crypto';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import type avro from 'avsc';
import {
  createPlainReaderType,
  createType,
  eventFullName,
  eventTypeOf,
  eventUnionSchema,
  validationProblems,
  type Json,
} from './avro.ts';
import { EncodingError, measureValue, minimumSize, readLong } from './avro-bounds.ts';
import {
  ChecksumMismatchError,
  CorruptBlockError,
  CorruptRecordError,
  InvalidEventError,
  NotAnEventsFileError,
  SchemaNotResolvableError,
  UnknownEventTypeError,
} from './errors.ts';
import { TABLE_EVENT_TYPE_LIST, type TableEvent, type TableEventType } from './events.ts';
import {
  CodecError,
  codecProtection,
  decodeBlock as decompress,
  encodeBlock,
  isOcfCodec,
  OCF_CODECS,
  type EventsFileCodec,
  type OcfCodecName,
} from './ocf-codecs.ts';
import { resolverFor } from './wire.ts';

export type { EventsFileCodec, OcfCodecName } from './ocf-codecs.ts';

export interface WriteEventsFileOptions {
  /** default snappy: every Avro implementation reads it, and each block carries a CRC32 the reader checks */
  codec?: EventsFileCodec;
  /** uncompressed bytes after which a block is closed; default 64 KiB */
  blockSize?: number;
}

export interface WriteEventsFileResult {
  events: number;
  blocks: number;
}

/** A record read from an events file; `block` and `index` (both from 0) say where it was. */
export type EventsFileRecord = TableEvent & { block: number; index: number };

/** A region of a file: where bytes set aside lie, and their SHA-256 (hex) when the reader hashed them. */
export interface FileRegion {
  path: string;
  offset: number;
  length: number;
  sha256?: string;
}

/**
 * What could not be read:
 * - a damaged block or region (`CorruptBlockError`, `ChecksumMismatchError`; no `index`): `region` is where it
 *   lies in the file, `bytes` those bytes (null when longer than `maxKeptBytes`: then `region` carries their
 *   SHA-256);
 * - a record, or a run of records, that does not decode (`CorruptRecordError`), or one record of a type this reader
 *   cannot read (`SchemaNotResolvableError`), with its `index`: `bytes` are the record's bytes as the block's data
 *   holds them (decompressed), `dataRange` where they lie in that data, `region` the block in the file.
 */
export interface EventsFileError {
  error: CorruptBlockError | ChecksumMismatchError | CorruptRecordError | SchemaNotResolvableError;
  block: number;
  index?: number;
  bytes: Buffer | null;
  region: FileRegion;
  dataRange?: { start: number; end: number };
}

export type EventsFileItem = EventsFileRecord | EventsFileError;

/** What the header of a file says, told before its first item. */
export interface EventsFileInfo {
  path: string;
  codec: OcfCodecName;
  /** what protects each block against damage (a checksum the reader verifies), or null: damage can go unseen */
  protection: string | null;
  /** the branches of the writer's schema, and how many of them are event records this reader knows */
  branches: number;
  knownBranches: number;
}

export interface ReadEventsFileOptions {
  /** bytes read from the file at a time; default 1 MiB */
  chunkSize?: number;
  /** the most bytes a block may declare or decompress to; default 64 MiB (this writer writes 64 KiB blocks) */
  maxBlockSize?: number;
  /** the most bytes an error item carries; a longer damaged region is kept as a reference; default 1 MiB */
  maxKeptBytes?: number;
  /** told what the header says, before the first item */
  onInfo?: (info: EventsFileInfo) => void;
}

export const DEFAULT_MAX_BLOCK_SIZE = 64 * 1024 * 1024;
export const DEFAULT_MAX_KEPT_BYTES = 1024 * 1024;

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

let plainReadersCache: Map<string, avro.Type> | undefined;
/** The current event records by full name, built once to read: their records decode as plain objects. */
function plainEventReaders(): ReadonlyMap<string, avro.Type> {
  plainReadersCache ??= new Map(
    (
      createPlainReaderType(eventUnion().schema, 'the union of event records') as avro.types.WrappedUnionType
    ).types.map((type) => [String(type.name), type]),
  );
  return plainReadersCache;
}

/** Writes events to an Avro object container file, atomically (a temporary file renamed into place). */
export async function writeEventsFile(
  path: string,
  events: Iterable<TableEvent> | AsyncIterable<TableEvent>,
  options: WriteEventsFileOptions = {},
): Promise<WriteEventsFileResult> {
  const codec = options.codec ?? 'snappy';
  const blockSize = options.blockSize ?? 64 * 1024;
  const union = eventUnion();
  const branchOf = new Map<string, number>(TABLE_EVENT_TYPE_LIST.map((type, index) => [type, index]));
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
      const data = encodeBlock(codec, Buffer.concat(records, recordBytes));
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

/** A window on a file: the bytes from `start` that were read; reads more on demand and forgets what is behind. */
class FileWindow {
  buffer = Buffer.alloc(0);
  start = 0;

  constructor(
    readonly file: FileHandle,
    readonly size: number,
    readonly chunkSize: number,
  ) {}

  get end(): number {
    return this.start + this.buffer.length;
  }

  /** Buffers [offset, offset + length) (less at the end of the file); `length` is bounded by the caller. */
  async fill(offset: number, length: number): Promise<void> {
    if (offset < this.start || offset > this.end) {
      this.buffer = Buffer.alloc(0);
      this.start = offset;
    } else if (offset - this.start > this.chunkSize) {
      this.buffer = this.buffer.subarray(offset - this.start);
      this.start = offset;
    }
    const want = Math.min(offset + length, this.size);
    if (this.end >= want) return;
    const chunk = Buffer.alloc(Math.max(this.chunkSize, want - this.end));
    let filled = 0;
    while (this.end + filled < want) {
      const { bytesRead } = await this.file.read(chunk, filled, chunk.length - filled, this.end + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    this.buffer = Buffer.concat([this.buffer, chunk.subarray(0, filled)]);
  }

  view(from: number, to: number): Buffer {
    return this.buffer.subarray(from - this.start, to - this.start);
  }
}

/** A damaged region found by streaming to the next sync marker: where it ends, its hash, its bytes if few enough. */
interface ScannedRegion {
  end: number;
  sha256: string;
  bytes: Buffer | null;
}

/**
 * Streams the file from `from` to just past the next sync marker found at or after `searchFrom` (or to the end of
 * the file), hashing the bytes and keeping them only while they are at most `maxKept`.
 */
async function scanToSync(
  window: FileWindow,
  from: number,
  searchFrom: number,
  sync: Buffer,
  maxKept: number,
): Promise<ScannedRegion> {
  const hash = createHash('sha256');
  const kept: Buffer[] = [];
  let keptLength = 0;
  let keeping = true;
  const take = (bytes: Buffer): void => {
    hash.update(bytes);
    if (!keeping) return;
    if (keptLength + bytes.length > maxKept) {
      keeping = false;
      kept.length = 0;
      return;
    }
    kept.push(Buffer.from(bytes));
    keptLength += bytes.length;
  };
  const chunk = Buffer.alloc(window.chunkSize);
  let tail = Buffer.alloc(0);
  let position = from; // the file offset of the first byte not yet read
  let hashedUpTo = from;
  for (;;) {
    const { bytesRead } =
      position < window.size
        ? await window.file.read(chunk, 0, Math.min(chunk.length, window.size - position), position)
        : { bytesRead: 0 };
    const combined = Buffer.concat([tail, chunk.subarray(0, bytesRead)]);
    const combinedStart = position - tail.length;
    position += bytesRead;
    const found = combined.indexOf(sync, Math.max(0, searchFrom - combinedStart));
    if (found !== -1) {
      take(combined.subarray(hashedUpTo - combinedStart, found + SYNC_LENGTH));
      return {
        end: combinedStart + found + SYNC_LENGTH,
        sha256: hash.digest('hex'),
        bytes: keeping ? Buffer.concat(kept) : null,
      };
    }
    take(combined.subarray(hashedUpTo - combinedStart));
    hashedUpTo = combinedStart + combined.length;
    if (bytesRead === 0)
      return { end: window.size, sha256: hash.digest('hex'), bytes: keeping ? Buffer.concat(kept) : null };
    tail = Buffer.from(combined.subarray(Math.max(0, combined.length - (SYNC_LENGTH - 1))));
  }
}

/** A block whose frame (count, size, sync marker) is intact; or why it is not. */
type BlockFrame = { count: number; dataStart: number; dataEnd: number; next: number } | { damage: string };

async function readBlockFrame(
  window: FileWindow,
  offset: number,
  sync: Buffer,
  maxBlockSize: number,
): Promise<BlockFrame> {
  await window.fill(offset, 20);
  const header = window.view(offset, Math.min(window.end, offset + 20));
  let count: number;
  let size: number;
  let dataStart: number;
  try {
    let at: number;
    [count, at] = readLong(header, 0, header.length, 'record count');
    [size, at] = readLong(header, at, header.length, 'size');
    dataStart = offset + at;
  } catch (error) {
    const e = error as EncodingError;
    return {
      damage: e.truncated
        ? 'the file ends inside the block header (record count and size)'
        : `its header (record count and size) is not two Avro longs: the ${e.path} ${e.reason.replace(/^a long /, '')}`,
    };
  }
  if (count < 0 || size < 0) return { damage: `its header declares ${count} records in ${size} bytes` };
  if (size > maxBlockSize)
    return {
      damage: `it declares ${size} bytes of data, more than the ${maxBlockSize} a block may hold here (maxBlockSize)`,
    };
  if (count > maxBlockSize)
    return {
      damage: `it declares ${count} records, more than the ${maxBlockSize} bytes a block may hold here (each record takes at least one)`,
    };
  const dataEnd = dataStart + size;
  if (dataEnd + SYNC_LENGTH > window.size)
    return {
      damage:
        `it declares ${size} bytes of data but only ${Math.max(0, window.size - dataStart - SYNC_LENGTH)} ` +
        `are left in the file before a sync marker (cut short, or its size is damaged)`,
    };
  await window.fill(dataStart, size + SYNC_LENGTH);
  if (!window.view(dataEnd, dataEnd + SYNC_LENGTH).equals(sync))
    return {
      damage: `the ${SYNC_LENGTH} bytes after its ${size} bytes of data are not the file's sync marker (its size or data is damaged)`,
    };
  return { count, dataStart, dataEnd, next: dataEnd + SYNC_LENGTH };
}

/** How one branch of the writer's schema is read: as an event record of the current schemas, or not at all. */
type Reading =
  | { type: TableEventType; writer: avro.Type; reader: avro.Type; resolver: avro.Resolver }
  | { writer: avro.Type; error: SchemaNotResolvableError };

/** Reads an events file; see EventsFileItem. Throws NotAnEventsFileError when its header is unreadable. */
export async function* readEventsFile(
  path: string,
  options: ReadEventsFileOptions = {},
): AsyncGenerator<EventsFileItem, void, undefined> {
  for await (const chunk of readEventsFileChunks(path, options)) yield* chunk;
}

/** The most items readEventsFileChunks puts in one chunk (a block of many small records gives several). */
export const MAX_ITEMS_PER_CHUNK = 1024;

/**
 * The items of readEventsFile, in the same order, a block's records at a time (at most MAX_ITEMS_PER_CHUNK each):
 * one step of the asynchronous iteration per block instead of one per record. When reading fails for a reason of
 * the reader's own (an I/O error), the items read before it are yielded first, then it throws, as readEventsFile.
 */
export async function* readEventsFileChunks(
  path: string,
  options: ReadEventsFileOptions = {},
): AsyncGenerator<EventsFileItem[], void, undefined> {
  const file = await open(path, 'r').catch((error: Error) => {
    throw new NotAnEventsFileError(path, `it cannot be opened (${error.message})`);
  });
  try {
    const maxBlockSize = options.maxBlockSize ?? DEFAULT_MAX_BLOCK_SIZE;
    const maxKept = options.maxKeptBytes ?? DEFAULT_MAX_KEPT_BYTES;
    const window = new FileWindow(file, (await file.stat()).size, options.chunkSize ?? 1024 * 1024);
    const { writerBranches, isUnion, codec, sync, headerEnd } = await readHeader(path, window, maxBlockSize);
    const readers = plainEventReaders();
    const readings = writerBranches.map((branch) => resolveBranch(path, branch, readers));
    const knownBranches = readings.filter((r) => !('error' in r)).length;
    if (knownBranches === 0)
      throw new NotAnEventsFileError(
        path,
        `its schema has no event record this reader knows (it has ${writerBranches
          .slice(0, 5)
          .map((b) => String(b.name ?? b.typeName))
          .join(', ')}${writerBranches.length > 5 ? ', …' : ''})`,
      );
    options.onInfo?.({
      path,
      codec,
      protection: codecProtection(codec),
      branches: writerBranches.length,
      knownBranches,
    });
    const decoder = new BlockRecords(path, codec, isUnion, readings);

    let offset = headerEnd;
    for (let block = 0; offset < window.size; block += 1) {
      const frame = await readBlockFrame(window, offset, sync, maxBlockSize);
      if ('damage' in frame) {
        // Skip to just past the next sync marker: the end of this block if only its header or data is damaged.
        const region = await scanToSync(window, offset, offset + 1, sync, maxKept);
        yield [
          {
            error: new CorruptBlockError(path, block, offset, region.end - offset, frame.damage),
            block,
            bytes: region.bytes,
            region: { path, offset, length: region.end - offset, sha256: region.sha256 },
          },
        ];
        offset = region.end;
        continue;
      }
      const stored = window.view(frame.dataStart, frame.dataEnd);
      let region: FileRegion | undefined; // hashed once, for the first error item of the block
      const blockRegion = (): FileRegion =>
        (region ??= {
          path,
          offset,
          length: frame.next - offset,
          sha256: createHash('sha256').update(window.view(offset, frame.next)).digest('hex'),
        });
      const blockBytes = (): Buffer | null =>
        frame.next - offset <= maxKept ? Buffer.from(window.view(offset, frame.next)) : null;
      let data: Buffer;
      try {
        data = await decompress(codec, stored, maxBlockSize);
        if (codec === 'null') data = Buffer.from(data); // the window moves on; the records may outlive it
      } catch (error) {
        const e = error as CodecError;
        const Damage = e.checksum ? ChecksumMismatchError : CorruptBlockError;
        yield [
          {
            error: new Damage(path, block, offset, frame.next - offset, e.message),
            block,
            bytes: blockBytes(),
            region: blockRegion(),
          },
        ];
        offset = frame.next;
        continue;
      }
      if (frame.count > data.length) {
        yield [
          {
            error: new CorruptBlockError(
              path,
              block,
              offset,
              frame.next - offset,
              `it declares ${frame.count} records in ${data.length} bytes of ${codec === 'null' ? '' : 'decompressed '}data: each record takes at least one byte`,
            ),
            block,
            bytes: blockBytes(),
            region: blockRegion(),
          },
        ];
        offset = frame.next;
        continue;
      }
      const dataOffset = codec === 'null' ? frame.dataStart : null;
      let chunk: EventsFileItem[] = [];
      try {
        for (const item of decoder.records(data, frame.count, block, offset, dataOffset)) {
          if ('error' in item)
            chunk.push({
              ...item,
              bytes: item.bytes && item.bytes.length > maxKept ? null : item.bytes,
              region: blockRegion(),
            });
          else chunk.push(item);
          if (chunk.length >= MAX_ITEMS_PER_CHUNK) {
            yield chunk;
            chunk = [];
          }
        }
      } catch (error) {
        if (chunk.length) yield chunk;
        throw error;
      }
      if (chunk.length) yield chunk;
      offset = frame.next;
    }
  } finally {
    await file.close();
  }
}

async function readHeader(path: string, window: FileWindow, maxBlockSize: number) {
  await window.fill(0, Math.max(MAGIC.length, 64 * 1024));
  const magic = window.view(0, Math.min(window.end, MAGIC.length));
  if (!magic.equals(MAGIC))
    throw new NotAnEventsFileError(
      path,
      window.size === 0
        ? 'it is empty'
        : `it starts with ${magic.toString('hex')} instead of 4f626a01 ("Obj" and format version 1)`,
    );
  let headerEnd: number;
  for (let length = 64 * 1024; ; length *= 2) {
    const buffer = window.view(0, window.end);
    try {
      headerEnd = measureValue(HEADER, buffer, 0, buffer.length, 'header');
      break;
    } catch (error) {
      if (!(error instanceof EncodingError)) throw error;
      const whole = window.end >= window.size;
      if (!error.truncated || whole || length > maxBlockSize)
        throw new NotAnEventsFileError(
          path,
          error.truncated && whole
            ? `the file ends inside its header (${error.message})`
            : error.truncated
              ? `its header is longer than ${maxBlockSize} bytes (maxBlockSize): ${error.message}`
              : `its header is damaged: ${error.message}`,
        );
      await window.fill(0, length * 2);
    }
  }
  const { meta, sync } = HEADER.decode(window.view(0, headerEnd), 0).value as {
    meta: Record<string, Buffer>;
    sync: Buffer;
  };
  const schemaText = meta['avro.schema'];
  if (!schemaText) throw new NotAnEventsFileError(path, 'its header has no avro.schema');
  let writer: avro.Type;
  try {
    writer = createType(JSON.parse(schemaText.toString('utf8')) as Json, 'its schema');
  } catch (error) {
    throw new NotAnEventsFileError(path, `its schema cannot be read (${(error as Error).message})`);
  }
  const codecName = meta['avro.codec']?.toString('utf8') || 'null';
  if (!isOcfCodec(codecName))
    throw new NotAnEventsFileError(
      path,
      `its codec ${JSON.stringify(codecName.slice(0, 100))} is not one of the Avro specification's (${OCF_CODECS.join(', ')})`,
    );
  const isUnion = writer.typeName.startsWith('union');
  const writerBranches = isUnion ? (writer as avro.types.WrappedUnionType).types : [writer];
  return { writerBranches, isUnion, codec: codecName, sync: Buffer.from(sync), headerEnd };
}

function resolveBranch(path: string, writer: avro.Type, readers: ReadonlyMap<string, avro.Type>): Reading {
  const fullName = String(writer.name ?? writer.typeName);
  // a file written before a record moved namespace names it by its former full name: read it as the current one
  const type = eventTypeOf(fullName);
  const reader = type && readers.get(eventFullName(type));
  const names = {
    writer: `${fullName} of the schema of ${path}`,
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
  const renamed = renamedFields(writer, reader);
  if (renamed.length)
    return {
      writer,
      error: new SchemaNotResolvableError(
        names.writer,
        names.reader,
        `the writer renamed ${renamed.join(', ')} (naming the old name as an alias, which Avro resolves only in the ` +
          `reader's schema): this reader would read the old field as its default and lose the value. Add the alias ` +
          `to the pipeline's schema first`,
      ),
    };
  try {
    return { type, writer, reader, resolver: resolverFor(reader, writer, names) };
  } catch (error) {
    return { writer, error: error as SchemaNotResolvableError };
  }
}

/**
 * The fields of the event record the writer renamed ("old → new"): a writer field that names, as an alias, a field of
 * the reader that no writer field matches. Avro would silently read that reader field as its default.
 */
function renamedFields(writer: avro.Type, reader: avro.Type): string[] {
  if (writer.typeName !== 'record' || reader.typeName !== 'record') return [];
  const writerFields = (writer as avro.types.RecordType).fields;
  const readerFields = (reader as avro.types.RecordType).fields;
  const written = new Set(writerFields.map((f) => f.name));
  const matched = new Set(
    readerFields.filter((f) => [f.name, ...f.aliases].some((n) => written.has(n))).map((f) => f.name),
  );
  const out: string[] = [];
  for (const field of writerFields)
    for (const alias of field.aliases)
      if (!matched.has(alias) && readerFields.some((f) => f.name === alias))
        out.push(`${alias} → ${field.name}`);
  return out;
}

type DecodedItem =
  | EventsFileRecord
  | {
      error: CorruptRecordError | SchemaNotResolvableError;
      block: number;
      index: number;
      bytes: Buffer;
      dataRange: { start: number; end: number };
    };

/** One record at a position of a block's data: its branch and where it ends, or why it cannot be read. */
type Parsed = { branch: number; end: number } | { problem: string };

/** The most bytes the search for the next record may measure, per byte of a block's data (then it gives up). */
const RESYNC_WORK_PER_BYTE = 64;

/** Reads the records of blocks, one by one, setting aside only those that do not decode. */
class BlockRecords {
  /** the fewest bytes a record takes (the union index included) */
  readonly minRecord: number;

  constructor(
    private readonly path: string,
    private readonly codec: OcfCodecName,
    private readonly isUnion: boolean,
    private readonly readings: readonly Reading[],
  ) {
    this.minRecord = Math.min(...readings.map((r) => minimumSize(r.writer))) + (isUnion ? 1 : 0);
  }

  /** Measures one record at `pos`: its branch and end. */
  private parse(data: Buffer, pos: number): Parsed {
    try {
      let branch = 0;
      let at = pos;
      if (this.isUnion) {
        [branch, at] = readLong(data, pos, data.length, 'union index');
        if (branch < 0 || branch >= this.readings.length)
          return {
            problem: `its union index is ${branch} (at byte ${pos}), but the file's schema has ${this.readings.length} branches`,
          };
      }
      const reading = this.readings[branch]!;
      const end = measureValue(reading.writer, data, at, data.length, String(reading.writer.name ?? ''));
      return { branch, end };
    } catch (error) {
      if (error instanceof EncodingError) return { problem: error.message };
      return { problem: (error as Error).message };
    }
  }

  *records(
    data: Buffer,
    count: number,
    block: number,
    blockOffset: number,
    /** the file offset of the data, when it is stored uncompressed */
    dataOffset: number | null,
  ): Generator<DecodedItem> {
    const where = (start: number, end: number): string =>
      dataOffset === null
        ? `bytes ${start}-${end} of the ${this.codec} block at file offset ${blockOffset}, decompressed`
        : `file offset ${dataOffset + start}, ${end - start} byte(s)`;
    let pos = 0;
    let index = 0;
    let chains: Int32Array | undefined;
    let work = 0;
    const workLimit = RESYNC_WORK_PER_BYTE * data.length + 64 * 1024;
    /** How many records read from `start` to exactly the end of the data; -1 if they do not. Memoised. */
    const chainFrom = (start: number): number => {
      chains ??= new Int32Array(data.length + 1).fill(-2);
      chains[data.length] = 0;
      const path: number[] = [];
      let p = start;
      while (chains[p] === -2) {
        if (work > workLimit) return -1;
        const parsed = this.parse(data, p);
        if ('problem' in parsed || parsed.end <= p) {
          chains[p] = -1;
          break;
        }
        work += parsed.end - p;
        path.push(p);
        p = parsed.end;
      }
      let n = chains[p]!;
      for (let k = path.length - 1; k >= 0; k -= 1) chains[path[k]!] = n = n < 0 ? -1 : n + 1;
      return chains[start]!;
    };

    while (index < count) {
      const parsed = pos < data.length ? this.parse(data, pos) : { problem: 'the block has no data left' };
      if (!('problem' in parsed)) {
        const reading = this.readings[parsed.branch]!;
        if ('error' in reading) {
          yield {
            error: reading.error,
            block,
            index,
            bytes: Buffer.from(data.subarray(pos, parsed.end)),
            dataRange: { start: pos, end: parsed.end },
          };
        } else {
          const start = this.isUnion ? readLong(data, pos, data.length, '')[1] : pos;
          let value: unknown;
          try {
            const decoded = reading.reader.decode(data, start, reading.resolver);
            if (decoded.offset !== parsed.end) throw new Error(`avsc read to byte ${decoded.offset}`);
            value = decoded.value; // plain objects already (plainEventReaders)
          } catch (error) {
            yield {
              error: new CorruptRecordError(
                this.path,
                block,
                index,
                1,
                where(pos, parsed.end),
                `it measures as a ${String(reading.writer.name)} but does not decode (${(error as Error).message})`,
              ),
              block,
              index,
              bytes: Buffer.from(data.subarray(pos, parsed.end)),
              dataRange: { start: pos, end: parsed.end },
            };
            pos = parsed.end;
            index += 1;
            continue;
          }
          yield { type: reading.type, data: value, block, index } as EventsFileRecord;
        }
        pos = parsed.end;
        index += 1;
        continue;
      }
      // Record `index` does not decode. The next record starts at the first offset from which the rest of the data
      // reads as exactly the records still declared after it; failing that, where the most records still read.
      const remaining = count - index - 1;
      let best = -1;
      let bestRecords = -1;
      for (let s = pos + 1; s < data.length && work <= workLimit; s += 1) {
        const n = chainFrom(s);
        if (n > bestRecords && n <= remaining) {
          best = s;
          bestRecords = n;
          if (n === remaining) break;
        }
      }
      const end = best === -1 || bestRecords <= 0 ? data.length : best;
      const lost = end === data.length ? count - index : count - index - bestRecords;
      const gaveUp = work > workLimit ? ' (the search for the next record gave up: too much work)' : '';
      yield {
        error: new CorruptRecordError(
          this.path,
          block,
          index,
          lost,
          where(pos, end),
          pos >= data.length
            ? `the block declares ${count} records but its data ends after ${index}`
            : `${parsed.problem}${gaveUp}`,
        ),
        block,
        index,
        bytes: Buffer.from(data.subarray(pos, end)),
        dataRange: { start: pos, end },
      };
      pos = end;
      index += lost;
    }
    if (pos < data.length)
      yield {
        error: new CorruptRecordError(
          this.path,
          block,
          count,
          0,
          where(pos, data.length),
          `${data.length - pos} byte(s) are left after its ${count} declared records (its record count is damaged, or the bytes are)`,
        ),
        block,
        index: count,
        bytes: Buffer.from(data.subarray(pos)),
        dataRange: { start: pos, end: data.length },
      };
  }
}
