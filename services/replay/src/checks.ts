import { cite, type Citation } from '@table-audit/rules';

/**
 * The named checks of shared/spec/f3cp-2025.md, each with its severity, the provisions it enforces and the
 * interpretations it depends on. A finding cites these plus, for payouts, the settlement line's own citations.
 */
export type Severity = 'critical' | 'high' | 'medium' | 'low';

export interface CheckDefinition {
  readonly id: string;
  readonly title: string;
  readonly severity: Severity;
  readonly citations: readonly Citation[];
  readonly interpretations: readonly string[];
}

const D = '89/2025';
const check = (
  id: string,
  title: string,
  severity: Severity,
  citations: Citation[],
  interpretations: string[] = [],
): CheckDefinition =>
  Object.freeze({
    id,
    title,
    severity,
    citations: Object.freeze(citations),
    interpretations: Object.freeze(interpretations),
  });

export const F3CP_CHECKS = {
  payoutMismatch: check('F3CP.PAYOUT.MISMATCH', 'a bet was settled differently from the rules', 'high', [
    cite(D, 13),
    cite(D, 16),
  ]),
  outcomeMisdeclared: check(
    'F3CP.OUTCOME.MISDECLARED',
    'declared hand, qualification or winner differs from the cards',
    'high',
    [cite(D, 7, { numero: 1 }), cite(D, 13)],
    ['J11'],
  ),
  jackpotOrder: check(
    'F3CP.JACKPOT.ORDER',
    'Progressive Jackpot paid out of order',
    'medium',
    // art. 15.º n.º 5 and J10 come from the payments themselves when a round has a Royal and a Straight Flush
    [cite(D, 15, { numero: 3 })],
    ['J14'],
  ),
  jackpotAmount: check(
    'F3CP.JACKPOT.AMOUNT',
    'Progressive Jackpot paid a wrong amount',
    'high',
    [cite(D, 16, { numero: 3 }), cite(D, 15, { numero: 4 })],
    ['J4', 'J6'],
  ),
  jackpotPool: check(
    'F3CP.JACKPOT.POOL',
    'Progressive Jackpot pool not reduced or reset as required',
    'high',
    [cite(D, 15, { numero: 6 })],
    ['J4', 'J6'],
  ),
  communityWithoutBets: check(
    'F3CP.JACKPOT.COMMUNITY_REVEALED_WITHOUT_BETS',
    'community cards revealed with no Progressive bet',
    'medium',
    [cite(D, 15, { numero: 2 })],
  ),
  betLate: check('F3CP.BET.LATE', 'bet placed after the first card was dealt', 'high', [
    cite(D, 10, { alinea: 3 }),
  ]),
  betLimits: check('F3CP.BET.LIMITS', "bet outside the table's posted limits", 'medium', [
    cite(D, 10, { alinea: 1 }),
  ]),
  betOtherHand: check(
    'F3CP.BET.OTHER_HAND',
    "bet placed on a hand other than the player's own",
    'high',
    [cite(D, 10, { alinea: 2 })],
    ['J12'],
  ),
  additionalWithoutBasic: check(
    'F3CP.BET.ADDITIONAL_WITHOUT_BASIC',
    'additional bet accepted without a basic bet',
    'medium',
    [cite(D, 3, { numero: 4 }), cite(D, 4, { numero: 2 }), cite(D, 4, { numero: 3 })],
  ),
  playNotEqualAnte: check('F3CP.BET.PLAY_NOT_EQUAL_ANTE', 'Play bet not equal to the Ante', 'high', [
    cite(D, 12, { numero: 2 }),
  ]),
  dealOrder: check('F3CP.DEAL.ORDER', 'cards dealt out of the prescribed order', 'medium', [
    cite(D, 11, { numero: 1 }),
    cite(D, 11, { numero: 2 }),
  ]),
  dealCount: check('F3CP.DEAL.COUNT', 'a hand did not receive exactly three cards', 'medium', [
    cite(D, 11, { numero: 1 }),
    cite(D, 11, { numero: 2 }),
  ]),
  dealCommunity: check('F3CP.DEAL.COMMUNITY', 'community cards dealt wrongly', 'medium', [
    cite(D, 11, { numero: 3 }),
    cite(D, 11, { numero: 4 }),
  ]),
  dealFaceUp: check('F3CP.DEAL.FACE_UP', 'a card was dealt face up', 'medium', [cite(D, 11, { numero: 5 })]),
  shuffleProcedure: check(
    'F3CP.SHUFFLE.PROCEDURE',
    'manual shuffle without a cut, or a cut card with the automatic shuffler',
    'medium',
    [cite(D, 9, { numero: 2 }), cite(D, 9, { numero: 3 })],
  ),
  cardsIntegrity: check(
    'F3CP.CARDS.INTEGRITY',
    'a card seen twice in one deck, or a card that is not in the deck',
    'critical',
    [cite(D, 2, { numero: 1, alinea: 1 })],
  ),
  irregNotVoided: check(
    'F3CP.IRREG.NOT_VOIDED',
    'round with an art. 17.º n.º 1 irregularity settled instead of voided',
    'critical',
    [cite(D, 17, { numero: 1 })],
  ),
  irregWronglyVoided: check(
    'F3CP.IRREG.WRONGLY_VOIDED',
    'round voided although the irregularity lets it go on',
    'high',
    [cite(D, 17, { numero: 4 }), cite(D, 17, { numero: 5 })],
  ),
  irregBetsNotReturned: check(
    'F3CP.IRREG.BETS_NOT_RETURNED',
    'bets of a voided round collected instead of returned',
    'critical',
    [cite(D, 17, { numero: 1 })],
  ),
  irregJackpotNotCarried: check(
    'F3CP.IRREG.JACKPOT_NOT_CARRIED',
    'Progressive bets of a voided round not carried to the next round',
    'high',
    [cite(D, 17, { numero: 3 })],
  ),
  irregShufflerNotSuspended: check(
    'F3CP.IRREG.SHUFFLER_NOT_SUSPENDED',
    'round went on after a shuffler malfunction',
    'high',
    [cite(D, 17, { numero: 2 })],
    ['J15'],
  ),
  irregPlayAfterSecondFailure: check(
    'F3CP.IRREG.PLAY_AFTER_SECOND_FAILURE',
    'new round after a second shuffler failure without a new shuffler or a shoe',
    'high',
    [cite(D, 17, { numero: 2 })],
    ['J15'],
  ),
  irregVoidCardsUsed: check(
    'F3CP.IRREG.VOID_CARDS_USED',
    'cards dealt to a hand without bets were used',
    'high',
    [cite(D, 17, { numero: 4, alinea: 2 }), cite(D, 17, { numero: 5 })],
  ),
  conductRecording: check(
    'F3CP.CONDUCT.RECORDING',
    'recording, prediction or strategy device or notes observed',
    'medium',
    [cite(D, 18, { numero: 1 })],
  ),
  conductBettingSystem: check(
    'F3CP.CONDUCT.BETTING_SYSTEM',
    'stakes follow a progression driven by prior results (indicator)',
    'low',
    [cite(D, 18, { numero: 1 })],
  ),
  conductLeftSeat: check('F3CP.CONDUCT.LEFT_SEAT', 'seated player left the seat during a round', 'medium', [
    cite(D, 18, { numero: 2 }),
  ]),
  conductCardReveal: check(
    'F3CP.CONDUCT.CARD_REVEAL',
    'cards revealed to third parties during a round',
    'high',
    [cite(D, 18, { numero: 2 }), cite(D, 18, { numero: 3 })],
    ['J16'],
  ),
  conductCollusion: check(
    'F3CP.CONDUCT.COLLUSION',
    "a group's decisions follow the cards of the whole group (statistical)",
    'high',
    [cite(D, 18, { numero: 3 })],
  ),
  conductNonSeatedHandling: check(
    'F3CP.CONDUCT.NON_SEATED_HANDLING',
    'cards held or viewed by someone not seated at that hand',
    'high',
    [cite(D, 12, { numero: 1 })],
    ['J13'],
  ),
} as const;

export type F3cpCheckKey = keyof typeof F3CP_CHECKS;
export const ALL_F3CP_CHECK_IDS: readonly string[] = Object.values(F3CP_CHECKS).map((c) => c.id);
