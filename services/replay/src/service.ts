import type { EventStore, RecordedEvent } from '@table-audit/eventstore';
import { F3CP_EVENT_TYPES, type F3cpEvent, type F3cpEventType } from '@table-audit/schemas/events';
import { warmCollusionTables } from './collusion.ts';
import type { Finding } from './finding.ts';
import { findingStream, FINDING_EVENT_TYPE, isTableStream, tableStream } from './streams.ts';
import { DEFAULT_REPLAY_OPTIONS, TableReplayer, type ReplayOptions } from './table-replayer.ts';

const EVENT_TYPES = new Set<string>(F3CP_EVENT_TYPES);

export interface ReplayStats {
  /** every stored event read, the service's own findings and other streams included */
  events: number;
  /** events of table streams, replayed */
  tableEvents: number;
  rounds: number;
  findingsAppended: number;
  findingsAlreadyStored: number;
  notDerived: number;
  lastPosition: bigint | null;
}

export interface ReplayServiceOptions {
  store: EventStore;
  checkpoint?: string;
  replay?: ReplayOptions;
  /** called for each finding once it is durable (live dashboards, alerting); `event` is the event that completed it */
  onFinding?: (finding: Finding, event: RecordedEvent | null) => void;
  /** save the checkpoint after at most this many events */
  checkpointEvery?: number;
}

/** A table event as stored by ingest: the stream `table-<id>`, the Avro record name as type, the record as data. */
export function toF3cpEvent(e: RecordedEvent): F3cpEvent | null {
  if (!isTableStream(e.stream) || !EVENT_TYPES.has(e.type)) return null;
  return { type: e.type as F3cpEventType, data: e.data } as F3cpEvent;
}

/**
 * The replay service: reads the store in global order from its durable checkpoint, replays every table, and
 * appends findings to `findings-<table>`. Findings have deterministic ids and the store is idempotent by id, so a
 * re-run appends nothing new. The checkpoint is saved only after the findings of the events before it are
 * durable; after a restart each table's state is rebuilt from its own stream up to the checkpoint.
 */
export class ReplayService {
  private readonly tables = new Map<string, TableReplayer>();
  private readonly name: string;
  private resumeFrom: bigint | null = null;
  readonly stats: ReplayStats = {
    events: 0,
    tableEvents: 0,
    rounds: 0,
    findingsAppended: 0,
    findingsAlreadyStored: 0,
    notDerived: 0,
    lastPosition: null,
  };

  constructor(private readonly o: ReplayServiceOptions) {
    this.name = o.checkpoint ?? 'replay';
  }

  /** Replays everything stored after the checkpoint, then returns. */
  async catchUp(): Promise<ReplayStats> {
    this.resumeFrom = await this.o.store.loadCheckpoint(this.name);
    const batch: RecordedEvent[] = [];
    for await (const e of this.o.store.readAll(
      this.resumeFrom === null ? {} : { fromPosition: this.resumeFrom },
    )) {
      batch.push(e);
      if (batch.length >= (this.o.checkpointEvery ?? 5_000)) await this.process(batch.splice(0));
    }
    await this.process(batch);
    return this.stats;
  }

  /**
   * Catches up, then follows new events until `signal` aborts. Findings and the checkpoint are flushed together
   * at most `flushMs` after an event (or every `checkpointEvery` events), not once per event.
   */
  async live(signal: AbortSignal, flushMs = 50): Promise<ReplayStats> {
    if ((this.o.replay ?? DEFAULT_REPLAY_OPTIONS).collusion.enabled !== false) warmCollusionTables();
    await this.catchUp();
    const sub = this.o.store.subscribeToAll(
      this.stats.lastPosition === null ? {} : { fromPosition: this.stats.lastPosition },
    );
    const stop = () => void sub.close();
    signal.addEventListener('abort', stop, { once: true });
    const timer = setInterval(() => void this.flush().catch(() => undefined), flushMs);
    try {
      for await (const e of sub) {
        await this.apply(e);
        if (this.pendingEvents >= (this.o.checkpointEvery ?? 5_000)) await this.flush();
        if (signal.aborted) break;
      }
    } finally {
      clearInterval(timer);
      signal.removeEventListener('abort', stop);
      await sub.close();
      await this.flush();
    }
    return this.stats;
  }

