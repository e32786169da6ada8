/**
 * Pure mappings from stored events to ClickHouse rows (no I/O): what each projected table holds of an event. Rows
 * are JSONEachRow objects keyed by column; times are UTC milliseconds (DateTime64(3) reads them as such), dates
 * the Macau local date as YYYY-MM-DD, money integer avos.
 */
import type { RecordedEvent } from '@table-audit/eventstore';
import { TsvWriter } from './tsv.ts';
import type { RejectData } from '@table-audit/ingest';
import { macauDate, type Finding } from '@table-audit/rules';
import type { RoundDerived, TableEvent } from '@table-audit/schemas';
import type {
  AlertAcknowledged,
  AlertAssigned,
  AlertCommented,
  AlertReopened,
  AlertResolved,
} from '@table-audit/schemas/events';

export type Row = Record<string, unknown>;

/** The event-store position as the rows' version: UInt64 as decimal text (JSON numbers stop at 2^53). */
const version = (e: RecordedEvent): string => e.position.toString();
const TAB = 9;
const NEWLINE = 10;

const DAY_MS = 86_400_000;
const MACAU_OFFSET_MS = 8 * 3_600_000;
/** Macau dates by day number since the epoch: a batch's events fall on a few days (bounded: cleared past 4,096). */
const macauDays = new Map<number, string>();
/** A Macau date for a time that may be out of any clock's range (a bad event is kept, not fatal). */
function macauDay(utcMs: number): string {
  const day = Math.floor((utcMs + MACAU_OFFSET_MS) / DAY_MS);
  const known = Number.isFinite(day) ? macauDays.get(day) : undefined;
  if (known !== undefined) return known;
  let date: string;
  try {
    date = macauDate(utcMs);
  } catch {
    return '1970-01-01';
  }
  if (macauDays.size >= 4_096) macauDays.clear();
  macauDays.set(day, date);
  return date;
}

export const tableRow = (e: RecordedEvent, t: Extract<TableEvent, { type: 'TableOpened' }>): Row => {
  const h = t.data.header;
  return {
    table_id: h.tableId,
    casino: h.casino,
    concessionaire: h.concessionaire,
    game: t.data.game,
    seats: t.data.seats,
    shuffle_mode: t.data.shuffleMode,
    currency: t.data.currency,
    opened_at: h.eventTime,
    position: version(e),
  };
};

export const roundStartRow = (
  e: RecordedEvent,
  t: Extract<TableEvent, { type: 'RoundStarted' }>,
  game: string,
): Row => {
  const h = t.data.header;
  return {
    round_id: h.roundId ?? '',
    table_id: h.tableId,
    casino: h.casino,
    concessionaire: h.concessionaire,
    game,
    round_number: t.data.roundNumber,
    dealer_id: t.data.dealerId,
    shuffle_id: t.data.shuffleId,
    event_time: h.eventTime,
    macau_date: macauDay(h.eventTime),
    position: version(e),
  };
};

/** Void reasons that are misdeals (cards dealt or exposed against the rules), as opposed to a failing shuffler. */
const MISDEAL_REASONS = new Set(['DEALING_RULES_BROKEN', 'BANKER_CARD_EXPOSED', 'PLAYER_CARDS_EXPOSED']);

/** The table events tableHealthRow makes a row of. */
export const TABLE_HEALTH_TYPES: ReadonlySet<string> = new Set([
  'ShufflerMalfunction',
  'ShufflerReplaced',
  'RoundVoided',
  'DealingSwitchedToShoe',
  'TableOpened',
  'TableClosed',
]);

