/** How many of a table's unassigned events its fold keeps in memory (the first ones); every one is counted. */
export const UNASSIGNED_KEPT = 1_000;

/**
 * Events of a table that belong to no round and to no table state (a stray event between rounds, a late event of
 * a round that was not judged: no rule set in force on its date, or not derived). They stay in the store as they came; the fold counts them all and keeps
 * the first UNASSIGNED_KEPT, so that a table's memory does not grow with a stream of such events.
 */
export class UnassignedEvents<E> {
  /** the first UNASSIGNED_KEPT of them, in order */
  readonly kept: E[] = [];
  /** how many there were */
  length = 0;

  push(e: E): void {
    this.length++;
    if (this.kept.length < UNASSIGNED_KEPT) this.kept.push(e);
  }
}
