import type { EventStore, RecordedEvent } from '@table-audit/eventstore';
import {
  DEFAULT_REPLAY_OPTIONS,
  GAME_MODULES,
  type Finding,
  type ReplayOptions,
  type TableEvent,
  type TableFold,
} from '@table-audit/rules';
import { findingStream, FINDING_EVENT_TYPE, tableStream } from './streams.ts';
import { declaredGame, TableFolds, toTableEvent } from './tables.ts';

export interface ReplayStats {
  /** every stored event read, the service's own findings and other streams included */
  events: number;
  /** events of table streams, replayed */
  tableEvents: number;
  rounds: number;
  findingsAppended: number;
  findingsAlreadyStored: number;
  notDerived: number;
  /** table events no game module could judge (no TableOpened before them, or an unknown game) */
  unjudgedEvents: number;
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

/**
 * The replay service: reads the store in global order from its durable checkpoint, replays every table, and
 * appends findings to `findings-<table>`. Findings have deterministic ids and the store is idempotent by id, so a
 * re-run appends nothing new. The checkpoint is saved only after the findings of the events before it are
 * durable; after a restart each table's state is rebuilt from its own stream up to the checkpoint.
 */
export class ReplayService {
  private readonly tables: TableFolds;
  private readonly name: string;
  private resumeFrom: bigint | null = null;
  readonly stats: ReplayStats = {
    events: 0,
    tableEvents: 0,
    rounds: 0,
    findingsAppended: 0,
    findingsAlreadyStored: 0,
    notDerived: 0,
    unjudgedEvents: 0,
    lastPosition: null,
  };

  constructor(private readonly o: ReplayServiceOptions) {
    this.name = o.checkpoint ?? 'replay';
    this.tables = new TableFolds(o.replay ?? DEFAULT_REPLAY_OPTIONS);
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
    if ((this.o.replay ?? DEFAULT_REPLAY_OPTIONS).collusion.enabled !== false)
      for (const m of GAME_MODULES) m.warm?.();
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
    const e = toTableEvent(stored);
    if (!e) return;
    this.stats.tableEvents++;
    const replayer = await this.replayerFor(e, stored.position);
    if (!replayer) {
      this.stats.unjudgedEvents++;
      return;
    }
    for (const round of replayer.apply(e)) {
      this.stats.rounds++;
      if (round.notDerived && round.notDerived.code !== 'voided') this.stats.notDerived++;
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

  /**
   * The table's fold, made by the module of the game its TableOpened declares; after a restart, rebuilt from the
   * table's stream up to the checkpoint. Null when no module knows the table's game (counted, not judged).
   */
  private async replayerFor(e: TableEvent, position: bigint): Promise<TableFold | null> {
    const tableId = e.data.header.tableId;
    const known = this.tables.get(tableId);
    if (known) return known;
    let game = declaredGame(e);
    const restarted = this.resumeFrom !== null && position > this.resumeFrom;
    const earlier: TableEvent[] = [];
    if (game === null || restarted) {
      // events at or before the checkpoint were replayed before the restart, and their findings are stored
      for await (const stored of this.o.store.readStream(tableStream(tableId))) {
        if (stored.position >= position || (this.resumeFrom !== null && stored.position > this.resumeFrom))
          break;
        const event = toTableEvent(stored);
        if (!event) continue;
        game ??= declaredGame(event);
        if (restarted) earlier.push(event);
      }
    }
    const fold = this.tables.open(tableId, game);
    if (fold) for (const event of earlier) fold.apply(event);
    return fold;
  }

  /** Table-level findings over everything replayed so far (collusion over the whole history), appended too. */
  async finish(): Promise<Finding[]> {
    const out: Finding[] = [];
    for (const t of this.tables.values()) {
      const end = t.finish();
      out.push(...end.units.flatMap((r) => r.findings), ...end.findings);
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