/** The table-health events: a row, or null for an event that is not one. */
export function tableHealthRow(e: RecordedEvent, t: TableEvent, game: string): Row | null {
  if (!TABLE_HEALTH_TYPES.has(t.type)) return null;
  const h = t.data.header;
  const base = {
    event_id: h.eventId,
    table_id: h.tableId,
    casino: h.casino,
    concessionaire: h.concessionaire,
    game,
    round_id: h.roundId,
    staff_id: h.staffId,
    shuffler_id: null as string | null,
    new_shuffler_id: null as string | null,
    during_deal: null as boolean | null,
    void_reason: null as string | null,
    misdeal: false,
    authorised_by: null as string | null,
    detail: '',
    event_time: h.eventTime,
    macau_date: macauDay(h.eventTime),
    position: version(e),
  };
  switch (t.type) {
    case 'ShufflerMalfunction':
      return {
        ...base,
        kind: 'SHUFFLER_MALFUNCTION',
        shuffler_id: t.data.shufflerId,
        during_deal: t.data.duringDeal,
        detail: t.data.description,
      };
    case 'ShufflerReplaced':
      return {
        ...base,
        kind: 'SHUFFLER_REPLACED',
        shuffler_id: t.data.oldShufflerId,
        new_shuffler_id: t.data.newShufflerId,
      };
    case 'RoundVoided':
      return {
        ...base,
        kind: 'ROUND_VOIDED',
        void_reason: t.data.reason,
        misdeal: MISDEAL_REASONS.has(t.data.reason),
        authorised_by: t.data.authorisedBy,
        detail: t.data.note ?? '',
      };
    case 'DealingSwitchedToShoe':
      return { ...base, kind: 'DEALING_SWITCHED_TO_SHOE', detail: t.data.reason };
    case 'TableOpened':
      return { ...base, kind: 'TABLE_OPENED', detail: t.data.shuffleMode };
    case 'TableClosed':
      return { ...base, kind: 'TABLE_CLOSED', detail: t.data.reason ?? '' };
    default:
      return null;
  }
}

const isAvos = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x);

/**
 * The money a finding is about, declared minus expected, in avos, when the finding compares settlements: the
 * player's net (winnings paid minus stake collected; a stake returned is neither gain nor loss) as declared
 * against as the rules give it; a settlement declared twice is its amount paid out again. Null otherwise.
 */
export function discrepancyAvos(expected: unknown, declared: unknown): number | null {
  const e = expected as { payout?: unknown; collected?: unknown } | null;
  const d = declared as { payout?: unknown; collected?: unknown; amount?: unknown; repeats?: unknown } | null;
  if (d && typeof d === 'object' && isAvos(d.amount) && typeof d.repeats === 'string') return d.amount;
  if (!e || !d || typeof e !== 'object' || typeof d !== 'object') return null;
  if (!isAvos(e.payout) || !isAvos(e.collected) || !isAvos(d.payout) || !isAvos(d.collected)) return null;
  return d.payout - d.collected - (e.payout - e.collected);
}

const jsonText = (v: unknown): string => JSON.stringify(v ?? null) ?? 'null';

export const findingRow = (
  e: RecordedEvent,
  f: Finding,
  context: { game: string; dealerId: string | null },
): Row => ({
  finding_id: f.findingId,
  check_id: f.checkId,
  title: f.title,
  severity: f.severity,
  handled: f.handled,
  rule_set: f.ruleSet,
  game: context.game,
  casino: f.casino,
  concessionaire: f.concessionaire,
  table_id: f.tableId,
  round_id: f.roundId,
  dealer_id: context.dealerId,
  seats: f.seats,
  players: f.players,
  summary: f.summary,
  expected: jsonText(f.expected),
  declared: jsonText(f.declared),
  discrepancy_avos: discrepancyAvos(f.expected, f.declared),
  citation_keys: f.citations.map((c) => c.key),
  citation_references: f.citations.map((c) => c.reference),
  interpretation_ids: f.interpretations,
  evidence_event_ids: f.evidenceEventIds,
  event_time: f.eventTime,
  macau_date: macauDay(f.eventTime),
  details: f.details === undefined ? null : jsonText(f.details),
  store_event_id: e.eventId,
  position: version(e),
});

/** The source a reject came from, as one value to group by: the Kafka topic, the file, or the producer. */
function rejectSource(s: RejectData['source']): { kind: string; source: string } {
  switch (s.kind) {
    case 'kafka':
      return { kind: 'KAFKA', source: s.topic };
    case 'file':
      return { kind: 'FILE', source: s.path };
    case 'in-process':
      return { kind: 'IN_PROCESS', source: s.producer };
  }
}

