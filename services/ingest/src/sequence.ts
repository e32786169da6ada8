/**
 * Per-source sequence numbers, as ingest sees them. `header.sequence` increases by one from one event of a source
 * (`header.sourceDevice`) to the next, per table: a table's events travel in order (one Kafka partition, keyed by
 * table; one events file), so that is where an order can be checked. A gap (numbers missing), a repeat (a
 * number given to a second event) and a step backwards (a number lower than the one before) are counted and kept
 * with where they were seen; the events themselves are stored as they came (nothing is lost, nothing reordered),
 * and the replay judges the rounds they belong to (F3CP.EVENT.SEQUENCE).
 *
 * Bounded: at most `maxSources` table/source pairs are followed (the least recently seen is forgotten: its next
 * event starts it again, unchecked), each remembering its last `window` numbers, so that an event delivered again
 * (a Kafka redelivery, a file ingested twice) is recognised by its id rather than reported as a step backwards.
 */
export type SequenceKind = 'gap' | 'repeat' | 'backwards';

export interface SequenceIrregularity {
  readonly kind: SequenceKind;
  readonly tableId: string;
  readonly source: string;
  /** the number of the source's event before this one */
  readonly previous: number;
  readonly sequence: number;
  readonly eventId: string;
  /** where the event came from (Kafka partition and offset, file block and record) */
  readonly where: string;
}

export interface SequenceSummary {
  gaps: number;
  /** how many numbers the gaps leave out, in all */
  missing: number;
  repeats: number;
  backwards: number;
  /** the first irregularities seen, in order (at most SequenceTracker.KEEP) */
  readonly first: SequenceIrregularity[];
}

interface SourceState {
  last: number;
  /** sequence → event id, the last `window` numbers seen, in insertion order */
  readonly recent: Map<number, string>;
}

export const describeIrregularity = (x: SequenceIrregularity): string =>
  x.kind === 'gap'
    ? `${x.source} (table ${x.tableId}): sequence ${x.previous} then ${x.sequence}, ${x.sequence - x.previous - 1} missing, at ${x.where}`
    : x.kind === 'repeat'
      ? `${x.source} (table ${x.tableId}): sequence ${x.sequence} again, for event ${x.eventId}, at ${x.where}`
      : `${x.source} (table ${x.tableId}): sequence ${x.previous} then ${x.sequence}, a step backwards, at ${x.where}`;

export class SequenceTracker {
  static readonly KEEP = 20;
  private readonly sources = new Map<string, SourceState>();
  readonly summary: SequenceSummary = { gaps: 0, missing: 0, repeats: 0, backwards: 0, first: [] };

  constructor(
    private readonly maxSources = 10_000,
    private readonly window = 1_024,
  ) {}

  /**
   * Follows one stored event; returns the irregularity it shows, if any. `where` may be given as a function, called
   * only for an irregularity (most events have none: no text is made for them).
   */
  observe(
    tableId: string,
    source: string,
    sequence: number,
    eventId: string,
    where: string | (() => string),
  ): SequenceIrregularity | null {
    const key = `${tableId}\u0000${source}`;
    const state = this.sources.get(key);
    if (!state) {
      this.remember(key, { last: sequence, recent: new Map([[sequence, eventId]]) });
      return null;
    }
    // least recently seen last: re-inserted on every event
    this.sources.delete(key);
    this.sources.set(key, state);
    const seen = state.recent.get(sequence);
    if (seen === eventId) return null; // the same event again: a redelivery
    let kind: SequenceKind | null = null;
    if (seen !== undefined || sequence === state.last) kind = 'repeat';
    else if (sequence > state.last + 1) kind = 'gap';
    else if (sequence < state.last) kind = 'backwards';
    const found: SequenceIrregularity | null = kind && {
      kind,
      tableId,
      source,
      previous: state.last,
      sequence,
      eventId,
      where: typeof where === 'string' ? where : where(),
    };
    state.last = sequence;
    state.recent.delete(sequence);
    state.recent.set(sequence, eventId);
    if (state.recent.size > this.window) state.recent.delete(state.recent.keys().next().value!);
    if (found) this.count(found);
    return found;
  }

  private remember(key: string, state: SourceState): void {
    this.sources.set(key, state);
    if (this.sources.size > this.maxSources) this.sources.delete(this.sources.keys().next().value!);
  }

  private count(x: SequenceIrregularity): void {
    const s = this.summary;
    if (x.kind === 'gap') {
      s.gaps++;
      s.missing += x.sequence - x.previous - 1;
    } else if (x.kind === 'repeat') s.repeats++;
    else s.backwards++;
    if (s.first.length < SequenceTracker.KEEP) s.first.push(x);
  }
}
