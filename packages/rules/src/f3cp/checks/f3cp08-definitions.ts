import { cite } from '../../citations/citation.ts';
import { defineCheck, type CheckDefinition } from '../../findings.ts';
import { F3CP_2008_DIPLOMA as D } from '../rule-set-2008.ts';

/**
 * The checks of the 2008 rules (Despacho 78/2008; art. 9.º re-worded by 97/2008), prefix F3CP08. Each cites 78/2008
 * only. Art. 9.º is cited in 78/2008's wording here: a finding of a f3cp-2008a round takes the 97/2008 wording
 * from the settlement lines it points at. 78/2008 has no counterpart of 89/2025's art. 18.º (conduct), so no
 * conduct check exists for 2008 rounds except art. 6.º 4) (cards held off the table or by someone not seated).
 */

export const F3CP08 = {
  payoutMismatch: defineCheck(
    'F3CP08.PAYOUT.MISMATCH',
    'a bet was settled differently from the rules',
    'high',
    [cite(D, 9), cite(D, 10)],
  ),
  payoutRepeated: defineCheck('F3CP08.PAYOUT.REPEATED', 'the same settlement was declared twice', 'high', [
    cite(D, 9),
    cite(D, 10),
  ]),
  outcomeMisdeclared: defineCheck(
    'F3CP08.OUTCOME.MISDECLARED',
    "declared hand, croupier's qualification or winner differs from the cards",
    'high',
    [cite(D, 8), cite(D, 9, { alinea: 4 })],
    ['H1', 'H7'],
  ),
  playRequired: defineCheck(
    'F3CP08.PLAY.REQUIRED',
    'a player with Ante and Pair Plus bets did not make the Play bet',
    'high',
    [cite(D, 9, { alinea: 3 })],
    ['H4'],
  ),
  playNotEqualAnte: defineCheck('F3CP08.BET.PLAY_NOT_EQUAL_ANTE', 'Play bet not equal to the Ante', 'high', [
    cite(D, 9, { alinea: 1 }),
  ]),
  playBeforeDeal: defineCheck(
    'F3CP08.BET.PLAY_BEFORE_DEAL',
    'Play bet placed before the hand was dealt',
    'high',
    [cite(D, 9, { alinea: 1 }), cite(D, 6, { alinea: 3 })],
  ),
  betNotOffered: defineCheck(
    'F3CP08.BET.NOT_OFFERED',
    'a bet the 2008 rules do not have (only Ante and Pair Plus, with the Play bet)',
    'high',
    [cite(D, 5, { numero: 1 })],
  ),
  betLate: defineCheck('F3CP08.BET.LATE', 'bet placed after the first card was dealt', 'high', [
    cite(D, 6, { alinea: 3 }),
  ]),
  betLimits: defineCheck('F3CP08.BET.LIMITS', "bet outside the table's posted limits", 'medium', [
    cite(D, 6, { alinea: 1 }),
  ]),
  betOtherHand: defineCheck(
    'F3CP08.BET.OTHER_HAND',
    "bet placed on a hand other than the player's own, or jointly with other hands",
    'high',
    [cite(D, 6, { alinea: 2 })],
  ),
  noSuchSeat: defineCheck(
    'F3CP08.BET.NO_SUCH_SEAT',
    'bet or card on a seat the table does not have',
    'high',
    [cite(D, 2, { numero: 1 })],
  ),
  dealOrder: defineCheck('F3CP08.DEAL.ORDER', 'cards dealt out of the prescribed order', 'medium', [
    cite(D, 7, { alinea: 1 }),
    cite(D, 7, { alinea: 2 }),
  ]),
  dealCount: defineCheck('F3CP08.DEAL.COUNT', 'a hand did not receive exactly three cards', 'medium', [
    cite(D, 7, { alinea: 1 }),
    cite(D, 7, { alinea: 2 }),
  ]),
  dealFaceUp: defineCheck('F3CP08.DEAL.FACE_UP', 'a card was dealt face up', 'medium', [
    cite(D, 7, { alinea: 1 }),
    cite(D, 7, { alinea: 2 }),
  ]),
  shuffleProcedure: defineCheck(
    'F3CP08.SHUFFLE.PROCEDURE',
    'manual shuffle without a cut, or a cut card used with the automatic shuffler',
    'medium',
    [cite(D, 3, { alinea: 1 }), cite(D, 3, { alinea: 2 })],
  ),
  cardsIntegrity: defineCheck(
    'F3CP08.CARDS.INTEGRITY',
    'a card seen twice in one deck, or a card that is not in the deck',
    'critical',
    [cite(D, 1, { alinea: 1 })],
  ),
  irregNotVoided: defineCheck(
    'F3CP08.IRREG.NOT_VOIDED',
    'round with a dealing irregularity or a shuffler malfunction settled instead of invalidated',
    'critical',
    [cite(D, 11, { alinea: 1 })],
  ),
  irregWronglyVoided: defineCheck(
    'F3CP08.IRREG.WRONGLY_VOIDED',
    'round invalidated for exposed cards or cards dealt to a hand with no bet, which let it go on',
    'high',
    [cite(D, 11, { alinea: 2 }), cite(D, 11, { alinea: 3 })],
    ['H6'],
  ),
  irregBetsNotReturned: defineCheck(
    'F3CP08.IRREG.BETS_NOT_RETURNED',
    'void bets of an invalid round collected or paid instead of returned',
    'critical',
    [cite(D, 11, { alinea: 1 })],
  ),
  irregVoidCardsUsed: defineCheck(
    'F3CP08.IRREG.VOID_CARDS_USED',
    'cards dealt to a hand with no bet were used',
    'high',
    [cite(D, 11, { alinea: 3 })],
  ),
  irregShufflerNotReplaced: defineCheck(
    'F3CP08.IRREG.SHUFFLER_NOT_REPLACED',
    'round dealt by the shuffler after a malfunction, with neither a new shuffler nor a shoe',
    'high',
    [cite(D, 11, { alinea: 4 })],
  ),
  nonSeatedHandling: defineCheck(
    'F3CP08.CONDUCT.NON_SEATED_HANDLING',
    'cards held off the table or by someone not seated',
    'high',
    [cite(D, 6, { alinea: 4 })],
  ),
  roundNotStarted: defineCheck(
    'F3CP08.ROUND.NOT_STARTED',
    'events of a round the table never started',
    'medium',
    // without the start of the round no bet can be shown to precede the first card
    [cite(D, 6, { alinea: 3 })],
  ),
  roundNotClosed: defineCheck('F3CP08.ROUND.NOT_CLOSED', 'a round neither settled nor voided', 'high', [
    cite(D, 9),
    cite(D, 11, { alinea: 1 }),
  ]),
  eventAfterClose: defineCheck(
    'F3CP08.ROUND.EVENT_AFTER_CLOSE',
    'an event of a round arrived after the round was settled or voided',
    'high',
    [cite(D, 9), cite(D, 11, { alinea: 1 })],
  ),
  eventTimeOutOfLine: defineCheck(
    'F3CP08.EVENT.TIME_OUT_OF_LINE',
    "an event's time is far out of line with the rest of its round",
    'medium',
    // the time of a round decides which rules govern it (the despacho's entry into force)
    [cite(D, 0, { numero: 3 })],
  ),
  eventSequence: defineCheck(
    'F3CP08.EVENT.SEQUENCE',
    "a source's sequence numbers do not run on by one: a gap, a repeat or a step backwards",
    'medium',
    [cite(D, 6, { alinea: 3 }), cite(D, 7)],
  ),
  tableReconfigured: defineCheck(
    'F3CP08.TABLE.RECONFIGURED',
    'table settings changed mid-session without closing the table',
    'medium',
    [cite(D, 6, { alinea: 1 }), cite(D, 2, { numero: 1 })],
  ),
} as const satisfies Record<string, CheckDefinition>;

