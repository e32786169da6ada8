/**
 * Tamper evidence: every event's hash covers its content, when it was recorded and the previous event's hash in the
 * same stream, so an edit, a deletion or a re-ordering inside a stream breaks the chain from that event on.
 */
import crypto, { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.ts';
import type { RecordedEvent } from './port.ts';

/** The previousHash of revision 0. */
export const GENESIS_HASH = '0'.repeat(64);

/** What the hash covers besides the previous hash. */
export type HashedContent = Pick<
  RecordedEvent,
  'stream' | 'revision' | 'eventId' | 'type' | 'data' | 'metadata' | 'recordedAt'
>;

/**
 * The same bytes as canonicalJson({stream, revision, eventId, type, data, metadata, recordedAt}), assembled from
 * data and metadata already in canonical JSON so appends do not serialise them twice. Keys in sorted order.
 * recordedAt is inside: the time the store gives an event is evidence too (a rewritten time breaks the chain).
 */
export function hashedText(
  c: Omit<HashedContent, 'data' | 'metadata'> & { dataJson: string; metadataJson: string | undefined },
): string {
  return (
    `{"data":${c.dataJson},"eventId":${JSON.stringify(c.eventId)}` +
    (c.metadataJson === undefined ? '' : `,"metadata":${c.metadataJson}`) +
    `,"recordedAt":${c.recordedAt},"revision":${c.revision},"stream":${JSON.stringify(c.stream)},"type":${JSON.stringify(c.type)}}`
  );
}

// crypto.hash (Node ≥ 20.12) is the one-shot digest, about twice as fast as createHash for an event's few hundred
// bytes; it matters because readers re-check every link as they read
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;
export const sha256Hex: (text: string) => string = oneShot
  ? (text) => oneShot('sha256', text, 'hex')
  : (text) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Canonical JSON of metadata as stored: an empty object is stored, and hashed, as no metadata. */
export function metadataJson(metadata: Record<string, unknown> | undefined, path = '$'): string | undefined {
  if (metadata === undefined) return undefined;
  const text = canonicalJson(metadata, path);
  return text === '{}' ? undefined : text;
}

/** sha256(previousHash + canonical JSON of the event's content and recordedAt), hex. */
export function eventHash(previousHash: string, content: HashedContent): string {
  return sha256Hex(
    previousHash +
      hashedText({
        stream: content.stream,
        revision: content.revision,
        recordedAt: content.recordedAt,
        eventId: content.eventId,
        type: content.type,
        dataJson: canonicalJson(content.data, 'data'),
        metadataJson: metadataJson(content.metadata, 'metadata'),
      }),
  );
}

/**
 * Where an adapter that keeps the exact hashed bytes of data and metadata puts them on an event it read (not
 * enumerable: invisible to JSON, deepEqual and spreading), so a reader can re-check a link without serialising
 * the data again. `verify` does not use it: it re-serialises, which also catches stored text that is not canonical.
 */
const STORED_JSON = Symbol.for('table-audit.eventstore.storedJson');
interface StoredJson {
  data: string;
  metadata: string | undefined;
}

export function attachStoredJson(event: RecordedEvent, data: string, metadata: string | undefined): void {
  Object.defineProperty(event, STORED_JSON, { value: { data, metadata } satisfies StoredJson });
}

/** The hash an event should have given its content and previousHash; from the stored bytes when the adapter kept them. */
export function recomputedHash(event: RecordedEvent): string {
  const stored = (event as { [STORED_JSON]?: StoredJson })[STORED_JSON];
  if (stored === undefined) return eventHash(event.previousHash, event);
  return sha256Hex(
    event.previousHash +
      hashedText({
        stream: event.stream,
        revision: event.revision,
        eventId: event.eventId,
        type: event.type,
        recordedAt: event.recordedAt,
        dataJson: stored.data,
        metadataJson: stored.metadata,
      }),
  );
}
