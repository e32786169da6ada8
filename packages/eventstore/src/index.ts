// The port and what every user of it shares. The adapters load gRPC or SQLite, so they are imported by subpath:
// '@table-audit/eventstore/sqlite', '@table-audit/eventstore/eventstoredb' (and '/conformance' for tests).
export type * from './port.ts';
export * from './errors.ts';
export { canonicalJson, NotCanonicalJson } from './canonical-json.ts';
export { eventHash, GENESIS_HASH, type HashedContent } from './hash-chain.ts';
export { verify, type BrokenLink, type VerifyOptions, type VerifyReport } from './verify.ts';
export {
  ProcessorHandlerFailed,
  runProcessor,
  runProcessors,
  type BatchContext,
  type EventFilter,
  type Processor,
  type ProcessorRunOptions,
  type ProcessorRunReport,
} from './processor.ts';
