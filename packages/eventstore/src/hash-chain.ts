/**
 * Tamper evidence: every event's hash covers its content, when it was recorded and the previous event's hash in the
 * same stream, so an edit, a deletion or a re-ordering inside a stream breaks the chain from that event on.
 *
 * Version 5 of the chain hashes the event's hash form (hash-form.ts): binary, the bytes the SQLite store keeps with
 * its dictionary references written out. Versions 2 to 4 hashed canonical JSON (legacyEventHash below): kept only to
 * check old stores while `table-audit store migrate` converts them.
 */
import crypto, { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.ts';
import { hashBytes, hashFormOf, sha256Bytes } from './hash-form.ts';
import type { RecordedEvent } from './port.ts';

/** The previousHash of revision 0. */
export const GENESIS_HASH = '0'.repeat(64);

/** What the hash covers besides the previous hash. */
export type HashedContent = Pick<
  RecordedEvent,
  'stream' | 'revision' | 'eventId' | 'type' | 'data' | 'metadata' | 'recordedAt'
>;

/**
 * The hash of an event (version 5): sha256 of its hash form, hex. Throws NotCanonicalJson for content that has no
 * hash form (a float, a lone surrogate, a class instance…).
 */
export function eventHash(previousHash: string, content: HashedContent): string {
  return sha256Bytes(hashFormOf(content, hashBytes(previousHash))).toString('hex');
}

/**
 * Where an adapter that keeps the bytes of an event's hash form (the SQLite store) puts, on an event it read, how to
 * make them again from those bytes (not enumerable: invisible to JSON, deepEqual and spreading), so a reader re-checks
 * a link without decoding the data. `verify` does not use it: it hashes the decoded content, which also catches
 * stored bytes that are not the one form of their content.
 */
const STORED_FORM = Symbol.for('table-audit.eventstore.storedForm');
export interface StoredForm {
  /** the event's hash form made from the stored bytes, with the given previous hash (32 bytes) */
  hashForm(previousHash: Uint8Array): Uint8Array;
  /** the hash (hex) of that form with the given previous hash (hex); the same as hashing hashForm's bytes, faster */
  hashHex?(previousHash: string): string;
}

export function attachStoredForm(event: RecordedEvent, form: StoredForm): void {
  Object.defineProperty(event, STORED_FORM, { value: form });
}

/** The hash an event should have given its content and previousHash; from the stored bytes when the adapter kept them. */
export function recomputedHash(event: RecordedEvent): string {
  const stored = (event as { [STORED_FORM]?: StoredForm })[STORED_FORM];
  if (stored === undefined) return eventHash(event.previousHash, event);
  if (stored.hashHex) return stored.hashHex(event.previousHash);
  return sha256Bytes(stored.hashForm(hashBytes(event.previousHash))).toString('hex');
}

// ---- versions 2 to 4 (canonical JSON), for migration only ---------------------------------------------------

/**
 * The same bytes as canonicalJson({stream, revision, eventId, type, data, metadata, recordedAt}), assembled from
 * data and metadata already in canonical JSON. Keys in sorted order.
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

/** The hash of versions 2 to 4: sha256(previousHash + canonical JSON of the content and recordedAt), hex. */
export function legacyEventHash(previousHash: string, content: HashedContent): string {
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
