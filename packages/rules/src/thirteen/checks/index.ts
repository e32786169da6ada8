import type { CheckDefinition, FindingInput } from '../../findings.ts';
import type { ThirteenRuleSet } from '../rule-set.ts';
import type { ThirteenRound } from '../round.ts';
import { settleThirteenRound, type SettledRound } from '../settle.ts';
import * as deal from './art-02-04-deal.ts';
import * as bets from './art-02-bets.ts';
import * as arrange from './art-02-07-arrange.ts';
import * as payout from './art-08-11-payout.ts';
import * as conduct from './art-03-05-conduct.ts';

/** Every THIRTEEN. check of thirteen-cards-1989. */
export const THIRTEEN_CHECKS = {
  dealStartPlace: deal.dealStartPlace,
  dealCount: deal.dealCount,
  dealOrder: deal.dealOrder,
  misdealMishandled: deal.misdealMishandled,
  cutTooFew: deal.cutTooFew,
  betAfterDice: bets.betAfterDice,
  betTransferred: bets.betTransferred,
  foulNotPenalised: arrange.foulNotPenalised,
  timeExceededNotPenalised: arrange.timeExceededNotPenalised,
  playerBeforeBanker: arrange.playerBeforeBanker,
  payoutMismatch: payout.payoutMismatch,
  placeChanged: conduct.placeChanged,
  cardsOffTable: conduct.cardsOffTable,
  wrongHolder: conduct.wrongHolder,
} as const satisfies Record<string, CheckDefinition>;

export const ALL_THIRTEEN_CHECK_IDS: readonly string[] = Object.values(THIRTEEN_CHECKS).map((c) => c.id);

export interface JudgedThirteenRound {
  readonly settled: SettledRound;
  readonly findings: readonly FindingInput[];
}

/** Runs every check of the rule set on one round's facts. */
export function judgeThirteenRound(r: ThirteenRound, rules: ThirteenRuleSet): JudgedThirteenRound {
  const settled = settleThirteenRound(r, rules);
  const findings = [
    ...deal.checkStartPlace(r, rules),
    ...deal.checkDealCount(r),
    ...deal.checkDealOrder(r),
    ...deal.checkMisdeal(r, rules),
    ...deal.checkCut(r, rules),
    ...bets.checkBetAfterDice(r),
    ...bets.checkBetTransferred(r),
    ...arrange.checkFoulPenalised(r, settled),
    ...arrange.checkTimeExceeded(r, settled, rules),
    ...arrange.checkPlayerBeforeBanker(r),
    ...payout.checkPayout(r, settled),
    ...conduct.checkPlaceChanged(r),
    ...conduct.checkCardsOffTable(r),
    ...conduct.checkHolder(r),
  ];
  // under alternative readings of the settlement (T1, T2, T4, T5, T6), the findings judged on it name the ones
  // they were derived under (T3's check cites T3 already; the register's readings: unchanged)
  const ids = [...new Set((rules.alternatives ?? []).map((k) => k.split(':')[0]!))].filter((i) => i !== 'T3');
  if (!ids.length) return { settled, findings };
  const onSettlement = new Set<CheckDefinition>([payout.payoutMismatch, arrange.foulNotPenalised]);
  return {
    settled,
    findings: findings.map((f) =>
      onSettlement.has(f.check)
        ? { ...f, extraInterpretations: [...(f.extraInterpretations ?? []), ...ids] }
        : f,
    ),
  };
}
