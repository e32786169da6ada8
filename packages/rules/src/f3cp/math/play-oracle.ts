import type { Card } from '../../cards.ts';
import { compare, fraction, type Fraction } from '../../fraction.ts';
import type { F3cpRoundFacts } from '../facts.ts';
import type { F3cpRuleSet } from '../rule-set.ts';
import { comparedHand } from '../settle/index.ts';
import {
  allThreeCardHands,
  canonicalHands,
  cardsOf,
  handIndex,
  HANDS,
  rankOfAscending,
  SUIT_PERMUTATIONS,
} from './hands.ts';
import { netOf } from './house-edge.ts';

/**
 * The exact play decision (art. 12.º): whether playing beats folding for a hand when some other cards are known
 * not to be the banker's, as an exact value (playValue) and fast enough for every decision of a replay
 * (PlayDecisionOracle, one per rule set: playDecisionOracle).
 */

interface DecisionTables {
  cardsOf(hand: number, i: number): Card;
  value: Int32Array;
  qualifies: Uint8Array;
  /** value where the hand qualifies, -1 where it does not (values are ≥ 0): one read decides a bucket */
  qualifiedValue: Int32Array;
  /**
   * Per suit-pattern class, the banker hands counted by bucket (PlayDecisionOracle.hand), built on first need. They
   * follow from the comparison alone, so every rule set whose hands compare alike shares them: a what-if's
   * alternative that changes no comparison (J1, J5, J8, …) does not build them again.
   */
  counts: (BucketCounts | undefined)[];
}

const decisionTables = new WeakMap<F3cpRuleSet, DecisionTables>();
/** Decision tables by a digest of their comparison; equal digests are compared in full before one is shared. */
const tablesByComparison = new Map<number, DecisionTables[]>();

function tablesFor(rules: F3cpRuleSet): DecisionTables {
  let d = decisionTables.get(rules);
  if (!d) {
    const t = allThreeCardHands();
    const value = new Int32Array(HANDS);
    const qualifies = new Uint8Array(HANDS);
    const qualifiedValue = new Int32Array(HANDS);
    // as the settlement of these readings compares hands (J7, J11, H1, H7 change values or qualification)
    let digest = 0x811c9dc5;
    for (let i = 0; i < HANDS; i++) {
      const h = comparedHand(rules, cardsOf(t, i));
      value[i] = h.value;
      qualifies[i] = h.qualifies ? 1 : 0;
      qualifiedValue[i] = qualifies[i] ? value[i]! : -1;
      digest = Math.imul(digest ^ qualifiedValue[i]!, 0x01000193);
    }
    const alike = tablesByComparison.get(digest) ?? [];
    d = alike.find((x) => sameValues(x.qualifiedValue, qualifiedValue) && sameValues(x.value, value));
    if (!d) {
      d = {
        value,
        qualifies,
        qualifiedValue,
        cardsOf: (h, i) => t.cards[h * 3 + i]!,
        counts: new Array<BucketCounts | undefined>(HANDS).fill(undefined),
      };
      alike.push(d);
      tablesByComparison.set(digest, alike);
    }
    decisionTables.set(rules, d);
  }
  return d;
}

function sameValues(a: Int32Array, b: Int32Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return a.length === b.length;
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
  const pv = comparedHand(rules, player).value;
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
 * Per bucket, banker hands apart from the player's three cards: in all (at most 18,424), holding a given card (at
 * most C(48, 2) = 1,128: Uint16) and holding two given cards (at most 47, the third card: Uint8). The narrow widths
 * are exact and keep a class's tables at a quarter of their Int32 size, so the pair reads of compute(), which go to
 * random places, miss the cache less.
 */
interface BucketCounts {
  total: Int32Array;
  perCard: Uint16Array;
  perPair: Uint8Array;
  /** a banker hand of each bucket (-1: none), for the nets */
  representative: readonly number[];
}

interface HandCounts extends BucketCounts {
  /** net of Ante + Play + Ante bonus for one unit of Ante, per bucket, under this oracle's rule set */
  nets: Int32Array;
}

