/**
 * What the replay writes for one batch, gathered in one place: its findings (`findings-<table>`) and its round
 * records (`rounds-<table>`), by stream, flushed with the batch's checkpoint in one call of the port's appendMany:
 * one transaction where the store is atomicAcrossStreams (SQLite), so a crash leaves either all of it or none;
 * elsewhere (EventStoreDB) stream by stream, then the checkpoint last, every event with a deterministic id, so a
 * batch delivered again after a crash between two writes appends only what was missing.
 */
import { createHash } from 'node:crypto';
import {
  appendToStreams,
  canonicalJson,
  NotCanonicalJson,
  type EventData,
  type EventStore,
  type RecordedEvent,
} from '@table-audit/eventstore';
import type { Finding, RoundRecord } from '@table-audit/rules';
import { findingStream, FINDING_EVENT_TYPE, ROUND_EVENT_TYPE, roundStream } from './streams.ts';

/** A finding and the event that completed it (null: table-level, judged at the end). */
export interface FoundFinding {
  readonly finding: Finding;
  readonly event: RecordedEvent | null;
}

/** One stream's share of a batch's writes. */
export interface StreamAppend {
  readonly stream: string;
  readonly events: EventData[];
}

/**
 * The event of a round record. Its id is a hash of the record itself: the same derivation gives the same id, so
 * a re-run or a batch delivered again after a crash appends nothing; a derivation that changed (other rules code)
 * appends a new record of the round beside the old one instead of failing on an id stored with other content.
 * Readers take a round's latest record.
 */
export function roundRecordEvent(record: RoundRecord): EventData {
  return {
    eventId: createHash('sha256')
      .update(`${ROUND_EVENT_TYPE}\0${record.tableId}\0${record.roundId}\0${JSON.stringify(record)}`)
      .digest('hex')
      .slice(0, 32),
    type: ROUND_EVENT_TYPE,
    data: record,
  };
}

/** The store takes JSON with safe integers only: a p-value is kept as text. */
export function storableFinding(f: Finding): Finding {
  if (!f.details) return f;
  const details = Object.fromEntries(
    Object.entries(f.details).map(([k, v]) => [
      k,
      typeof v === 'number' && !Number.isSafeInteger(v) ? String(v) : v,
    ]),
  );
  return { ...f, details };
}

/**
 * A finding as a reader of the store gets it back: storableFinding's form (a p-value as text), members in the
 * canonical (sorted) order the store's compact form returns them in, undefined members left out. What the API's
 * replay answer shows, whichever way it derived the round: a finding the fold made and one read from the store then
 * read alike, byte for byte. A finding the store could not take (canonicalJson refuses it) is returned as it is.
 */
export function storedForm(f: Finding): Finding {
  try {
    return JSON.parse(canonicalJson(storableFinding(f))) as Finding;
  } catch (e) {
    if (e instanceof NotCanonicalJson) return f;
    throw e;
  }
}

export class BatchWrites {
  private readonly streams = new Map<string, EventData[]>();
  readonly findings: FoundFinding[] = [];
  records = 0;

  finding(finding: Finding, event: RecordedEvent | null): void {
    this.findings.push({ finding, event });
    this.add(findingStream(finding.tableId), {
      eventId: finding.findingId,
      type: FINDING_EVENT_TYPE,
      data: storableFinding(finding),
    });
  }

  record(record: RoundRecord): void {
    this.records++;
    this.add(roundStream(record.tableId), roundRecordEvent(record));
  }

  get empty(): boolean {
    return this.streams.size === 0;
  }

  /** Every stream's events, in the order first written (findings of a table before its records when both). */
  appends(): StreamAppend[] {
    return [...this.streams].map(([stream, events]) => ({ stream, events }));
  }

  private add(stream: string, event: EventData): void {
    const list = this.streams.get(stream);
    if (list) list.push(event);
    else this.streams.set(stream, [event]);
  }
}

/** What a flush wrote, by kind. */
export interface FlushResult {
  findingsAppended: number;
  findingsAlreadyStored: number;
  recordsAppended: number;
  recordsAlreadyStored: number;
}

/**
 * Writes a batch's appends and, when given, the checkpoint that says the batch is done, with one appendMany
 * (appendToStreams: the store's own when it has one, else stream by stream and the checkpoint last).
 */
export async function flushWrites(
  store: EventStore,
  writes: BatchWrites,
  checkpoint?: { name: string; position: bigint },
): Promise<FlushResult> {
  const out: FlushResult = {
    findingsAppended: 0,
    findingsAlreadyStored: 0,
    recordsAppended: 0,
    recordsAlreadyStored: 0,
  };
  const appends = writes.appends();
  if (appends.length === 0 && checkpoint === undefined) return out;
  const results = await appendToStreams(store, appends, checkpoint ? { checkpoint } : {});
  appends.forEach(({ events }, i) => {
    const r = results[i]!;
    if (events[0]!.type === ROUND_EVENT_TYPE) {
      out.recordsAppended += r.appended;
      out.recordsAlreadyStored += r.alreadyStored;
    } else {
      out.findingsAppended += r.appended;
      out.findingsAlreadyStored += r.alreadyStored;
    }
  });
  return out;
}
