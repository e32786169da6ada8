import { formatCard, RANK_CHARS, rankOf, suitOf, type Card } from '../../cards.ts';
import { add, compare, div, fraction, neg, toJson, type Fraction } from '../../fraction.ts';
import { bestFiveClassId, FIVE_CARD_CLASSES, type FiveCardClass } from '../../poker/five-card.ts';
import {
  classifyThree,
  classOfThree,
  qualifiesQueenHigh,
  THREE_CARD_CLASSES,
  valueUnder,
  type ThreeCardClass,
} from '../../poker/three-card.ts';
import type { F3cpRoundFacts } from '../facts.ts';
import type { F3cpRuleSet } from '../rule-set.ts';
import { settleF3cpRound } from '../settle/index.ts';

/**
 * Exact house figures for Fortune 3 Card Poker, computed by full enumeration with the engine itself: hands are
 * classified by the same evaluators, and every payout comes from settleF3cpRound on a concrete round (one per
 * group of rounds that settle alike), so the report can only agree with what the replay pays.
 */

const HANDS = 22_100; // C(52, 3)
const BANKER_HANDS = 18_424; // C(49, 3)

interface HandTable {
  cards: Uint8Array; // 3 per hand
  lo: Int32Array; // card bits 0..31
  hi: Int32Array; // card bits 32..51
  classified: Int32Array;
}

let handTable: HandTable | undefined;

/** All 22,100 three-card hands in lexicographic order of card indexes. */
function allThreeCardHands(): HandTable {
  if (handTable) return handTable;
  const t: HandTable = {
    cards: new Uint8Array(HANDS * 3),
    lo: new Int32Array(HANDS),
    hi: new Int32Array(HANDS),
    classified: new Int32Array(HANDS),
  };
  let n = 0;
  for (let a = 0; a < 52; a++)
    for (let b = a + 1; b < 52; b++)
      for (let c = b + 1; c < 52; c++) {
        t.cards.set([a, b, c], n * 3);
        for (const x of [a, b, c]) {
          if (x < 32) t.lo[n]! |= 1 << x;
          else t.hi[n]! |= 1 << (x - 32);
        }
        t.classified[n] = classifyThree(a, b, c);
        n++;
      }
  handTable = t;
  return t;
}

const cardsOf = (t: HandTable, i: number): Card[] => [
  t.cards[i * 3]!,
  t.cards[i * 3 + 1]!,
  t.cards[i * 3 + 2]!,
];

/** Net result in avos of one seat's lines in a settled round. */
function netOf(facts: F3cpRoundFacts, rules: F3cpRuleSet, bet?: string): bigint {
  let net = 0;
  for (const l of settleF3cpRound(facts, rules).lines) if (bet === undefined || l.bet === bet) net += l.net;
  return BigInt(net);
}

/** The suit-pattern class of a hand: equal for hands that differ only by a renaming of suits (equal EVs). */
function canonicalKey(cards: Card[]): string {
  let best = '';
  for (const perm of SUIT_PERMUTATIONS) {
    const k = cards
      .map((c) => rankOf(c) * 4 + perm[suitOf(c)]!)
      .sort((x, y) => y - x)
      .map((c) => String.fromCharCode(65 + c))
      .join('');
    if (best === '' || k < best) best = k;
  }
  return best;
}

