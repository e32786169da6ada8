/**
 * Re-reads a stream or the whole store and checks every stream's hash chain: gap-free revisions from 0, each
 * previousHash equal to the hash of the event before it, each hash equal to the hash recomputed from the content.
 *
 * What it cannot see on its own: the removal of a stream's last events, or a whole chain recomputed after an edit.
 * Against those, keep each stream's latest hash somewhere the store's owner cannot rewrite.
 */
import { NotCanonicalJson } from './canonical-json.ts';
import { eventHash, GENESIS_HASH } from './hash-chain.ts';
import type { EventStore, RecordedEvent } from './port.ts';

export interface VerifyOptions {
  /** Only this stream; default the whole store (every stream, in global order). */
  stream?: string;
  /** Called every `progressEvery` events (default 10,000) with the number checked so far. */
  onProgress?: (events: number) => void;
  progressEvery?: number;
}

export interface BrokenLink {
  stream: string;
  revision: number;
  eventId: string;
  reason: string;
}

export interface VerifyReport {
  ok: boolean;
  /** Streams seen. */
  streams: number;
  /** Events checked (up to and including the first broken one). */
  events: number;
  /** The first event, in the order read, whose link in its stream's chain does not hold. */
  firstBroken?: BrokenLink;
}

const short = (hash: string) => (hash.length > 12 ? `${hash.slice(0, 12)}…` : JSON.stringify(hash));

/** Why `event` does not follow `previous` (undefined: the first event seen in its stream), or null if it does. */
function brokenBecause(
  event: RecordedEvent,
  previous: { revision: number; hash: string } | undefined,
): string | null {
  const expectedRevision = previous === undefined ? 0 : previous.revision + 1;
  if (event.revision > expectedRevision)
    return event.revision - expectedRevision === 1
      ? `revision ${expectedRevision} is missing before it`
      : `revisions ${expectedRevision}..${event.revision - 1} are missing before it`;
  if (event.revision < expectedRevision)
    return `its revision ${event.revision} comes after revision ${expectedRevision - 1}: out of order or repeated`;
  const expectedPrevious = previous === undefined ? GENESIS_HASH : previous.hash;
  if (event.previousHash !== expectedPrevious)
    return previous === undefined
      ? `its previousHash ${short(event.previousHash)} should be the genesis hash (64 zeros)`
      : `its previousHash ${short(event.previousHash)} is not the hash of revision ${previous.revision} (${short(previous.hash)})`;
  let recomputed: string;
  try {
    recomputed = eventHash(event.previousHash, event);
  } catch (err) {
    if (err instanceof NotCanonicalJson) return `its content cannot be hashed: ${err.message}`;
    throw err;
  }
  if (recomputed !== event.hash)
    return `its hash ${short(event.hash)} does not match its content (recomputed ${short(recomputed)}): its id, type, data or metadata was changed`;
  return null;
}

export async function verify(store: EventStore, options: VerifyOptions = {}): Promise<VerifyReport> {
  const events = options.stream === undefined ? store.readAll() : store.readStream(options.stream);
  const heads = new Map<string, { revision: number; hash: string }>();
  const every = options.progressEvery ?? 10_000;
  let checked = 0;
  for await (const event of events) {
    checked++;
    if (options.onProgress && checked % every === 0) options.onProgress(checked);
    const reason = brokenBecause(event, heads.get(event.stream));
    if (reason !== null) {
      if (!heads.has(event.stream)) heads.set(event.stream, { revision: event.revision, hash: event.hash });
      return {
        ok: false,
        streams: heads.size,
        events: checked,
        firstBroken: { stream: event.stream, revision: event.revision, eventId: event.eventId, reason },
      };
    }
    heads.set(event.stream, { revision: event.revision, hash: event.hash });
  }
  return { ok: true, streams: heads.size, events: checked };
}