  private pending: { finding: Finding; event: RecordedEvent | null }[] = [];
  private pendingEvents = 0;
  private pendingPosition: bigint | null = null;
  private flushing: Promise<void> = Promise.resolve();

  private async process(events: RecordedEvent[]): Promise<void> {
    for (const e of events) await this.apply(e);
    await this.flush();
  }

  /** Replays one stored event in memory; its findings wait for the next flush. */
  private async apply(stored: RecordedEvent): Promise<void> {
    this.stats.events++;
    this.pendingEvents++;
    this.pendingPosition = stored.position;
    const e = toF3cpEvent(stored);
    if (!e) return;
    this.stats.tableEvents++;
    const replayer = await this.replayerFor(e.data.header.tableId, stored.position);
    for (const round of replayer.apply(e)) {
      this.stats.rounds++;
      if (round.notDerived && round.notDerived !== 'the round was voided') this.stats.notDerived++;
      for (const f of round.findings) this.pending.push({ finding: f, event: stored });
    }
  }

  /** Appends the pending findings, then saves the checkpoint: in that order, so a crash loses nothing. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      const found = this.pending.splice(0);
      const position = this.pendingPosition;
      this.pendingEvents = 0;
      await this.appendFindings(found);
      if (position !== null && position !== this.stats.lastPosition) {
        await this.o.store.saveCheckpoint(this.name, position);
        this.stats.lastPosition = position;
      }
    });
    return this.flushing;
  }

  private async appendFindings(found: { finding: Finding; event: RecordedEvent | null }[]): Promise<void> {
    const byTable = new Map<string, typeof found>();
    for (const x of found) byTable.set(x.finding.tableId, [...(byTable.get(x.finding.tableId) ?? []), x]);
    for (const [tableId, list] of byTable) {
      const result = await this.o.store.append(
        findingStream(tableId),
        list.map(({ finding }) => ({
          eventId: finding.findingId,
          type: FINDING_EVENT_TYPE,
          data: storable(finding),
        })),
      );
      this.stats.findingsAppended += result.appended;
      this.stats.findingsAlreadyStored += result.alreadyStored;
      if (this.o.onFinding) for (const x of list) this.o.onFinding(x.finding, x.event);
    }
  }

  /** The table's replayer; after a restart, rebuilt from the table's stream up to the checkpoint. */
  private async replayerFor(tableId: string, position: bigint): Promise<TableReplayer> {
    let t = this.tables.get(tableId);
    if (t) return t;
    t = new TableReplayer(tableId, this.o.replay ?? DEFAULT_REPLAY_OPTIONS);
    this.tables.set(tableId, t);
    if (this.resumeFrom !== null && position > this.resumeFrom) {
      // events at or before the checkpoint were replayed before the restart, and their findings are stored
      for await (const e of this.o.store.readStream(tableStream(tableId))) {
        if (e.position > this.resumeFrom) break;
        const event = toF3cpEvent(e);
        if (event) t.apply(event);
      }
    }
    return t;
  }

  /** Table-level findings over everything replayed so far (collusion over the whole history), appended too. */
  async finish(): Promise<Finding[]> {
    const out: Finding[] = [];
    for (const t of this.tables.values()) {
      const end = t.finish();
      out.push(...end.rounds.flatMap((r) => r.findings), ...end.findings);
    }
    this.pending.push(...out.map((finding) => ({ finding, event: null })));
    await this.flush();
    return out;
  }
}

/** The store takes JSON with safe integers only: a p-value is kept as text. */
function storable(f: Finding): Finding {
  if (!f.details) return f;
  const details = Object.fromEntries(
    Object.entries(f.details).map(([k, v]) => [
      k,
      typeof v === 'number' && !Number.isSafeInteger(v) ? String(v) : v,
    ]),
  );
  return { ...f, details };
}
