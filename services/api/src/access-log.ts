/**
 * The access log: who read or exported what, and every workflow action, as AccessRecorded events in the
 * `api-access` stream. Records arriving together are appended together (group commit: one durable append for many
 * requests instead of one per request), and each caller waits until its record is stored.
 *
 * A durable append is a commit that waits for the disk (the SQLite store commits with `synchronous = FULL`), and it
 * holds the event loop meanwhile: under load it was the API's largest single cost (8–9% of the server's time in the
 * benchmark, more than folding tables; one record a commit took 3.1 ms on the benchmark's loaded machine, sixteen
 * 4.6 ms). So appends are spaced by what they cost: after an append that took d ms, the next starts no sooner than
 * 2d ms after it ended (at most `maxWaitMs`) and `windowMs` after it started, with every record that arrived
 * meanwhile — appends then hold the event loop at most about a third of the time. A record arriving after a quiet
 * spell is appended in the same turn of the event loop, as before. A request waits at most one such gap longer
 * than its own append.
 */
import type { EventStore } from '@table-audit/eventstore';
import type { AccessRecorded } from '@table-audit/schemas/events';

export const ACCESS_STREAM = 'api-access';

export interface AccessLogOptions {
  /** the least time from an append's start to the next's, ms (default 2) */
  readonly windowMs?: number;
  /** the longest a record waits for the gap after an append, ms (default 20); 0 with windowMs 0: no gap at all */
  readonly maxWaitMs?: number;
  readonly now?: () => number;
}

export class AccessLog {
  #queue: { record: AccessRecorded; done: (err?: unknown) => void }[] = [];
  #scheduled = false;
  /** when the next append may start (by `now`) */
  #nextAt = Number.NEGATIVE_INFINITY;
  readonly #windowMs: number;
  readonly #maxWaitMs: number;
  readonly #now: () => number;
  /** appends made and records they held (for tests and the benchmark) */
  readonly stats = { appends: 0, records: 0 };

  constructor(
    private readonly store: EventStore,
    options: AccessLogOptions = {},
  ) {
    this.#windowMs = options.windowMs ?? 2;
    this.#maxWaitMs = options.maxWaitMs ?? 20;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Resolves once the record is durably stored; rejects if the append fails (the request then fails too). */
  record(record: AccessRecorded): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ record, done: (err) => (err === undefined ? resolve() : reject(err)) });
      if (!this.#scheduled) {
        this.#scheduled = true;
        const wait = this.#nextAt - this.#now();
        if (wait > 0) setTimeout(() => void this.#flush(), wait);
        else setImmediate(() => void this.#flush());
      }
    });
  }

  async #flush(): Promise<void> {
    const batch = this.#queue;
    this.#queue = [];
    this.#scheduled = false;
    const start = this.#now();
    this.#nextAt = start + this.#windowMs;
    this.stats.appends++;
    this.stats.records += batch.length;
    let failure: unknown;
    try {
      await this.store.append(
        ACCESS_STREAM,
        batch.map(({ record }) => ({ eventId: record.accessId, type: 'AccessRecorded', data: record })),
      );
    } catch (err) {
      failure = err ?? new Error('the access log append failed');
    }
    const end = this.#now();
    this.#nextAt = Math.max(this.#nextAt, end + Math.min(this.#maxWaitMs, 2 * (end - start)));
    for (const x of batch) x.done(failure);
  }
}
