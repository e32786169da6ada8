/**
 * The access log: who read or exported what, and every workflow action, as AccessRecorded events in the
 * `api-access` stream. Records arriving together are appended together (group commit: one durable append per turn
 * of the event loop instead of one fsync per request), and each caller waits until its record is stored.
 */
import type { EventStore } from '@table-audit/eventstore';
import type { AccessRecorded } from '@table-audit/schemas/events';

export const ACCESS_STREAM = 'api-access';

export class AccessLog {
  #queue: { record: AccessRecorded; done: (err?: unknown) => void }[] = [];
  #scheduled = false;

  constructor(private readonly store: EventStore) {}

  /** Resolves once the record is durably stored; rejects if the append fails (the request then fails too). */
  record(record: AccessRecorded): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ record, done: (err) => (err === undefined ? resolve() : reject(err)) });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => void this.#flush());
      }
    });
  }

  async #flush(): Promise<void> {
    const batch = this.#queue;
    this.#queue = [];
    this.#scheduled = false;
    try {
      await this.store.append(
        ACCESS_STREAM,
        batch.map(({ record }) => ({ eventId: record.accessId, type: 'AccessRecorded', data: record })),
      );
    } catch (err) {
      for (const x of batch) x.done(err);
      return;
    }
    for (const x of batch) x.done();
  }
}
