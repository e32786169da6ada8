/**
 * What the replay derived for one CRAPS throw, as the game-neutral record analytics and the API read
 * (ta.audit.RoundDerived, one per throw: the throw is the unit the law judges). One line per bet the throw
 * resolved, by the rules or by the table's declaration; a bet the throw leaves on the layout has no line.
 * Craps has no seats: a line's seat is 0, and the player is in the findings. A bet no rule of 53/2010 settles (an
 * EXTRA bet, odds with no line) gets a line with what the table declared as its outcome and no difference: it is
 * not judged. A bet the throw did not decide but the table settled is CARRIED_OVER: by the rules it stays.
 */
import type { BetLine, LineOutcome, RoundDerived } from '@table-audit/schemas/events';
import type { RoundRecord } from '../game.ts';
import { macauDate } from '../registry.ts';
import type { CrapsThrowUnit } from './table.ts';

const byInterpretationId = new Intl.Collator('en', { numeric: true }).compare;

export function crapsThrowRecord(u: Omit<CrapsThrowUnit, 'record'>): RoundRecord | null {
  const t = u.throwEvent;
  if (!Number.isFinite(new Date(t.header.eventTime).getTime())) return null;
  const lines: BetLine[] = [];
  let staked = 0;
  let expectedPaid = 0;
  let declaredPaid = 0;
  let collected = 0;
  const interpretations = new Set<string>();
  for (const l of u.lines) {
    if (l.outcome === null && l.declared === null) continue; // stays on the layout: resolved by a later throw
    const d = l.declared;
    if (!l.judged && d) {
      // no rule of 53/2010 settles it (an EXTRA bet, odds with no line): the line says what the table did, unjudged
      const net = d.outcome === 'WIN' ? d.payout : d.outcome === 'LOSE' ? -l.stake : 0;
      staked += l.stake;
      declaredPaid += d.payout;
      if (d.outcome === 'LOSE') collected += l.stake;
      lines.push({
        seat: 0,
        betType: l.bet,
        betId: l.betId,
        stakeAvos: l.stake,
        expectedOutcome: d.outcome as LineOutcome,
        expectedPayoutAvos: d.payout,
        expectedNetAvos: net,
        declaredPayoutAvos: d.payout,
        declaredNetAvos: net,
        differenceAvos: null,
      });
      continue;
    }
    const expectedNet = l.outcome === 'WIN' ? l.payout : l.outcome === 'LOSE' ? -l.stake : 0;
    const declaredNet = d ? (d.outcome === 'WIN' ? d.payout : d.outcome === 'LOSE' ? -l.stake : 0) : null;
    staked += l.stake;
    expectedPaid += l.payout;
    if (d) {
      declaredPaid += d.payout;
      if (d.outcome === 'LOSE') collected += l.stake;
    }
    for (const i of l.interpretations) interpretations.add(i);
    lines.push({
      seat: 0,
      betType: l.bet,
      betId: l.betId,
      stakeAvos: l.stake,
      // a bet the throw did not decide, settled by the table all the same: by the rules it stays on the layout
      expectedOutcome: (l.outcome ?? 'CARRIED_OVER') as LineOutcome,
      expectedPayoutAvos: l.payout,
      expectedNetAvos: expectedNet,
      declaredPayoutAvos: d ? d.payout : null,
      declaredNetAvos: declaredNet,
      differenceAvos: declaredNet === null ? null : declaredNet - expectedNet,
    });
  }
  const findingIds: string[] = [];
  for (const f of u.findings)
    if (f.roundId === u.roundId) {
      if (!findingIds.includes(f.findingId)) findingIds.push(f.findingId);
      for (const i of f.interpretations) interpretations.add(i);
    }
  const voided = t.declaredVoid;
  const record: RoundDerived = {
    roundId: u.roundId,
    tableId: u.tableId,
    casino: t.header.casino,
    concessionaire: t.header.concessionaire,
    game: 'CRAPS',
    ruleSetId: u.ruleSet,
    macauDate: macauDate(t.header.eventTime),
    roundStartTime: t.header.eventTime,
    dealerId: t.header.staffId,
    status: u.notDerived ? 'NOT_DERIVED' : voided ? 'VOIDED' : 'SETTLED',
    statusReason: u.notDerived
      ? `${u.notDerived.code}: ${u.notDerived.message}`
      : voided
        ? `void throw${t.voidReason ? `: ${t.voidReason}` : ''}`
        : null,
    totalStakedAvos: staked,
    expectedPaidAvos: expectedPaid,
    declaredPaidAvos: declaredPaid,
    houseResultAvos: collected - declaredPaid,
    lines,
    findingIds,
    interpretationIds: [...interpretations].sort(byInterpretationId),
  };
  return record;
}
