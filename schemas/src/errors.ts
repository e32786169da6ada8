/**
 * Every way a schema, a message, a registry or an events file can be wrong, as its own class with a stable `code`
 * (for logs, metrics and the reject reason ingest stores next to the raw bytes) and a message that says what was
 * found and what to do about it.
 */

export type SchemasErrorCode =
  | 'MESSAGE_TOO_SHORT'
  | 'WRONG_MAGIC_BYTE'
  | 'UNKNOWN_SCHEMA_ID'
  | 'UNKNOWN_SUBJECT'
  | 'TRUNCATED_PAYLOAD'
  | 'CORRUPT_PAYLOAD'
  | 'SCHEMA_NOT_RESOLVABLE'
  | 'UNKNOWN_EVENT_TYPE'
  | 'WRONG_SCHEMA'
  | 'INVALID_EVENT'
  | 'INVALID_SCHEMA'
  | 'INCOMPATIBLE_SCHEMA'
  | 'UNREADABLE_BY_PIPELINE'
  | 'REGISTRY_FILE'
  | 'READ_ONLY_REGISTRY'
  | 'REGISTRY_REQUEST'
  | 'NOT_AN_EVENTS_FILE'
  | 'CORRUPT_BLOCK'
  | 'CORRUPT_RECORD'
  | 'CHECKSUM_MISMATCH';

export abstract class SchemasError extends Error {
  abstract readonly code: SchemasErrorCode;
}

const hex = (byte: number): string => `0x${byte.toString(16).padStart(2, '0')}`;

/** Fewer than the 5 bytes of the Confluent frame (magic byte, 4-byte schema id). */
export class MessageTooShortError extends SchemasError {
  override readonly name = 'MessageTooShortError';
  override readonly code = 'MESSAGE_TOO_SHORT';
  constructor(readonly length: number) {
    super(
      `message of ${length} byte(s) is too short: a Confluent-framed Avro message has at least 5 bytes ` +
        `(magic byte 0, then the 4-byte big-endian schema id), then the Avro payload`,
    );
  }
}

/** The first byte is not 0: not the Confluent wire format (JSON, another serializer, or a shifted buffer). */
export class WrongMagicByteError extends SchemasError {
  override readonly name = 'WrongMagicByteError';
  override readonly code = 'WRONG_MAGIC_BYTE';
  constructor(readonly found: number) {
    const printable = found >= 0x20 && found < 0x7f ? ` ('${String.fromCharCode(found)}')` : '';
    super(
      `wrong magic byte: expected 0x00 (Confluent wire format) but found ${hex(found)}${printable}; ` +
        `the producer did not use the Confluent Avro serializer` +
        (found === 0x7b ? ' (0x7b is "{": this looks like JSON)' : ''),
    );
  }
}

export class UnknownSchemaIdError extends SchemasError {
  override readonly name = 'UnknownSchemaIdError';
  override readonly code = 'UNKNOWN_SCHEMA_ID';
  constructor(
    readonly schemaId: number,
    readonly registry: string,
  ) {
    super(
      `schema id ${schemaId} is not in ${registry}: the message was written with a schema this registry does ` +
        `not know (another registry or environment, or a corrupt frame)`,
    );
  }
}

export class UnknownSubjectError extends SchemasError {
  override readonly name = 'UnknownSubjectError';
  override readonly code = 'UNKNOWN_SUBJECT';
  constructor(
    readonly fullName: string,
    readonly registry: string,
  ) {
    super(
      `no schema is registered for ${fullName} in ${registry}; register the schemas of schemas/avro first`,
    );
  }
}

/** The payload ends before the record does. */
export class TruncatedPayloadError extends SchemasError {
  override readonly name = 'TruncatedPayloadError';
  override readonly code = 'TRUNCATED_PAYLOAD';
  constructor(
    readonly schemaId: number,
    readonly fullName: string,
    readonly available: number,
    /** the least number of bytes the record needs (counting missing values as their shortest encoding) */
    readonly needed: number,
  ) {
    super(
      `truncated payload: ${available} byte(s) after the 5-byte frame, but a ${fullName} (schema id ${schemaId}) ` +
        `needs at least ${needed}; ${needed - available} or more byte(s) are missing — the message was cut short`,
    );
  }
}

