import { linkBrokenBecause, type EventStore, type RecordedEvent } from '@table-audit/eventstore';
import {
  DEFAULT_REPLAY_OPTIONS,
  type DerivedUnit,
  type Finding,
  type ReplayOptions,
  type TableEvent,
  type TableFold,
} from '@table-audit/rules';
import { ROUND_EVENT_TYPE, roundStream, tableOfStream, tableStream } from './streams.ts';
import { TableFolds, toTableEvent } from './tables.ts';

export class RoundNotFound extends Error {
  override readonly name = 'RoundNotFound';
}

/** The first event of a stream, read in order from its first event, that does not follow the one before it. */
export interface BrokenLink {
  readonly stream: string;
  readonly revision: number;
  readonly eventId: string;
  /** linkBrokenBecause's reason */
  readonly reason: string;
}

/**
 * Why `stored` does not follow `previous` in its stream (undefined: `stored` is the first event read of a stream
 * read from its first event, revision 0), or null: the replay's own check (linkBrokenBecause, the hash recomputed from
 * the bytes as read), with where it failed.
 */
export function brokenLink(
  stored: RecordedEvent,
  previous: { readonly revision: number; readonly hash: string } | undefined,
): BrokenLink | null {
  const reason = linkBrokenBecause(stored, previous, true);
  return reason === null
    ? null
    : { stream: stored.stream, revision: stored.revision, eventId: stored.eventId, reason };
}

/**
 * A round not explained because its table's hash chain breaks at or before the last event its answer reads: the
 * answer would rest on events that are not what was recorded. Names the first broken link among the events read
 * (stream, revision, event id, why) as `table-audit verify` names it.
 */
export class RoundNotVerified extends Error {
  override readonly name = 'RoundNotVerified';
  constructor(
    readonly roundId: string,
    readonly tableId: string,
    readonly broken: BrokenLink,
  ) {
    super(
      `round "${roundId}" of table ${tableId} is not explained: its table's stored record failed verification at ` +
        `stream "${broken.stream}" revision ${broken.revision} (event ${broken.eventId}): ${broken.reason}. The ` +
        `explanation reads that event or events after it, and nothing from there on is derived, since it is not ` +
        `what was recorded; check the store with table-audit verify --stream ${broken.stream}`,
    );
  }
}

/** A disputed round, rebuilt from the store alone: its explanation as data (JSON) and as text for people. */
export interface RoundExplanation {
  readonly roundId: string;
  readonly tableId: string;
  readonly json: object;
  readonly text: string;
  /**
   * How the explanation was made, for people (the API sends it as a header, not in the body): the table folded
   * from its first event, or the fold resumed from the start state of the round's record (its stream and revision).
   * Absent: the table folded from its first event.
   */
  readonly derivedFrom?: string;
}

/** What explainRound may be told besides the replay options. */
export interface ExplainOptions {
  /** each finding of the explanation as shown (e.g. services/replay's storedForm); default: as the fold made it */
  readonly findingsAs?: (f: Finding) => Finding;
  /** the round's table when the caller knows it (the API's index): spares reading the store to find it */
  readonly tableId?: string;
}

/**
 * Runs `answer` on the round's table: the one the caller knows (the API's index), else the one the round's record
 * names (the records the replay wrote, one a round: far fewer to read than the events), else the stream of the
 * first event naming the round (tableOfRound). A record is only a hint: when `answer` does not find the round in
 * the table it names (RoundNotFound), the events are searched.
 */
export async function inRoundTable<T>(
  store: EventStore,
  roundId: string,
  known: string | undefined,
  answer: (tableId: string) => Promise<T>,
): Promise<T> {
  if (known !== undefined) return answer(known);
  const hinted = await tableOfRoundRecord(store, roundId);
  let notThere: RoundNotFound | null = null;
  if (hinted !== null)
    try {
      return await answer(hinted);
    } catch (e) {
      if (!(e instanceof RoundNotFound)) throw e;
      notThere = e;
    }
  const found = await tableOfRound(store, roundId);
  if (found === hinted && notThere) throw notThere;
  return answer(found);
}

/** The table the round's record names (RoundDerived in `rounds-<table>`), or null: no record names the round. */
export async function tableOfRoundRecord(store: EventStore, roundId: string): Promise<string | null> {
  const prefix = roundStream('');
  for await (const e of store.readAll({ streams: (s) => s.startsWith(prefix) })) {
    if (e.type !== ROUND_EVENT_TYPE) continue;
    const d = e.data as { roundId?: unknown; tableId?: unknown };
    if (d.roundId === roundId && typeof d.tableId === 'string' && roundStream(d.tableId) === e.stream)
      return d.tableId;
  }
  return null;
}

/**
 * Reads a table's stream from its first event, every link checked as the replay checks it (RoundNotVerified for
 * `roundId` at the first that does not follow), giving each table event and its revision to `each` while it
 * answers true.
 */
