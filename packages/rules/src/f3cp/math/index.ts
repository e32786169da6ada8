/**
 * Exact house figures for Fortune 3 Card Poker, computed by full enumeration with the engine itself: hands are
 * classified by the same evaluators, and every payout comes from settleF3cpRound on a concrete round (one per
 * group of rounds that settle alike), so the report can only agree with what the replay pays.
 *
 * hands.ts: the 22,100 three-card hands, suit-pattern classes, hand index; house-edge.ts: Ante/Play, Pair Plus,
 * Six Card Bonus, class counts; play-oracle.ts: the exact play decision; report.ts: the math report.
 */
export {
  analyseAntePlay,
  enumerateBestFive,
  pairPlusEdge,
  sixCardBonusEdge,
  threeCardCounts,
  type AntePlayAnalysis,
  type ClassCounts,
  type HandGroup,
} from './house-edge.ts';
export { playDecisionOracle, playValue, PlayDecisionOracle } from './play-oracle.ts';
export {
  compareAntePlay,
  f3cpMathReport,
  f3cp2008MathReport,
  type F3cp2008MathReport,
  JACKPOT_CLASSES,
  mathReportJson,
  type F3cpMathReport,
} from './report.ts';
