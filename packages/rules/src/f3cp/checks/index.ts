/**
 * The checks of the 2025 rules (Despacho 89/2025 as amended by 94/2025), one file per article family. Each check
 * is a small pure function from a judged round (and, for what is paid, its settlement) to its violations; this
 * file only lists them, in the order a round's findings are reported.
 */
import type { CheckDefinition } from '../../findings.ts';
import type { JudgedRound, RoundCheck, SettledRound } from '../round.ts';
import { cardsIntegrity, checkCardsIntegrity } from './art-02-cards.ts';
import {
  additionalWithoutBasic,
  betLate,
  betLimits,
  betOtherHand,
  checkAdditionalWithoutBasic,
  checkBetLate,
  checkBetLimits,
  checkBetOtherHand,
  checkNoSuchSeat,
  noSuchSeat,
} from './art-04-10-bets.ts';
import { shuffleProcedure } from './art-09-shuffle.ts';
import {
  checkDealCommunity,
  checkDealCount,
  checkDealFaceUp,
  checkDealOrder,
  dealCommunity,
  dealCount,
  dealFaceUp,
  dealOrder,
} from './art-11-dealing.ts';
import {
  checkNonSeatedHandling,
  checkPlayBeforeDeal,
  checkPlayNotEqualAnte,
  nonSeatedHandling,
  playBeforeDeal,
  playNotEqualAnte,
} from './art-12-playing.ts';
import {
  checkOutcome,
  checkPayouts,
  checkRepeatedSettlements,
  outcomeMisdeclared,
  payoutMismatch,
  payoutRepeated,
} from './art-13-16-settlement.ts';
import {
  checkCommunityRevealedEarly,
  checkCommunityWithoutBets,
  checkJackpotAmounts,
  checkJackpotOrder,
  checkJackpotPool,
  communityRevealedEarly,
  communityWithoutBets,
  jackpotAmount,
  jackpotOrder,
  jackpotPool,
} from './art-15-jackpot.ts';
import {
  checkNotVoided,
  checkShufflerSuspended,
  checkVoidCardsUsed,
  checkVoidedBets,
  checkWronglyVoided,
  irregBetsNotReturned,
  irregJackpotNotCarried,
  irregNotVoided,
  irregPlayAfterSecondFailure,
  irregShufflerNotSuspended,
  irregVoidCardsUsed,
  irregWronglyVoided,
} from './art-17-irregularities.ts';
import {
  checkCardReveal,
  checkLeftSeat,
  checkRecording,
  conductBettingSystem,
  conductCardReveal,
  conductLeftSeat,
  conductRecording,
} from './art-18-conduct.ts';
import { conductCollusion } from './art-18-collusion.ts';
import {
  eventAfterClose,
  checkEventTimes,
  checkRoundStarted,
  eventSequence,
  eventTimeOutOfLine,
  roundNotClosed,
  roundNotStarted,
  tableReconfigured,
} from './record.ts';

/** Every check of the 2025 rules, by a short key. */
export const F3CP_CHECKS = {
  payoutMismatch,
  payoutRepeated,
  outcomeMisdeclared,
  jackpotOrder,
  jackpotAmount,
  jackpotPool,
  communityWithoutBets,
  communityRevealedEarly,
  betLate,
  betLimits,
  betOtherHand,
  additionalWithoutBasic,
  noSuchSeat,
  playNotEqualAnte,
  playBeforeDeal,
  dealOrder,
  dealCount,
  dealCommunity,
  dealFaceUp,
  shuffleProcedure,
  cardsIntegrity,
  irregNotVoided,
  irregWronglyVoided,
  irregBetsNotReturned,
  irregJackpotNotCarried,
  irregShufflerNotSuspended,
  irregPlayAfterSecondFailure,
  irregVoidCardsUsed,
  conductRecording,
  conductBettingSystem,
  conductLeftSeat,
  conductCardReveal,
  conductCollusion,
  conductNonSeatedHandling: nonSeatedHandling,
  roundNotStarted,
  roundNotClosed,
  eventAfterClose,
  eventTimeOutOfLine,
  eventSequence,
  tableReconfigured,
} as const satisfies Record<string, CheckDefinition>;

export type F3cpCheckKey = keyof typeof F3CP_CHECKS;
export const ALL_F3CP_CHECK_IDS: readonly string[] = Object.values(F3CP_CHECKS).map((c) => c.id);

/** Checks of every round, voided or not, whatever its cards. */
export const PROCEDURE_CHECKS: readonly RoundCheck<JudgedRound>[] = [
  checkRoundStarted,
  checkEventTimes,
  checkCardsIntegrity,
  checkBetLate,
  checkBetLimits,
  checkBetOtherHand,
  checkNoSuchSeat,
  checkAdditionalWithoutBasic,
  checkPlayNotEqualAnte,
  checkPlayBeforeDeal,
  checkDealCount,
  checkDealCommunity,
  checkDealOrder,
  checkDealFaceUp,
  checkNotVoided,
  checkWronglyVoided,
  checkShufflerSuspended,
  checkVoidCardsUsed,
  checkLeftSeat,
  checkRecording,
  checkCardReveal,
  checkNonSeatedHandling,
  checkCommunityWithoutBets,
  checkCommunityRevealedEarly,
  checkRepeatedSettlements,
  checkVoidedBets,
];

/** Checks of what was declared and paid, against the engine's settlement of the cards. */
export const SETTLEMENT_CHECKS: readonly RoundCheck<SettledRound>[] = [
  checkPayouts,
  checkOutcome,
  checkJackpotOrder,
  checkJackpotAmounts,
  checkJackpotPool,
];
