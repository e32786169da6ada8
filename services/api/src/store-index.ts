/**
 * What the API must know about the event store to check a caller's scope before it reads anything: where each
 * round was played (table, casino, concessionaire, game, dealer) and each finding. Built by reading the store
 * forwards from where it last stopped (one query that returns nothing when nothing is new), so a request sees
 * everything stored before it began. It is also a FindingsQuery adapter (the embedded one, in memory: fine for
 * a few hundred thousand findings; the ClickHouse table serves more).
 */
import type { EventStore, RecordedEvent } from '@table-audit/eventstore';
import type { Finding } from '@table-audit/rules';
import { isTableStream } from '@table-audit/schemas/streams';
import { ALERT_EVENT_TYPES, evolve, initialAlertState, type AlertEvent, type AlertState } from './alerts.ts';
import {
  compareFindings,
  matches,
  type CountDimension,
  type Cursor,
  type FindingFilter,
  type FindingsPage,
  type FindingsQuery,
  type FindingView,
} from './findings-query.ts';

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

interface ResumeEntry {
  readonly tableId: string;
  /** its place among its table's rounds, in stored order */
  readonly ordinal: number;
  readonly firstRevision: number;
  lastRevision: number;
  lastPosition: bigint;
  record: { readonly stream: string; readonly revision: number; readonly position: bigint } | null;
  /** the ids of the findings the record names as reported with the round */
  reported: readonly string[];
}

const ROUND_RECORD_TYPE = 'RoundDerived';

interface Header {
  tableId?: unknown;
  roundId?: unknown;
  casino?: unknown;
  concessionaire?: unknown;
  eventTime?: unknown;
}

export class StoreIndex implements FindingsQuery {
  readonly description = 'the event store (indexed in memory)';
  readonly #tables = new Map<string, { casino: string; concessionaire: string; game: string | null }>();
  readonly #rounds = new Map<string, RoundPlace>();
  readonly #findings = new Map<string, Finding>();
  /** each alert's workflow state, folded from its stream (an alert with no event yet is open) */
  readonly #alerts = new Map<string, AlertState>();
  /** by round: where its events begin, its latest record, the findings stored about it */
  readonly #resume = new Map<string, ResumeEntry>();
  /** each table's rounds in stored order (of their first events) */
  readonly #tableRounds = new Map<string, string[]>();
  /** the ids of the findings stored about each round (their roundId) */
  readonly #aboutRound = new Map<string, string[]>();
  #sorted: FindingView[] | null = [];
  #position: bigint | null = null;
  #refreshing: Promise<void> | null = null;

  constructor(private readonly store: EventStore) {}

  /** Reads what was stored since the last refresh. Concurrent callers share one read. */
  refresh(): Promise<void> {
    this.#refreshing ??= this.#read().finally(() => (this.#refreshing = null));
    return this.#refreshing;
  }