/**
 * The same decision as playValue, fast enough to run on every decision of a replay. For a player hand it keeps,
 * per bucket, how many banker hands hold each other card; the banker hands ruled out by a set of known cards are
 * then counted by inclusion and exclusion over single known cards, pairs and triples. Exact; property-tested
 * against playValue.
 */
export class PlayDecisionOracle {
  private readonly tables: DecisionTables;
  /** per suit-pattern class (indexed by hand index), built on first need */
  private readonly byHand: (HandCounts | undefined)[] = new Array<HandCounts | undefined>(HANDS).fill(
    undefined,
  );
  private readonly index: Int32Array;
  private readonly canonical: { hand: Int32Array; perm: Uint8Array };
  // scratch (value() is synchronous: nothing survives a call)
  private readonly ks = new Int32Array(52);
  private readonly counts = new Int32Array(4);
  private readonly ownDecision = new Uint8Array(HANDS);
  private num = 0;
  private den = 0;

  constructor(private readonly rules: F3cpRuleSet) {
    this.tables = tablesFor(rules);
    this.index = handIndex();
    this.canonical = canonicalHands();
  }

  /** Whether playing beats folding for `player` when `known` cards are not the banker's. */
  plays(player: readonly Card[], known: readonly Card[]): boolean {
    if (known.length === 0) return this.playsAlone(this.indexOf(player[0]!, player[1]!, player[2]!));
    this.compute(player, known, known.length);
    return this.num > -this.den; // EV(play) = num / den > -1 = EV(fold)
  }

  /** The index of a three-card hand (any order of its cards), as the other methods take it. */
  handOf(a: Card, b: Card, c: Card): number {
    return this.indexOf(a, b, c);
  }

  /** plays(hand, []) by hand index: the decision on the hand alone, remembered per hand. */
  playsAlone(pi: number): boolean {
    const cached = this.ownDecision[pi]!; // 0 = not yet known, 1 = fold, 2 = play
    if (cached !== 0) return cached === 2;
    const t = allThreeCardHands();
    this.compute([t.cards[pi * 3]!, t.cards[pi * 3 + 1]!, t.cards[pi * 3 + 2]!], [], 0);
    this.ownDecision[pi] = this.num > -this.den ? 2 : 1;
    return this.num > -this.den;
  }

  /** plays(player, known) for the first `n` cards of `known`, without allocating. */
  playsKnowing(player: readonly Card[], known: readonly Card[], n: number): boolean {
    if (n === 0) return this.playsAlone(this.indexOf(player[0]!, player[1]!, player[2]!));
    this.compute(player, known, n);
    return this.num > -this.den;
  }

  /** EV(play) as num / den (per unit of Ante). */
  value(player: readonly Card[], known: readonly Card[]): { num: number; den: number } {
    this.compute(player, known, known.length);
    return { num: this.num, den: this.den };
  }

