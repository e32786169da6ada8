import { formatCard, RANK_CHARS, rankOf, suitOf, type Card } from '../../cards.ts';
import { add, div, fraction, neg, type Fraction } from '../../fraction.ts';
import { bestFiveClassId, FIVE_CARD_CLASSES, type FiveCardClass } from '../../poker/five-card.ts';
import { classOfThree, THREE_CARD_CLASSES, type ThreeCardClass } from '../../poker/three-card.ts';
import type { F3cpRoundFacts } from '../facts.ts';
import type { F3cpRuleSet } from '../rule-set.ts';
import { comparedHand, reclassify, settleF3cpRound } from '../settle/index.ts';
import { allThreeCardHands, BANKER_HANDS, canonicalKey, cardsOf, HANDS, type HandTable } from './hands.ts';

/**
 * House edges by full enumeration: the optimal Ante/Play strategy, Pair Plus, the Six Card Bonus, and the class
 * counts of three-card hands and of best-five hands of five and six cards. Every payout is settled by
 * settleF3cpRound on a concrete round (netOf).
 */

/** Net result in avos of one seat's lines in a settled round. */
export function netOf(facts: F3cpRoundFacts, rules: F3cpRuleSet, bet?: string): bigint {
  let net = 0;
  for (const l of settleF3cpRound(facts, rules).lines) if (bet === undefined || l.bet === bet) net += l.net;
  return BigInt(net);
}

/** "Q-6-4" for a hand's ranks, highest first. */
const rankPattern = (cards: Card[]): string =>
  cards
    .map(rankOf)
    .sort((a, b) => b - a)
    .map((r) => (r === 8 ? '10' : RANK_CHARS[r]!))
    .join('-');

function suitPattern(cards: Card[]): string {
  const suits = new Set(cards.map(suitOf)).size;
  return suits === 1 ? 'suited' : suits === 3 ? 'offsuit' : 'two suits';
}

export interface HandGroup {
  /** e.g. "Q-6-4 offsuit" */
  readonly description: string;
  readonly example: string[];
  readonly hand: ThreeCardClass;
  /** hands in this suit-pattern group (they share every expected value) */
  readonly hands: number;
  readonly value: number;
  readonly evPlay: Fraction;
  readonly evFold: Fraction;
  readonly play: boolean;
}

export interface AntePlayAnalysis {
  readonly groups: readonly HandGroup[];
  /** the weakest hand, by the rule set's order, that is worth playing, and whether every hand above it plays */
  readonly weakestPlayed: string;
  readonly thresholdIsClean: boolean;
  readonly exceptions: readonly string[];
  readonly playProbability: Fraction;
  /** expected net result per unit of Ante under the optimal strategy (negative: the house's edge) */
  readonly expectedValue: Fraction;
  readonly houseEdge: Fraction;
  /** house edge over the average total stake (Ante + Play) */
  readonly elementOfRisk: Fraction;
  readonly comparisons: number;
}

/** Optimal Ante/Play strategy: every player hand against every banker hand from the other 49 cards. */
export function analyseAntePlay(rules: F3cpRuleSet): AntePlayAnalysis {
  const t = allThreeCardHands();
  const value = new Int32Array(HANDS);
  const qualifies = new Uint8Array(HANDS);
  // as the settlement of these readings compares hands (J7, J11, H1, H7 change values or qualification)
  for (let i = 0; i < HANDS; i++) {
    const h = comparedHand(rules, cardsOf(t, i));
    value[i] = h.value;
    qualifies[i] = h.qualifies ? 1 : 0;
  }
  const groups = new Map<string, { first: number; hands: number; evPlay: bigint; evFold: bigint }>();
  let comparisons = 0;
  let totalBest = 0n; // sum over player hands of max(play, fold) numerators (denominator BANKER_HANDS)
  let playedHands = 0;
  // buckets: 0 banker does not qualify, 1 player higher, 2 equal, 3 banker higher
  const count = new Int32Array(4);
  const representative = new Int32Array(4);
  for (let p = 0; p < HANDS; p++) {
    count.fill(0);
    representative.fill(-1);
    const plo = t.lo[p]!;
    const phi = t.hi[p]!;
    const pv = value[p]!;
    for (let b = 0; b < HANDS; b++) {
      if ((t.lo[b]! & plo) !== 0 || (t.hi[b]! & phi) !== 0) continue;
      const bucket = qualifies[b] === 0 ? 0 : pv > value[b]! ? 1 : pv === value[b]! ? 2 : 3;
      count[bucket]!++;
      if (representative[bucket] === -1) representative[bucket] = b;
    }
    comparisons += BANKER_HANDS;
    const player = cardsOf(t, p);
    let play = 0n;
    for (let k = 0; k < 4; k++) {
      if (count[k] === 0) continue;
      const facts: F3cpRoundFacts = {
        seats: [{ seat: 1, cards: player, bets: { ante: 1, play: 1 }, decision: 'play' }],
        banker: cardsOf(t, representative[k]!),
      };
      play += BigInt(count[k]!) * netOf(facts, rules);
    }
    const anyBanker = representative.find((r) => r >= 0)!;
    const fold =
      BigInt(BANKER_HANDS) *
      netOf(
        {
          seats: [{ seat: 1, cards: player, bets: { ante: 1 }, decision: 'fold' }],
          banker: cardsOf(t, anyBanker),
        },
        rules,
      );
    const plays = play > fold;
    if (plays) playedHands++;
    totalBest += plays ? play : fold;
    const key = canonicalKey(player);
    const g = groups.get(key);
    if (!g) groups.set(key, { first: p, hands: 1, evPlay: play, evFold: fold });
    else {
      if (g.evPlay !== play || g.evFold !== fold)
        throw new Error(`hands of one suit pattern differ in value: ${player.map(formatCard)}`);
      g.hands++;
    }
  }
  const out: HandGroup[] = [...groups.values()].map((g) => {
    const cards = cardsOf(t, g.first);
    return {
      description: `${rankPattern(cards)} ${suitPattern(cards)}`,
      example: cards.map(formatCard),
      hand: classOfThree(reclassify(rules, t.classified[g.first]!)),
      hands: g.hands,
      value: value[g.first]!,
      evPlay: fraction(g.evPlay, BANKER_HANDS),
      evFold: fraction(g.evFold, BANKER_HANDS),
      play: g.evPlay > g.evFold,
    };
  });
  out.sort((a, b) => b.value - a.value || a.description.localeCompare(b.description));
  // the weakest played hand: the lowest value at which the hand plays; clean when no lower hand plays and no higher folds
  const played = out.filter((g) => g.play);
  const weakest = played[played.length - 1]!;
  const exceptions = out.filter((g) => g.value >= weakest.value !== g.play).map((g) => g.description);
  const ev = fraction(totalBest, BigInt(HANDS) * BigInt(BANKER_HANDS));
  const pPlay = fraction(playedHands, HANDS);
  return {
    groups: out,
    weakestPlayed: rankPattern(weakest.example.map((s) => cardsOfText(s))),
    thresholdIsClean: exceptions.length === 0,
    exceptions,
    playProbability: pPlay,
    expectedValue: ev,
    houseEdge: neg(ev),
    elementOfRisk: div(neg(ev), add(fraction(1), pPlay)),
    comparisons,
  };
}

