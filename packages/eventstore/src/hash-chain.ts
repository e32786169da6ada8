/**
 * Tamper evidence: every event's hash covers its content and the previous event's hash in the same stream, so an
 * edit, a deletion or a re-ordering inside a stream breaks the chain from that event on.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.ts';
import type { RecordedEvent } from './port.ts';

/** The previousHash of revision 0. */
export const GENESIS_HASH = '0'.repeat(64);

/** What the hash covers besides the previous hash. */
export type HashedContent = Pick<
  RecordedEvent,
  'stream' | 'revision' | 'eventId' | 'type' | 'data' | 'metadata'
>;

/**
 * The same bytes as canonicalJson({stream, revision, eventId, type, data, metadata}), assembled from data and
 * metadata already in canonical JSON so appends do not serialise them twice. Keys in sorted order.
 */
export function hashedText(
  c: Omit<HashedContent, 'data' | 'metadata'> & { dataJson: string; metadataJson: string | undefined },
): string {
  return (
    `{"data":${c.dataJson},"eventId":${JSON.stringify(c.eventId)}` +
    (c.metadataJson === undefined ? '' : `,"metadata":${c.metadataJson}`) +
    `,"revision":${c.revision},"stream":${JSON.stringify(c.stream)},"type":${JSON.stringify(c.type)}}`
  );
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** Canonical JSON of metadata as stored: an empty object is stored, and hashed, as no metadata. */
export function metadataJson(metadata: Record<string, unknown> | undefined, path = '$'): string | undefined {
  if (metadata === undefined) return undefined;
  const text = canonicalJson(metadata, path);
  return text === '{}' ? undefined : text;
}

/** sha256(previousHash + canonical JSON of the event's content), hex. */
export function eventHash(previousHash: string, content: HashedContent): string {
  return sha256Hex(
    previousHash +
      hashedText({
        stream: content.stream,
        revision: content.revision,
        eventId: content.eventId,
        type: content.type,
        dataJson: canonicalJson(content.data, 'data'),
        metadataJson: metadataJson(content.metadata, 'metadata'),
      }),
  );
}
