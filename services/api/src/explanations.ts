/**
 * Disputed hands explained, kept while their table's stream is unchanged: a round's explanation depends only on
 * its table's events (the round and the one after it, for findings judged later), so it stays valid until the
 * table's stream grows. Bounded: the least recently used are dropped first.
 */
import type { EventStore } from '@table-audit/eventstore';
import { explainRound, type RoundExplanation } from '@table-audit/replay';
import { tableStream } from '@table-audit/schemas/streams';
import { tableView } from './table-view.ts';

export class ExplanationCache {
  readonly #entries = new Map<string, { head: number; explanation: Promise<RoundExplanation> }>();

  constructor(
    private readonly store: EventStore,
    private readonly capacity = 2_000,
  ) {}

  async #head(tableId: string): Promise<number> {
    for await (const e of this.store.readStream(tableStream(tableId), {
      direction: 'backwards',
      maxCount: 1,
    }))
      return e.revision;
    return -1;
  }

  /** The round explained by services/replay's explainRound, over a view holding only its table's stream. */
  async explain(roundId: string, tableId: string): Promise<RoundExplanation> {
    const head = await this.#head(tableId);
    const known = this.#entries.get(roundId);
    this.#entries.delete(roundId);
    if (known && known.head === head) {
      this.#entries.set(roundId, known); // most recently used last
      return known.explanation;
    }
    const explanation = explainRound(tableView(this.store, tableId), roundId);
    this.#entries.set(roundId, { head, explanation });
    explanation.catch(() => this.#entries.delete(roundId)); // a failure is not kept
    if (this.#entries.size > this.capacity) this.#entries.delete(this.#entries.keys().next().value!);
    return explanation;
  }
}
