import { compare, toJson, type Fraction } from '../../fraction.ts';
import type { FiveCardClass } from '../../poker/five-card.ts';
import type { ThreeCardClass } from '../../poker/three-card.ts';
import type { F3cpRuleSet } from '../rule-set.ts';
import { HANDS } from './hands.ts';
import {
  analyseAntePlay,
  enumerateBestFive,
  pairPlusEdge,
  sixCardBonusEdge,
  threeCardCounts,
  type AntePlayAnalysis,
  type ClassCounts,
} from './house-edge.ts';

/** The math report of a rule set (`table-audit math f3cp`), its comparison with another, and its JSON form. */

export const JACKPOT_CLASSES: readonly FiveCardClass[] = [
  'royal-flush',
  'straight-flush',
  'four-of-a-kind',
  'full-house',
  'flush',
];

export interface F3cpMathReport {
  ruleSet: string;
  threeCardHands: { total: number; counts: ClassCounts<ThreeCardClass> };
  antePlay: AntePlayAnalysis;
  pairPlus: { houseEdge: Fraction };
  sixCardBonus: {
    total: number;
    counts: ClassCounts<FiveCardClass>;
    netPerUnit: Partial<Record<FiveCardClass, number>>;
    houseEdge: Fraction;
  };
  progressiveJackpot: {
    total: number;
    qualifying: Partial<ClassCounts<FiveCardClass>>;
    qualifyingTotal: number;
  };
  timingsMs: Record<string, number>;
}

export function f3cpMathReport(rules: F3cpRuleSet, now: () => number = () => 0): F3cpMathReport {
  const timingsMs: Record<string, number> = {};
  const timed = <T>(name: string, f: () => T): T => {
    const t0 = now();
    const r = f();
    timingsMs[name] = Math.round(now() - t0);
    return r;
  };
  const counts = timed('threeCardCounts', () => threeCardCounts(rules));
  const antePlay = timed('antePlay', () => analyseAntePlay(rules));
  const pp = timed('pairPlus', () => pairPlusEdge(rules));
  const six = timed('sixCardEnumeration', () => enumerateBestFive(6));
  const sixEdge = sixCardBonusEdge(rules, six);
  const five = timed('fiveCardEnumeration', () => enumerateBestFive(5));
  const qualifying: Partial<ClassCounts<FiveCardClass>> = {};
  for (const c of JACKPOT_CLASSES) qualifying[c] = five.counts[c];
  return {
    ruleSet: rules.id,
    threeCardHands: { total: HANDS, counts },
    antePlay,
    pairPlus: { houseEdge: pp },
    sixCardBonus: {
      total: six.total,
      counts: six.counts,
      netPerUnit: sixEdge.netPerClass,
      houseEdge: sixEdge.edge,
    },
    progressiveJackpot: {
      total: five.total,
      qualifying,
      qualifyingTotal: JACKPOT_CLASSES.reduce((s, c) => s + five.counts[c], 0),
    },
    timingsMs,
  };
}

/** The math of a 2008 rule set: Ante and Pair Plus are its only bets (78/2008 art. 5.º), so no Six Card Bonus or jackpot. */
export interface F3cp2008MathReport {
  ruleSet: string;
  title: string;
  threeCardHands: { total: number; counts: ClassCounts<ThreeCardClass> };
  antePlay: AntePlayAnalysis;
  pairPlus: { houseEdge: Fraction };
  timingsMs: Record<string, number>;
}

export function f3cp2008MathReport(rules: F3cpRuleSet, now: () => number = () => 0): F3cp2008MathReport {
  if (rules.era !== '2008') throw new Error(`${rules.id} is not a 2008 rule set: use f3cpMathReport`);
  const timingsMs: Record<string, number> = {};
  const timed = <T>(name: string, f: () => T): T => {
    const t0 = now();
    const r = f();
    timingsMs[name] = Math.round(now() - t0);
    return r;
  };
  const counts = timed('threeCardCounts', () => threeCardCounts(rules));
  const antePlay = timed('antePlay', () => analyseAntePlay(rules));
  const pp = timed('pairPlus', () => pairPlusEdge(rules));
  return {
    ruleSet: rules.id,
    title: rules.title,
    threeCardHands: { total: HANDS, counts },
    antePlay,
    pairPlus: { houseEdge: pp },
    timingsMs,
  };
}

/** Per-hand differences of the Ante/Play analysis between two rule sets (same suit-pattern groups). */
export function compareAntePlay(
  a: AntePlayAnalysis,
  b: AntePlayAnalysis,
): { description: string; evPlayA: Fraction; evPlayB: Fraction; playA: boolean; playB: boolean }[] {
  const byDesc = new Map(b.groups.map((g) => [g.description + g.example.join(''), g]));
  const diffs = [];
  for (const g of a.groups) {
    const o = byDesc.get(g.description + g.example.join(''));
    if (!o) throw new Error(`group ${g.description} missing from the other analysis`);
    if (compare(g.evPlay, o.evPlay) !== 0 || g.play !== o.play)
      diffs.push({
        description: g.description,
        evPlayA: g.evPlay,
        evPlayB: o.evPlay,
        playA: g.play,
        playB: o.play,
      });
  }
  return diffs;
}

/** JSON-friendly form: fractions as {fraction, decimal}; the groups included only on request (1,755 rows). */
export function mathReportJson(r: F3cpMathReport, withGroups: boolean): unknown {
  const f = (x: Fraction) => toJson(x);
  const a = r.antePlay;
  return {
    ruleSet: r.ruleSet,
    threeCardHands: r.threeCardHands,
    antePlay: {
      strategy: {
        weakestPlayed: a.weakestPlayed,
        thresholdIsClean: a.thresholdIsClean,
        exceptions: a.exceptions,
        rule: `play ${a.weakestPlayed} or better, fold anything lower`,
      },
      playProbability: f(a.playProbability),
      expectedValuePerAnte: f(a.expectedValue),
      houseEdge: f(a.houseEdge),
      elementOfRisk: f(a.elementOfRisk),
      comparisons: a.comparisons,
      ...(withGroups
        ? {
            hands: a.groups.map((g) => ({
              description: g.description,
              example: g.example,
              hand: g.hand,
              hands: g.hands,
              evPlay: f(g.evPlay),
              evFold: f(g.evFold),
              decision: g.play ? 'play' : 'fold',
            })),
          }
        : { handGroups: a.groups.length }),
    },
    pairPlus: { houseEdge: f(r.pairPlus.houseEdge) },
    sixCardBonus: {
      total: r.sixCardBonus.total,
      counts: r.sixCardBonus.counts,
      netPerUnit: r.sixCardBonus.netPerUnit,
      houseEdge: f(r.sixCardBonus.houseEdge),
    },
    progressiveJackpot: r.progressiveJackpot,
    timingsMs: r.timingsMs,
  };
}