/** What a reject shows when its event did not decode, or decoded without naming its table or casino. */
export const UNKNOWN_SCOPE = 'unknown';
/** decodedText longer than this is not parsed for its header (the reject keeps it whole either way). */
const MAX_DECODED_TEXT = 1_000_000;

/**
 * The table, casino and concessionaire a rejected input names, when it decoded into an event (kept as data, or as
 * JSON text when JSON could not hold it exactly); UNKNOWN_SCOPE for each it does not name.
 */
export function rejectScope(r: RejectData): { table_id: string; casino: string; concessionaire: string } {
  let header: unknown = (r.decoded as { data?: { header?: unknown } } | null)?.data?.header;
  if (header === undefined && typeof r.decodedText === 'string' && r.decodedText.length <= MAX_DECODED_TEXT)
    try {
      header = (JSON.parse(r.decodedText) as { data?: { header?: unknown } } | null)?.data?.header;
    } catch {
      header = undefined;
    }
  const h = (header && typeof header === 'object' ? header : {}) as Record<string, unknown>;
  const text = (v: unknown): string => (typeof v === 'string' && v.trim() !== '' ? v : UNKNOWN_SCOPE);
  return { table_id: text(h.tableId), casino: text(h.casino), concessionaire: text(h.concessionaire) };
}

export function rejectRow(e: RecordedEvent, r: RejectData): Row {
  const received = (e.metadata as { receivedAt?: unknown } | undefined)?.receivedAt;
  const time = isAvos(received) ? received : e.recordedAt;
  const { kind, source } = rejectSource(r.source);
  return {
    ...rejectScope(r),
    reject_id: e.eventId,
    code: r.code,
    reason: r.reason,
    source_kind: kind,
    source,
    source_text: r.sourceText,
    kafka_partition: r.source.kind === 'kafka' ? r.source.partition : null,
    kafka_offset: r.source.kind === 'kafka' ? r.source.offset : null,
    file_block: r.source.kind === 'file' ? r.source.block : null,
    record_index: r.source.kind === 'kafka' ? null : (r.source.index ?? null),
    decoded: r.decodedText ?? (r.decoded === null ? null : jsonText(r.decoded)),
    raw_bytes: r.rawBase64 === null ? 0 : Buffer.byteLength(r.rawBase64, 'base64'),
    received_time: time,
    macau_date: macauDay(time),
    position: version(e),
  };
}

type RoundLine = RoundDerived['lines'][number];

/**
 * What a round's row and each of its bet lines share, in column order, from the record: said once here for
 * `rounds` (roundRows), `bets` rows (roundRows) and the bets' TabSeparated text (betsTsv).
 */
const ROUND_SCOPE: readonly (readonly [column: string, value: (r: RoundDerived) => unknown])[] = [
  ['round_id', (r) => r.roundId],
  ['table_id', (r) => r.tableId],
  ['casino', (r) => r.casino],
  ['concessionaire', (r) => r.concessionaire],
  ['game', (r) => r.game],
  ['rule_set', (r) => r.ruleSetId],
  ['macau_date', (r) => r.macauDate],
  ['round_start', (r) => r.roundStartTime],
  ['dealer_id', (r) => r.dealerId],
];

/** A bet line's own columns, after the round's scope; `line_index` is its position in the round (the key). */
const BET_LINE: readonly (readonly [column: string, value: (l: RoundLine, index: number) => unknown])[] = [
  ['line_index', (_, i) => i],
  ['seat', (l) => l.seat],
  ['bet_type', (l) => l.betType],
  ['bet_id', (l) => l.betId],
  ['stake_avos', (l) => l.stakeAvos],
  ['expected_outcome', (l) => l.expectedOutcome],
  ['expected_payout_avos', (l) => l.expectedPayoutAvos],
  ['expected_net_avos', (l) => l.expectedNetAvos],
  ['declared_payout_avos', (l) => l.declaredPayoutAvos],
  ['declared_net_avos', (l) => l.declaredNetAvos],
  ['difference_avos', (l) => l.differenceAvos],
];

