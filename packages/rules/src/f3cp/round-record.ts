/**
 * What the replay derived for one F3CP round, as the game-neutral record analytics and the API read
 * (ta.audit.RoundDerived): place and time, rule set, status, totals expected and declared, one line per bet with
 * the difference in avos, and the findings and interpretations of the round. Built from the round's derivation
 * alone (pure), once the fold has attributed the round's findings.
 */
import type { BetLine, DerivationStatus, LineOutcome, RoundDerived } from '@table-audit/schemas/events';
import type { RoundRecord } from '../game.ts';
import { macauDate } from '../registry.ts';
import { voidedBetHandling } from './checks/art-17-irregularities.ts';
import { declaredKey, LINE_TYPE } from './events.ts';
import type { RoundView } from './fold.ts';
import type { SettlementLine } from './settle/index.ts';
import type { ReplayedRound } from './table.ts';

/** The order of a seat's lines: the schema's order of F3CP bets (the Ante bonus after the Play, as it is paid). */
const BET_ORDER: Readonly<Record<string, number>> = {
  ANTE: 0,
  PLAY: 1,
  ANTE_BONUS: 2,
  PAIR_PLUS: 3,
  SIX_CARD_BONUS: 4,
  PROGRESSIVE: 5,
};

const OUTCOME: Readonly<Record<SettlementLine['outcome'], LineOutcome>> = {
  win: 'WIN',
  lose: 'LOSE',
  push: 'PUSH',
  void: 'VOID',
};

/** J2 before J10: interpretation ids sorted as the register numbers them. */
const byInterpretationId = new Intl.Collator('en', { numeric: true }).compare;

/**
 * The record of a completed round; null when there is nothing to place it by (a round without events, or whose
 * time has no date, which its notDerived reason already says).
 *
 * Lines: a settled round has one per settlement line (the Ante bonus included); a voided round one per bet, to be
 * returned (VOID) or carried over (CARRIED_OVER); a round whose settlement could not be derived has none, since
 * no outcome is expected of its bets (its totals still say what was staked and declared). A round the rules
 * settle but the table never closed is NOT_DERIVED, with the lines the rules give.
 *
 * findingIds are the findings the fold attributed to the round when it closed; a finding about the round judged
 * in a later round (a Progressive bet not carried over, a late event) is in the findings stream, not here.
 */
export function f3cpRoundRecord(r: Omit<ReplayedRound, 'record'>): RoundRecord | null {
  const v = r.view;
  if (!v.events.length || !Number.isFinite(new Date(v.time).getTime())) return null;
  const started = v.events.find((e) => e.type === 'RoundStarted');
  const header = (started ?? v.events[0]!).data.header;
  const lines = r.settlement
    ? settledLines(v, r.settlement.lines)
    : r.judged && v.voided
      ? voidedLines(v, voidedBetHandling(r.judged))
      : [];

  let totalStaked = 0;
  for (const s of v.bets.values())
    totalStaked += s.ante + s.play + s.pairPlus + s.sixCardBonus + s.progressive;
  let expectedPaid = 0;
  for (const l of lines) expectedPaid += l.expectedPayoutAvos;
  let declaredPaid = 0;
  let collected = 0;
  for (const d of v.declared.values()) {
    declaredPaid += d.payout;
    collected += d.collected;
  }
  for (const j of v.jackpotPaid) declaredPaid += j.amount;

  const findingIds: string[] = [];
  const interpretations = new Set<string>(r.settlement?.interpretations ?? []);
  for (const f of r.findings)
    if (f.roundId === r.roundId) {
      if (!findingIds.includes(f.findingId)) findingIds.push(f.findingId);
      for (const i of f.interpretations) interpretations.add(i);
    }

  const { status, reason } = statusOf(r);
  const record: RoundDerived = {
    roundId: r.roundId,
    tableId: r.tableId,
    casino: header.casino,
    concessionaire: header.concessionaire,
    game: v.context.config.game,
    ruleSetId: r.ruleSet === null || r.ruleSet === 'none' ? null : r.ruleSet,
    macauDate: macauDate(v.time),
    roundStartTime: started ? started.data.header.eventTime : v.time,
    dealerId: started?.type === 'RoundStarted' ? started.data.dealerId : null,
    status,
    statusReason: reason,
    totalStakedAvos: totalStaked,
    expectedPaidAvos: expectedPaid,
    declaredPaidAvos: declaredPaid,
    houseResultAvos: collected - declaredPaid,
    lines,
    findingIds,
    interpretationIds: sortedIfNeeded([...interpretations], byInterpretationId),
  };
  return record;
}

