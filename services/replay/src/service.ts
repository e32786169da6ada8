import {
  linkBrokenBecause,
  runProcessor,
  type EventStore,
  type Processor,
  type ProcessorRunOptions,
  type RecordedEvent,
} from '@table-audit/eventstore';
import {
  DEFAULT_REPLAY_OPTIONS,
  GAME_MODULES,
  type DerivedUnit,
  type Finding,
  type ReplayOptions,
  type TableEvent,
  type TableFold,
} from '@table-audit/rules';
import { chainBrokenFinding } from './integrity.ts';
import { FieldGaps, type ChecksNotRun } from './field-gaps.ts';
import { isTableStream, tableStream } from './streams.ts';
import { applySafely, declaredGame, TableFolds, toTableEvent } from './tables.ts';
import { BatchWrites, flushWrites } from './writes.ts';
import { readForShard, shardCheckpoint, type Shard } from './shards.ts';

/**
 * Events per replay batch by default. Since a batch's writes and checkpoint are one transaction, a smaller batch
 * costs little in commits, and it bounds what is alive at once: read at 40 tables × 50 rounds (113,323 events),
 * batches of 1,000 peaked at 223–235 MiB and used less CPU than batches of 5,000 (302–320 MiB), whose events
 * outlive the young generation and are collected as old garbage (docs/scaling.md, replay).
 */
export const DEFAULT_CHECKPOINT_EVERY = 1_000;

/**
 * Catch-up writes at most this many events apart by default: the batches read in between leave their findings,
 * round records and checkpoint to the next write (BatchContext.more), so a bulk replay commits once per 8,000
 * events, not once per batch (a commit is an fsync), while the events themselves are still read and released
 * 1,000 at a time. What waits is only the writes: a round record or a finding per ~56 events.
 */
export const DEFAULT_WRITE_EVERY = 8_000;

/** How many rounds not derived the stats keep with their reasons (all are counted). */
export const NOT_DERIVED_KEPT = 100;

/** `table-<id>`: where the table id starts in a table stream's name. */
const TABLE_ID_AT = tableStream('').length;

/** The whole store as one shard: every table stream. */
const ALL_TABLES: Shard = { index: 0, count: 1 };

export interface ReplayStats {
  /** every stored event handed to the replay: the events of table streams (a shard: of its tables) */
  events: number;
  /** events of table streams, replayed */
  tableEvents: number;
  rounds: number;
  findingsAppended: number;
  findingsAlreadyStored: number;
  /** RoundDerived records appended to `rounds-<table>`, and those already stored (a re-run) */
  roundRecordsAppended: number;
  roundRecordsAlreadyStored: number;
  /** rounds their game module gave no record (no events to place them by, or the fold failed on an event) */
  roundsWithoutRecord: number;
  notDerived: number;
  /** the first NOT_DERIVED_KEPT of them (voided rounds aside), with why */
  notDerivedRounds: { tableId: string; roundId: string; code: string; reason: string }[];
  /** rounds on which some checks could not run (a field they need missing from the writer's schema) */
  checksNotRun: number;
  /** the first NOT_DERIVED_KEPT of them: which checks, which round, why */
  checksNotRunRounds: ChecksNotRun[];
  /** table events no game module could judge (no TableOpened before them, or an unknown game) */
  unjudgedEvents: number;
  /** tables stopped because their stored chain failed verification (a STORE.CHAIN_BROKEN finding each) */
  stoppedTables: number;
  /** table events not replayed because their table was stopped */
  eventsNotReplayed: number;
  /** set when the saved checkpoint was not the signed one, and the replay resumed from the signed one */
  checkpointDistrusted: { saved: bigint | null; resumedFrom: bigint | null } | null;
  lastPosition: bigint | null;
}

/** Figures before anything is replayed. */
export const emptyReplayStats = (): ReplayStats => ({
  events: 0,
  tableEvents: 0,
  rounds: 0,
  findingsAppended: 0,
  findingsAlreadyStored: 0,
  roundRecordsAppended: 0,
  roundRecordsAlreadyStored: 0,
  roundsWithoutRecord: 0,
  notDerived: 0,
  notDerivedRounds: [],
  checksNotRun: 0,
  checksNotRunRounds: [],
  unjudgedEvents: 0,
  stoppedTables: 0,
  eventsNotReplayed: 0,
  checkpointDistrusted: null,
  lastPosition: null,
});