/** The columns of `bets`, in the order roundRows writes them and betsTsv encodes them. */
export const BET_COLUMNS: readonly string[] = [
  ...ROUND_SCOPE.map(([c]) => c),
  ...BET_LINE.map(([c]) => c),
  'position',
];

/**
 * A derived round: its row in `rounds` and one row per bet line in `bets` (none with `bets: false`: the projector
 * writes them with betsTsv).
 */
export function roundRows(
  e: RecordedEvent,
  r: RoundDerived,
  options: { bets: boolean } = { bets: true },
): { round: Row; bets: Row[] } {
  const position = version(e);
  let over = 0;
  let under = 0;
  for (const l of r.lines)
    if (l.differenceAvos !== null) {
      if (l.differenceAvos > 0) over += l.differenceAvos;
      else under -= l.differenceAvos;
    }
  const round: Row = {};
  for (const [column, value] of ROUND_SCOPE) round[column] = value(r);
  const shared = options.bets ? { ...round } : round;
  return {
    round: Object.assign(round, {
      status: r.status,
      status_reason: r.statusReason,
      total_staked_avos: r.totalStakedAvos,
      expected_paid_avos: r.expectedPaidAvos,
      declared_paid_avos: r.declaredPaidAvos,
      paid_difference_avos: r.declaredPaidAvos - r.expectedPaidAvos,
      overpaid_avos: over,
      underpaid_avos: under,
      house_result_avos: r.houseResultAvos,
      bet_count: r.lines.length,
      finding_count: r.findingIds.length,
      finding_ids: r.findingIds,
      interpretation_ids: r.interpretationIds,
      store_event_id: e.eventId,
      position,
    }),
    bets: !options.bets
      ? []
      : r.lines.map((l, i) => {
          const row: Row = { ...shared };
          for (const [column, value] of BET_LINE) row[column] = value(l, i);
          row.position = position;
          return row;
        }),
  };
}

/**
 * A round's `bets` rows as TabSeparated lines (BET_COLUMNS), written straight from the record: the same text as
 * encodeTsv(roundRows(e, r).bets) (a test holds them equal), without an object per bet line. Bets are most of what
 * the projection writes (a dozen a round), and these objects were most of its garbage.
 */
export function betsTsv(e: RecordedEvent, r: RoundDerived): string {
  const w = new TsvWriter(r.lines.length * 256);
  writeBetsTsv(w, e, r);
  return w.toString();
}

/**
 * betsTsv's text written as bytes at the end of `w` (the projector writes a batch's bets into one writer: its
 * insert body). The round's shared columns are spelled once and copied to each line. Returns the lines written.
 */
export function writeBetsTsv(w: TsvWriter, e: RecordedEvent, r: RoundDerived): number {
  const lines = r.lines;
  if (lines.length === 0) return 0;
  const sharedFrom = w.length;
  for (const [column, value] of ROUND_SCOPE) {
    w.value(column, value(r));
    w.byte(TAB);
  }
  const sharedTo = w.length;
  const end = version(e);
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (i > 0) w.repeat(sharedFrom, sharedTo);
    for (const [column, value] of BET_LINE) {
      w.value(column, value(l, i));
      w.byte(TAB);
    }
    w.raw(end);
    w.byte(NEWLINE);
  }
  return lines.length;
}

// ------------------------------------------------------------------------------------------------ alert workflow

/** The alert workflow's event types (ta.audit.Alert*), written by the API to `alert-<finding id>` streams. */
export const ALERT_EVENT_TYPES: ReadonlySet<string> = new Set([
  'AlertAcknowledged',
  'AlertAssigned',
  'AlertCommented',
  'AlertResolved',
  'AlertReopened',
]);
export const ALERT_STREAM_PREFIX = 'alert-';

export type AlertEvent =
  | { type: 'AlertAcknowledged'; data: AlertAcknowledged }
  | { type: 'AlertAssigned'; data: AlertAssigned }
  | { type: 'AlertCommented'; data: AlertCommented }
  | { type: 'AlertResolved'; data: AlertResolved }
  | { type: 'AlertReopened'; data: AlertReopened };

