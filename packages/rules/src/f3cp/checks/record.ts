import type { F3cpEvent, TableOpened } from '@table-audit/schemas/events';
import { cite } from '../../citations/citation.ts';
import { defineCheck, evidenceOf, type FindingInput } from '../../findings.ts';
import { formatMop, utcText } from '../../present.ts';
import { F3CP_2025_DIPLOMA as D } from '../rule-set.ts';
import { ROUND_TIME_SPAN_MS } from '../fold.ts';
import type { JudgedRound } from '../round.ts';
import { jackpotPool } from './art-15-jackpot.ts';

/**
 * The record itself: a round the table never opened or never closed, an event whose time cannot be right, a
 * table re-opened with other settings. The law judges rounds by their events; where the events cannot show what
 * the law requires, that is a finding, and what can still be judged is judged.
 */

export const roundNotStarted = defineCheck(
  'F3CP.ROUND.NOT_STARTED',
  'events of a round the table never started',
  'medium',
  // without the start of the round no bet can be shown to precede the first card
  [cite(D, 10, { alinea: 3 })],
);

export const roundNotClosed = defineCheck(
  'F3CP.ROUND.NOT_CLOSED',
  'a round neither settled nor voided',
  'high',
  [cite(D, 13), cite(D, 17, { numero: 1 })],
);

export const eventAfterClose = defineCheck(
  'F3CP.ROUND.EVENT_AFTER_CLOSE',
  'an event of a round arrived after the round was settled or voided',
  'high',
  [cite(D, 13), cite(D, 17, { numero: 1 })],
);

export const eventTimeOutOfLine = defineCheck(
  'F3CP.EVENT.TIME_OUT_OF_LINE',
  "an event's time is far out of line with the rest of its round",
  'medium',
  // the time of a round decides which rules govern it (the despacho's entry into force)
  [cite(D, 0, { numero: 3 }), cite(D, 0, { numero: 5 })],
);

export const eventSequence = defineCheck(
  'F3CP.EVENT.SEQUENCE',
  "a source's sequence numbers do not run on by one: a gap, a repeat or a step backwards",
  'medium',
  // the order of a round's events is what shows the bets before the first card and the cards in deal order
  [cite(D, 10, { alinea: 3 }), cite(D, 11, { numero: 1 })],
);

export const tableReconfigured = defineCheck(
  'F3CP.TABLE.RECONFIGURED',
  'table settings changed mid-session without closing the table',
  'medium',
  [cite(D, 10, { alinea: 1 }), cite(D, 5, { numero: 2 })],
);

export function checkRoundStarted(r: JudgedRound): FindingInput[] {
  const v = r.view;
  if (v.started) return [];
  const first = v.events[0]!;
  return [
    {
      check: roundNotStarted,
      summary: `round ${v.roundId}: ${v.events.length} event(s), the first a ${first.type}, but no RoundStarted; judged on the events there are`,
      expected: 'RoundStarted before the round’s other events',
      declared: { firstEvent: first.type },
      evidence: [evidenceOf(first.data)],
    },
  ];
}

/** An unclosed round is still judged; the settlement it owes is in the finding. */
export function checkRoundClosed(r: JudgedRound, owed: unknown): FindingInput[] {
  const v = r.view;
  if (v.settled || v.voided) return [];
  const last = v.events[v.events.length - 1]!;
  return [
    {
      check: roundNotClosed,
      seats: r.betSeats.map((b) => b.seat),
      summary: `round ${v.roundId} ended (next event: ${v.endedBy ?? 'end of the stream'}) with neither RoundSettled nor RoundVoided; last event ${last.type}`,
      expected: owed ?? 'RoundSettled or RoundVoided',
      declared: { lastEvent: last.type, settlementEvents: v.declared.size + v.jackpotPaid.length },
      evidence: [evidenceOf(last.data)],
    },
  ];
}

export function checkEventTimes(r: JudgedRound): FindingInput[] {
  return r.view.timeOutliers.map((e) => ({
    check: eventTimeOutOfLine,
    discriminator: e.data.header.eventId,
    summary: `${e.type} ${e.data.header.eventId} at ${utcText(e.data.header.eventTime)} (UTC), ${describeGap(e.data.header.eventTime - r.view.time)} from the rest of round ${r.view.roundId}; the round is dated by its other events`,
    expected: { within: ROUND_TIME_SPAN_MS, of: r.view.time },
    declared: { eventTime: e.data.header.eventTime },
    evidence: [evidenceOf(e.data)],
  }));
}

export type SequenceKind = 'gap' | 'repeat' | 'backwards';

/**
 * Each source (header.sourceDevice) numbers its events 1, 2, 3, … (header.sequence). A gap says events of the
 * source are missing; a repeat (the number of the event before, another event id) and a step backwards say the
 * record is not in the order the source emitted it. Judged per table, in the order the table's events are stored.
 */
