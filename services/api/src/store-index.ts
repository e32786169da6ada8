/**
 * What the API must know about the event store to check a caller's scope before it reads anything: where each
 * round was played (table, casino, concessionaire, game, dealer), where its events begin and its latest record,
 * each finding and each alert's workflow state. Built by reading the store forwards from where it last stopped (one
 * query that returns nothing when nothing is new), so a request sees everything stored before it began. Kept in a
 * database of its own (index-db.ts): a file the API owns, read on from its checkpoint at the next start, or one in
 * memory, built from the whole store at every start. It is also a FindingsQuery adapter (the embedded one: the
 * findings filtered, ordered and counted in SQL; the ClickHouse table serves more).
 */
import type Database from 'better-sqlite3';
import type { EventStore, RecordedEvent } from '@table-audit/eventstore';
import type { Finding } from '@table-audit/rules';
import { isTableStream } from '@table-audit/schemas/streams';
import { ALERT_EVENT_TYPES, evolve, initialAlertState, type AlertEvent, type AlertState } from './alerts.ts';
import {
  type CountDimension,
  type Cursor,
  type FindingFilter,
  type FindingsPage,
  type FindingsQuery,
  type FindingView,
} from './findings-query.ts';
import {
  emptyIndex,
  INDEX_FORMAT,
  INDEX_MARKER,
  openIndexDb,
  readMarker,
  type IndexMarker,
} from './index-db.ts';

const FINDING_EVENT_TYPE = 'FindingRaised';

/** Values in byte order, null first (ClickHouse's ORDER BY on strings). */
const byteOrder = (a: string | null, b: string | null): number =>
  a === b ? 0 : a === null ? -1 : b === null ? 1 : Buffer.compare(Buffer.from(a), Buffer.from(b));

export interface TablePlace {
  readonly tableId: string;
  readonly casino: string;
  readonly concessionaire: string;
  readonly game: string | null;
}

export interface RoundPlace extends TablePlace {
  readonly roundId: string;
  readonly dealerId: string | null;
  /** the time of the round's first event, UTC ms */
  readonly startTime: number;
}

/**
 * What the API's first replay of a round needs to derive it from its own events instead of folding the table from
 * its start (round-derivations.ts): where the round's events begin in the table's stream, where its latest record
 * is, and the findings stored about it. The one place that says where a round starts: the index reads every event
 * in stored order, so the first event naming a round is the first it meets.
 */
export interface RoundResume {
  /** the revision, in the table's stream, of the first event (in stored order) whose header names the round */
  readonly firstRevision: number;
  /** the revision of the last event stored whose header names the round (so far) */
  readonly lastRevision: number;
  /** the round's latest record (RoundDerived in `rounds-<table>`): its stream and revision; null when none is stored */
  readonly record: { readonly stream: string; readonly revision: number } | null;
  /** an event of the round was stored after that record: the record may not cover it */
  readonly stale: boolean;
  /**
   * nothing about the round is judged with the round after it: the replay has stored that round's record (so its
   * findings too: the same write) or the round is the table's last, and every finding stored about the round is one
   * its record reports. A derivation may then stop at the event that completes the round, without reading the
   * round after it (which explainRound reads only for such findings).
   */
  readonly settled: boolean;
  /**
   * the findings the record names as reported with the round (its reportedFindingIds, else its findingIds), as
   * stored, in that order; one not stored is left out
   */
  readonly findings: readonly Finding[];
}

const ROUND_RECORD_TYPE = 'RoundDerived';

interface Header {
  tableId?: unknown;
  roundId?: unknown;
  casino?: unknown;
  concessionaire?: unknown;
  eventTime?: unknown;
}

/** A round's latest record, as its row keeps it. */
interface RoundRecord {
  record_stream: string;
  record_revision: number;
  record_position: number;
  reported: string;
}

/** A round as the index keeps it (the rounds table of index-db.ts): its place, and where it resumes from. */
interface RoundRow {
  round_id: string;
  table_id: string;
  casino: string;
  concessionaire: string;
  game: string | null;
  dealer_id: string | null;
  start_time: number;
  resume_table: string;
  ordinal: number;
  first_revision: number;
  last_revision: number;
  last_position: number;
  record_stream: string | null;
  record_revision: number | null;
  record_position: number | null;
  /** JSON list of the finding ids its record reports */
  reported: string;
}

