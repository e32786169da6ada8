/**
 * The Confluent wire format of one event: magic byte 0, the writer's schema id as 4 bytes big-endian, then the
 * Avro binary encoding of the event with that schema. Decoding reads with the writer's schema (by id) resolved to
 * the reader schema the pipeline was built for — the record's schema in schemas/avro as compiled into this build,
 * never the registry's latest, which may be newer than the code reading it — so that data written with any
 * registered version reads as the same record, including data written before the record moved namespace
 * (ta.f3cp.TableOpened reads as ta.common.TableOpened through its alias). A field of the reader that the writer's
 * schema lacks is read as its default and named in `defaultedFields`, so that a consumer can tell a default from
 * a value.
 */
import type avro from 'avsc';
import {
  createPlainReaderType,
  eventTypeOf,
  recordFullName,
  recordSchema,
  recordTypeOf,
  toPlain,
  validationProblems,
} from './avro.ts';
import {
  CorruptPayloadError,
  InvalidEventError,
  MessageTooShortError,
  SchemaNotResolvableError,
  TruncatedPayloadError,
  UnknownEventTypeError,
  UnreadableByPipelineError,
  WrongMagicByteError,
  WrongSchemaError,
} from './errors.ts';
import {
  AUDIT_RECORD_TYPES,
  TABLE_EVENT_TYPE_LIST,
  type AuditRecord,
  type ContractRecords,
  type ContractRecordType,
  type TableEvent,
} from './events.ts';
import type { SchemaRegistry } from './registry.ts';

export const MAGIC_BYTE = 0;
/** magic byte + schema id */
export const FRAME_LENGTH = 5;

export interface EncodeOptions {
  /** write with this registered schema (e.g. an older version) instead of the latest of the event's record */
  schemaId?: number;
}

export interface DecodeOptions {
  /**
   * Pins the registered schema id to read a record with, given its current full name. Default: the reader schema
   * this build was compiled with (`pipelineReaderType`), whatever the registry has registered since.
   */
  readerIdFor?: (fullName: string) => number | Promise<number>;
}

/** What decoding says about how a record was read, besides its data. */
export interface Provenance {
  /** the id of the schema it was written with */
  writerSchemaId: number;
  /**
   * Fields of the reader's schema that the writer's schema does not have, read as their defaults (paths such as
   * "playerId" or "header.staffId"): a null there is the schema's default, not a value the producer sent.
   */
  defaultedFields: string[];
}

/** A decoded event, and how it was read. */
export type DecodedEvent = TableEvent & Provenance;
/** A decoded event or audit record, and how it was read. */
export type DecodedRecord = (TableEvent | AuditRecord) & Provenance;

const pipelineReaders = new Map<ContractRecordType, avro.Type>();

/**
 * The reader schema of a record that this build of the pipeline was made for: the record's schema in
 * schemas/avro (the TypeScript types in generated.ts are generated from the same files), built once.
 */
export function pipelineReaderType(type: ContractRecordType): avro.Type {
  let reader = pipelineReaders.get(type);
  if (!reader) {
    // records decode as plain objects (no toPlain copy needed for what this reader reads)
    reader = createPlainReaderType(recordSchema(type), recordFullName(type));
    pipelineReaders.set(type, reader);
  }
  return reader;
}

/**
 * Refuses (UnreadableByPipelineError) a schema that is to be registered for a record of the contract when this
 * build's reader of that record cannot resolve it: every message written with it would be refused. A full name
 * that is not a record of the contract, current or former, has no reader here and is not checked.
 */
export function checkReadableByPipeline(fullName: string, writer: avro.Type): void {
  const type = recordTypeOf(fullName);
  if (!type) return;
  try {
    pipelineReaderType(type).createResolver(writer);
  } catch (error) {
    throw new UnreadableByPipelineError(fullName, (error as Error).message);
  }
}

const sameCache = new WeakMap<avro.Type, WeakMap<avro.Type, boolean>>();

/** Whether two types read the same bytes the same way (equal Parsing Canonical Forms), cached per pair. */
function sameSchema(reader: avro.Type, writer: avro.Type): boolean {
  if (reader === writer) return true;
  let byWriter = sameCache.get(reader);
  if (!byWriter) sameCache.set(reader, (byWriter = new WeakMap()));
  let same = byWriter.get(writer);
  if (same === undefined) byWriter.set(writer, (same = reader.equals(writer)));
  return same;
}

const defaultedCache = new WeakMap<avro.Type, WeakMap<avro.Type, string[]>>();