  async #read(): Promise<void> {
    // every stream, though the index keeps only tables, findings and alerts: its position must pass the access
    // records each request appends, or every refresh would scan them all again
    for await (const e of this.store.readAll(
      this.#position === null ? {} : { fromPosition: this.#position },
    )) {
      this.#position = e.position;
      if (isTableStream(e.stream)) this.#table(e);
      else if (e.type === ROUND_RECORD_TYPE && e.stream.startsWith('rounds-')) this.#record(e);
      else if (ALERT_EVENT_TYPES.has(e.type) && e.stream.startsWith('alert-')) {
        const id = e.stream.slice('alert-'.length);
        this.#alerts.set(
          id,
          evolve(this.#alerts.get(id) ?? initialAlertState, { type: e.type, data: e.data } as AlertEvent),
        );
      } else if (e.type === FINDING_EVENT_TYPE && e.stream.startsWith('findings-')) {
        const f = e.data as Finding;
        if (typeof f?.findingId === 'string' && !this.#findings.has(f.findingId)) {
          this.#findings.set(f.findingId, f);
          this.#sorted = null;
          if (typeof f.roundId === 'string') {
            const about = this.#aboutRound.get(f.roundId);
            if (about) about.push(f.findingId);
            else this.#aboutRound.set(f.roundId, [f.findingId]);
          }
        }
      }
    }
  }

  #table(e: RecordedEvent): void {
    const data = e.data as { header?: Header; game?: unknown; dealerId?: unknown } | null;
    const h = data?.header;
    if (
      !h ||
      typeof h.tableId !== 'string' ||
      typeof h.casino !== 'string' ||
      typeof h.concessionaire !== 'string'
    )
      return;
    let table = this.#tables.get(h.tableId);
    if (e.type === 'TableOpened' || !table) {
      table = {
        casino: h.casino,
        concessionaire: h.concessionaire,
        game: e.type === 'TableOpened' && typeof data.game === 'string' ? data.game : (table?.game ?? null),
      };
      this.#tables.set(h.tableId, table);
    }
    if (typeof h.roundId !== 'string' || h.roundId === '') return;
    const resume = this.#resume.get(h.roundId);
    if (resume) {
      resume.lastPosition = e.position;
      resume.lastRevision = e.revision;
    } else {
      let order = this.#tableRounds.get(h.tableId);
      if (!order) this.#tableRounds.set(h.tableId, (order = []));
      order.push(h.roundId);
      this.#resume.set(h.roundId, {
        tableId: h.tableId,
        ordinal: order.length - 1,
        firstRevision: e.revision,
        lastRevision: e.revision,
        lastPosition: e.position,
        record: null,
        reported: [],
      });
    }
    const known = this.#rounds.get(h.roundId);
    if (known && !(e.type === 'RoundStarted' && known.dealerId === null)) return;
    this.#rounds.set(h.roundId, {
      roundId: h.roundId,
      tableId: h.tableId,
      casino: h.casino,
      concessionaire: h.concessionaire,
      game: table.game,
      dealerId: e.type === 'RoundStarted' && typeof data.dealerId === 'string' ? data.dealerId : null,
      startTime: known?.startTime ?? (typeof h.eventTime === 'number' ? h.eventTime : 0),
    });
  }

  /** A round record: the latest of its round is the one a resumed derivation starts from. */
  #record(e: RecordedEvent): void {
    const r = e.data as { roundId?: unknown; findingIds?: unknown; reportedFindingIds?: unknown } | null;
    if (typeof r?.roundId !== 'string') return;
    const resume = this.#resume.get(r.roundId);
    if (!resume) return;
    resume.record = { stream: e.stream, revision: e.revision, position: e.position };
    const ids = Array.isArray(r.reportedFindingIds) ? r.reportedFindingIds : r.findingIds;
    resume.reported = Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  }

  /**
   * Where the round's events begin, its latest record and the findings stored about it, as of the last refresh
   * (null: no event of the round indexed). Call after `round`, which checked the caller's scope.
   */
  resumeOf(roundId: string): RoundResume | null {
    const r = this.#resume.get(roundId);
    if (!r) return null;
    // a record's findings are stored in the same write as the record (before or after it): looked up now
    const findings: Finding[] = [];
    for (const id of r.reported) {
      const f = this.#findings.get(id);
      if (f) findings.push(f);
    }
    const stale = r.record !== null && r.record.position < r.lastPosition;
    const next = this.#tableRounds.get(r.tableId)?.[r.ordinal + 1];
    const reported = new Set(r.reported);
    const settled =
      r.record !== null &&
      !stale &&
      (next === undefined || this.#resume.get(next)?.record != null) &&
      (this.#aboutRound.get(roundId) ?? []).every((id) => reported.has(id));
    return {
      firstRevision: r.firstRevision,
      lastRevision: r.lastRevision,
      record: r.record && { stream: r.record.stream, revision: r.record.revision },
      stale,
      settled,
      findings,
    };
  }

  /** An alert's workflow state as of the last refresh (callers refresh first; see alertStates). */
  alertState(alertId: string): AlertState {
    return this.#alerts.get(alertId) ?? initialAlertState;
  }

  /**
   * Where a round was played, within the caller's scope (undefined: no such round, or not theirs). A round whose
   * place is final — known with its RoundStarted's dealer, after which #table never changes it — is answered
   * without reading the store first: what was stored since cannot change it. Any other round reads what was
   * stored since the last refresh first.
   */
  async round(roundId: string, scope: string | null): Promise<RoundPlace | undefined> {
    const final = this.#rounds.get(roundId);
    if (final === undefined || final.dealerId === null) await this.refresh();
    const r = this.#rounds.get(roundId);
    return r && (scope === null || r.concessionaire === scope) ? r : undefined;
  }

  #view(f: Finding): FindingView {
    const round = f.roundId === null ? undefined : this.#rounds.get(f.roundId);
    return {
      ...f,
      handled: f.handled === true,
      game: round?.game ?? this.#tables.get(f.tableId)?.game ?? null,
      dealerId: round?.dealerId ?? null,
    };
  }

  async get(findingId: string, scope: string | null): Promise<FindingView | null> {
    await this.refresh();
    const f = this.#findings.get(findingId);
    return f && (scope === null || f.concessionaire === scope) ? this.#view(f) : null;
  }

  async list(filter: FindingFilter, page: { limit: number; after: Cursor | null }): Promise<FindingsPage> {
    await this.refresh();
    this.#sorted ??= [...this.#findings.values()].map((f) => this.#view(f)).sort(compareFindings);
    const items: FindingView[] = [];
    let total = 0;
    let more = false;
    for (const f of this.#sorted) {
      if (!matches(f, filter)) continue;
      total++;
      if (page.after !== null && compareFindings(f, page.after) <= 0) continue;
      if (items.length < page.limit) items.push(f);
      else more = true;
    }
    const last = items.at(-1);
    return {
      items,
      total,
      next: more && last ? { eventTime: last.eventTime, findingId: last.findingId } : null,
    };
  }

  async count(filter: FindingFilter, by: CountDimension): Promise<{ value: string | null; count: number }[]> {
    await this.refresh();
    const counts = new Map<string | null, number>();
    for (const f of this.#findings.values()) {
      const v = this.#view(f);
      if (matches(v, filter)) counts.set(v[by], (counts.get(v[by]) ?? 0) + 1);
    }
    return [...counts]
      .map(([value, count]) => ({ value, count }))
      .sort((a, b) => b.count - a.count || byteOrder(a.value, b.value));
  }

  async ping(): Promise<void> {
    await this.refresh();
  }
}