interface TableRow {
  casino: string;
  concessionaire: string;
  game: string | null;
  /** how many of its rounds are indexed */
  rounds: number;
}

interface EventMark {
  readonly stream: string;
  readonly revision: number;
  readonly eventId: string;
  readonly hash: string;
  readonly position: number;
}

export interface StoreIndexOptions {
  /**
   * the index database: a file the API creates and owns (never the event store's file; an existing file that is not
   * an index of ours is refused and left as it is), or ':memory:' (the default: built anew at every start)
   */
  readonly path?: string;
  /** where the index says what it did at start (caught up, rebuilt and why); default: nowhere */
  readonly log?: (message: string) => void;
  /**
   * events taken in per transaction while reading the store; default 65,536 (a first build over 7 M events took 38 s
   * instead of 66 s with 4,096, under load: fewer commits, each round's row written fewer times)
   */
  readonly batchEvents?: number;
}

/** The streams the index keeps: tables, round records, findings, alerts (not the access records, nor others). */
const indexedStream = (s: string): boolean =>
  isTableStream(s) || s.startsWith('rounds-') || s.startsWith('findings-') || s.startsWith('alert-');

/**
 * A read this far behind the store's head (in positions) selects the indexed streams inside the store, leaving the
 * rest (mostly access records) unread and undecoded; a shorter one reads everything, as a selection has a cost of its
 * own per read (the selected stream ids, sent to SQLite at each page).
 */
const SELECT_STREAMS_FROM = 4096n;
/** A checkpoint that only passed events the index does not keep is saved when it is this far ahead, or at close. */
const SAVE_PASSED_EVERY = 4096n;
/** Prepared statements of findings queries kept (one per combination of filter fields used). */
const MAX_QUERY_STATEMENTS = 256;

const utf16Key = (s: string): Buffer => {
  const b = Buffer.from(s, 'utf16le');
  b.swap16(); // big-endian: byte order is code-unit order, JavaScript's string order
  return b;
};

const FINDINGS_FROM =
  'findings f LEFT JOIN rounds r ON r.round_id = f.round_id LEFT JOIN tables t ON t.table_id = f.table_id';
const VIEW_COLUMNS = 'f.data, f.handled, COALESCE(r.game, t.game) AS game, r.dealer_id';
const DIMENSION_SQL: Record<CountDimension, string> = {
  severity: 'f.severity',
  checkId: 'f.check_id',
  casino: 'f.casino',
  concessionaire: 'f.concessionaire',
  tableId: 'f.table_id',
  game: 'COALESCE(r.game, t.game)',
};

interface ViewRow {
  data: string;
  handled: number;
  game: string | null;
  dealer_id: string | null;
}

const toView = (row: ViewRow): FindingView => ({
  ...(JSON.parse(row.data) as Finding),
  handled: row.handled === 1,
  game: row.game,
  dealerId: row.dealer_id,
});

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** A store position as the index database keeps it (an integer SQLite and JavaScript both hold exactly). */
function positionNumber(p: bigint): number {
  const n = Number(p);
  if (!Number.isSafeInteger(n))
    throw new RangeError(`store position ${p} is beyond what the API index can keep`);
  return n;
}

export class StoreIndex implements FindingsQuery {
  readonly description: string;
  readonly #db: Database.Database;
  readonly #path: string;
  readonly #log: (message: string) => void;
  readonly #batchEvents: number;
  /** every table's place and round count: a few hundred rows, read at open */
  readonly #tables = new Map<string, TableRow>();
  /**
   * the workflow state of every alert someone acted on (people's actions: far fewer than findings), read at open:
   * the alert filters ask it of up to 100,000 alerts a request
   */
  readonly #alerts = new Map<string, AlertState>();
  #position: bigint | null;
  /** the checkpoint as saved in the database */
  #saved: bigint | null;
  #first: EventMark | null;
  #checked = false;
  #closed = false;
  #refreshing: Promise<void> | null = null;
  readonly #queries = new Map<string, Database.Statement>();
  readonly #s;

