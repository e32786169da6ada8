/**
 * The access log: who read or exported what, and every workflow action, as AccessRecorded events in the
 * `api-access` stream. Records arriving together are appended together (group commit: one durable append for many
 * requests instead of one per request), and each caller waits until its record is stored.
 *
 * A durable append is a commit that waits for the disk (the SQLite store commits with `synchronous = FULL`), and it
 * holds the event loop meanwhile: under load one of the API's largest costs (4–9% of the server's time in the
 * benchmark's profiles, as much as folding tables; one record a commit took 3.1 ms on the benchmark's loaded
 * machine, sixteen 4.6 ms). So while requests keep coming, records wait for each other: the append is made at the
 * first turn of the event loop that brought no new record (no turn is ever spent idle waiting for a timer), or once
 * the gap after the last append has passed — after an append that took d ms, 2d ms from its end (at most
 * `maxWaitMs`) and `windowMs` from its start — whichever comes first. While records arrive in every turn, appends
 * then hold the event loop at most about a third of the time; a record arriving after a quiet spell is appended in
 * its own turn, as before.
 *
 * With a writer off the event loop (`writer`: the access writer thread, access-writer-thread.ts, its own
 * connection to the store), the commit no longer holds the event loop, so no gap is kept: one append is in flight
 * at a time, and the next holds every record that arrived meanwhile (the batch grows with the commit's time).
 */
import type { EventData, EventStore } from '@table-audit/eventstore';
import type { AccessRecorded } from '@table-audit/schemas/events';

export const ACCESS_STREAM = 'api-access';

export interface AccessLogOptions {
  /** the least time from an append's start to the next's, ms (default 2) */
  readonly windowMs?: number;
  /** the longest a record waits for the gap after an append, ms (default 20); 0 with windowMs 0: no gap at all */
  readonly maxWaitMs?: number;
  readonly now?: () => number;
  /**
   * appends made off the event loop (the access writer thread): one in flight at a time, no gap kept; `windowMs`
   * and `maxWaitMs` then do not apply
   */
  readonly writer?: AccessWriter;
}

/** Appends access records to the `api-access` stream somewhere that does not hold the event loop. */
export interface AccessWriter {
  /** resolves once the append holding these events has returned (durably stored), rejects if it failed */
  append(events: readonly EventData[]): Promise<void>;
}

export class AccessLog {
  #queue: { record: AccessRecorded; done: (err?: unknown) => void }[] = [];
  #scheduled = false;
  /** records queued when the append was last put off (a turn that adds none appends) */
  #seen = 0;
  /** when the gap after the last append ends (by `now`) */
  #nextAt = Number.NEGATIVE_INFINITY;
  readonly #windowMs: number;
  readonly #maxWaitMs: number;
  readonly #now: () => number;
  readonly #writer: AccessWriter | null;
  /** an append by the writer has not returned yet */
  #writing = false;
  /** appends made and records they held (for tests and the benchmark) */
  readonly stats = { appends: 0, records: 0 };

  constructor(
    private readonly store: EventStore,
    options: AccessLogOptions = {},
  ) {
    this.#windowMs = options.windowMs ?? 2;
    this.#maxWaitMs = options.maxWaitMs ?? 20;
    this.#now = options.now ?? (() => performance.now());
    this.#writer = options.writer ?? null;
  }

  /** Resolves once the record is durably stored; rejects if the append fails (the request then fails too). */
  record(record: AccessRecorded): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ record, done: (err) => (err === undefined ? resolve() : reject(err)) });
      if (this.#writer) {
        // the records of this turn together, unless an append is in flight: it takes them when it returns
        if (!this.#scheduled && !this.#writing) {
          this.#scheduled = true;
          setImmediate(() => void this.#write());
        }
        return;
      }
      if (!this.#scheduled) {
        this.#scheduled = true;
        this.#seen = 0;
        setImmediate(() => this.#check());
      }
    });
  }

  /** At the end of a turn of the event loop: append, unless this turn brought records and the gap is still open. */
  #check(): void {
    if (this.#queue.length > this.#seen && this.#now() < this.#nextAt) {
      this.#seen = this.#queue.length;
      setImmediate(() => this.#check());
    } else void this.#flush();
  }

  /** An append by the writer of every record queued; when it returns, the next of those that came meanwhile. */
  async #write(): Promise<void> {
    const batch = this.#queue;
    this.#queue = [];
    this.#scheduled = false;
    this.#writing = true;
    this.stats.appends++;
    this.stats.records += batch.length;
    let failure: unknown;
    try {
      await this.#writer!.append(
        batch.map(({ record }) => ({ eventId: record.accessId, type: 'AccessRecorded', data: record })),
      );
    } catch (err) {
      failure = err ?? new Error('the access log append failed');
    }
    this.#writing = false;
    for (const x of batch) x.done(failure);
    if (this.#queue.length > 0) void this.#write();
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