export interface ReplayServiceOptions {
  store: EventStore;
  checkpoint?: string;
  /**
   * The folds' options. `startStates` defaults to true here (false turns it off): the replay writes each round's
   * start state into its record (RoundDerived.startState), so that the API can derive one round again from its own
   * events (services/api's round-derivations.ts).
   */
  replay?: ReplayOptions;
  /** called for each finding once it is durable (live dashboards, alerting); `event` is the event that completed it */
  onFinding?: (finding: Finding, event: RecordedEvent | null) => void;
  /**
   * Events per batch read: live, each batch's writes and its checkpoint are one transaction. Default
   * DEFAULT_CHECKPOINT_EVERY.
   */
  checkpointEvery?: number;
  /**
   * Catch-up: the writes (findings, round records, the checkpoint: one transaction) are at most this many events
   * apart; batches in between leave theirs to the next. Default DEFAULT_WRITE_EVERY; at most checkpointEvery means
   * a write per batch.
   */
  writeEvery?: number;
  /**
   * Replay only the tables of one shard (shardOf(tableId, count) === index), under its own checkpoint
   * (`replay/shard-<index>-of-<count>` unless `checkpoint` is given); the other tables' events only advance it.
   */
  shard?: Shard;
  /**
   * The checkpoint as last signed outside the store (the last anchor's value; undefined: no anchor covers it).
   * When the saved checkpoint differs, the replay resumes from the earlier of the two: moving the checkpoint
   * forward in the store then hides no event from it (re-replaying is idempotent).
   */
  signedCheckpoint?: () => Promise<bigint | null | undefined>;
  /**
   * Told once everything stored when the run started is replayed (before following live), with the checkpoint
   * then: health and metrics (observability), progress.
   */
  onCaughtUp?: (position: bigint | null) => void;
}

/**
 * The replay service: a processor (`runProcessor` of @table-audit/eventstore) that reads the store in global order
 * from its durable checkpoint, replays every table, and appends findings to `findings-<table>` and one RoundDerived
 * record per round to `rounds-<table>`. Each batch's writes are gathered (BatchWrites) and written with its
 * checkpoint in one appendMany (one transaction on SQLite; on EventStoreDB the checkpoint last); they have deterministic ids and the store is idempotent by id, so a batch replayed again
 * after a crash, or a re-run, appends nothing new. After a restart each table's
 * state is rebuilt from its own stream up to the checkpoint.
 */
export class ReplayService {
  private readonly tables: TableFolds;
  private readonly fieldGaps = new FieldGaps();
  /** the game each table replayed so far declared */
  private readonly games = new Map<string, string>();
  private readonly name: string;
  private resumeFrom: bigint | null = null;
  /** Set when a run failed: the tables' state may then be ahead of the checkpoint (a batch handled, not saved). */
  private failed: { cause: unknown } | null = null;
  readonly stats: ReplayStats = emptyReplayStats();
  /** each table stream's last event whose link was checked */
  private readonly chainHeads = new Map<string, { revision: number; hash: string }>();
  /** tables stopped on a broken link */
  private readonly stopped = new Set<string>();
  /** catch-up: the writes of batches handled and not yet written, with the checkpoint that covers them */
  private pending: {
    writes: BatchWrites;
    checkpoint: { name: string; position: bigint } | null;
    events: number;
  } = { writes: new BatchWrites(), checkpoint: null, events: 0 };

  constructor(private readonly o: ReplayServiceOptions) {
    this.name = o.checkpoint ?? (o.shard ? shardCheckpoint(o.shard) : 'replay');
    const replay = o.replay ?? DEFAULT_REPLAY_OPTIONS;
    this.tables = new TableFolds({ ...replay, startStates: replay.startStates ?? true });
  }

  /** Replays everything stored after the checkpoint, then returns. */
  async catchUp(): Promise<ReplayStats> {
    await this.run({});
    return this.stats;
  }

  /**
   * Catches up, then follows new events until `signal` aborts. Findings and the checkpoint are flushed together
   * at most `flushMs` after an event (or every `checkpointEvery` events), not once per event.
   */
  async live(signal: AbortSignal, flushMs = 50): Promise<ReplayStats> {
    if ((this.o.replay ?? DEFAULT_REPLAY_OPTIONS).collusion.enabled !== false)
      for (const m of GAME_MODULES) m.warm?.();
    await this.run({ live: true, signal, flushMs });
    return this.stats;
  }