  constructor(
    private readonly store: EventStore,
    options: StoreIndexOptions = {},
  ) {
    this.#path = options.path ?? ':memory:';
    this.#log = options.log ?? (() => {});
    this.#batchEvents = options.batchEvents ?? 65_536;
    this.description =
      this.#path === ':memory:'
        ? 'the event store (indexed in memory)'
        : `the event store (indexed in ${this.#path})`;
    const { db, reformatted } = openIndexDb(this.#path);
    this.#db = db;
    if (reformatted !== null)
      this.#log(
        `API index ${this.#path}: format ${reformatted} is older than ${INDEX_FORMAT}; rebuilt from the store`,
      );
    const s = {
      marker: db.prepare(
        `UPDATE ${INDEX_MARKER} SET position = @position, first_stream = @first_stream,
         first_revision = @first_revision, first_event_id = @first_event_id, first_hash = @first_hash,
         first_position = @first_position, last_stream = @last_stream, last_revision = @last_revision,
         last_event_id = @last_event_id, last_hash = @last_hash, last_position = @last_position WHERE id = 1`,
      ),
      position: db.prepare(`UPDATE ${INDEX_MARKER} SET position = ? WHERE id = 1`),
      table: db.prepare(
        `INSERT INTO tables (table_id, casino, concessionaire, game, rounds) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (table_id) DO UPDATE SET casino = excluded.casino, concessionaire = excluded.concessionaire,
         game = excluded.game, rounds = excluded.rounds`,
      ),
      tables: db.prepare<[], TableRow & { table_id: string }>('SELECT * FROM tables'),
      round: db.prepare<[string], RoundRow>('SELECT * FROM rounds WHERE round_id = ?'),
      putRound: db.prepare(
        `INSERT OR REPLACE INTO rounds (round_id, table_id, casino, concessionaire, game, dealer_id, start_time,
         resume_table, ordinal, first_revision, last_revision, last_position, record_stream, record_revision,
         record_position, reported) VALUES (@round_id, @table_id, @casino, @concessionaire, @game, @dealer_id,
         @start_time, @resume_table, @ordinal, @first_revision, @last_revision, @last_position, @record_stream, @record_revision,
         @record_position, @reported)`,
      ),
      putRecord: db.prepare(
        `UPDATE rounds SET record_stream = @record_stream, record_revision = @record_revision,
         record_position = @record_position, reported = @reported WHERE round_id = @round_id`,
      ),
      nextRecorded: db.prepare<[string, number], { recorded: number }>(
        'SELECT record_position IS NOT NULL AS recorded FROM rounds WHERE resume_table = ? AND ordinal = ?',
      ),
      finding: db.prepare(
        `INSERT INTO findings (finding_id, sort_key, event_time, concessionaire, casino, table_id, round_id,
         check_id, severity, handled, players, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (finding_id) DO NOTHING`,
      ),
      findingData: db.prepare<[string], { data: string }>('SELECT data FROM findings WHERE finding_id = ?'),
      aboutRound: db.prepare<[string], { finding_id: string }>(
        'SELECT finding_id FROM findings WHERE round_id = ?',
      ),
      view: db.prepare<[string], ViewRow>(
        `SELECT ${VIEW_COLUMNS} FROM ${FINDINGS_FROM} WHERE f.finding_id = ?`,
      ),
      alerts: db.prepare<[], { alert_id: string; state: string }>('SELECT alert_id, state FROM alerts'),
      putAlert: db.prepare('INSERT OR REPLACE INTO alerts (alert_id, state) VALUES (?, ?)'),
    };
    this.#s = s;
    const m = readMarker(db);
    this.#position = m.position === null ? null : BigInt(m.position);
    this.#saved = this.#position;
    this.#first =
      m.first_stream === null
        ? null
        : {
            stream: m.first_stream,
            revision: m.first_revision!,
            eventId: m.first_event_id!,
            hash: m.first_hash!,
            position: m.first_position!,
          };
    this.#loadTables();
  }

