import { cite, citationKey, type Citation } from '../citations/citation.ts';
import { provisionText } from '../citations/index.ts';
import { CHECKS, code, implemented, noCode, RULES, TESTS as T } from './shared.ts';
import { firstWordsOf, traceRow, type DiplomaTrace, type Status, type TraceRow } from './types.ts';

/**
 * Despacho 89/2025 (Fortune 3 Card Poker, Regras de Execução), original wording. The provisions and their
 * PT text are those of the citation file (packages/rules/src/citations/f3cp-2025.citations.json); a row per
 * número (or per article where it has none), alínea and cited sub-alínea.
 */
const D = '89/2025';

/** A row whose heading and first words come from the citation file; a key it lacks is a mistake here. */
export function citedRow(at: Citation, status: Status): TraceRow {
  const p = provisionText(at);
  if (!p) throw new Error(`traceability: ${citationKey(at)} is not in the citation files`);
  return traceRow({ citation: at, heading: p.heading_pt ?? null, firstWords: firstWordsOf(p.pt), status });
}

const r = (article: number, at: Omit<Citation, 'diploma' | 'article'>, status: Status): TraceRow =>
  citedRow(cite(D, article, at), status);

// code references used by several rows
const REGISTRY = code(RULES.registry, 'RULE_SETS', 'ruleSetFor');
const SETTLE = code(RULES.settle, 'settleF3cpRound');
const THREE = code(RULES.three, 'classifyThree', 'handOrder', 'valueUnder');
const FIVE = code(RULES.five, 'bestFiveClassId');
const BETS = code(RULES.facts, 'F3cpBets', 'checkRoundFacts');
const CARDS = code(CHECKS.cards, 'checkCardsIntegrity');
const BET_CHECKS = (...symbols: string[]) => code(CHECKS.bets, ...symbols);
const DEAL = code(
  CHECKS.dealing,
  'checkDealOrder',
  'checkDealCount',
  'checkDealCommunity',
  'checkDealFaceUp',
);
const DEAL_ORDER = code(RULES.events, 'prescribedDealOrder', 'prescribedCommunityDeal');
const PLAYING = (...symbols: string[]) => code(CHECKS.playing, ...symbols);
const PAYOUTS = code(CHECKS.settlement, 'checkPayouts', 'checkRepeatedSettlements');
const OUTCOME_CHECK = code(CHECKS.settlement, 'checkOutcome');
const JACKPOT = code(
  CHECKS.jackpot,
  'checkJackpotOrder',
  'checkJackpotAmounts',
  'checkJackpotPool',
  'checkCommunityWithoutBets',
);
const IRREG = (...symbols: string[]) => code(CHECKS.irregularities, ...symbols);
const CONDUCT = (...symbols: string[]) => code(CHECKS.conduct, ...symbols);
const RECORD = (...symbols: string[]) => code(CHECKS.record, ...symbols);
const TABLE = code(RULES.table, 'F3cpTable');
// each source's numbering, followed per table by the fold; counted by ingest too
const SEQUENCE = code(RULES.table, 'followSequence');
const SHUFFLE = code(CHECKS.shuffle, 'checkShuffle');
const REPEATED = 'F3CP.PAYOUT.REPEATED';
const VOID = code(RULES.settleVoid, 'voidSeat');
const PAY_JACKPOT = code(RULES.settleJackpot, 'payJackpot');

const PAYOUT = 'F3CP.PAYOUT.MISMATCH';
const OUTCOME = 'F3CP.OUTCOME.MISDECLARED';
const WITHOUT_BASIC = 'F3CP.BET.ADDITIONAL_WITHOUT_BASIC';
const NOT_VOIDED = 'F3CP.IRREG.NOT_VOIDED';
const WRONGLY_VOIDED = 'F3CP.IRREG.WRONGLY_VOIDED';
const VOID_CARDS = 'F3CP.IRREG.VOID_CARDS_USED';

const phase = (article: string): Status =>
  noCode(`names a phase of the round; the phase is regulated, and checked, under ${article}`);
const layout = noCode('the layout of the betting spaces on the table cloth: furniture, not in the events');

