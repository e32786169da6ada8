/**
 * The access log's writer as a thread (access-writer.ts): the AccessWriter the API uses with a SQLite store on a
 * file, so that the access records' durable commits wait for the disk off the event loop. A writer that stops is
 * started again at the next append; the appends it held fail (and so do their requests).
 */
import { Worker } from 'node:worker_threads';
import type { EventData } from '@table-audit/eventstore';
import type { AccessWriter } from './access-log.ts';
import { workerCode, type WorkerCode, type WorkerCodeOptions } from './worker-code.ts';

export class AccessWriterThread implements AccessWriter {
  #worker: Worker | null = null;
  #starting: Promise<Worker> | null = null;
  readonly #pending = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  #nextId = 0;
  #closed = false;
  /** called once no append is in flight (close waits for them) */
  #drained: (() => void)[] = [];

  private constructor(
    private readonly entry: URL,
    private readonly execArgv: string[],
    private readonly storePath: string,
    readonly code: WorkerCode,
  ) {}

  /** Starts the writer over the store's file; rejects (naming why) when it cannot start. */
  static async start(storePath: string, o: WorkerCodeOptions = {}): Promise<AccessWriterThread> {
    const { entry, execArgv, code } = await workerCode(
      new URL('./access-writer.ts', import.meta.url),
      'api-access-writer',
      o,
    );
    const writer = new AccessWriterThread(entry, execArgv, storePath, code);
    await writer.#started();
    return writer;
  }

  #started(): Promise<Worker> {
    if (this.#worker) return Promise.resolve(this.#worker);
    this.#starting ??= new Promise<Worker>((resolve, reject) => {
      const worker = new Worker(this.entry, {
        workerData: { storePath: this.storePath },
        execArgv: this.execArgv,
      });
      worker.unref(); // held only while an append is in flight (below)
      let ready = false;
      let gone = false;
      worker.on('message', (m: { ready: true } | { failed: string } | { id: number; error?: string }) => {
        if ('ready' in m) {
          ready = true;
          this.#worker = worker;
          this.#starting = null;
          return resolve(worker);
        }
        if ('failed' in m)
          return reject(new Error(`the access writer could not open the store: ${m.failed}`));
        const p = this.#pending.get(m.id);
        if (!p) return;
        this.#pending.delete(m.id);
        if (this.#pending.size === 0) this.#idle(worker);
        if (m.error === undefined) p.resolve();
        else p.reject(new Error(m.error));
      });
      const stopped = (why: string) => {
        if (gone) return;
        gone = true;
        if (this.#worker === worker) this.#worker = null;
        if (!ready) {
          this.#starting = null;
          return reject(new Error(`the access writer did not start: ${why}`));
        }
        const pending = [...this.#pending.values()];
        this.#pending.clear();
        for (const p of pending)
          p.reject(new Error(`the access writer stopped (${why}) before its append returned`));
        this.#idle(worker);
      };
      worker.on('error', (e) => stopped(e.message));
      worker.on('exit', (code) => stopped(`exit code ${code}`));
    });
    return this.#starting;
  }

  /** No append in flight: the writer no longer holds the process, and close may go on. */
  #idle(worker: Worker): void {
    worker.unref();
    const waiting = this.#drained;
    this.#drained = [];
    for (const r of waiting) r();
  }

  async append(events: readonly EventData[]): Promise<void> {
    if (this.#closed) throw new Error('the access writer is closed');
    const worker = await this.#started();
    const id = this.#nextId++;
    const done = new Promise<void>((resolve, reject) => this.#pending.set(id, { resolve, reject }));
    worker.ref(); // until every append it holds has returned
    worker.postMessage({ id, events });
    return done;
  }

  /** Stops the writer once the appends it holds have returned. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#pending.size > 0) await new Promise<void>((r) => this.#drained.push(r));
    const w = this.#worker ?? (this.#starting ? await this.#starting.catch(() => null) : null);
    this.#worker = null;
    if (w) await w.terminate();
  }
}