  #loadTables(): void {
    this.#tables.clear();
    for (const { table_id, ...t } of this.#s.tables.all()) this.#tables.set(table_id, t);
    this.#alerts.clear();
    for (const { alert_id, state } of this.#s.alerts.all())
      this.#alerts.set(alert_id, JSON.parse(state) as AlertState);
  }

  /** Reads what was stored since the last refresh. Concurrent callers share one read. */
  refresh(): Promise<void> {
    this.#refreshing ??= this.#read().finally(() => (this.#refreshing = null));
    return this.#refreshing;
  }

  /** Waits for a refresh under way, saves the checkpoint and closes the index database. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    await this.#refreshing?.catch(() => {});
    this.#closed = true;
    if (this.#position !== null && this.#position !== this.#saved)
      this.#s.position.run(positionNumber(this.#position));
    this.#db.close();
  }

  async #read(): Promise<void> {
    if (this.#closed) throw new Error(`the API index ${this.#path} is closed`);
    if (!this.#checked) {
      await this.#checkStore();
      this.#checked = true;
    }
    const started = this.#position;
    const t0 = performance.now();
    let read = 0;
    // every event, or, far behind, only the indexed streams' (see SELECT_STREAMS_FROM). Either way the position must
    // pass the access records each request appends, or every refresh would scan them all again: a selective read
    // goes on from the store's head as it was before the read began (every event up to it was stored by then)
    const head = this.store.headPosition === undefined ? undefined : await this.store.headPosition();
    const selective = head !== undefined && head - (started ?? -1n) > SELECT_STREAMS_FROM;
    let batch = new Batch(this.#s.round);
    for await (const e of this.store.readAll({
      ...(started === null ? {} : { fromPosition: started }),
      ...(selective ? { streams: indexedStream } : {}),
    })) {
      read++;
      // each event is taken in as it comes (not kept until the batch is written: decoded events kept for a while
      // cost the garbage collector more than their reading)
      this.#take(e, batch);
      if (batch.events >= this.#batchEvents) {
        this.#write(batch);
        batch = new Batch(this.#s.round);
      }
    }
    this.#write(batch);
    if (head !== undefined && (this.#position === null || head > this.#position)) {
      this.#position = head;
      if (this.#saved === null || head - this.#saved >= SAVE_PASSED_EVERY) {
        this.#s.position.run(positionNumber(head));
        this.#saved = head;
      }
    }
    if (read > 10_000 || (this.#path !== ':memory:' && started === null))
      this.#log(
        `API index ${this.#path}: read ${read.toLocaleString('en-US')} events ${started === null ? 'from the start' : `after position ${started}`}${selective ? ' (the indexed streams only)' : ''} in ${Math.round(performance.now() - t0)} ms`,
      );
  }

  /**
   * An index read before (a file) must be the index of this store: its first and last indexed events must be in the
   * store as they were, and the store must reach its checkpoint. Otherwise (the store was replaced or rebuilt) it
   * is emptied, said in the log, and built anew.
   */
  async #checkStore(): Promise<void> {
    const m = readMarker(this.#db);
    if (m.position === null) return;
    if (m.first_stream === null) {
      // it passed only events it does not keep: nothing to tell this store by, and nothing to lose
      this.#s.position.run(null);
      this.#position = this.#saved = null;
      return;
    }
    const why = await this.#notThisStore(m);
    if (why === null) {
      this.#log(`API index ${this.#path}: reads the store after position ${m.position}`);
      return;
    }
    this.#db.transaction(() => emptyIndex(this.#db))();
    this.#position = this.#saved = null;
    this.#first = null;
    this.#loadTables();
    this.#log(`API index ${this.#path}: ${why}; it is not the index of this store: rebuilt from the start`);
  }

  async #notThisStore(m: IndexMarker): Promise<string | null> {
    const at = async (stream: string, revision: number) => {
      for await (const e of this.store.readStream(stream, { fromRevision: revision, maxCount: 1 })) return e;
      return undefined;
    };
    for (const [which, stream, revision, eventId, hash, position] of [
      ['first', m.first_stream, m.first_revision, m.first_event_id, m.first_hash, m.first_position],
      ['last', m.last_stream, m.last_revision, m.last_event_id, m.last_hash, m.last_position],
    ] as const) {
      if (stream === null || revision === null) continue;
      const e = await at(stream, revision);
      if (!e || e.eventId !== eventId || e.hash !== hash || e.position !== BigInt(position ?? -1))
        return `the ${which} event it indexed (${eventId} at ${stream} revision ${revision}, position ${position}) ${
          !e
            ? 'is not in the store'
            : e.eventId === eventId && e.position === BigInt(position ?? -1)
              ? `has another hash in the store (${e.hash}, not ${hash})`
              : `is another in the store (${e.eventId}, position ${e.position})`
        }`;
    }
    if (this.store.headPosition !== undefined) {
      const head = await this.store.headPosition();
      if (head < BigInt(m.position!))
        return `the store ends at position ${head}, before the index's checkpoint ${m.position}`;
    }
    return null;
  }