/**
 * The fields of `reader` that data written with `writer` does not carry (they are read as their defaults),
 * looking into records nested directly in fields of both (the header). A reader field matches a writer field of
 * its name or of one of its aliases, as in Avro schema resolution.
 */
export function defaultedFields(reader: avro.Type, writer: avro.Type): string[] {
  let byWriter = defaultedCache.get(reader);
  if (!byWriter) defaultedCache.set(reader, (byWriter = new WeakMap()));
  let found = byWriter.get(writer);
  if (!found) {
    found = [];
    collectDefaulted(reader, writer, '', found, 0);
    byWriter.set(writer, found);
  }
  return found;
}

function collectDefaulted(
  reader: avro.Type,
  writer: avro.Type,
  prefix: string,
  out: string[],
  depth: number,
) {
  if (depth > 8 || reader.typeName !== 'record' || writer.typeName !== 'record') return;
  const writerFields = new Map((writer as avro.types.RecordType).fields.map((f) => [f.name, f] as const));
  for (const field of (reader as avro.types.RecordType).fields) {
    const match = [field.name, ...field.aliases].map((n) => writerFields.get(n)).find((f) => f !== undefined);
    if (!match) out.push(`${prefix}${field.name}`);
    else collectDefaulted(field.type, match.type, `${prefix}${field.name}.`, out, depth + 1);
  }
}

/** Splits a Confluent-framed message into its schema id and its Avro payload. */
export function readFrame(bytes: Uint8Array): { schemaId: number; payload: Buffer } {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.length < FRAME_LENGTH) throw new MessageTooShortError(buffer.length);
  if (buffer[0] !== MAGIC_BYTE) throw new WrongMagicByteError(buffer[0]!);
  return { schemaId: buffer.readUInt32BE(1), payload: buffer.subarray(FRAME_LENGTH) };
}

/** Prefixes an Avro payload with the Confluent frame. */
export function frame(schemaId: number, payload: Uint8Array): Buffer {
  const framed = Buffer.alloc(FRAME_LENGTH + payload.length);
  framed[0] = MAGIC_BYTE;
  framed.writeUInt32BE(schemaId, 1);
  framed.set(payload, FRAME_LENGTH);
  return framed;
}

const RECORD_TYPES: readonly string[] = [...TABLE_EVENT_TYPE_LIST, ...AUDIT_RECORD_TYPES];
const isRecordType = (type: string): type is ContractRecordType => RECORD_TYPES.includes(type);

/**
 * Encodes one event (or audit record) with the latest registered schema of its record (or `options.schemaId`,
 * which may be a version registered under the record's former full name).
 */
export async function encodeEvent<K extends ContractRecordType>(
  registry: SchemaRegistry,
  type: K,
  data: ContractRecords[K],
  options: EncodeOptions = {},
): Promise<Buffer> {
  if (!isRecordType(type)) throw new UnknownEventTypeError(String(type));
  const fullName = recordFullName(type);
  const schemaId = options.schemaId ?? (await registry.latestIdFor(fullName));
  const writerType = await registry.schemaById(schemaId);
  if (recordTypeOf(String(writerType.name)) !== type)
    throw new WrongSchemaError(schemaId, String(writerType.name), fullName);
  let payload: Buffer;
  try {
    payload = writerType.toBuffer(data);
  } catch (error) {
    const problems = validationProblems(writerType, data);
    throw new InvalidEventError(fullName, problems.length ? problems : [(error as Error).message]);
  }
  return frame(schemaId, payload);
}

// Resolvers are costly to build and the same few pairs come back all the time; registries return one type object
// per id, so the pair of type objects is the key.
const resolverCache = new WeakMap<avro.Type, WeakMap<avro.Type, avro.Resolver>>();

/** How `reader` reads data written with `writer`, or SchemaNotResolvableError saying why it cannot. */
export function resolverFor(reader: avro.Type, writer: avro.Type, names: { reader: string; writer: string }) {
  let byWriter = resolverCache.get(reader);
  if (!byWriter) resolverCache.set(reader, (byWriter = new WeakMap()));
  let resolver = byWriter.get(writer);
  if (!resolver) {
    try {
      resolver = reader.createResolver(writer);
    } catch (error) {
      throw new SchemaNotResolvableError(names.writer, names.reader, (error as Error).message);
    }
    byWriter.set(writer, resolver);
  }
  return resolver;
}

