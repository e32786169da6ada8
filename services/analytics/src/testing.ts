/**
 * Events as the event store hands them over (RecordedEvent), made in memory: for the tests and the benchmark, which
 * give the projector events without a store. Not used by the projection itself.
 */
import type { RecordedEvent } from '@table-audit/eventstore';

/** One recorded event at a given store position (no hash chain, recorded at time 0). */
export const recordedEvent = (
  stream: string,
  type: string,
  eventId: string,
  data: unknown,
  position: bigint,
): RecordedEvent => ({
  stream,
  type,
  eventId,
  data,
  metadata: {},
  revision: 0,
  position,
  recordedAt: 0,
  hash: '',
  previousHash: '',
});

/** Recorded events numbered in the order made, from position `after + 1`. */
export function recorder(
  after = 0n,
): (stream: string, type: string, eventId: string, data: unknown) => RecordedEvent {
  let position = after;
  return (stream, type, eventId, data) => recordedEvent(stream, type, eventId, data, ++position);
}