  /** Takes an event (the next in stored order) into the batch. */
  #take(e: RecordedEvent, batch: Batch): void {
    batch.events++;
    batch.last = e.position;
    if (this.#first === null && batch.first === undefined && indexedStream(e.stream)) batch.first = e;
    if (isTableStream(e.stream)) {
      const table = this.#table(e, batch);
      if (table === undefined) return;
      batch.tables.add(table);
    } else if (e.type === ROUND_RECORD_TYPE && e.stream.startsWith('rounds-')) {
      if (!this.#record(e, batch)) return;
    } else if (ALERT_EVENT_TYPES.has(e.type) && e.stream.startsWith('alert-')) {
      const id = e.stream.slice('alert-'.length);
      batch.alerts.set(
        id,
        evolve(batch.alerts.get(id) ?? this.alertState(id), { type: e.type, data: e.data } as AlertEvent),
      );
    } else if (e.type === FINDING_EVENT_TYPE && e.stream.startsWith('findings-')) {
      const f = e.data as Finding;
      if (typeof f?.findingId !== 'string') return;
      batch.findings.push(f);
    } else return;
    batch.lastIndexed = e;
  }

  /** Writes what a batch took in and moves the checkpoint past its events, in one transaction. */
  #write(batch: Batch): void {
    const last = batch.last;
    if (last === undefined) return;
    const { lastIndexed, tables, alerts, findings } = batch;
    this.#position = last;
    if (lastIndexed === undefined) {
      // nothing the index keeps (access records): the checkpoint is saved now and then, and at close
      if (this.#saved === null || last - this.#saved >= SAVE_PASSED_EVERY) {
        this.#s.position.run(positionNumber(last));
        this.#saved = last;
      }
      return;
    }
    const mark = (e: RecordedEvent): EventMark => ({
      stream: e.stream,
      revision: e.revision,
      eventId: e.eventId,
      hash: e.hash,
      position: positionNumber(e.position),
    });
    const first = (this.#first ??= mark(batch.first!));
    const lastMark = mark(lastIndexed);
    const s = this.#s;
    try {
      this.#db.transaction(() => {
        for (const id of tables) {
          const t = this.#tables.get(id)!;
          s.table.run(id, t.casino, t.concessionaire, t.game, t.rounds);
        }
        for (const r of batch.dirty()) s.putRound.run(r);
        for (const [round_id, record] of batch.records) s.putRecord.run({ round_id, ...record });
        for (const f of findings)
          s.finding.run(
            f.findingId,
            utf16Key(f.findingId),
            typeof f.eventTime === 'number' ? f.eventTime : null,
            str(f.concessionaire),
            str(f.casino),
            str(f.tableId),
            str(f.roundId),
            str(f.checkId),
            str(f.severity),
            f.handled === true ? 1 : 0,
            JSON.stringify(Array.isArray(f.players) ? f.players : []),
            JSON.stringify(f),
          );
        for (const [id, state] of alerts) s.putAlert.run(id, JSON.stringify(state));
        s.marker.run({
          position: positionNumber(last),
          first_stream: first.stream,
          first_revision: first.revision,
          first_event_id: first.eventId,
          first_hash: first.hash,
          first_position: first.position,
          last_stream: lastMark.stream,
          last_revision: lastMark.revision,
          last_event_id: lastMark.eventId,
          last_hash: lastMark.hash,
          last_position: lastMark.position,
        });
      })();
    } catch (e) {
      // nothing of the batch was written: what it changed in memory is read back as stored
      this.#loadTables();
      this.#position = this.#saved;
      if (readMarker(this.#db).first_stream === null) this.#first = null;
      throw e;
    }
    this.#saved = last;
    for (const [id, state] of alerts) this.#alerts.set(id, state);
  }

  /** A table's event: its table's place, and its round's place and extent. The table's id, or undefined. */
  #table(e: RecordedEvent, batch: Batch): string | undefined {
    const data = e.data as { header?: Header; game?: unknown; dealerId?: unknown } | null;
    const h = data?.header;
    if (
      !h ||
      typeof h.tableId !== 'string' ||
      typeof h.casino !== 'string' ||
      typeof h.concessionaire !== 'string'
    )
      return undefined;
    let table = this.#tables.get(h.tableId);
    if (e.type === 'TableOpened' || !table) {
      table = {
        casino: h.casino,
        concessionaire: h.concessionaire,
        game: e.type === 'TableOpened' && typeof data.game === 'string' ? data.game : (table?.game ?? null),
        rounds: table?.rounds ?? 0,
      };
      this.#tables.set(h.tableId, table);
    }
    if (typeof h.roundId !== 'string' || h.roundId === '') return h.tableId;
    const position = positionNumber(e.position);
    let round = batch.get(h.roundId);
    if (round) {
      round.last_position = position;
      round.last_revision = e.revision;
      batch.touch(round);
    } else {
      round = {
        round_id: h.roundId,
        table_id: h.tableId,
        casino: h.casino,
        concessionaire: h.concessionaire,
        game: table.game,
        dealer_id: null,
        start_time: typeof h.eventTime === 'number' ? h.eventTime : 0,
        resume_table: h.tableId,
        ordinal: table.rounds++,
        first_revision: e.revision,
        last_revision: e.revision,
        last_position: position,
        record_stream: null,
        record_revision: null,
        record_position: null,
        reported: '[]',
      };
      batch.add(round);
    }
    // a place is final once known with its RoundStarted's dealer; until then the RoundStarted sets it anew
    if (e.type === 'RoundStarted' && round.dealer_id === null) {
      round.table_id = h.tableId;
      round.casino = h.casino;
      round.concessionaire = h.concessionaire;
      round.game = table.game;
      round.dealer_id = typeof data.dealerId === 'string' ? data.dealerId : null;
    }
    return h.tableId;
  }

