/**
 * Ctrl-C (SIGINT) and SIGTERM during a long job: the first asks the job to stop at its next safe point (between two
 * batches, each of which is stored whole or not at all, with its checkpoint), so that running it again resumes;
 * a second one ends the process at once (exit 130) — still safe, because every batch is one transaction, but the
 * job cannot say where it stopped.
 */
import type { EventStore } from '@table-audit/eventstore';

/** Thrown at a safe point once a stop was asked for. */
export class Interrupted extends Error {
  override readonly name = 'Interrupted';
  constructor(readonly signal: string) {
    super(`stopped by ${signal === 'SIGINT' ? 'Ctrl-C' : signal}`);
  }
}

export class StopRequest {
  #signal: string | null = null;
  readonly #handler = (signal: NodeJS.Signals) => {
    if (this.#signal !== null) {
      process.stderr.write(`\n${signal} again: stopping at once\n`);
      process.exit(130);
    }
    this.#signal = signal;
    process.stderr.write(
      `\n${signal === 'SIGINT' ? 'Ctrl-C' : signal}: stopping after the current batch (again to stop at once); running the job again resumes\n`,
    );
  };

  /** Listens for SIGINT and SIGTERM until release(). */
  listen(): this {
    process.on('SIGINT', this.#handler);
    process.on('SIGTERM', this.#handler);
    return this;
  }

  release(): void {
    process.removeListener('SIGINT', this.#handler);
    process.removeListener('SIGTERM', this.#handler);
  }

  get requested(): boolean {
    return this.#signal !== null;
  }

  /** Throws Interrupted when a stop was asked for: call it at safe points. */
  check(): void {
    if (this.#signal !== null) throw new Interrupted(this.#signal);
  }
}

/**
 * The store as a processor (the projection) reads it: readAll ends early once a stop is asked for (the processor
 * then ends as if caught up, its checkpoint at the last whole batch), and reports each position read (progress).
 */
export function stoppableStore(
  store: EventStore,
  /** null: never stopped early, only watched */
  stop: StopRequest | null,
  onRead: (position: bigint) => void = () => {},
): EventStore {
  return new Proxy(store, {
    get(target, key) {
      if (key === 'readAll')
        return async function* (...args: Parameters<EventStore['readAll']>) {
          if (stop?.requested) return;
          for await (const e of target.readAll(...args)) {
            onRead(e.position);
            yield e;
          }
        };
      const v: unknown = Reflect.get(target, key, target);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