/** What an alert's rows carry of its finding (from the `findings` row of the same id). */
export interface AlertFinding {
  check_id: string;
  severity: string;
  concessionaire: string;
  casino: string;
  game: string;
  table_id: string;
  round_id: string | null;
  /** the finding's event time, UTC ms: when the alert opened */
  opened_at: number;
  macau_date: string;
}

/** The finding of an alert the projection cannot find (its finding not projected): kept, marked UNKNOWN. */
export const unknownAlertFinding = (time: number): AlertFinding => ({
  check_id: 'UNKNOWN',
  severity: 'UNKNOWN',
  concessionaire: 'UNKNOWN',
  casino: 'UNKNOWN',
  game: 'UNKNOWN',
  table_id: 'UNKNOWN',
  round_id: null,
  opened_at: time,
  macau_date: macauDay(time),
});

export const alertFindingOf = (row: Row): AlertFinding => ({
  check_id: row.check_id as string,
  severity: row.severity as string,
  concessionaire: row.concessionaire as string,
  casino: row.casino as string,
  game: row.game as string,
  table_id: row.table_id as string,
  round_id: row.round_id as string | null,
  opened_at: row.event_time as number,
  macau_date: row.macau_date as string,
});

/** An alert's state after an event: the `alert_states` row (and, with the change's id, its history row). */
export interface AlertStateRow extends AlertFinding {
  finding_id: string;
  state: 'open' | 'acknowledged' | 'resolved';
  assignee: string | null;
  disposition: string | null;
  note: string;
  changed_by: string;
  /** UTC ms */
  changed_at: number;
  acknowledged_at: number | null;
  resolved_at: number | null;
  reopened: number;
  last_event: string;
  /** the event store position of the event: the ReplacingMergeTree version (decimal text) */
  version: string;
}

/**
 * The workflow's fold, as the API's evolve (services/api/src/alerts.ts) and docs/api.md "Projection into ClickHouse"
 * define it: acknowledged / resolved / reopened set the state, assigned and commented keep it; the assignee is set by
 * an assignment only; acknowledged_at and resolved_at are the latest such event's time, both cleared by a reopen,
 * as is the disposition. `before` is the state after the alert's previous event, null for its first.
 */
export function alertStateRow(
  e: RecordedEvent,
  a: AlertEvent,
  before: AlertStateRow | null,
  finding: AlertFinding,
): AlertStateRow {
  const d = a.data;
  const prev = before ?? {
    state: 'open' as const,
    assignee: null,
    disposition: null,
    acknowledged_at: null,
    resolved_at: null,
    reopened: 0,
  };
  const base: AlertStateRow = {
    ...finding,
    finding_id: d.alertId,
    state: prev.state,
    assignee: prev.assignee,
    disposition: prev.disposition,
    note: '',
    changed_by: d.actorSubject,
    changed_at: d.time,
    acknowledged_at: prev.acknowledged_at,
    resolved_at: prev.resolved_at,
    reopened: prev.reopened,
    last_event: a.type,
    version: version(e),
  };
  switch (a.type) {
    case 'AlertAcknowledged':
      return { ...base, state: 'acknowledged', acknowledged_at: d.time, note: a.data.note ?? '' };
    case 'AlertAssigned':
      return { ...base, assignee: a.data.assignee, note: a.data.assignee ?? '' };
    case 'AlertCommented':
      return { ...base, note: a.data.comment };
    case 'AlertResolved':
      return {
        ...base,
        state: 'resolved',
        resolved_at: d.time,
        disposition: a.data.disposition,
        note: `${a.data.disposition}: ${a.data.comment}`,
      };
    case 'AlertReopened':
      return {
        ...base,
        state: 'open',
        acknowledged_at: null,
        resolved_at: null,
        disposition: null,
        reopened: prev.reopened + 1,
        note: a.data.reason,
      };
  }
}

/** The history row of a change: the state after it, with the event's id and type. */
export const alertChangeRow = (e: RecordedEvent, s: AlertStateRow): Row => ({
  ...s,
  change_id: e.eventId,
});
