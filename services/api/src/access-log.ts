/**
 * The access log: who read or exported what, and every workflow action, as AccessRecorded events in the
 * `api-access` stream. Records arriving together are appended together (group commit: one durable append for many
 * requests instead of one per request), and each caller waits until its record is stored.
 *
 * A durable append is a commit that waits for the disk (the SQLite store commits with `synchronous = FULL`), and it
 * holds the event loop meanwhile: under load it was the API's largest single cost (8–9% of the server's time in the
 * benchmark, more than folding tables). So appends are spaced: a record arriving within `windowMs` of the last
 * append waits for the window to end and goes with every record that arrived meanwhile; a record arriving after a
 * quiet spell is appended in the same turn of the event loop, as before. At most one append per window, and a
 * request waits at most one window longer than its own append.
 */
import type { EventStore } from '@table-audit/eventstore';
import type { AccessRecorded } from '@table-audit/schemas/events';

export const ACCESS_STREAM = 'api-access';

export interface AccessLogOptions {
  /** the least time between two appends, ms (default 4; 0: one append per turn of the event loop) */
  readonly windowMs?: number;
  readonly now?: () => number;
}

export class AccessLog {
  #queue: { record: AccessRecorded; done: (err?: unknown) => void }[] = [];
  #scheduled = false;
  #lastAppend = Number.NEGATIVE_INFINITY;
  readonly #windowMs: number;
  readonly #now: () => number;
  /** appends made and records they held (for tests and the benchmark) */
  readonly stats = { appends: 0, records: 0 };

  constructor(
    private readonly store: EventStore,
    options: AccessLogOptions = {},
  ) {
    this.#windowMs = options.windowMs ?? 4;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Resolves once the record is durably stored; rejects if the append fails (the request then fails too). */
  record(record: AccessRecorded): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ record, done: (err) => (err === undefined ? resolve() : reject(err)) });
      if (!this.#scheduled) {
        this.#scheduled = true;
        const wait = this.#lastAppend + this.#windowMs - this.#now();
        if (wait > 0) setTimeout(() => void this.#flush(), wait);
        else setImmediate(() => void this.#flush());
      }
    });
  }

  async #flush(): Promise<void> {
    const batch = this.#queue;
    this.#queue = [];
    this.#scheduled = false;
    this.#lastAppend = this.#now();
    this.stats.appends++;
    this.stats.records += batch.length;
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
