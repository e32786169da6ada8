export type * from './port.ts';
export * from './errors.ts';
export { canonicalJson, NotCanonicalJson } from './canonical-json.ts';
export { eventHash, GENESIS_HASH, type HashedContent } from './hash-chain.ts';
export { verify, type BrokenLink, type VerifyOptions, type VerifyReport } from './verify.ts';
export { SqliteEventStore, type SqliteEventStoreOptions } from './sqlite-event-store.ts';
export {
  CHAIN_METADATA_KEY,
  eventUuid,
  EventStoreDbEventStore,
  type EventStoreDbEventStoreOptions,
} from './eventstoredb-event-store.ts';