  private async run(options: ProcessorRunOptions): Promise<void> {
    if (this.failed !== null)
      throw new Error(
        `replay service "${this.name}" failed during an earlier run, so its tables may be ahead of its checkpoint: start a new ReplayService to resume`,
        { cause: this.failed.cause },
      );
    const shard = this.o.shard;
    const processor: Processor = {
      name: this.name,
      resumeFrom: (saved) => this.resumeFromSigned(saved),
      onStart: ({ checkpoint }) => void (this.resumeFrom = checkpoint),
      // the checkpoint is saved in the batch's own write (flushWrites: appendMany with its checkpoint)
      savesCheckpoint: true,
      handle: (batch, context) => this.handle(batch, context.checkpoint, context.more),
      flush: () => this.writePending(),
      ...(this.o.onCaughtUp ? { onCaughtUp: ({ position }) => this.o.onCaughtUp!(position) } : {}),
    };
    try {
      // the replay reads table streams only, a shard its own tables' (readForShard: the one place its read is
      // narrowed, in the store where it can: its own findings and round records are never read back)
      await runProcessor(readForShard(this.o.store, shard ?? ALL_TABLES), processor, {
        ...options,
        batchSize: this.o.checkpointEvery ?? DEFAULT_CHECKPOINT_EVERY,
      });
    } catch (err) {
      this.failed = { cause: err };
      throw err;
    }
  }

  private async resumeFromSigned(saved: bigint | null): Promise<bigint | null> {
    const signed = await this.o.signedCheckpoint?.();
    if (signed === undefined || signed === saved) return saved;
    // null is the beginning, the earliest of all
    const earlier = signed === null || saved === null ? null : saved < signed ? saved : signed;
    if (earlier !== saved) this.stats.checkpointDistrusted = { saved, resumedFrom: earlier };
    return earlier;
  }

  /**
   * Why a table stream's event does not follow the one before it, or null. Synchronous once the stream's head is
   * known (a promise per event would cost more than the check); the event before the first one read in a run is
   * fetched once.
   */
  private linkBroken(stored: RecordedEvent): string | null | Promise<string | null> {
    const head = this.chainHeads.get(stored.stream);
    if (head === undefined && stored.revision > 0)
      return (async () => {
        let previous: { revision: number; hash: string } | undefined;
        for await (const p of this.o.store.readStream(stored.stream, {
          fromRevision: stored.revision - 1,
          maxCount: 1,
        }))
          previous = p;
        return this.linkFrom(stored, previous);
      })();
    return this.linkFrom(stored, head);
  }

  private linkFrom(
    stored: RecordedEvent,
    previous: { revision: number; hash: string } | undefined,
  ): string | null {
    const reason = linkBrokenBecause(stored, previous, true);
    if (reason !== null) return reason;
    // the head kept is updated in place: no object per event
    const head = this.chainHeads.get(stored.stream);
    if (head === undefined)
      this.chainHeads.set(stored.stream, { revision: stored.revision, hash: stored.hash });
    else {
      head.revision = stored.revision;
      head.hash = stored.hash;
    }
    return null;
  }

  private stop(tableId: string, stored: RecordedEvent, reason: string, writes: BatchWrites): void {
    this.stopped.add(tableId);
    this.stats.stoppedTables++;
    writes.finding(chainBrokenFinding(tableId, stored, reason), stored);
  }

  /**
   * Replays a batch in memory, then writes its findings, its round records and its checkpoint together (one
   * transaction where the store allows it).
   */
  private async handle(
    batch: readonly RecordedEvent[],
    checkpoint: { name: string; position: bigint },
    more: boolean,
  ): Promise<void> {
    const writes = this.pending.writes;
    for (const stored of batch) {
      this.stats.events++;
      if (!isTableStream(stored.stream)) continue;
      const tableId = stored.stream.slice(TABLE_ID_AT);
      if (this.stopped.has(tableId)) {
        this.stats.eventsNotReplayed++;
        continue;
      }
      // every event of a table stream, of a known type or not, is a link of its chain
      let broken = this.linkBroken(stored);
      if (broken instanceof Promise) broken = await broken;
      if (broken !== null) {
        this.stop(tableId, stored, broken, writes);
        continue;
      }
      const e = toTableEvent(stored);
      if (!e) continue;
      this.stats.tableEvents++;
      // a table met before has its fold: no promise per event
      const replayer =
        this.tables.get(e.data.header.tableId) ?? (await this.replayerFor(e, stored.position, writes));
      if (this.stopped.has(tableId)) continue;
      if (!replayer) {
        this.stats.unjudgedEvents++;
        continue;
      }
      this.fieldGaps.note(stored, e, declaredGame(e) ?? this.games.get(e.data.header.tableId) ?? null);
      for (const round of applySafely(replayer, e)) {
        this.stats.rounds++;
        this.unitCompleted(round, writes);
        const notRun = this.fieldGaps.completed(round);
        if (notRun) {
          this.stats.checksNotRun++;
          if (this.stats.checksNotRunRounds.length < NOT_DERIVED_KEPT)
            this.stats.checksNotRunRounds.push(notRun);
        }
        if (round.notDerived && round.notDerived.code !== 'voided') {
          this.stats.notDerived++;
          if (this.stats.notDerivedRounds.length < NOT_DERIVED_KEPT)
            this.stats.notDerivedRounds.push({
              tableId: round.tableId,
              roundId: round.roundId,
              code: round.notDerived.code,
              reason: round.notDerived.message,
            });
        }
        for (const f of round.findings) writes.finding(f, stored);
      }
    }
    this.pending.checkpoint = checkpoint;
    this.pending.events += batch.length;
    if (!more || this.pending.events >= (this.o.writeEvery ?? DEFAULT_WRITE_EVERY)) await this.writePending();
  }

