import type { ExpectedRevision } from './port.ts';

const describeRevision = (r: ExpectedRevision | number): string =>
  r === -1 ? 'no stream' : typeof r === 'number' ? `revision ${r}` : r;

/** New events were appended with an expectation about the stream that does not hold. Nothing was written. */
export class WrongExpectedRevision extends Error {
  override readonly name = 'WrongExpectedRevision';
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    /** The revision of the stream's last event; -1 when the stream has no events. */
    readonly actual: number,
  ) {
    super(
      `stream "${stream}": expected ${describeRevision(expected)}, but it is at ${describeRevision(actual)}; nothing was appended`,
    );
  }
}

/** An event id that is already stored arrived with a different stream, type or data: not a duplicate, an error. */
export class EventIdConflict extends Error {
  override readonly name = 'EventIdConflict';
  constructor(
    readonly eventId: string,
    readonly stream: string,
    /** Where the event with that id is stored (or, within one call, the stream of the call). */
    readonly storedStream: string,
    readonly storedRevision: number | null,
    readonly difference: 'stream' | 'type' | 'data',
  ) {
    super(
      `event id "${eventId}" appended to stream "${stream}" is already ${
        storedRevision === null
          ? 'earlier in the same append'
          : `stored in "${storedStream}" at revision ${storedRevision}`
      } with a different ${difference}; nothing was appended`,
    );
  }
}

/** Event data or metadata that is not the JSON the store can hash and keep exactly. */
export class InvalidEventData extends Error {
  override readonly name = 'InvalidEventData';
  constructor(
    readonly eventId: string,
    /** Where in the event, e.g. `data.seats[2].stake`. */
    readonly path: string,
    readonly reason: string,
  ) {
    super(`event "${eventId}": ${path} ${reason}; nothing was appended`);
  }
}

/** A malformed argument (stream name, revision, count, position, checkpoint name). */
export class InvalidArgument extends Error {
  override readonly name = 'InvalidArgument';
}

export class StoreClosed extends Error {
  override readonly name = 'StoreClosed';
  constructor(what: string) {
    super(`${what}: the event store is closed`);
  }
}
