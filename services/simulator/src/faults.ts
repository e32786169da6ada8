/**
 * The faults the simulator can inject, each with the check ids of shared/spec/f3cp-2025.md that must find it.
 * A fault is injected into one round (or, for conduct over time, into a player's whole session) and written to
 * the ground truth with those ids.
 */
export const FAULTS = {
  'payout-wrong': ['F3CP.PAYOUT.MISMATCH'],
  'outcome-misdeclared': ['F3CP.OUTCOME.MISDECLARED'],
  'jackpot-order': ['F3CP.JACKPOT.ORDER'],
  'jackpot-amount': ['F3CP.JACKPOT.AMOUNT'],
  'jackpot-pool': ['F3CP.JACKPOT.POOL'],
  'community-revealed-without-bets': ['F3CP.JACKPOT.COMMUNITY_REVEALED_WITHOUT_BETS'],
  'bet-late': ['F3CP.BET.LATE'],
  'bet-over-limit': ['F3CP.BET.LIMITS'],
  'bet-other-hand': ['F3CP.BET.OTHER_HAND'],
  'additional-without-basic': ['F3CP.BET.ADDITIONAL_WITHOUT_BASIC'],
  'play-not-equal-ante': ['F3CP.BET.PLAY_NOT_EQUAL_ANTE'],
  'misdeal-order-settled': ['F3CP.DEAL.ORDER', 'F3CP.IRREG.NOT_VOIDED'],
  'misdeal-order-voided': ['F3CP.DEAL.ORDER'],
  'misdeal-count-settled': ['F3CP.DEAL.COUNT', 'F3CP.IRREG.NOT_VOIDED'],
  'misdeal-community-settled': ['F3CP.DEAL.COMMUNITY', 'F3CP.IRREG.NOT_VOIDED'],
  'card-face-up': ['F3CP.DEAL.FACE_UP'],
  'shuffle-procedure': ['F3CP.SHUFFLE.PROCEDURE'],
  'card-twice': ['F3CP.CARDS.INTEGRITY'],
  'banker-exposed-not-voided': ['F3CP.IRREG.NOT_VOIDED'],
  'wrongly-voided': ['F3CP.IRREG.WRONGLY_VOIDED'],
  'void-bets-collected': ['F3CP.IRREG.BETS_NOT_RETURNED'],
  'jackpot-not-carried': ['F3CP.DEAL.ORDER', 'F3CP.IRREG.JACKPOT_NOT_CARRIED'],
  'shuffler-not-suspended': ['F3CP.IRREG.SHUFFLER_NOT_SUSPENDED'],
  'play-after-second-failure': ['F3CP.IRREG.PLAY_AFTER_SECOND_FAILURE'],
  'void-cards-used': ['F3CP.IRREG.VOID_CARDS_USED'],
  'recording-observed': ['F3CP.CONDUCT.RECORDING'],
  'left-seat': ['F3CP.CONDUCT.LEFT_SEAT'],
  'card-reveal': ['F3CP.CONDUCT.CARD_REVEAL'],
  'non-seated-handling': ['F3CP.CONDUCT.NON_SEATED_HANDLING'],
  'settlement-repeated': ['F3CP.PAYOUT.REPEATED', 'F3CP.PAYOUT.MISMATCH'],
  'jackpot-paid-twice': ['F3CP.PAYOUT.REPEATED'],
  'bet-no-such-seat': ['F3CP.BET.NO_SUCH_SEAT'],
  'play-before-deal': ['F3CP.BET.PLAY_BEFORE_DEAL'],
  'community-revealed-early': ['F3CP.JACKPOT.COMMUNITY_REVEALED_EARLY'],
  'round-not-started': ['F3CP.ROUND.NOT_STARTED'],
  'round-not-closed': ['F3CP.ROUND.NOT_CLOSED'],
  'event-time-off': ['F3CP.EVENT.TIME_OUT_OF_LINE'],
  'table-reconfigured': ['F3CP.TABLE.RECONFIGURED'],
  'pool-changed-unrecorded': ['F3CP.JACKPOT.POOL'],
  'void-progressive-collected': ['F3CP.DEAL.ORDER', 'F3CP.IRREG.BETS_NOT_RETURNED'],
  'banker-card-face-up': ['F3CP.DEAL.FACE_UP', 'F3CP.IRREG.NOT_VOIDED'],
  // the table voids the round, as it must: the face-up card is recorded, handled (J18, J19)
  'banker-card-face-up-voided': ['F3CP.DEAL.FACE_UP'],
} as const satisfies Record<string, readonly string[]>;

export type RoundFault = keyof typeof FAULTS;
export const ROUND_FAULTS = Object.keys(FAULTS) as RoundFault[];

/**
 * Irregularities the table handles correctly: injected as negative controls, they must produce no finding
 * (a shuffler malfunction answered by voiding the round and carrying the Progressive bets over; one player card
 * exposed and play going on; a card dealt to an empty seat and left out).
 */
export const HANDLED_IRREGULARITIES = [
  'malfunction-handled',
  'one-card-exposed',
  'card-to-empty-seat',
] as const;
export type HandledIrregularity = (typeof HANDLED_IRREGULARITIES)[number];

export interface GroundTruth {
  tableId: string;
  /** null for conduct over many rounds (betting system, collusion): matched by table and players */
  roundId: string | null;
  fault: RoundFault | 'betting-system' | 'collusion';
  checkIds: readonly string[];
  players?: string[];
}
