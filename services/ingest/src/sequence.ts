/**
 * Per-source sequence numbers, as ingest sees them. `header.sequence` increases by one from one event of a source
 * (`header.sourceDevice`) to the next, per table: a table's events travel in order (one Kafka partition, keyed by
 * table; one events file), so that is where an order can be checked. A gap (numbers missing), a repeat (a
 * number given to a second event) and a step backwards (a number lower than the one before) are counted and kept
 * with where they were seen; the events themselves are stored as they came (nothing is lost, nothing reordered),
 * and the replay judges the rounds they belong to (F3CP.EVENT.SEQUENCE).
 *
 * Bounded: at most `maxSources` table/source pairs are followed (past that, the least recently seen quarter is
 * forgotten: a forgotten pair's next event starts it again, unchecked), each remembering its last `window` numbers (rounded up to a power of two) with
 * a hash of the event id given each, so that an event delivered again (a Kafka redelivery, a file ingested twice) is
 * recognised by its id rather than reported as a step backwards: about 16 KiB per pair, 160 MiB at most.
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

/**
 * A source's last number and its recent numbers, each with a 53-bit hash of the event id given it: a table indexed by
 * the number modulo the window (the slot of a number holds the latest number seen with that remainder, so for
 * numbers that go up, the last `window` of them). Typed arrays: 16 bytes a number, about 16 KiB per table and source
 * (a Map of numbers to id strings took about 100 bytes a number). Two different ids with the same 53-bit hash would
 * make a repeat look like a redelivery: a chance of about 1 in 10^16 per repeat.
 */
interface SourceState {
  last: number;
  readonly numbers: Float64Array;
  readonly ids: Float64Array;
  /** when it was last seen (the tracker's count of events observed): the least recently seen pair is forgotten */
  seen: number;
  readonly tableId: string;
  readonly source: string;
}

/** A 53-bit hash of a string (two 32-bit FNV-1a hashes with different offsets, 32 + 21 bits of them). */
export function idHash(s: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
  }
  return (a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff);
}

export const describeIrregularity = (x: SequenceIrregularity): string =>
  x.kind === 'gap'
    ? `${x.source} (table ${x.tableId}): sequence ${x.previous} then ${x.sequence}, ${x.sequence - x.previous - 1} missing, at ${x.where}`
    : x.kind === 'repeat'
      ? `${x.source} (table ${x.tableId}): sequence ${x.sequence} again, for event ${x.eventId}, at ${x.where}`
      : `${x.source} (table ${x.tableId}): sequence ${x.previous} then ${x.sequence}, a step backwards, at ${x.where}`;

export class SequenceTracker {
  static readonly KEEP = 20;
  /** table → source → state: no key string made per event */
  private readonly tables = new Map<string, Map<string, SourceState>>();
  private size = 0;
  private tick = 0;
  /** the pair of the last event (consecutive events of a table often come from the same source) */
  private lastState: SourceState | null = null;
  readonly summary: SequenceSummary = { gaps: 0, missing: 0, repeats: 0, backwards: 0, first: [] };

  /** the window (a power of two) less one: a number's slot is the number AND this */
  private readonly mask: number;

  constructor(
    private readonly maxSources = 10_000,
    window = 1_024,
  ) {
    let size = 1;
    while (size < window) size *= 2;
    this.mask = size - 1;
  }

  /**
   * Follows one stored event; returns the irregularity it shows, if any. `where` may be given as a function, called
   * only for an irregularity (most events have none: no text is made for them) — with `whereArg`, so that a caller
   * need not make a closure per event.
   */
  observe<T = undefined>(
    tableId: string,
    source: string,
    sequence: number,
    eventId: string,
    where: string | ((arg: T) => string),
    whereArg?: T,
  ): SequenceIrregularity | null {
    const slot = sequence & this.mask;
    const id = idHash(eventId);
    const tick = ++this.tick;
    let state = this.lastState;
    if (state === null || state.tableId !== tableId || state.source !== source) {
      let bySource = this.tables.get(tableId);
      state = bySource?.get(source) ?? null;
      if (!state) {
        const fresh: SourceState = {
          last: sequence,
          numbers: new Float64Array(this.mask + 1).fill(NaN),
          ids: new Float64Array(this.mask + 1),
          seen: tick,
          tableId,
          source,
        };
        fresh.numbers[slot] = sequence;
        fresh.ids[slot] = id;
        if (!bySource) this.tables.set(tableId, (bySource = new Map()));
        bySource.set(source, fresh);
        this.lastState = fresh;
        if (++this.size > this.maxSources) this.forgetLeastRecent();
        return null;
      }
      this.lastState = state;
    }
    state.seen = tick;
    const seen = state.numbers[slot] === sequence;
    if (seen && state.ids[slot] === id) return null; // the same event again: a redelivery
    let kind: SequenceKind | null = null;
    if (seen || sequence === state.last) kind = 'repeat';
    else if (sequence > state.last + 1) kind = 'gap';
    else if (sequence < state.last) kind = 'backwards';
    const found: SequenceIrregularity | null = kind && {
      kind,
      tableId,
      source,
      previous: state.last,
      sequence,
      eventId,
      where: typeof where === 'string' ? where : where(whereArg as T),
    };
    state.last = sequence;
    state.numbers[slot] = sequence;
    state.ids[slot] = id;
    if (found) this.count(found);
    return found;
  }

  /**
   * Forgets the least recently seen quarter of the pairs (at least one), once a new pair goes past maxSources: one
   * scan and sort per maxSources / 4 new pairs, so that a stream of ever new pairs costs a constant per event, not a
   * scan of every pair per event.
   */
  private forgetLeastRecent(): void {
    const all: SourceState[] = [];
    for (const bySource of this.tables.values()) for (const state of bySource.values()) all.push(state);
    all.sort((a, b) => a.seen - b.seen);
    const forget = Math.max(1, Math.floor(this.maxSources / 4));
    for (let i = 0; i < forget && i < all.length; i++) {
      const oldest = all[i]!;
      const bySource = this.tables.get(oldest.tableId)!;
      bySource.delete(oldest.source);
      if (!bySource.size) this.tables.delete(oldest.tableId);
      this.size--;
      if (this.lastState === oldest) this.lastState = null;
    }
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
