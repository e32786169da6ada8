/**
 * The replay's own check of what it reads: every event of a table stream must follow the one before it in the
 * stream's hash chain (linkBrokenBecause, from the bytes as read). A table whose chain breaks is stopped with a
 * STORE.CHAIN_BROKEN finding instead of being derived from events that are not what was recorded.
 */
import { createHash } from 'node:crypto';
import type { RecordedEvent } from '@table-audit/eventstore';
import type { Finding } from '@table-audit/rules';

/** Game-neutral: the record failed verification; no game's law is involved. */
export const STORE_CHAIN_BROKEN = 'STORE.CHAIN_BROKEN';

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

export function chainBrokenFinding(tableId: string, event: RecordedEvent, reason: string): Finding {
  // casino and concessionaire as the event itself declares them (it may be the forged one): for routing only
  const header = ((event.data as { header?: Record<string, unknown> } | null)?.header ?? {}) as Record<
    string,
    unknown
  >;
  return {
    findingId: createHash('sha256')
      .update(`${STORE_CHAIN_BROKEN}\0${event.stream}\0${event.revision}\0${event.eventId}`)
      .digest('hex')
      .slice(0, 32),
    checkId: STORE_CHAIN_BROKEN,
    title: 'The stored record failed verification',
    severity: 'critical',
    ruleSet: 'none',
    casino: text(header.casino),
    concessionaire: text(header.concessionaire),
    tableId,
    roundId: null,
    seats: [],
    players: [],
    summary:
      `the record itself failed verification: stream "${event.stream}" revision ${event.revision} (event ` +
      `${event.eventId}, position ${event.position}): ${reason}. The table's replay stopped there: nothing from ` +
      `this event on is derived, since it is not what was recorded`,
    handled: false,
    expected: { link: 'each event follows the one before it in its stream (hash chain)' },
    declared: { revision: event.revision, previousHash: event.previousHash, hash: event.hash },
    // no provision of a game's law is breached by a broken record: the citations are empty on purpose, and the
    // finding is about the evidence, not the play
    citations: [],
    interpretations: [],
    evidenceEventIds: [event.eventId],
    eventTime:
      typeof header.eventTime === 'number' && Number.isSafeInteger(header.eventTime)
        ? header.eventTime
        : event.recordedAt,
    details: { stream: event.stream, revision: event.revision, position: String(event.position), reason },
  };
}