  /** EV(play) as this.num / this.den, for the first `n` known cards. */
  private compute(player: readonly Card[], known: readonly Card[], n: number): void {
    // Work in the hand's suit-pattern class: renaming the suits of every card changes no value.
    const p0 = player[0]!;
    const p1 = player[1]!;
    const p2 = player[2]!;
    const pi = this.indexOf(p0, p1, p2);
    const ci = this.canonical.hand[pi]!;
    const perm = SUIT_PERMUTATIONS[this.canonical.perm[pi]!]!;
    const p = this.byHand[ci] ?? this.hand(ci);
    const d = this.tables;
    const cp0 = d.cardsOf(ci, 0);
    const cp1 = d.cardsOf(ci, 1);
    const cp2 = d.cardsOf(ci, 2);
    const pv = d.value[ci]!;
    const ks = this.ks;
    let m = 0;
    for (let i = 0; i < n; i++) {
      const k = known[i]!;
      if (k !== p0 && k !== p1 && k !== p2) ks[m++] = (k & ~3) | perm[k & 3]!;
    }
    // in ascending order, the triples below are looked up by their rank (small tables) rather than in the
    // 52³ index, whose random reads miss the cache; cards repeated among the known ones keep the index
    for (let i = 1; i < m; i++) {
      const k = ks[i]!;
      let j = i - 1;
      for (; j >= 0 && ks[j]! > k; j--) ks[j + 1] = ks[j]!;
      ks[j + 1] = k;
    }
    let distinct = true;
    for (let i = 1; i < m && distinct; i++) distinct = ks[i - 1]! < ks[i]!;
    // banker hands left = all − those holding a known card (inclusion–exclusion: + pairs − triples)
    const counts = this.counts;
    const total = p.total;
    // four stores: cheaper than counts.set(total) at this size
    counts[0] = total[0]!;
    counts[1] = total[1]!;
    counts[2] = total[2]!;
    counts[3] = total[3]!;
    const perCard = p.perCard;
    const perPair = p.perPair;
    for (let i = 0; i < m; i++) {
      const ki = ks[i]!;
      const c = ki * 4;
      counts[0]! -= perCard[c]!;
      counts[1]! -= perCard[c + 1]!;
      counts[2]! -= perCard[c + 2]!;
      counts[3]! -= perCard[c + 3]!;
      for (let j = i + 1; j < m; j++) {
        const kj = ks[j]!;
        const pair = (ki < kj ? ki * 52 + kj : kj * 52 + ki) * 4;
        counts[0]! += perPair[pair]!;
        counts[1]! += perPair[pair + 1]!;
        counts[2]! += perPair[pair + 2]!;
        counts[3]! += perPair[pair + 3]!;
        for (let l = j + 1; l < m; l++) {
          const kl = ks[l]!;
          if (kl !== cp0 && kl !== cp1 && kl !== cp2)
            counts[this.bucket(pv, distinct ? rankOfAscending(ki, kj, kl) : this.indexOf(ki, kj, kl))]!--;
        }
      }
    }
    const nets = p.nets;
    this.num = counts[0]! * nets[0]! + counts[1]! * nets[1]! + counts[2]! * nets[2]! + counts[3]! * nets[3]!;
    this.den = counts[0]! + counts[1]! + counts[2]! + counts[3]!;
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

  /** 0 the banker hand b does not qualify; 1, 2, 3 the player's value pv is higher, equal, lower */
  private bucket(pv: number, b: number): number {
    const q = this.tables.qualifiedValue[b]!;
    return q < 0 ? 0 : pv > q ? 1 : pv === q ? 2 : 3;
  }

  private indexOf(a: number, b: number, c: number): number {
    return this.index[a * 2704 + b * 52 + c]!;
  }

  private hand(pi: number): HandCounts {
    let h = this.byHand[pi];
    if (h) return h;
    const t = allThreeCardHands();
    const counts = this.tables.counts[pi] ?? this.countBuckets(pi);
    const { representative } = counts;
    const nets = new Int32Array(4);
    for (let k = 0; k < 4; k++) {
      if (representative[k] === -1) continue;
      const facts: F3cpRoundFacts = {
        seats: [{ seat: 1, cards: cardsOf(t, pi), bets: { ante: 1, play: 1 }, decision: 'play' }],
        banker: cardsOf(t, representative[k]!),
      };
      nets[k] = Number(netOf(facts, this.rules));
    }
    h = { ...counts, nets };
    this.byHand[pi] = h;
    return h;
  }

  /** The banker hands apart from hand pi's cards, by bucket: kept with the decision tables, shared by rule sets. */
  private countBuckets(pi: number): BucketCounts {
    const t = allThreeCardHands();
    const pv = this.tables.value[pi]!;
    const total = new Int32Array(4);
    const perCard = new Uint16Array(52 * 4);
    const perPair = new Uint8Array(52 * 52 * 4); // [lower card * 52 + higher card] × bucket
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
    const counts = { total, perCard, perPair, representative };
    this.tables.counts[pi] = counts;
    return counts;
  }
}

const oracles = new WeakMap<F3cpRuleSet, PlayDecisionOracle>();

/** One oracle per rule set for the whole process: its per-hand tables are costly to build and never change. */
export function playDecisionOracle(rules: F3cpRuleSet): PlayDecisionOracle {
  let o = oracles.get(rules);
  if (!o) oracles.set(rules, (o = new PlayDecisionOracle(rules)));
  return o;
}