export async function readTableChecked(
  store: EventStore,
  roundId: string,
  tableId: string,
  each: (e: TableEvent, revision: number) => boolean,
): Promise<void> {
  // the head kept updated in place: no object per event
  let previous: { revision: number; hash: string } | undefined;
  for await (const stored of store.readStream(tableStream(tableId))) {
    const broken = brokenLink(stored, previous);
    if (broken !== null) throw new RoundNotVerified(roundId, tableId, broken);
    if (previous === undefined) previous = { revision: stored.revision, hash: stored.hash };
    else {
      previous.revision = stored.revision;
      previous.hash = stored.hash;
    }
    const e = toTableEvent(stored);
    if (e && !each(e, stored.revision)) return;
  }
}

/** A round rebuilt from its table's stream (rebuildRound). */
export interface RebuiltRound {
  /** the table's fold, as it stood after the last event read */
  readonly fold: TableFold;
  readonly unit: DerivedUnit;
  /** the findings about the round judged in the round after it (a Progressive bet not carried over) */
  readonly later: Finding[];
  /** the revision of the last table event read, and how many were read */
  readonly lastRevision: number;
  readonly eventsRead: number;
}

/**
 * Folds a table from its first event, every link checked (readTableChecked), up to the event that completes the
 * round after `roundId` (to the stream's end when the round is not completed), keeping the round's unit and the
 * findings about it judged later. RoundNotFound when the table does not complete the round.
 */
export async function rebuildRound(
  store: EventStore,
  roundId: string,
  tableId: string,
  options: ReplayOptions,
  onEvent?: (eventsRead: number) => void,
): Promise<RebuiltRound> {
  const tables = new TableFolds(options);
  let target: DerivedUnit | null = null;
  const later: Finding[] = [];
  let roundsAfter = 0;
  let lastRevision = -1;
  let eventsRead = 0;
  await readTableChecked(store, roundId, tableId, (e, revision) => {
    onEvent?.(++eventsRead);
    lastRevision = revision;
    for (const r of tables.apply(e) ?? []) {
      if (r.roundId === roundId) target = r;
      else if (target) {
        roundsAfter++;
        later.push(...r.findings.filter((f) => f.roundId === roundId)); // cross-round checks judged later
      }
    }
    return !(target && roundsAfter >= 1);
  });
  const fold = tables.get(tableId);
  if (!target && fold) target = fold.finish().units.find((r) => r.roundId === roundId) ?? null;
  const unjudged = tables.unjudged.get(tableId);
  if (!target || !fold)
    throw new RoundNotFound(
      `round "${roundId}" of table ${tableId} could not be rebuilt${unjudged ? `: ${unjudged.reason}` : ''}`,
    );
  return { fold, unit: target, later, lastRevision, eventsRead };
}

/** The table of a round: the stream of the first event, in stored order, whose header names it. */
export async function tableOfRound(store: EventStore, roundId: string): Promise<string> {
  for await (const e of store.readAll()) {
    const ev = toTableEvent(e);
    // an event whose data cannot be read has no header: not the round's (the fold's link check names it)
    if (ev && (ev.data.header as { roundId?: unknown } | undefined)?.roundId === roundId)
      return tableOfStream(e.stream);
  }
  throw new RoundNotFound(`no event of round "${roundId}" is in the store`);
}

/**
 * Rebuilds a round from the event store alone and explains it with its game's module: every event, every rule
 * applied with its article, expected beside declared, and the findings about it (those judged in the next round,
 * such as a Progressive bet not carried over, included). `options.alternatives`: interpretation ids read the
 * alternative way (e.g. H1 for a 2008 round).
 *
 * The table's stream is read from its first event up to the event that completes the round after the disputed one
 * (to its end when the round is not completed), and every link read is checked as the replay checks it: a round is
 * explained only when every event read for its answer follows the one before it; else RoundNotVerified names the
 * first that does not. The table is the one the caller names (`explain.tableId`), else the one the round's record
 * names when the round is found there, else the stream of the first event (in stored order) naming the round
 * (inRoundTable).
 */
export async function explainRound(
  store: EventStore,
  roundId: string,
  options: ReplayOptions = DEFAULT_REPLAY_OPTIONS,
  explain: ExplainOptions = {},
): Promise<RoundExplanation> {
  return inRoundTable(store, roundId, explain.tableId, (tableId) =>
    explainIn(store, roundId, tableId, options, explain),
  );
}

async function explainIn(
  store: EventStore,
  roundId: string,
  tableId: string,
  options: ReplayOptions,
  explain: ExplainOptions,
): Promise<RoundExplanation> {
  const { fold, unit: target, later } = await rebuildRound(store, roundId, tableId, options);
  const as = explain.findingsAs;
  const { json, text } = as
    ? fold.explain({ ...target, findings: target.findings.map(as) }, later.map(as))
    : fold.explain(target, later);
  return { roundId, tableId, json, text };
}