export function checkSequence(
  e: F3cpEvent,
  previous: number,
  kind: SequenceKind,
  refused: string | null,
): FindingInput {
  const h = e.data.header;
  const what =
    kind === 'gap'
      ? `${h.sequence - previous - 1} event(s) of the source missing before it`
      : kind === 'repeat'
        ? 'the number of the event before it, again'
        : `a step backwards: the source's events are not in the order it emitted them`;
  return {
    check: eventSequence,
    discriminator: `${h.sourceDevice}:${h.sequence}:${h.eventId}`,
    summary: `${e.type} ${h.eventId} of ${h.sourceDevice} has sequence ${h.sequence} after ${previous}: ${what}${refused ? `; round ${refused} is not re-derived (its events' order cannot be trusted)` : ''}`,
    expected: { sourceDevice: h.sourceDevice, sequence: previous + 1 },
    declared: { sourceDevice: h.sourceDevice, sequence: h.sequence },
    evidence: [evidenceOf(e.data)],
    details: { kind, source: h.sourceDevice, previous },
  };
}

const describeGap = (ms: number): string => {
  const h = Math.abs(ms) / 3_600_000;
  const text = h >= 48 ? `${Math.round(h / 24)} days` : `${Math.round(h)} hours`;
  return ms < 0 ? `${text} earlier` : `${text} later`;
};

/**
 * A second TableOpened while the table is open: settings that change mid-session (limits, seats, dealing,
 * jackpot amounts), and a pool that moves with no JackpotPoolChanged, are findings.
 */
export function checkReopened(before: TableOpened, after: TableOpened, pool: number | null): FindingInput[] {
  const out: FindingInput[] = [];
  // field by field, in the schema's order: the same settings compare equal whatever order their keys came in (an
  // event read back from the store has its keys sorted; one parsed from a start state, in the schema's order)
  const settings = (t: TableOpened) => {
    const j = t.jackpot;
    const f = j?.fixedAmounts;
    return JSON.stringify({
      seats: t.seats,
      betLimits: [...t.betLimits]
        .sort((a, b) => a.betType.localeCompare(b.betType))
        .map((l) => ({ betType: l.betType, minimum: l.minimum, maximum: l.maximum })),
      shuffleMode: t.shuffleMode,
      jackpot: j && {
        fixedAmounts: f && {
          royalFlush: f.royalFlush,
          straightFlush: f.straightFlush,
          fourOfAKind: f.fourOfAKind,
          fullHouse: f.fullHouse,
          flush: f.flush,
        },
        resetAmount: j.resetAmount,
      },
      rounding: t.rounding && { unitAvos: t.rounding.unitAvos, mode: t.rounding.mode },
    });
  };
  const changed = settings(before) !== settings(after);
  if (changed)
    out.push({
      check: tableReconfigured,
      discriminator: after.header.eventId,
      summary: `table ${after.header.tableId} opened again without being closed, with other settings`,
      expected: JSON.parse(settings(before)),
      declared: JSON.parse(settings(after)),
      evidence: [evidenceOf(before), evidenceOf(after)],
    });
  const newPool = after.jackpot?.initialPool ?? null;
  if (pool !== null && newPool !== null && newPool !== pool)
    out.push({
      check: jackpotPool,
      discriminator: after.header.eventId,
      summary: `the jackpot pool moved from ${formatMop(pool)} to ${formatMop(newPool)} by a TableOpened, with no JackpotPoolChanged`,
      expected: { pool },
      declared: { pool: newPool },
      evidence: [evidenceOf(after)],
    });
  return out;
}

/**
 * An event that names a round after the round's closing event: outside its round no rule judges it, and money
 * moved after a round is settled or voided is not accounted for by that round. (A surveillance observation that
 * arrives late is no such finding: analysts report after the fact; it is judged as an observation.)
 */
export function checkEventAfterClose(e: F3cpEvent, closedBy: string): FindingInput[] {
  const d = e.data as { seat?: number | null; amount?: number; betType?: string };
  const what = [
    d.seat ? `seat ${d.seat}` : '',
    d.betType ?? '',
    typeof d.amount === 'number' ? formatMop(d.amount) : '',
  ]
    .filter(Boolean)
    .join(' ');
  return [
    {
      check: eventAfterClose,
      discriminator: e.data.header.eventId,
      seats: d.seat ? [d.seat] : [],
      summary: `${e.type}${what ? ` (${what})` : ''} of round ${e.data.header.roundId} arrived after the round was closed by ${closedBy}; it is outside the round the law judges`,
      expected: `no event of the round after its ${closedBy}`,
      declared: { type: e.type, ...(typeof d.amount === 'number' ? { amount: d.amount } : {}) },
      evidence: [evidenceOf(e.data)],
    },
  ];
}
