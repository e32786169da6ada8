import { createHash } from 'node:crypto';
import { EventIdConflict, type EventData, type EventStore } from '@table-audit/eventstore';
import type { F3cpEvent } from '@table-audit/schemas/events';
import { meaningProblems } from './validate.ts';

/** Where an input came from, precisely enough to find it again. */
export type InputSource =
  | { kind: 'kafka'; topic: string; partition: number; offset: string }
  | { kind: 'file'; path: string; block: number; index: number }
  | { kind: 'in-process'; producer: string; index: number };

/** One input: a decoded event, or bytes that could not be decoded and why. */
export type IngestInput =
  | { source: InputSource; event: F3cpEvent; raw?: Uint8Array }
  | { source: InputSource; error: string; raw: Uint8Array | null };

export interface IngestResult {
  accepted: number;
  alreadyStored: number;
  rejected: number;
}

export const REJECTS_STREAM = 'ingest-rejects';
export const REJECT_EVENT_TYPE = 'InputRejected';

const sourceText = (s: InputSource): string =>
  s.kind === 'kafka'
    ? `kafka ${s.topic}[${s.partition}]@${s.offset}`
    : s.kind === 'file'
      ? `file ${s.path} block ${s.block} record ${s.index}`
      : `${s.producer} #${s.index}`;

/**
 * Validates and appends a batch of inputs: good events to their table's stream (idempotent by event id, so a
 * redelivery is stored once), every bad one to `ingest-rejects` with its raw bytes, source and reason. The
 * returned promise resolves only when everything is durable: only then may a Kafka offset be committed.
 */
export class IngestPipeline {
  private readonly knownTables = new Set<string>();
  readonly totals: IngestResult & { byReason: Map<string, number> } = {
    accepted: 0,
    alreadyStored: 0,
    rejected: 0,
    byReason: new Map(),
  };

  constructor(
    private readonly store: EventStore,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Appends a table's batch. An event id already stored with other content (a source re-using ids) fails the
   * batch: then each event goes alone, and only the conflicting ones become rejects.
   */
  private async appendTable(
    tableId: string,
    events: EventData[],
    reject: (e: EventData, why: string) => void,
  ) {
    try {
      return [await this.store.append(`table-${tableId}`, events)];
    } catch (err) {
      if (!(err instanceof EventIdConflict)) throw err;
      const results = [];
      for (const e of events) {
        try {
          results.push(await this.store.append(`table-${tableId}`, [e]));
        } catch (one) {
          if (!(one instanceof EventIdConflict)) throw one;
          reject(
            e,
            `event id ${e.eventId} is already stored with different ${one.difference} (in ${one.storedStream}): a source must not re-use event ids`,
          );
        }
      }
      return results;
    }
  }

  /** Tables opened before this process started, so their events are not rejected as unknown. */
  async loadKnownTables(): Promise<void> {
    for await (const e of this.store.readAll())
      if (e.type === 'TableOpened')
        this.knownTables.add((e.data as { header: { tableId: string } }).header.tableId);
  }

  async submit(inputs: readonly IngestInput[]): Promise<IngestResult> {
    const byTable = new Map<string, EventData[]>();
    const sources = new Map<string, IngestInput>();
    const rejects: EventData[] = [];
    const reject = (input: IngestInput, reason: string) => {
      const raw = input.raw ?? null;
      const key = reason.split(':')[0]!.slice(0, 60);
      this.totals.byReason.set(key, (this.totals.byReason.get(key) ?? 0) + 1);
      rejects.push({
        // the same bad input redelivered is the same reject: its id comes from where it came from and its bytes
        eventId: createHash('sha256')
          .update(sourceText(input.source))
          .update(raw ?? new Uint8Array())
          .digest('hex')
          .slice(0, 32),
        type: REJECT_EVENT_TYPE,
        data: {
          source: { ...input.source },
          sourceText: sourceText(input.source),
          reason,
          rawBase64: raw ? Buffer.from(raw).toString('base64') : null,
          decoded: 'event' in input ? input.event : null,
        },
      });
    };
    for (const input of inputs) {
      if ('error' in input) {
        reject(input, input.error);
        continue;
      }
      const e = input.event;
      const tableId = e.data.header.tableId;
      const known =
        this.knownTables.has(tableId) ||
        (byTable.get(tableId)?.some((x) => x.type === 'TableOpened') ?? false);
      const problems = meaningProblems(e, known);
      if (problems.length) {
        reject(input, `invalid ${e.type}: ${problems.join('; ')}`);
        continue;
      }
      let list = byTable.get(tableId);
      if (!list) byTable.set(tableId, (list = []));
      // when and from where it arrived is metadata: a redelivery must carry identical data to be recognised
      list.push({
        eventId: e.data.header.eventId,
        type: e.type,
        data: e.data,
        metadata: { receivedAt: this.now(), source: sourceText(input.source) },
      });
      sources.set(e.data.header.eventId, input);
    }
    const result: IngestResult = { accepted: 0, alreadyStored: 0, rejected: 0 };
    for (const [tableId, events] of byTable) {
      for (const r of await this.appendTable(tableId, events, (e, why) =>
        reject(sources.get(e.eventId)!, why),
      )) {
        result.accepted += r.appended;
        result.alreadyStored += r.alreadyStored;
      }
      if (events.some((x) => x.type === 'TableOpened')) this.knownTables.add(tableId);
    }
    if (rejects.length) {
      const r = await this.store.append(REJECTS_STREAM, rejects);
      result.rejected += r.appended + r.alreadyStored;
    }
    this.totals.accepted += result.accepted;
    this.totals.alreadyStored += result.alreadyStored;
    this.totals.rejected += result.rejected;
    return result;
  }
}