/** The payload does not decode as the schema its frame names. */
export class CorruptPayloadError extends SchemasError {
  override readonly name = 'CorruptPayloadError';
  override readonly code = 'CORRUPT_PAYLOAD';
  constructor(
    readonly schemaId: number,
    readonly fullName: string,
    readonly reason: string,
  ) {
    super(
      `corrupt payload for ${fullName} (schema id ${schemaId}): ${reason}; the bytes are damaged or were not ` +
        `written with schema id ${schemaId}`,
    );
  }
}

/** The writer's schema cannot be read as the reader's (Avro schema resolution failed). */
export class SchemaNotResolvableError extends SchemasError {
  override readonly name = 'SchemaNotResolvableError';
  override readonly code = 'SCHEMA_NOT_RESOLVABLE';
  constructor(
    readonly writer: string,
    readonly reader: string,
    readonly reason: string,
  ) {
    super(
      `cannot read data written with ${writer} as ${reader}: ${reason}. Only compatible changes (a field added ` +
        `with a default, a field removed that had one, an enum symbol added before readers use it) resolve; ` +
        `upgrade the reader's schemas or re-register a compatible version`,
    );
  }
}

export class UnknownEventTypeError extends SchemasError {
  override readonly name = 'UnknownEventTypeError';
  override readonly code = 'UNKNOWN_EVENT_TYPE';
  constructor(
    readonly typeName: string,
    context = '',
  ) {
    super(
      `${JSON.stringify(typeName)} is not an event type${context}; the event types are TABLE_EVENT_TYPE_LIST (ta.common, ` +
        `ta.f3cp, ta.craps, ta.thirteen, ta.mahjong) and the pipeline's records AUDIT_RECORD_TYPES (ta.audit), in schemas/src/events.ts`,
    );
  }
}

/** A schema id was given for one record but used for another. */
export class WrongSchemaError extends SchemasError {
  override readonly name = 'WrongSchemaError';
  override readonly code = 'WRONG_SCHEMA';
  constructor(
    readonly schemaId: number,
    readonly actual: string,
    readonly expected: string,
  ) {
    super(`schema id ${schemaId} is ${actual}, not ${expected}`);
  }
}

/** An event that does not fit its schema; `problems` names each wrong value by its path. */
export class InvalidEventError extends SchemasError {
  override readonly name = 'InvalidEventError';
  override readonly code = 'INVALID_EVENT';
  constructor(
    readonly fullName: string,
    readonly problems: readonly string[],
    where = '',
  ) {
    super(`invalid ${fullName}${where}: ${problems.join('; ')}`);
  }
}

export class InvalidSchemaError extends SchemasError {
  override readonly name = 'InvalidSchemaError';
  override readonly code = 'INVALID_SCHEMA';
  constructor(
    readonly what: string,
    readonly reason: string,
  ) {
    super(`${what} is not a valid Avro schema: ${reason}`);
  }
}

/** A new version that cannot read data written with an earlier one. */
export class IncompatibleSchemaError extends SchemasError {
  override readonly name = 'IncompatibleSchemaError';
  override readonly code = 'INCOMPATIBLE_SCHEMA';
  constructor(
    readonly fullName: string,
    readonly earlierVersion: number,
    readonly reason: string,
  ) {
    super(
      `the new version of ${fullName} cannot read data written with version ${earlierVersion} (${reason}); ` +
        `every stored event must stay readable with the latest schema: give a new field a default, never ` +
        `rename or remove a field without an alias or default, never remove an enum symbol`,
    );
  }
}

/**
 * A new version that the pipeline's own reader schema (schemas/avro, compiled into this build) cannot resolve:
 * registered, every message written with it would be refused by ingest. Avro resolution matches a reader field
 * to a writer field by the reader's name and aliases only, so a field renamed in the writer (even with an alias
 * naming the old name) or a new field without a default in the reader is unreadable.
 */
export class UnreadableByPipelineError extends SchemasError {
  override readonly name = 'UnreadableByPipelineError';
  override readonly code = 'UNREADABLE_BY_PIPELINE';
  constructor(
    readonly fullName: string,
    readonly reason: string,
  ) {
    super(
      `the new version of ${fullName} cannot be read by the pipeline's reader schema of ${fullName} ` +
        `(schemas/avro in this build): ${reason}; a producer must not write what the pipeline cannot read: keep ` +
        `every field the pipeline reads under its name (or give it a default there first), add fields with defaults`,
    );
  }
}