const SUIT_PERMUTATIONS: number[][] = [];
(function permute(prefix: number[]) {
  if (prefix.length === 4) SUIT_PERMUTATIONS.push(prefix);
  for (let s = 0; s < 4; s++) if (!prefix.includes(s)) permute([...prefix, s]);
})([]);

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
  for (let i = 0; i < HANDS; i++) {
    value[i] = valueUnder(t.classified[i]!, rules.handOrder);
    qualifies[i] = qualifiesQueenHigh(t.classified[i]!) ? 1 : 0;
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
      hand: classOfThree(t.classified[g.first]!),
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

export function threeCardCounts(): ClassCounts<ThreeCardClass> {
  const t = allThreeCardHands();
  const counts = Object.fromEntries(THREE_CARD_CLASSES.map((c) => [c, 0])) as ClassCounts<ThreeCardClass>;
  for (let i = 0; i < HANDS; i++) counts[classOfThree(t.classified[i]!)]++;
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
  const counts = timed('threeCardCounts', threeCardCounts);
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

interface DecisionTables {
  cardsOf(hand: number, i: number): Card;
  value: Int32Array;
  qualifies: Uint8Array;
  /** net of Ante + Play + Ante bonus for one unit of Ante, per bucket: 0 not qualified, 1 higher, 2 equal, 3 lower */
  netCache: Map<number, Int32Array>;
}

const decisionTables = new WeakMap<F3cpRuleSet, DecisionTables>();

function tablesFor(rules: F3cpRuleSet): DecisionTables {
  let d = decisionTables.get(rules);
  if (!d) {
    const t = allThreeCardHands();
    const value = new Int32Array(HANDS);
    const qualifies = new Uint8Array(HANDS);
    for (let i = 0; i < HANDS; i++) {
      value[i] = valueUnder(t.classified[i]!, rules.handOrder);
      qualifies[i] = qualifiesQueenHigh(t.classified[i]!) ? 1 : 0;
    }
    d = { value, qualifies, netCache: new Map(), cardsOf: (h, i) => t.cards[h * 3 + i]! };
    decisionTables.set(rules, d);
  }
  return d;
}

/**
 * The value of playing a hand when some other cards are known not to be the banker's (the cards of other hands
 * a player has seen): expected net of Ante + Play + Ante bonus per unit of Ante over every banker hand from the
 * remaining cards, against -1 for a fold. Bucket payoffs come from settleF3cpRound, as in analyseAntePlay.
 */
export function playValue(
  rules: F3cpRuleSet,
  player: readonly Card[],
  known: readonly Card[],
): { evPlay: Fraction; evFold: Fraction; play: boolean } {
  const t = allThreeCardHands();
  const d = tablesFor(rules);
  let lo = 0;
  let hi = 0;
  for (const c of [...player, ...known]) {
    if (c < 32) lo |= 1 << c;
    else hi |= 1 << (c - 32);
  }
  const pv = valueUnder(classifyThree(player[0]!, player[1]!, player[2]!), rules.handOrder);
  const count = [0, 0, 0, 0];
  const representative = [-1, -1, -1, -1];
  for (let b = 0; b < HANDS; b++) {
    if ((t.lo[b]! & lo) !== 0 || (t.hi[b]! & hi) !== 0) continue;
    const bucket = d.qualifies[b] === 0 ? 0 : pv > d.value[b]! ? 1 : pv === d.value[b]! ? 2 : 3;
    count[bucket]!++;
    if (representative[bucket] === -1) representative[bucket] = b;
  }
  let total = 0n;
  let n = 0;
  for (let k = 0; k < 4; k++) {
    if (count[k] === 0) continue;
    const facts: F3cpRoundFacts = {
      seats: [{ seat: 1, cards: [...player], bets: { ante: 1, play: 1 }, decision: 'play' }],
      banker: cardsOf(t, representative[k]!),
    };
    total += BigInt(count[k]!) * netOf(facts, rules);
    n += count[k]!;
  }
  const evPlay = fraction(total, n);
  const evFold = fraction(-1);
  return { evPlay, evFold, play: compare(evPlay, evFold) > 0 };
}

/**
 * The same decision as playValue, fast enough to run on every decision of a replay. For a player hand it keeps,
 * per bucket, how many banker hands hold each other card; the banker hands ruled out by a set of known cards are
 * then counted by inclusion and exclusion over single known cards, pairs and triples. Exact; property-tested
 * against playValue.
 */
export class PlayDecisionOracle {
  private readonly tables: DecisionTables;
  private readonly byHand = new Map<
    number,
    { total: Int32Array; perCard: Int32Array; perPair: Int32Array; nets: Int32Array }
  >();
  private readonly index: Int32Array;
  private readonly canonical: { hand: Int32Array; perm: Uint8Array };
  // scratch (value() is synchronous: nothing survives a call)
  private readonly ks: Card[] = [];
  private readonly counts = new Int32Array(4);
  private readonly ownDecision = new Uint8Array(HANDS);

  constructor(private readonly rules: F3cpRuleSet) {
    this.tables = tablesFor(rules);
    this.index = handIndex();
    this.canonical = canonicalHands();
  }

  /** Whether playing beats folding for `player` when `known` cards are not the banker's. */
  plays(player: readonly Card[], known: readonly Card[]): boolean {
    if (known.length === 0) {
      // the decision on the hand alone: remembered per hand (0 = not yet known, 1 = fold, 2 = play)
      const pi = this.indexOf(player[0]!, player[1]!, player[2]!);
      const cached = this.ownDecision[pi]!;
      if (cached !== 0) return cached === 2;
      const { num, den } = this.value(player, known);
      this.ownDecision[pi] = num > -den ? 2 : 1;
      return num > -den;
    }
    const { num, den } = this.value(player, known);
    return num > -den; // EV(play) = num / den > -1 = EV(fold)
  }

  /** EV(play) as num / den (per unit of Ante). */
  value(player: readonly Card[], known: readonly Card[]): { num: number; den: number } {
    // Work in the hand's suit-pattern class: renaming the suits of every card changes no value.
    const pi = this.indexOf(player[0]!, player[1]!, player[2]!);
    const ci = this.canonical.hand[pi]!;
    const perm = SUIT_PERMUTATIONS[this.canonical.perm[pi]!]!;
    const rename = (c: Card): Card => (c & ~3) | perm[c & 3]!;
    const p = this.hand(ci);
    const cp0 = this.tables.cardsOf(ci, 0);
    const cp1 = this.tables.cardsOf(ci, 1);
    const cp2 = this.tables.cardsOf(ci, 2);
    const pv = this.tables.value[ci]!;
    const ks = this.ks;
    ks.length = 0;
    for (const k of known) if (k !== player[0] && k !== player[1] && k !== player[2]) ks.push(rename(k));
    // banker hands left = all − those holding a known card (inclusion–exclusion: + pairs − triples)
    const counts = this.counts;
    counts.set(p.total);
    for (let i = 0; i < ks.length; i++) {
      const ki = ks[i]!;
      for (let b = 0; b < 4; b++) counts[b]! -= p.perCard[ki * 4 + b]!;
      for (let j = i + 1; j < ks.length; j++) {
        const kj = ks[j]!;
        const pair = (ki < kj ? ki * 52 + kj : kj * 52 + ki) * 4;
        for (let b = 0; b < 4; b++) counts[b]! += p.perPair[pair + b]!;
        for (let l = j + 1; l < ks.length; l++) {
          const kl = ks[l]!;
          if (kl !== cp0 && kl !== cp1 && kl !== cp2) counts[this.bucket(pv, this.indexOf(ki, kj, kl))]!--;
        }
      }
    }
    let num = 0;
    let den = 0;
    for (let b = 0; b < 4; b++) {
      num += counts[b]! * p.nets[b]!;
      den += counts[b]!;
    }
    return { num, den };
  }

  /**
   * Builds the tables of every suit-pattern class that `wanted` accepts, now rather than on first sight: a live
   * replay calls this before following events, so no round waits for a table build.
   */
  warm(wanted: (cards: readonly Card[]) => boolean = () => true): number {
    const t = allThreeCardHands();
    const built = new Set<number>();
    for (let i = 0; i < HANDS; i++) {
      const ci = this.canonical.hand[i]!;
      if (built.has(ci) || !wanted(cardsOf(t, ci))) continue;
      built.add(ci);
      this.hand(ci);
    }
    return built.size;
  }

  private bucket(pv: number, b: number): number {
    return this.tables.qualifies[b] === 0
      ? 0
      : pv > this.tables.value[b]!
        ? 1
        : pv === this.tables.value[b]!
          ? 2
          : 3;
  }

  private indexOf(a: number, b: number, c: number): number {
    return this.index[a * 2704 + b * 52 + c]!;
  }

  private hand(pi: number) {
    let h = this.byHand.get(pi);
    if (h) return h;
    const t = allThreeCardHands();
    const pv = this.tables.value[pi]!;
    const total = new Int32Array(4);
    const perCard = new Int32Array(52 * 4);
    const perPair = new Int32Array(52 * 52 * 4); // [lower card * 52 + higher card] × bucket
    const representative = [-1, -1, -1, -1];
    for (let b = 0; b < HANDS; b++) {
      if ((t.lo[b]! & t.lo[pi]!) !== 0 || (t.hi[b]! & t.hi[pi]!) !== 0) continue;
      const k = this.bucket(pv, b);
      const [x, y, z] = [t.cards[b * 3]!, t.cards[b * 3 + 1]!, t.cards[b * 3 + 2]!]; // ascending
      total[k]!++;
      perCard[x * 4 + k]!++;
      perCard[y * 4 + k]!++;
      perCard[z * 4 + k]!++;
      perPair[(x * 52 + y) * 4 + k]!++;
      perPair[(x * 52 + z) * 4 + k]!++;
      perPair[(y * 52 + z) * 4 + k]!++;
      if (representative[k] === -1) representative[k] = b;
    }
    const nets = new Int32Array(4);
    for (let k = 0; k < 4; k++) {
      if (representative[k] === -1) continue;
      const facts: F3cpRoundFacts = {
        seats: [{ seat: 1, cards: cardsOf(t, pi), bets: { ante: 1, play: 1 }, decision: 'play' }],
        banker: cardsOf(t, representative[k]!),
      };
      nets[k] = Number(netOf(facts, this.rules));
    }
    h = { total, perCard, perPair, nets };
    this.byHand.set(pi, h);
    return h;
  }
}

let canonicalTable: { hand: Int32Array; perm: Uint8Array } | undefined;

/** For every hand: the index of its suit-pattern representative and the suit renaming that maps it there. */
function canonicalHands(): { hand: Int32Array; perm: Uint8Array } {
  if (canonicalTable) return canonicalTable;
  const t = allThreeCardHands();
  const idx = handIndex();
  const hand = new Int32Array(HANDS);
  const perm = new Uint8Array(HANDS);
  for (let i = 0; i < HANDS; i++) {
    let best = -1;
    SUIT_PERMUTATIONS.forEach((p, pIndex) => {
      const [a, b, c] = [0, 1, 2].map((k) => {
        const x = t.cards[i * 3 + k]!;
        return (x & ~3) | p[x & 3]!;
      }) as [number, number, number];
      const j = idx[a * 2704 + b * 52 + c]!;
      if (best === -1 || j < best) {
        best = j;
        perm[i] = pIndex;
      }
    });
    hand[i] = best;
  }
  canonicalTable = { hand, perm };
  return canonicalTable;
}

let indexTable: Int32Array | undefined;

/** Hand index (position in allThreeCardHands) of any ordering of three distinct cards. */
function handIndex(): Int32Array {
  if (indexTable) return indexTable;
  const t = allThreeCardHands();
  const idx = new Int32Array(52 * 52 * 52).fill(-1);
  for (let i = 0; i < HANDS; i++) {
    const [a, b, c] = [t.cards[i * 3]!, t.cards[i * 3 + 1]!, t.cards[i * 3 + 2]!];
    for (const [x, y, z] of [
      [a, b, c],
      [a, c, b],
      [b, a, c],
      [b, c, a],
      [c, a, b],
      [c, b, a],
    ] as const)
      idx[x * 2704 + y * 52 + z] = i;
  }
  indexTable = idx;
  return idx;
}

const oracles = new WeakMap<F3cpRuleSet, PlayDecisionOracle>();

/** One oracle per rule set for the whole process: its per-hand tables are costly to build and never change. */
export function playDecisionOracle(rules: F3cpRuleSet): PlayDecisionOracle {
  let o = oracles.get(rules);
  if (!o) oracles.set(rules, (o = new PlayDecisionOracle(rules)));
  return o;
}