  /** A round record: the latest of its round is the one a resumed derivation starts from. Whether it was kept. */
  #record(e: RecordedEvent, batch: Batch): boolean {
    const r = e.data as { roundId?: unknown; findingIds?: unknown; reportedFindingIds?: unknown } | null;
    if (typeof r?.roundId !== 'string') return false;
    const ids = Array.isArray(r.reportedFindingIds) ? r.reportedFindingIds : r.findingIds;
    return batch.record(r.roundId, {
      record_stream: e.stream,
      record_revision: e.revision,
      record_position: positionNumber(e.position),
      reported: JSON.stringify(
        Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [],
      ),
    });
  }

  /**
   * Where the round's events begin, its latest record and the findings stored about it, as of the last refresh
   * (null: no event of the round indexed). Call after `round`, which checked the caller's scope.
   */
  resumeOf(roundId: string): RoundResume | null {
    const r = this.#s.round.get(roundId);
    if (!r) return null;
    const reported = JSON.parse(r.reported) as string[];
    // a record's findings are stored in the same write as the record (before or after it): looked up now
    const findings: Finding[] = [];
    for (const id of reported) {
      const f = this.#s.findingData.get(id);
      if (f) findings.push(JSON.parse(f.data) as Finding);
    }
    const stale = r.record_position !== null && r.record_position < r.last_position;
    const next = this.#s.nextRecorded.get(r.resume_table, r.ordinal + 1);
    const reportedSet = new Set(reported);
    const settled =
      r.record_position !== null &&
      !stale &&
      (next === undefined || next.recorded === 1) &&
      this.#s.aboutRound.all(roundId).every((f) => reportedSet.has(f.finding_id));
    return {
      firstRevision: r.first_revision,
      lastRevision: r.last_revision,
      record: r.record_stream === null ? null : { stream: r.record_stream, revision: r.record_revision! },
      stale,
      settled,
      findings,
    };
  }

  /** An alert's workflow state as of the last refresh (callers refresh first; see alertStates). */
  alertState(alertId: string): AlertState {
    return this.#alerts.get(alertId) ?? initialAlertState;
  }

  #place(roundId: string): RoundPlace | undefined {
    const r = this.#s.round.get(roundId);
    return (
      r && {
        roundId: r.round_id,
        tableId: r.table_id,
        casino: r.casino,
        concessionaire: r.concessionaire,
        game: r.game,
        dealerId: r.dealer_id,
        startTime: r.start_time,
      }
    );
  }

  /**
   * Where a round was played, within the caller's scope (undefined: no such round, or not theirs). A round whose
   * place is final — known with its RoundStarted's dealer, after which #table never changes it — is answered
   * without reading the store first: what was stored since cannot change it. Any other round reads what was
   * stored since the last refresh first.
   */
  async round(roundId: string, scope: string | null): Promise<RoundPlace | undefined> {
    let r = this.#place(roundId);
    if (r === undefined || r.dealerId === null) {
      await this.refresh();
      r = this.#place(roundId);
    }
    return r && (scope === null || r.concessionaire === scope) ? r : undefined;
  }

  async get(findingId: string, scope: string | null): Promise<FindingView | null> {
    await this.refresh();
    const row = this.#s.view.get(findingId);
    const f = row && toView(row);
    return f && (scope === null || f.concessionaire === scope) ? f : null;
  }

  /** The WHERE of a filter, in SQL, with its parameters (matches() says the same in JavaScript). */
  #where(q: FindingFilter): { sql: string; params: unknown[] } {
    const terms: string[] = [];
    const params: unknown[] = [];
    const term = (sql: string, value: unknown) => {
      if (value === undefined) return;
      terms.push(sql);
      params.push(value);
    };
    term('f.concessionaire = ?', q.scope ?? undefined);
    term('f.concessionaire = ?', q.concessionaire);
    term('f.casino = ?', q.casino);
    term('f.table_id = ?', q.tableId);
    term('COALESCE(r.game, t.game) = ?', q.game);
    term('f.check_id = ?', q.checkId);
    term('f.severity = ?', q.severity);
    term('f.event_time >= ?', q.from);
    term('f.event_time < ?', q.to);
    term('r.dealer_id = ?', q.dealerId);
    term('EXISTS (SELECT 1 FROM json_each(f.players) WHERE value = ?)', q.playerId);
    term('f.round_id = ?', q.roundId);
    if (q.alertsOnly) terms.push('f.handled = 0');
    return { sql: terms.length === 0 ? '1' : terms.join(' AND '), params };
  }

  #query(sql: string): Database.Statement {
    let s = this.#queries.get(sql);
    if (s === undefined) {
      if (this.#queries.size >= MAX_QUERY_STATEMENTS) this.#queries.clear();
      this.#queries.set(sql, (s = this.#db.prepare(sql)));
    }
    return s;
  }

  async list(filter: FindingFilter, page: { limit: number; after: Cursor | null }): Promise<FindingsPage> {
    await this.refresh();
    const where = this.#where(filter);
    const { n: total } = this.#query(`SELECT count(*) AS n FROM ${FINDINGS_FROM} WHERE ${where.sql}`).get(
      ...where.params,
    ) as { n: number };
    const after =
      page.after === null
        ? { sql: '', params: [] }
        : {
            sql: ' AND (f.event_time < ? OR (f.event_time = ? AND f.sort_key < ?))',
            params: [page.after.eventTime, page.after.eventTime, utf16Key(page.after.findingId)],
          };
    const rows = this.#query(
      `SELECT ${VIEW_COLUMNS} FROM ${FINDINGS_FROM} WHERE ${where.sql}${after.sql}
       ORDER BY f.event_time DESC, f.sort_key DESC LIMIT ?`,
    ).all(...where.params, ...after.params, page.limit + 1) as ViewRow[];
    const items = rows.slice(0, page.limit).map(toView);
    const last = items.at(-1);
    return {
      items,
      total,
      next:
        rows.length > page.limit && last ? { eventTime: last.eventTime, findingId: last.findingId } : null,
    };
  }

  async count(filter: FindingFilter, by: CountDimension): Promise<{ value: string | null; count: number }[]> {
    await this.refresh();
    const where = this.#where(filter);
    const rows = this.#query(
      `SELECT ${DIMENSION_SQL[by]} AS value, count(*) AS count FROM ${FINDINGS_FROM} WHERE ${where.sql} GROUP BY 1`,
    ).all(...where.params) as { value: string | null; count: number }[];
    return rows
      .map(({ value, count }) => ({ value, count }))
      .sort((a, b) => b.count - a.count || byteOrder(a.value, b.value));
  }

  async ping(): Promise<void> {
    await this.refresh();
  }

  /**
   * Whether the casino has a table within the caller's scope (null: every concessionaire), as of a refresh now: the
   * what-if's check before it queues a run (a casino outside the scope is as if it did not exist).
   */
  async hasCasino(casino: string, scope: string | null): Promise<boolean> {
    await this.refresh();
    for (const t of this.#tables.values())
      if (t.casino === casino && (scope === null || t.concessionaire === scope)) return true;
    return false;
  }
}