export const handClass = (n: number, set: 'F3CP_2025' | 'F3CP_2025A'): Status =>
  n === 1
    ? implemented([THREE, code(RULES.ruleSet, set, 'classCitation')], [T.three, T.settle])
    : implemented(
        [FIVE, code(RULES.ruleSet, n === 2 ? 'SIX_CARD_BONUS' : 'JACKPOT_HANDS')],
        [T.five, T.settle],
      );

const rows: TraceRow[] = [
  r(
    0,
    { numero: 1 },
    noCode('authorises the concessionaires to operate the game: licensing, nothing to re-derive'),
  ),
  r(0, { numero: 2 }, noCode('approves the annexed rules; each of their provisions has its own row')),
  // the registry gives every F3CP round from the entry into force the 2025 rules, games already running included
  r(
    0,
    { numero: 3 },
    implemented(
      [REGISTRY, RECORD('checkEventTimes')],
      [T.registry, T.detection],
      ['F3CP.EVENT.TIME_OUT_OF_LINE'],
    ),
  ),
  r(0, { numero: 4 }, implemented([REGISTRY], [T.registry])),
  r(
    0,
    { numero: 5 },
    implemented(
      [code(RULES.registry, 'RULE_SETS', 'ruleSetFor', 'macauDate'), RECORD('checkEventTimes')],
      [T.registry, T.detection],
      ['F3CP.EVENT.TIME_OUT_OF_LINE'],
    ),
  ),
  r(1, {}, noCode('states what the rules regulate; no rule of play')),
  r(2, { numero: 1 }, noCode('introduces the list of equipment in its alíneas')),
  r(
    2,
    { numero: 1, alinea: 1 },
    implemented(
      [code(RULES.cards, 'fullDeck', 'duplicateCards'), BETS, CARDS],
      [T.cards, T.settle, T.detection],
      ['F3CP.CARDS.INTEGRITY'],
    ),
  ),
  r(
    2,
    { numero: 1, alinea: 2 },
    noCode(
      'equipment the table must have; how the shoe and the cut card are used is checked under art. 9.º and 11.º',
    ),
  ),
  r(
    2,
    { numero: 1, alinea: 3 },
    noCode(
      'equipment; how the shuffler is used, and its failures, are checked under art. 9.º, 11.º and 17.º n.º 2',
    ),
  ),
  r(
    2,
    { numero: 2 },
    noCode('equipment for the Progressive Jackpot; the pool it reports is audited under art. 15.º n.º 6'),
  ),
  r(3, { numero: 1 }, implemented([BETS, SETTLE], [T.settle])),
  r(3, { numero: 2 }, implemented([BETS, SETTLE], [T.settle])),
  r(
    3,
    { numero: 3 },
    noCode('obliges the concessionaires to offer at least the basic bets: what a casino offers'),
  ),
  r(
    3,
    { numero: 4 },
    implemented(
      [code(RULES.settleVoid, 'invalidAdditional'), BET_CHECKS('checkAdditionalWithoutBasic')],
      [T.settle, T.detection],
      [WITHOUT_BASIC],
    ),
  ),
  r(
    4,
    { numero: 1 },
    noCode('lets the concessionaire offer basic bets alone or combined, and inform players first'),
  ),
  r(
    4,
    { numero: 2 },
    implemented(
      [code(RULES.settleVoid, 'invalidAdditional'), BET_CHECKS('checkAdditionalWithoutBasic')],
      [T.settle, T.detection],
      [WITHOUT_BASIC],
    ),
  ),
  r(
    4,
    { numero: 3 },
    implemented(
      [code(RULES.settleVoid, 'invalidAdditional'), BET_CHECKS('checkAdditionalWithoutBasic')],
      [T.settle, T.detection],
      [WITHOUT_BASIC],
    ),
  ),
  r(5, { numero: 1 }, noCode('says the banker and the players take part: descriptive')),
  // seats 1-7 with the banker's hand make the 6 to 8 hands
  r(
    5,
    { numero: 2 },
    implemented(
      [
        BETS,
        code(RULES.validate, 'f3cpEventProblems'),
        BET_CHECKS('checkNoSuchSeat'),
        RECORD('checkReopened'),
      ],
      [T.settle, T.ingest, T.detection],
      ['F3CP.BET.NO_SUCH_SEAT', 'F3CP.TABLE.RECONFIGURED'],
    ),
  ),
  r(5, { numero: 3 }, layout),
  r(5, { numero: 3, alinea: 1 }, layout),
  r(5, { numero: 3, alinea: 2 }, layout),
  r(5, { numero: 3, alinea: 3 }, layout),
  r(5, { numero: 4 }, layout),
  r(6, {}, implemented([THREE, FIVE], [T.three, T.five])),
  r(6, { alinea: 1 }, implemented([code(RULES.cards, 'RANK_CHARS', 'rankOf'), THREE], [T.cards, T.three])),
  r(6, { alinea: 2 }, implemented([THREE], [T.three])),
  r(6, { alinea: 3 }, implemented([FIVE], [T.five])),
  r(
    7,
    { numero: 1 },
    implemented(
      [THREE, code(RULES.ruleSet, 'F3CP_2025', 'handOrderCitation'), SETTLE, OUTCOME_CHECK],
      [T.three, T.settle, T.detection],
      [OUTCOME],
    ),
  ),
  ...[1, 2, 3, 4, 5, 6].map((a) => r(7, { numero: 1, alinea: a }, handClass(1, 'F3CP_2025'))),
  r(7, { numero: 2 }, implemented([FIVE, SETTLE], [T.five, T.settle, T.math])),
  ...[1, 2, 3, 4, 5, 6, 7].map((a) => r(7, { numero: 2, alinea: a }, handClass(2, 'F3CP_2025'))),
  r(7, { numero: 3 }, implemented([FIVE, PAY_JACKPOT], [T.five, T.settle, T.math])),
  ...[1, 2, 3, 4, 5].map((a) => r(7, { numero: 3, alinea: a }, handClass(3, 'F3CP_2025'))),
  r(8, {}, phase('arts. 9.º to 16.º')),
  r(8, { alinea: 1 }, phase('art. 9.º')),
  r(8, { alinea: 2 }, phase('art. 10.º')),
  r(8, { alinea: 3 }, phase('art. 11.º')),
  r(8, { alinea: 4 }, phase('art. 12.º')),
  r(8, { alinea: 5 }, phase('art. 13.º')),
  r(8, { alinea: 6 }, phase('arts. 13.º to 16.º')),
  r(9, { numero: 1 }, implemented([SHUFFLE], [T.detection], ['F3CP.SHUFFLE.PROCEDURE'])),
  r(9, { numero: 1, alinea: 1 }, implemented([SHUFFLE], [T.detection], ['F3CP.SHUFFLE.PROCEDURE'])),
  r(9, { numero: 1, alinea: 2 }, implemented([SHUFFLE], [T.detection], ['F3CP.SHUFFLE.PROCEDURE'])),
  r(9, { numero: 2 }, implemented([SHUFFLE], [T.detection], ['F3CP.SHUFFLE.PROCEDURE'])),
  r(9, { numero: 3 }, implemented([SHUFFLE], [T.detection], ['F3CP.SHUFFLE.PROCEDURE'])),
  r(
    10,
    {},
    implemented(
      [BET_CHECKS('checkBetLimits', 'checkBetOtherHand', 'checkBetLate')],
      [T.detection],
      ['F3CP.BET.LIMITS', 'F3CP.BET.OTHER_HAND', 'F3CP.BET.LATE'],
    ),
  ),
  r(
    10,
    { alinea: 1 },
    implemented(
      [BET_CHECKS('checkBetLimits'), RECORD('checkReopened')],
      [T.detection],
      ['F3CP.BET.LIMITS', 'F3CP.TABLE.RECONFIGURED'],
    ),
  ),
  r(
    10,
    { alinea: 2 },
    implemented([BET_CHECKS('checkBetOtherHand')], [T.detection], ['F3CP.BET.OTHER_HAND']),
  ),
  r(
    10,
    { alinea: 3 },
    implemented(
      [BET_CHECKS('checkBetLate'), RECORD('checkRoundStarted', 'checkSequence'), SEQUENCE],
      [T.detection, T.ingest],
      ['F3CP.BET.LATE', 'F3CP.ROUND.NOT_STARTED', 'F3CP.EVENT.SEQUENCE'],
    ),
  ),
  r(
    11,
    { numero: 1 },
    implemented(
      [DEAL, DEAL_ORDER, RECORD('checkSequence'), SEQUENCE],
      [T.detection, T.ingest],
      ['F3CP.DEAL.ORDER', 'F3CP.DEAL.COUNT', NOT_VOIDED, 'F3CP.EVENT.SEQUENCE'],
    ),
  ),
  r(
    11,
    { numero: 2 },
    implemented([DEAL, DEAL_ORDER], [T.detection], ['F3CP.DEAL.ORDER', 'F3CP.DEAL.COUNT', NOT_VOIDED]),
  ),
  r(11, { numero: 3 }, implemented([DEAL, DEAL_ORDER], [T.detection], ['F3CP.DEAL.COMMUNITY', NOT_VOIDED])),
  r(11, { numero: 4 }, implemented([DEAL, DEAL_ORDER], [T.detection], ['F3CP.DEAL.COMMUNITY'])),
  r(11, { numero: 5 }, implemented([DEAL], [T.detection], ['F3CP.DEAL.FACE_UP', NOT_VOIDED])),
  r(
    12,
    { numero: 1 },
    implemented(
      [PLAYING('checkNonSeatedHandling', 'checkPlayBeforeDeal')],
      [T.detection],
      ['F3CP.CONDUCT.NON_SEATED_HANDLING', 'F3CP.BET.PLAY_BEFORE_DEAL'],
    ),
  ),
  r(
    12,
    { numero: 2 },
    implemented(
      [
        SETTLE,
        PLAYING('checkPlayNotEqualAnte', 'checkPlayBeforeDeal'),
        code(CHECKS.jackpot, 'checkCommunityRevealedEarly'),
      ],
      [T.settle, T.detection],
      ['F3CP.BET.PLAY_NOT_EQUAL_ANTE', 'F3CP.BET.PLAY_BEFORE_DEAL', 'F3CP.JACKPOT.COMMUNITY_REVEALED_EARLY'],
    ),
  ),
  r(12, { numero: 3 }, implemented([SETTLE], [T.settle])),
  r(12, { numero: 4 }, implemented([SETTLE], [T.settle])),
  r(
    13,
    {},
    implemented(
      [SETTLE, PAYOUTS, OUTCOME_CHECK, RECORD('checkRoundClosed', 'checkEventAfterClose')],
      [T.settle, T.detection],
      [PAYOUT, OUTCOME, REPEATED, 'F3CP.ROUND.NOT_CLOSED', 'F3CP.ROUND.EVENT_AFTER_CLOSE'],
    ),
  ),
  r(
    13,
    { alinea: 1 },
    implemented(
      [SETTLE, code(RULES.three, 'qualifiesQueenHigh'), PAYOUTS],
      [T.settle, T.three, T.detection],
      [PAYOUT],
    ),
  ),
  r(
    13,
    { alinea: 2 },
    implemented(
      [SETTLE, code(RULES.three, 'qualifiesQueenHigh'), PAYOUTS],
      [T.settle, T.three, T.detection],
      [PAYOUT],
    ),
  ),
  r(13, { alinea: 3 }, implemented([SETTLE, THREE, PAYOUTS], [T.settle, T.detection], [PAYOUT])),
  r(
    13,
    { alinea: 4 },
    implemented([SETTLE, code(RULES.ruleSet, 'ANTE_BONUS'), PAYOUTS], [T.settle, T.detection], [PAYOUT]),
  ),
  ...[1, 2, 3].map((s) =>
    r(13, { alinea: 4, subalinea: s }, implemented([code(RULES.ruleSet, 'ANTE_BONUS'), SETTLE], [T.settle])),
  ),
  r(
    13,
    { alinea: 5 },
    implemented([SETTLE, code(RULES.ruleSet, 'PAIR_PLUS'), PAYOUTS], [T.settle, T.detection], [PAYOUT]),
  ),
  r(13, { alinea: 6 }, implemented([SETTLE, FIVE, PAYOUTS], [T.settle, T.detection], [PAYOUT])),
  r(
    13,
    { alinea: 7 },
    implemented(
      [SETTLE, PAY_JACKPOT, JACKPOT, code(CHECKS.jackpot, 'checkCommunityRevealedEarly')],
      [T.settle, T.detection],
      ['F3CP.JACKPOT.AMOUNT', 'F3CP.JACKPOT.COMMUNITY_REVEALED_EARLY'],
    ),
  ),
  r(14, {}, implemented([SETTLE, FIVE, PAYOUTS], [T.settle, T.five, T.detection], [PAYOUT])),
  r(15, { numero: 1 }, implemented([PAY_JACKPOT, FIVE], [T.settle, T.math])),
  r(
    15,
    { numero: 2 },
    implemented(
      [PAY_JACKPOT, JACKPOT],
      [T.settle, T.detection],
      ['F3CP.JACKPOT.COMMUNITY_REVEALED_WITHOUT_BETS'],
    ),
  ),
  r(
    15,
    { numero: 3 },
    implemented([PAY_JACKPOT, JACKPOT, PAYOUTS], [T.settle, T.detection], ['F3CP.JACKPOT.ORDER', REPEATED]),
  ),
  r(15, { numero: 4 }, implemented([PAY_JACKPOT, JACKPOT], [T.settle, T.detection], ['F3CP.JACKPOT.AMOUNT'])),
  r(15, { numero: 5 }, implemented([PAY_JACKPOT, JACKPOT], [T.settle, T.detection], ['F3CP.JACKPOT.ORDER'])),
  r(
    15,
    { numero: 6 },
    implemented(
      [PAY_JACKPOT, JACKPOT, code(RULES.events, 'jackpotShare'), RECORD('checkReopened')],
      [T.settle, T.detection],
      ['F3CP.JACKPOT.POOL'],
    ),
  ),
  r(
    16,
    {},
    implemented(
      [code(RULES.ruleSet, 'PAIR_PLUS', 'SIX_CARD_BONUS', 'JACKPOT_HANDS'), SETTLE, PAYOUTS],
      [T.settle, T.math, T.detection],
      [PAYOUT, REPEATED],
    ),
  ),
  r(
    16,
    { numero: 1 },
    implemented(
      [code(RULES.ruleSet, 'PAIR_PLUS'), SETTLE, PAYOUTS],
      [T.settle, T.math, T.detection],
      [PAYOUT],
    ),
  ),
  ...[1, 2, 3, 4, 5].map((a) =>
    r(
      16,
      { numero: 1, alinea: a },
      implemented([code(RULES.ruleSet, 'PAIR_PLUS'), SETTLE], [T.settle, T.math]),
    ),
  ),
  r(
    16,
    { numero: 2 },
    implemented(
      [code(RULES.ruleSet, 'SIX_CARD_BONUS'), SETTLE, PAYOUTS],
      [T.settle, T.math, T.detection],
      [PAYOUT],
    ),
  ),
  ...[1, 2, 3, 4, 5, 6, 7].map((a) =>
    r(
      16,
      { numero: 2, alinea: a },
      implemented([code(RULES.ruleSet, 'SIX_CARD_BONUS'), SETTLE], [T.settle, T.math]),
    ),
  ),
  r(
    16,
    { numero: 3 },
    implemented(
      [code(RULES.ruleSet, 'JACKPOT_HANDS'), PAY_JACKPOT, JACKPOT],
      [T.settle, T.detection],
      ['F3CP.JACKPOT.AMOUNT'],
    ),
  ),
  ...[1, 2, 3, 4, 5].map((a) =>
    r(
      16,
      { numero: 3, alinea: a },
      implemented([code(RULES.ruleSet, 'JACKPOT_HANDS'), PAY_JACKPOT], [T.settle]),
    ),
  ),
  r(
    17,
    { numero: 1 },
    implemented(
      [
        VOID,
        IRREG('checkNotVoided', 'checkVoidedBets', 'voidingConditions'),
        RECORD('checkRoundClosed', 'checkEventAfterClose'),
      ],
      [T.settle, T.detection],
      [NOT_VOIDED, 'F3CP.IRREG.BETS_NOT_RETURNED', 'F3CP.ROUND.NOT_CLOSED', 'F3CP.ROUND.EVENT_AFTER_CLOSE'],
    ),
  ),
  r(
    17,
    { numero: 1, alinea: 1 },
    implemented([VOID, IRREG('checkNotVoided', 'voidingConditions')], [T.settle, T.detection], [NOT_VOIDED]),
  ),
  r(
    17,
    { numero: 1, alinea: 2 },
    implemented([VOID, IRREG('checkNotVoided', 'voidingConditions')], [T.settle, T.detection], [NOT_VOIDED]),
  ),
  r(
    17,
    { numero: 1, alinea: 3 },
    implemented([VOID, IRREG('checkNotVoided', 'voidingConditions')], [T.settle, T.detection], [NOT_VOIDED]),
  ),
  r(
    17,
    { numero: 2 },
    implemented(
      [VOID, IRREG('checkShufflerSuspended', 'checkPlayAfterSecondFailure'), TABLE],
      [T.settle, T.detection],
      ['F3CP.IRREG.SHUFFLER_NOT_SUSPENDED', 'F3CP.IRREG.PLAY_AFTER_SECOND_FAILURE'],
    ),
  ),
  r(
    17,
    { numero: 3 },
    implemented(
      [VOID, IRREG('checkCarriedOver', 'carryOverRequired', 'voidedBetHandling'), TABLE],
      [T.settle, T.detection],
      ['F3CP.IRREG.JACKPOT_NOT_CARRIED', 'F3CP.IRREG.BETS_NOT_RETURNED'],
    ),
  ),
  r(17, { numero: 4 }, implemented([IRREG('checkWronglyVoided')], [T.detection], [WRONGLY_VOIDED])),
  r(
    17,
    { numero: 4, alinea: 1 },
    implemented([IRREG('checkWronglyVoided')], [T.detection], [WRONGLY_VOIDED]),
  ),
  r(
    17,
    { numero: 4, alinea: 2 },
    implemented(
      [IRREG('checkWronglyVoided', 'checkVoidCardsUsed')],
      [T.detection],
      [WRONGLY_VOIDED, VOID_CARDS],
    ),
  ),
  r(
    17,
    { numero: 5 },
    implemented(
      [IRREG('checkWronglyVoided', 'checkVoidCardsUsed')],
      [T.detection],
      [WRONGLY_VOIDED, VOID_CARDS],
    ),
  ),
  r(
    18,
    { numero: 1 },
    implemented(
      [CONDUCT('checkRecording', 'BettingSystemTracker'), TABLE],
      [T.detection],
      ['F3CP.CONDUCT.RECORDING', 'F3CP.CONDUCT.BETTING_SYSTEM'],
    ),
  ),
  r(
    18,
    { numero: 2 },
    implemented(
      [CONDUCT('checkLeftSeat', 'checkCardReveal')],
      [T.detection],
      ['F3CP.CONDUCT.LEFT_SEAT', 'F3CP.CONDUCT.CARD_REVEAL'],
    ),
  ),
  r(
    18,
    { numero: 3 },
    implemented(
      [CONDUCT('checkCardReveal'), code(CHECKS.collusion, 'CollusionTracker', 'binomialUpperTail')],
      [T.detection, T.collusion],
      ['F3CP.CONDUCT.CARD_REVEAL', 'F3CP.CONDUCT.COLLUSION'],
    ),
  ),
];

export const DESPACHO_89_2025: DiplomaTrace = Object.freeze({
  id: D,
  title: 'Despacho n.º 89/2025 — Fortune Poker de Três Cartas (Fortune 3 Card Poker), Regras de Execução',
  source:
    'f3cp-2025-boletim-oficial-45-2025.pt-zh.txt; packages/rules/src/citations/f3cp-2025.citations.json',
  ruleSets: ['f3cp-2025', 'f3cp-2025a'],
  notes: [
    'Article 0 is the despacho itself (its numbered paragraphs); articles 1.º–18.º are the annexed rules.',
    'An article divided into números has no row of its own unless code cites it as a whole (art. 16.º).',
    'Art. 7.º n.º 1 as re-worded by 94/2025 is listed under Despacho 94/2025.',
  ],
  rows,
});
