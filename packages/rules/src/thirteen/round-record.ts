/**
 * What the replay derived for one 13 Cards round, as the game-neutral record analytics and the API read
 * (ta.audit.RoundDerived): one line per bet, its seat the place bet on (1 to 3), the expected result from the
 * rules (art. 11.º under T2) beside what the table declared. A line's payout is what the bettor gained (0 on a
 * loss or a tie); its net is the gain or the loss.
 */
import type { BetLine, RoundDerived } from '@table-audit/schemas/events';
import type { RoundRecord } from '../game.ts';
import { macauDate } from '../registry.ts';
import { outcomeSymbol } from './events.ts';
import type { ThirteenRoundUnit } from './table.ts';

const byInterpretationId = new Intl.Collator('en', { numeric: true }).compare;

export function thirteenRoundRecord(u: Omit<ThirteenRoundUnit, 'record'>): RoundRecord | null {
  if (!Number.isFinite(new Date(u.startTime).getTime())) return null;
  const lines: BetLine[] = [];
  let staked = 0;
  let expectedPaid = 0;
  let declaredPaid = 0;
  let collected = 0;
  const interpretations = new Set<string>();
  if (u.settled && u.facts) {
    interpretations.add('T2');
    for (const x of u.settled.bets) {
      const declared = u.facts.settlements.find((s) => s.betId === x.bet.betId) ?? null;
      staked += x.settlement.atRisk;
      expectedPaid += Math.max(0, x.settlement.net);
      if (declared) {
        declaredPaid += Math.max(0, declared.net);
        if (declared.net < 0) collected += -declared.net;
      }
      lines.push({
        seat: x.bet.place,
        betType: `PLACE_${x.bet.place}_${x.bet.units}PT`,
        betId: x.bet.betId,
        stakeAvos: x.settlement.atRisk,
        expectedOutcome:
          x.settlement.outcome === 'tie' ? 'PUSH' : (outcomeSymbol(x.settlement.outcome) as 'WIN' | 'LOSE'),
        expectedPayoutAvos: Math.max(0, x.settlement.net),
        expectedNetAvos: x.settlement.net,
        declaredPayoutAvos: declared ? Math.max(0, declared.net) : null,
        declaredNetAvos: declared ? declared.net : null,
        differenceAvos: declared ? declared.net - x.settlement.net : null,
      });
    }
  }
  const findingIds: string[] = [];
  for (const f of u.findings)
    if (f.roundId === u.roundId) {
      if (!findingIds.includes(f.findingId)) findingIds.push(f.findingId);
      for (const i of f.interpretations) interpretations.add(i);
    }
  const nd = u.notDerived;
  const record: RoundDerived = {
    roundId: u.roundId,
    tableId: u.tableId,
    casino: u.casino,
    concessionaire: u.concessionaire,
    game: 'THIRTEEN_CARDS',
    ruleSetId: u.ruleSet,
    macauDate: macauDate(u.startTime),
    roundStartTime: u.startTime,
    dealerId: u.dealerId,
    status: u.voided ? 'VOIDED' : nd ? 'NOT_DERIVED' : 'SETTLED',
    statusReason: nd ? `${nd.code}: ${nd.message}` : null,
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
