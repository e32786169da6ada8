export * from './events.ts';
export * from './errors.ts';
export {
  AVRO_DIR,
  HEADER_FULL_NAME,
  NAMESPACES,
  auditRecordTypeOf,
  createType,
  eventFullName,
  eventSchema,
  eventTypeOf,
  recordFullName,
  recordSchema,
  recordTypeOf,
  eventUnionSchema,
  fullNameOf,
  readSchemaFiles,
  schemaDefinitions,
  schemaFingerprint,
  selfContained,
  toPlain,
  unknownEnumValues,
  validationProblems,
  type Json,
  type JsonObject,
  type NamedSchema,
} from './avro.ts';
export {
  COMMITTED_REGISTRY_PATH,
  FileSchemaRegistry,
  registerEventSchemas,
  type FileSchemaRegistryOptions,
  type RegistryEntry,
  type SchemaRegistry,
} from './registry.ts';
export { COMPATIBILITY, ConfluentSchemaRegistry, type ConfluentSchemaRegistryOptions } from './confluent.ts';
export {
  FRAME_LENGTH,
  MAGIC_BYTE,
  decodeEvent,
  decodeRecord,
  encodeEvent,
  frame,
  readFrame,
  type DecodeOptions,
  type DecodedEvent,
  type DecodedRecord,
  type EncodeOptions,
} from './wire.ts';
export {
  DEFAULT_MAX_BLOCK_SIZE,
  DEFAULT_MAX_KEPT_BYTES,
  readEventsFile,
  writeEventsFile,
  type EventsFileCodec,
  type EventsFileError,
  type EventsFileInfo,
  type FileRegion,
  type OcfCodecName,
  type EventsFileItem,
  type EventsFileRecord,
  type ReadEventsFileOptions,
  type WriteEventsFileOptions,
  type WriteEventsFileResult,
} from './ocf.ts';
export { OCF_CODECS, codecProtection } from './ocf-codecs.ts';
export { EncodingError, MAX_EMPTY_ITEMS, measureValue, readLong } from './avro-bounds.ts';
