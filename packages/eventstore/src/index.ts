// The port and what every user of it shares. The adapters load gRPC or SQLite, so they are imported by subpath:
// '@table-audit/eventstore/sqlite', '@table-audit/eventstore/eventstoredb' (and '/conformance' for tests).
export type * from './port.ts';
export { streamHead } from './stream-head.ts';
export * from './errors.ts';
export { appendToStreams } from './append-many.ts';
export { canonicalJson, NotCanonicalJson } from './canonical-json.ts';
export { eventHash, GENESIS_HASH, recomputedHash, type HashedContent } from './hash-chain.ts';
export { linkBrokenBecause } from './link.ts';
export {
  verify,
  type AnchorProblem,
  type AnchorProblemKind,
  type AnchorsReport,
  type BrokenLink,
  type VerifyOptions,
  type VerifyReport,
} from './verify.ts';
export {
  inclusionProof,
  merkleRoot,
  sortHeads,
  verifyInclusion,
  type InclusionProof,
  type StreamHead,
} from './merkle.ts';
export {
  ANCHOR_FORMAT,
  anchorHash,
  anchorLine,
  Anchorer,
  AnchorRefused,
  anchorSignatureValid,
  generateSigningKey,
  loadPublicKey,
  loadSigningKey,
  publicKeyId,
  publicKeyPem,
  signAnchor,
  type Anchor,
  type AnchorerOptions,
  type AnchorRecord,
  type AnchorSink,
} from './anchor.ts';
export {
  EVIDENCE_FORMAT,
  verifyEvidenceBundle,
  type BundleProblem,
  type BundleReport,
  type ChainSegment,
  type EvidenceBundle,
  type EvidenceEvent,
} from './evidence-bundle.ts';
export { ANCHORS_FILE, FileAnchorSink, PUBLIC_KEY_FILE, readAnchorFile } from './file-anchor-sink.ts';
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