function cardsOfText(s: string): Card {
  return RANK_CHARS.indexOf(s[0]!) * 4 + 'cdhs'.indexOf(s[1]!);
}

export type ClassCounts<K extends string> = Record<K, number>;

/** The class counts of the 22,100 hands; with a rule set, under its reading of A-K-Q suited (H1). */
export function threeCardCounts(rules?: F3cpRuleSet): ClassCounts<ThreeCardClass> {
  const t = allThreeCardHands();
  const counts = Object.fromEntries(THREE_CARD_CLASSES.map((c) => [c, 0])) as ClassCounts<ThreeCardClass>;
  for (let i = 0; i < HANDS; i++)
    counts[classOfThree(rules ? reclassify(rules, t.classified[i]!) : t.classified[i]!)]++;
  return counts;
}

/** Pair Plus: each of the 22,100 hands settled with a one-avo Pair Plus bet. */
export function pairPlusEdge(rules: F3cpRuleSet): Fraction {
  const t = allThreeCardHands();
  let total = 0n;
  for (let p = 0; p < HANDS; p++) {
    const player = cardsOf(t, p);
    const banker = firstDisjointHand(t, p);
    total += netOf({ seats: [{ seat: 1, cards: player, bets: { pairPlus: 1 } }], banker }, rules);
  }
  return neg(fraction(total, HANDS));
}

function firstDisjointHand(t: HandTable, p: number): Card[] {
  for (let b = 0; ; b++) if ((t.lo[b]! & t.lo[p]!) === 0 && (t.hi[b]! & t.hi[p]!) === 0) return cardsOf(t, b);
}

function emptyFiveCounts(): ClassCounts<FiveCardClass> {
  return Object.fromEntries(FIVE_CARD_CLASSES.map((c) => [c, 0])) as ClassCounts<FiveCardClass>;
}

/** Best-five class of every n-card set (n = 5: 2,598,960 hands; n = 6: 20,358,520 sets), and one example each. */
export function enumerateBestFive(n: 5 | 6): {
  counts: ClassCounts<FiveCardClass>;
  examples: Partial<Record<FiveCardClass, Card[]>>;
  total: number;
} {
  const tally = new Float64Array(FIVE_CARD_CLASSES.length);
  const examples: Partial<Record<FiveCardClass, Card[]>> = {};
  const set = new Uint8Array(n);
  let total = 0;
  const rec = (depth: number, start: number): void => {
    if (depth === n) {
      const id = bestFiveClassId(set, n);
      if (tally[id] === 0) examples[FIVE_CARD_CLASSES[id]!] = [...set];
      tally[id]!++;
      total++;
      return;
    }
    for (let c = start; c <= 52 - (n - depth); c++) {
      set[depth] = c;
      rec(depth + 1, c + 1);
    }
  };
  rec(0, 0);
  const counts = emptyFiveCounts();
  FIVE_CARD_CLASSES.forEach((c, i) => (counts[c] = tally[i]!));
  return { counts, examples, total };
}

/** Six Card Bonus: the class counts over all six-card sets, each class's payout from a settled example round. */
export function sixCardBonusEdge(
  rules: F3cpRuleSet,
  six: ReturnType<typeof enumerateBestFive>,
): { edge: Fraction; netPerClass: Partial<Record<FiveCardClass, number>> } {
  let total = 0n;
  const netPerClass: Partial<Record<FiveCardClass, number>> = {};
  for (const cls of FIVE_CARD_CLASSES) {
    const example = six.examples[cls];
    const count = six.counts[cls];
    if (!example || count === 0) continue;
    const facts: F3cpRoundFacts = {
      seats: [{ seat: 1, cards: example.slice(0, 3), bets: { ante: 1, sixCardBonus: 1 }, decision: 'fold' }],
      banker: example.slice(3),
    };
    const net = netOf(facts, rules, 'sixCardBonus');
    netPerClass[cls] = Number(net);
    total += BigInt(count) * net;
  }
  return { edge: neg(fraction(total, six.total)), netPerClass };
}