export const ALL_F3CP08_CHECK_IDS: readonly string[] = Object.values(F3CP08).map((c) => c.id);

/** The 2008 check whose provision answers the same question as a 2025 check, by the 2025 check's id. */
export const COUNTERPART_2008: ReadonlyMap<string, CheckDefinition> = new Map([
  ['F3CP.PAYOUT.MISMATCH', F3CP08.payoutMismatch],
  ['F3CP.PAYOUT.REPEATED', F3CP08.payoutRepeated],
  ['F3CP.OUTCOME.MISDECLARED', F3CP08.outcomeMisdeclared],
  ['F3CP.BET.PLAY_NOT_EQUAL_ANTE', F3CP08.playNotEqualAnte],
  ['F3CP.BET.PLAY_BEFORE_DEAL', F3CP08.playBeforeDeal],
  ['F3CP.BET.LATE', F3CP08.betLate],
  ['F3CP.BET.LIMITS', F3CP08.betLimits],
  ['F3CP.BET.OTHER_HAND', F3CP08.betOtherHand],
  ['F3CP.BET.NO_SUCH_SEAT', F3CP08.noSuchSeat],
  ['F3CP.DEAL.ORDER', F3CP08.dealOrder],
  ['F3CP.DEAL.COUNT', F3CP08.dealCount],
  ['F3CP.DEAL.FACE_UP', F3CP08.dealFaceUp],
  ['F3CP.SHUFFLE.PROCEDURE', F3CP08.shuffleProcedure],
  ['F3CP.CARDS.INTEGRITY', F3CP08.cardsIntegrity],
  ['F3CP.IRREG.BETS_NOT_RETURNED', F3CP08.irregBetsNotReturned],
  ['F3CP.IRREG.VOID_CARDS_USED', F3CP08.irregVoidCardsUsed],
  ['F3CP.CONDUCT.NON_SEATED_HANDLING', F3CP08.nonSeatedHandling],
  ['F3CP.ROUND.NOT_STARTED', F3CP08.roundNotStarted],
  ['F3CP.ROUND.NOT_CLOSED', F3CP08.roundNotClosed],
  ['F3CP.ROUND.EVENT_AFTER_CLOSE', F3CP08.eventAfterClose],
  ['F3CP.EVENT.TIME_OUT_OF_LINE', F3CP08.eventTimeOutOfLine],
  ['F3CP.EVENT.SEQUENCE', F3CP08.eventSequence],
  ['F3CP.TABLE.RECONFIGURED', F3CP08.tableReconfigured],
]);