/** Zero bytes appended to a truncated payload to find out how long the record would have been. */
const TRUNCATION_PROBE = Buffer.alloc(64 * 1024);

/**
 * Decodes exactly one value of `reader` from `payload` (through `resolver` when given). Throws
 * TruncatedPayloadError or CorruptPayloadError, never avsc's own errors.
 */
export function decodeExactly(
  reader: avro.Type,
  payload: Buffer,
  resolver: avro.Resolver | undefined,
  where: { schemaId: number; fullName: string },
): unknown {
  let decoded: { value: unknown; offset: number };
  try {
    decoded = reader.decode(payload, 0, resolver);
  } catch (error) {
    throw new CorruptPayloadError(where.schemaId, where.fullName, (error as Error).message);
  }
  if (decoded.offset === -1) {
    // Read it again with zeros after it (each zero is the shortest value of any type): where that ends is the
    // least the record needs. A value that claims more than the probe is not truncation but corruption.
    let needed = -1;
    try {
      needed = reader.decode(Buffer.concat([payload, TRUNCATION_PROBE]), 0, resolver).offset;
    } catch {
      // reported below as corruption
    }
    if (needed === -1)
      throw new CorruptPayloadError(
        where.schemaId,
        where.fullName,
        `its ${payload.length} byte(s) end inside a value that claims more than ${TRUNCATION_PROBE.length} more bytes`,
      );
    throw new TruncatedPayloadError(where.schemaId, where.fullName, payload.length, needed);
  }
  if (decoded.offset !== payload.length)
    throw new CorruptPayloadError(
      where.schemaId,
      where.fullName,
      `the record ends after ${decoded.offset} of ${payload.length} bytes, leaving ${payload.length - decoded.offset} byte(s) unread`,
    );
  return decoded.value;
}

/** Decodes one Confluent-framed event or audit record. */
export async function decodeRecord(
  registry: SchemaRegistry,
  bytes: Uint8Array,
  options: DecodeOptions = {},
): Promise<DecodedRecord> {
  const { schemaId: writerSchemaId, payload } = readFrame(bytes);
  const writer = await registry.schemaById(writerSchemaId);
  const writerName = String(writer.name);
  const type = recordTypeOf(writerName);
  if (!type) throw new UnknownEventTypeError(writerName, ` (schema id ${writerSchemaId} is ${writerName})`);
  // read as the record's current full name: a writer under a former name (ta.f3cp.TableOpened) resolves to it
  const fullName = recordFullName(type);
  let reader: avro.Type;
  let readerName: string;
  if (options.readerIdFor) {
    const readerSchemaId = await options.readerIdFor(fullName);
    reader = readerSchemaId === writerSchemaId ? writer : await registry.schemaById(readerSchemaId);
    readerName = `${String(reader.name)} schema id ${readerSchemaId}`;
  } else {
    reader = pipelineReaderType(type);
    readerName = `${fullName} as this pipeline reads it (schemas/avro)`;
  }
  // the same schema (Parsing Canonical Form) needs no resolution: read with the writer's type as it is
  const same = sameSchema(reader, writer);
  const resolver = same
    ? undefined
    : resolverFor(reader, writer, {
        writer: `${writerName} schema id ${writerSchemaId}`,
        reader: readerName,
      });
  // the same schema reads the same bytes the same way: with the pipeline's own reader when it is that one (its
  // records are plain objects already), else with the writer's
  const plain = options.readerIdFor === undefined;
  const value = decodeExactly(same ? (plain ? reader : writer) : reader, payload, resolver, {
    schemaId: writerSchemaId,
    fullName: writerName,
  });
  return {
    type,
    data: plain ? value : toPlain(value),
    writerSchemaId,
    defaultedFields: same ? [] : defaultedFields(reader, writer),
  } as DecodedRecord;
}

/** Decodes one Confluent-framed event of a table; an audit record is refused (UnknownEventTypeError). */
export async function decodeEvent(
  registry: SchemaRegistry,
  bytes: Uint8Array,
  options: DecodeOptions = {},
): Promise<DecodedEvent> {
  const { schemaId } = readFrame(bytes);
  const writerName = String((await registry.schemaById(schemaId)).name);
  if (!eventTypeOf(writerName))
    throw new UnknownEventTypeError(
      writerName,
      ` (schema id ${schemaId} is ${writerName}${recordTypeOf(writerName) ? ', a record the pipeline writes, not a table event' : ''})`,
    );
  return (await decodeRecord(registry, bytes, options)) as DecodedEvent;
}