/**
 * What a batch of events changes, kept until it is written in one transaction: the rounds it touches (each read from
 * the index database once per batch — a round's events are mostly together — changed in memory, written back once),
 * the tables, alert states and findings, and where it stops.
 */
class Batch {
  events = 0;
  /** the position of its last event */
  last: bigint | undefined;
  /** its first event of an indexed stream, kept when the index has none yet (the store's identity) */
  first: RecordedEvent | undefined;
  /** its last event that changed the index */
  lastIndexed: RecordedEvent | undefined;
  readonly tables = new Set<string>();
  readonly alerts = new Map<string, AlertState>();
  readonly findings: Finding[] = [];
  readonly #rounds = new Map<string, RoundRow | null>();
  readonly #dirty = new Set<RoundRow>();
  constructor(private readonly read: Database.Statement<[string], RoundRow>) {}

  /**
   * Round records whose round the batch has not looked at: written at the end as updates of the round's row, if it
   * is stored (a record of a round not indexed is left out, as it always was), so that a record read long after its
   * round (the replay's, after the ingest) costs no look-up of the round first.
   */
  readonly records = new Map<string, RoundRecord>();

  /** The round's row: the batch's, else the stored one (with a record the batch kept for it), else undefined. */
  get(roundId: string): RoundRow | undefined {
    let r = this.#rounds.get(roundId);
    if (r === undefined) {
      this.#rounds.set(roundId, (r = this.read.get(roundId) ?? null));
      const record = this.records.get(roundId);
      if (record !== undefined) {
        this.records.delete(roundId);
        // a round not stored when its record came: the record is left out; a stored one takes it
        if (r !== null) {
          Object.assign(r, record);
          this.#dirty.add(r);
        }
      }
    }
    return r ?? undefined;
  }

  /** A round's record, in stored order. Whether it may change the index (its round is indexed, or may be). */
  record(roundId: string, record: RoundRecord): boolean {
    const r = this.#rounds.get(roundId);
    if (r === null) return false; // looked up in this batch: not indexed
    if (r === undefined) {
      this.records.set(roundId, record);
      return true;
    }
    Object.assign(r, record);
    this.#dirty.add(r);
    return true;
  }

  add(round: RoundRow): void {
    this.#rounds.set(round.round_id, round);
    this.#dirty.add(round);
  }

  touch(round: RoundRow): void {
    this.#dirty.add(round);
  }

  dirty(): Iterable<RoundRow> {
    return this.#dirty;
  }
}
