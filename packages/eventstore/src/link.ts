/** Whether an event follows the one before it in its stream: shared by verify, the anchorer and readers. */
import { NotCanonicalJson } from './canonical-json.ts';
import { eventHash, GENESIS_HASH, recomputedHash } from './hash-chain.ts';
import type { RecordedEvent } from './port.ts';

const short = (hash: string) => (hash.length > 12 ? `${hash.slice(0, 12)}…` : JSON.stringify(hash));

/**
 * Why `event` does not follow `previous` (undefined: the first event seen in its stream), or null if it does.
 * `fast`: recompute the hash from the bytes the adapter read, when it kept them (cheap enough for every read);
 * otherwise from the content serialised again, which also refuses stored text that is not canonical JSON.
 */
export function linkBrokenBecause(
  event: RecordedEvent,
  previous: { revision: number; hash: string } | undefined,
  fast = false,
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
    recomputed = fast ? recomputedHash(event) : eventHash(event.previousHash, event);
  } catch (err) {
    if (err instanceof NotCanonicalJson) return `its content cannot be hashed: ${err.message}`;
    throw err;
  }
  if (recomputed !== event.hash) {
    const undecodable = (event.data as { undecodable?: unknown } | null)?.undecodable;
    if (typeof undecodable === 'string')
      return `its hash ${short(event.hash)} does not match its content: ${undecodable}`;
    return `its hash ${short(event.hash)} does not match its content (recomputed ${short(recomputed)}): its id, type, data, metadata or recorded time, or the hash of the event before it, was changed`;
  }
  return null;
}