export class RegistryFileError extends SchemasError {
  override readonly name = 'RegistryFileError';
  override readonly code = 'REGISTRY_FILE';
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(
      `${path}: ${reason}. The registry file is append-only and ids never change: restore it from version ` +
        `control rather than editing it by hand`,
    );
  }
}

export class ReadOnlyRegistryError extends SchemasError {
  override readonly name = 'ReadOnlyRegistryError';
  override readonly code = 'READ_ONLY_REGISTRY';
  constructor(
    readonly path: string,
    readonly fullName: string,
  ) {
    super(
      `${fullName} in this form is not in ${path}, which is open read-only; register it with ` +
        `\`pnpm --filter @table-audit/schemas register-schemas\` and commit registry.json`,
    );
  }
}

/** The Confluent registry answered with an error other than "not found", or could not be reached. */
export class RegistryRequestError extends SchemasError {
  override readonly name = 'RegistryRequestError';
  override readonly code = 'REGISTRY_REQUEST';
  constructor(
    readonly what: string,
    readonly status: number | undefined,
    reason: string,
  ) {
    super(
      `schema registry request failed (${what}${status === undefined ? '' : `, HTTP ${status}`}): ${reason}`,
    );
  }
}

/** The file is not an Avro object container file this package can read (nothing in it can be trusted). */
export class NotAnEventsFileError extends SchemasError {
  override readonly name = 'NotAnEventsFileError';
  override readonly code = 'NOT_AN_EVENTS_FILE';
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path} is not a readable Avro object container file: ${reason}`);
  }
}

/** One block of an events file is damaged; the reader keeps its bytes and goes on with the next block. */
export class CorruptBlockError extends SchemasError {
  override readonly name = 'CorruptBlockError';
  override readonly code = 'CORRUPT_BLOCK';
  constructor(
    readonly path: string,
    /** 0-based, counting the blocks (and damaged regions) as they were read */
    readonly block: number,
    /** byte offset of the block in the file */
    readonly offset: number,
    /** how many bytes were set aside */
    readonly length: number,
    readonly reason: string,
  ) {
    super(
      `${path}: block ${block} (counting from 0, ${length} byte(s) at offset ${offset}) is corrupt: ${reason}; ` +
        `its bytes are kept in the error item and reading goes on with the next block`,
    );
  }
}

/** A block of an events file decompressed but does not match its checksum (snappy's CRC32, bzip2's, xz's). */
export class ChecksumMismatchError extends SchemasError {
  override readonly name = 'ChecksumMismatchError';
  override readonly code = 'CHECKSUM_MISMATCH';
  constructor(
    readonly path: string,
    readonly block: number,
    readonly offset: number,
    readonly length: number,
    readonly reason: string,
  ) {
    super(
      `${path}: block ${block} (counting from 0, ${length} byte(s) at offset ${offset}) fails its checksum: ${reason}; ` +
        `none of its records is used, its bytes are kept and reading goes on with the next block`,
    );
  }
}

/**
 * One record (or a run of records) of a block does not decode; the reader keeps its bytes and goes on with the
 * next record it can find in the block.
 */
export class CorruptRecordError extends SchemasError {
  override readonly name = 'CorruptRecordError';
  override readonly code = 'CORRUPT_RECORD';
  constructor(
    readonly path: string,
    readonly block: number,
    /** the first record set aside, counting from 0 in its block */
    readonly index: number,
    /** how many of the block's declared records the bytes set aside stand for (at least 1; 0 for trailing bytes) */
    readonly records: number,
    /** where the bytes set aside lie: in the file (uncompressed blocks) or in the block's decompressed data */
    readonly where: string,
    readonly reason: string,
  ) {
    const subject =
      records === 0
        ? 'has bytes after its records'
        : records === 1
          ? `record ${index} does not decode`
          : `records ${index}-${index + records - 1} do not decode`;
    super(
      `${path}: block ${block} ${subject} (${where}): ${reason}; the bytes are kept and reading goes on with the next record`,
    );
  }
}