  /** Writes what the batches handled since the last write found, with the checkpoint of the last of them. */
  private async writePending(): Promise<void> {
    const { writes, checkpoint } = this.pending;
    if (checkpoint === null) return;
    await this.flush(writes, checkpoint);
    this.stats.lastPosition = checkpoint.position;
    this.pending = { writes: new BatchWrites(), checkpoint: null, events: 0 };
  }

  /**
   * A completed unit's record, if its game module made one, with the unit's start state when the fold gave one and
   * then, when the findings reported with the unit are not exactly the record's findingIds, their ids in order (a
   * record without a start state is written as before, with the same id).
   */
  private unitCompleted(unit: DerivedUnit, writes: BatchWrites): void {
    if (!unit.record) {
      this.stats.roundsWithoutRecord++;
      return;
    }
    if (typeof unit.startState !== 'string') {
      writes.record(unit.record);
      return;
    }
    const ids = unit.record.findingIds;
    const reported =
      unit.findings.length === ids.length && unit.findings.every((f, i) => f.findingId === ids[i]);
    writes.record({
      ...unit.record,
      startState: unit.startState,
      ...(reported ? {} : { reportedFindingIds: unit.findings.map((f) => f.findingId) }),
    });
  }

  /**
   * The one place a batch's writes go to the store (findings and round records of every table), with the
   * checkpoint that marks the batch done when there is one (not at finish: no event was read for those).
   */
  private async flush(writes: BatchWrites, checkpoint?: { name: string; position: bigint }): Promise<void> {
    if (writes.empty && checkpoint === undefined) return;
    const r = await flushWrites(this.o.store, writes, checkpoint);
    this.stats.findingsAppended += r.findingsAppended;
    this.stats.findingsAlreadyStored += r.findingsAlreadyStored;
    this.stats.roundRecordsAppended += r.recordsAppended;
    this.stats.roundRecordsAlreadyStored += r.recordsAlreadyStored;
    if (this.o.onFinding) for (const x of writes.findings) this.o.onFinding(x.finding, x.event);
  }

  /**
   * The table's fold, made by the module of the game its TableOpened declares; after a restart, rebuilt from the
   * table's stream up to the checkpoint. Null when no module knows the table's game (counted, not judged).
   */
  private async replayerFor(e: TableEvent, position: bigint, writes: BatchWrites): Promise<TableFold | null> {
    const tableId = e.data.header.tableId;
    const known = this.tables.get(tableId);
    if (known) return known;
    let game = declaredGame(e);
    const restarted = this.resumeFrom !== null && position > this.resumeFrom;
    const earlier: TableEvent[] = [];
    if (game === null || restarted) {
      // events at or before the checkpoint were replayed before the restart, and their findings are stored; their
      // chain is checked again as they are read, so a table is never rebuilt from a broken record
      let previous: { revision: number; hash: string } | undefined;
      for await (const stored of this.o.store.readStream(tableStream(tableId))) {
        if (stored.position >= position || (this.resumeFrom !== null && stored.position > this.resumeFrom))
          break;
        const broken = linkBrokenBecause(stored, previous, true);
        if (broken !== null) {
          this.stop(tableId, stored, broken, writes);
          return null;
        }
        previous = stored;
        const event = toTableEvent(stored);
        if (!event) continue;
        game ??= declaredGame(event);
        if (restarted) earlier.push(event);
      }
    }
    const fold = this.tables.open(tableId, game);
    if (game !== null) this.games.set(tableId, game);
    if (fold) for (const event of earlier) applySafely(fold, event);
    return fold;
  }

  /**
   * Closes every table's open round and judges the table-level findings over everything replayed so far
   * (collusion over the whole history); their findings and the closed rounds' records are appended too.
   */
  async finish(): Promise<Finding[]> {
    const writes = new BatchWrites();
    const out: Finding[] = [];
    for (const t of this.tables.values()) {
      // a stopped table's fold holds only what preceded the break; conduct over its history is not judged
      if (this.stopped.has(t.tableId)) continue;
      const end = t.finish();
      for (const unit of end.units) {
        this.stats.rounds++;
        this.unitCompleted(unit, writes);
      }
      out.push(...end.units.flatMap((r) => r.findings), ...end.findings);
    }
    for (const f of out) writes.finding(f, null);
    await this.flush(writes);
    return out;
  }
}