function statusOf(r: Omit<ReplayedRound, 'record'>): { status: DerivationStatus; reason: string | null } {
  const v = r.view;
  if (r.notDerived?.code === 'voided' && v.voided)
    return {
      status: 'VOIDED',
      reason: v.voided.note ? `${v.voided.reason}: ${v.voided.note}` : v.voided.reason,
    };
  if (r.notDerived) return { status: 'NOT_DERIVED', reason: `${r.notDerived.code}: ${r.notDerived.message}` };
  if (!v.settled)
    return {
      status: 'NOT_DERIVED',
      reason: `not-closed: the round never closed (ended by ${v.endedBy ?? 'its last event'}); the lines are what the rules give`,
    };
  return { status: 'SETTLED', reason: null };
}

/** What the table declared on one bet, or null when it declared nothing; net = paid − collected. */
function declaredOn(v: RoundView, seat: number, betType: string): { payout: number; net: number } | null {
  const d = v.declared.get(declaredKey(seat, betType));
  let payout = d ? d.payout : 0;
  let any = d !== undefined;
  // a Progressive award is declared as JackpotPaid, not PayoutMade
  if (betType === 'PROGRESSIVE')
    for (const j of v.jackpotPaid)
      if (j.seat === seat) {
        payout += j.amount;
        any = true;
      }
  return any ? { payout, net: payout - (d ? d.collected : 0) } : null;
}

/** The betId of the bet's first BetPlaced (the Ante bonus is paid on the Ante). */
function betIdOf(v: RoundView, seat: number, betType: string): string | null {
  const placed = betType === 'ANTE_BONUS' ? 'ANTE' : betType;
  for (const b of v.betEvents)
    if (b.seat === seat && b.betType === placed && b.betId !== null) return b.betId;
  return null;
}

function betLine(
  v: RoundView,
  seat: number,
  betType: string,
  stake: number,
  outcome: LineOutcome,
  payout: number,
  net: number,
): BetLine {
  const declared = declaredOn(v, seat, betType);
  return {
    seat,
    betType,
    betId: betIdOf(v, seat, betType),
    stakeAvos: stake,
    expectedOutcome: outcome,
    expectedPayoutAvos: payout,
    expectedNetAvos: net,
    declaredPayoutAvos: declared ? declared.payout : null,
    declaredNetAvos: declared ? declared.net : null,
    differenceAvos: declared ? declared.net - net : null,
  };
}

const bySeatThenBet = (a: BetLine, b: BetLine): number =>
  a.seat - b.seat || BET_ORDER[a.betType]! - BET_ORDER[b.betType]!;

/**
 * `list` sorted by `order` (a stable sort): as it is when it already is, which is the common case here (the
 * engine settles seat by seat, bet by bet; most rounds have one or two interpretations), without the sort's work.
 */
function sortedIfNeeded<T>(list: T[], order: (a: T, b: T) => number): T[] {
  for (let i = 1; i < list.length; i++) if (!(order(list[i - 1]!, list[i]!) <= 0)) return list.sort(order); // NaN too
  return list;
}

function settledLines(v: RoundView, lines: readonly SettlementLine[]): BetLine[] {
  return sortedIfNeeded(
    lines.map((l) =>
      betLine(
        v,
        l.seat,
        LINE_TYPE[l.bet],
        l.amount,
        l.carriedOver ? 'CARRIED_OVER' : OUTCOME[l.outcome],
        l.payout,
        l.net,
      ),
    ),
    bySeatThenBet,
  );
}

function voidedLines(v: RoundView, bets: ReturnType<typeof voidedBetHandling>): BetLine[] {
  return sortedIfNeeded(
    bets.map((b) =>
      betLine(v, b.seat, b.betType, b.amount, b.expected === 'returned' ? 'VOID' : 'CARRIED_OVER', 0, 0),
    ),
    bySeatThenBet,
  );
}
