import { formatCard, type Card } from '../cards.ts';
import {
  arrangementProblems,
  cardsNatural,
  judgeArrangement,
  type Arrangement,
  type JudgedArrangement,
} from './arrangement.ts';
import { allSameSuit, classOfKey, fiveKey, frontKey, inSequence, TC, tierPoints } from './hands.ts';
import { marginOf, scorePlace } from './score.ts';

/**
 * The arrangement solver. Given a place's 13 cards and the banker's arrangement (shown before the players take
 * their cards, art. 2.º d)), it finds a legal arrangement (no foul, art. 7.º) whose points against the banker
 * under T1 are the highest any legal arrangement reaches: what a sensible player does, and what the disputed-hand
 * explanation shows beside the arrangement played. Without a banker (the banker's own hand) it arranges for the
 * most points of its own formations.
 *
 * How: the 1,287 five-card and 286 three-card subsets of the hand are evaluated once; every split is a back
 * subset, a middle subset of the 8 cards left and the 3 cards left over (1,287 × 56 = 72,072 splits). Backs are
 * tried best contribution first and a branch is cut when even the best middle and front could not beat the best
 * margin found; arrangements showing three flushes or three straights (a natural, 3 points) are searched apart.
 */

/** Positions 0..12 of the hand: every 5-subset and 3-subset as a bit mask, and the index of each mask. */
const SUB5: number[] = [];
const SUB3: number[] = [];
const INDEX3 = new Int16Array(1 << 13).fill(-1);
for (let mask = 0; mask < 1 << 13; mask++) {
  const bits = popcount13(mask);
  if (bits === 5) SUB5.push(mask);
  else if (bits === 3) {
    INDEX3[mask] = SUB3.length;
    SUB3.push(mask);
  }
}
const SUB5_INDEX = new Int16Array(1 << 13).fill(-1);
SUB5.forEach((m, i) => (SUB5_INDEX[m] = i));
/** the 56 ways to take 5 of 8 positions, as bit masks over those 8 */
const C85: number[] = [];
for (let m = 0; m < 256; m++) if (popcount13(m) === 5) C85.push(m);

function popcount13(x: number): number {
  let n = 0;
  for (let v = x; v !== 0; v &= v - 1) n++;
  return n;
}

/** the positions of each 5-subset and 3-subset, 5 and 3 to a subset */
const POS5 = new Int8Array(SUB5.length * 5);
SUB5.forEach((mask, i) => {
  let n = 0;
  for (let p = 0; p < 13; p++) if (mask & (1 << p)) POS5[i * 5 + n++] = p;
});
const POS3 = new Int8Array(SUB3.length * 3);
SUB3.forEach((mask, j) => {
  let n = 0;
  for (let p = 0; p < 13; p++) if (mask & (1 << p)) POS3[j * 3 + n++] = p;
});
/**
 * Every split, hand-independent: for back subset i, its 56 middles (SPLIT_MID[i * 56 + q], a 5-subset index)
 * and the front left over (SPLIT_FRONT, a 3-subset index). 72,072 of each.
 */
const SPLIT_MID = new Int16Array(SUB5.length * 56);
const SPLIT_FRONT = new Int16Array(SUB5.length * 56);
SUB5.forEach((b, i) => {
  const rest = 0x1fff ^ b;
  const pos: number[] = [];
  for (let p = 0; p < 13; p++) if (rest & (1 << p)) pos.push(p);
  C85.forEach((pick, q) => {
    let m = 0;
    for (let r = 0; r < 8; r++) if (pick & (1 << r)) m |= 1 << pos[r]!;
    SPLIT_MID[i * 56 + q] = SUB5_INDEX[m]!;
    SPLIT_FRONT[i * 56 + q] = INDEX3[rest ^ m]!;
  });
});

const cardsOf = (hand: readonly Card[], mask: number): Card[] => {
  const out: Card[] = [];
  for (let i = 0; i < 13; i++) if (mask & (1 << i)) out.push(hand[i]!);
  return out;
};

/** Per-hand tables: the key of every subset, and whether it is all of one suit / in sequence (for naturals). */
interface HandTables {
  readonly k5: Float64Array;
  readonly k3: Float64Array;
  readonly suited5: Uint8Array;
  readonly seq5: Uint8Array;
  readonly suited3: Uint8Array;
  readonly seq3: Uint8Array;
}

function tables(hand: readonly Card[]): HandTables {
  const k5 = new Float64Array(SUB5.length);
  const suited5 = new Uint8Array(SUB5.length);
  const seq5 = new Uint8Array(SUB5.length);
  for (let i = 0, o = 0; i < SUB5.length; i++, o += 5) {
    k5[i] = fiveKey(
      hand[POS5[o]!]!,
      hand[POS5[o + 1]!]!,
      hand[POS5[o + 2]!]!,
      hand[POS5[o + 3]!]!,
      hand[POS5[o + 4]!]!,
    );
  }
  const k3 = new Float64Array(SUB3.length);
  const suited3 = new Uint8Array(SUB3.length);
  const seq3 = new Uint8Array(SUB3.length);
  for (let j = 0, o = 0; j < SUB3.length; j++, o += 3) {
    k3[j] = frontKey(hand[POS3[o]!]!, hand[POS3[o + 1]!]!, hand[POS3[o + 2]!]!);
  }
  return { k5, k3, suited5, seq5, suited3, seq3 };
}

/** Fills the suit/sequence flags (only needed when a natural arrangement is worth looking for). */
function flagNaturals(hand: readonly Card[], t: HandTables): void {
  const c5: Card[] = [0, 0, 0, 0, 0];
  for (let i = 0, o = 0; i < SUB5.length; i++, o += 5) {
    for (let k = 0; k < 5; k++) c5[k] = hand[POS5[o + k]!]!;
    t.suited5[i] = allSameSuit(c5) ? 1 : 0;
    t.seq5[i] = inSequence(c5) ? 1 : 0;
  }
  const c3: Card[] = [0, 0, 0];
  for (let j = 0, o = 0; j < SUB3.length; j++, o += 3) {
    for (let k = 0; k < 3; k++) c3[k] = hand[POS3[o + k]!]!;
    t.suited3[j] = allSameSuit(c3) ? 1 : 0;
    t.seq3[j] = inSequence(c3) ? 1 : 0;
  }
}

export class SolverInputError extends Error {
  override readonly name = 'SolverInputError';
}

function checkHand(hand: readonly Card[]): void {
  if (hand.length !== 13)
    throw new SolverInputError(`a place holds 13 cards (art. 2.º b)), not ${hand.length}`);
  const problems = arrangementProblems({
    front: hand.slice(0, 3),
    middle: hand.slice(3, 8),
    back: hand.slice(8),
  });
  if (problems.length > 0)
    throw new SolverInputError(`hand ${hand.map(String).join(',')}: ${problems.join('; ')}`);
}

const arrangementOf = (hand: readonly Card[], back: number, middle: number): Arrangement => ({
  front: cardsOf(hand, 0x1fff ^ back ^ middle),
  middle: cardsOf(hand, middle),
  back: cardsOf(hand, back),
});

export interface Solved {
  readonly arrangement: Arrangement;
  readonly judged: JudgedArrangement;
  /** the place's points minus the banker's under T1 (±∞ for a foul) */
  readonly margin: number;
}

/**
 * The legal arrangement of `hand` the place would choose alone: a natural if it has one, then the most points
 * for its own formations, then the strongest front, then the strongest middle. Used for the banker's hand.
 */
export function arrangeAlone(hand: readonly Card[]): Solved {
  checkHand(hand);
  const t = tables(hand);
  flagNaturals(hand, t);
  const cardNat = cardsNatural(hand) !== null;
  let best: [number, number, number, number] | null = null;
  let bestB = 0;
  let bestM = 0;
  for (let bi = 0; bi < SUB5.length; bi++) {
    const kb = t.k5[bi]!;
    for (let o = bi * 56; o < bi * 56 + 56; o++) {
      const mi = SPLIT_MID[o]!;
      const km = t.k5[mi]!;
      if (km > kb) continue;
      const fi = SPLIT_FRONT[o]!;
      const kf = t.k3[fi]!;
      if (kf > km) continue;
      const natural =
        cardNat ||
        (t.suited3[fi] === 1 && t.suited5[mi] === 1 && t.suited5[bi] === 1) ||
        (t.seq3[fi] === 1 && t.seq5[mi] === 1 && t.seq5[bi] === 1);
      const score: [number, number, number, number] = [
        natural ? 1 : 0,
        tierPoints(kf, 0) + tierPoints(km, 1) + tierPoints(kb, 2),
        kf,
        km,
      ];
      if (best === null || lexGreater(score, best)) {
        best = score;
        bestB = SUB5[bi]!;
        bestM = SUB5[mi]!;
      }
    }
  }
  const arrangement = arrangementOf(hand, bestB, bestM);
  return { arrangement, judged: judgeArrangement(arrangement), margin: 0 };
}

function lexGreater(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return false;
}

/**
 * The legal arrangement of `hand` with the highest margin against the banker's arrangement (T1), and that margin.
 * The banker's arrangement must be well formed; a fouled banker loses to any legal arrangement (T6).
 */
export function bestArrangementAgainst(hand: readonly Card[], banker: JudgedArrangement): Solved {
  checkHand(hand);
  const bankerProblems = arrangementProblems(banker.arrangement);
  if (bankerProblems.length > 0)
    throw new SolverInputError(`the banker's arrangement: ${bankerProblems.join('; ')}`);
  const overlap = hand.filter((c) =>
    [...banker.arrangement.front, ...banker.arrangement.middle, ...banker.arrangement.back].includes(c),
  );
  if (overlap.length > 0)
    throw new SolverInputError(
      `cards ${overlap.map(formatCard).join(' ')} are both in the hand and the banker's`,
    );
  const score = (a: Arrangement): Solved => {
    const judged = judgeArrangement(a);
    return { arrangement: a, judged, margin: marginOf(scorePlace(judged, banker)) };
  };
  // a fouled banker, a dragon or six pairs and a half: every legal arrangement has the same result
  const t = tables(hand);
  const greedy = greedyArrangement(hand, t);
  if (banker.foul || cardsNatural(hand) !== null) return score(greedy);
  const natMargin = banker.natural ? 0 : 3;
  const bankerNat = banker.natural !== null;
  // contributions of each subset in each tier against the banker's tier (art. 8.º, 10.º, T1)
  const [bf, bm, bb] = banker.keys;
  const pf = tierPoints(bf, 0);
  const pm = tierPoints(bm, 1);
  const pb = tierPoints(bb, 2);
  const n5 = SUB5.length;
  const cM = new Int8Array(n5);
  const cB = new Int8Array(n5);
  let maxCM = -128;
  for (let i = 0; i < n5; i++) {
    const k = t.k5[i]!;
    cM[i] = k > bm ? tierPoints(k, 1) : -pm;
    cB[i] = k > bb ? tierPoints(k, 2) : -pb;
    if (cM[i]! > maxCM) maxCM = cM[i]!;
  }
  const cF = new Int8Array(SUB3.length);
  let maxCF = -128;
  for (let j = 0; j < SUB3.length; j++) {
    const k = t.k3[j]!;
    cF[j] = k > bf ? tierPoints(k, 0) : -pf;
    if (cF[j]! > maxCF) maxCF = cF[j]!;
  }

  // the starting point: the strongest back, then the strongest middle (always legal)
  let best = score(greedy);
  let bestMargin = best.margin;
  const natPossible = natMargin > bestMargin && couldShowArrangedNatural(hand);
  if (natPossible) flagNaturals(hand, t);

  // pass A: arrangements judged tier by tier (a natural met on the way is scored as one)
  if (!bankerNat) {
    // An upper bound per back: contributions rise with the key (a loss, then the points of ever higher
    // classes), so a middle no stronger than the back scores at most what the back's key would score in the
    // middle, and a front no stronger than that at most 3 (a trio) or 1.
    const fM = (k: number): number => (k > bm ? tierPoints(k, 1) : -pm);
    const fF = (k: number): number => (k > bf ? (classOfKey(k) >= TC.threeOfAKind ? 3 : 1) : -pf);
    const bound = new Int8Array(n5);
    const buckets: number[][] = Array.from({ length: 64 }, () => []);
    for (let i = 0; i < n5; i++) {
      const kb = t.k5[i]!;
      bound[i] = cB[i]! + Math.min(maxCM, fM(kb)) + Math.min(maxCF, fF(kb));
      buckets[bound[i]! + 32]!.push(i);
    }
    scan: for (let u = 63; u >= 0; u--) {
      if (u - 32 <= bestMargin) break;
      for (const bi of buckets[u]!) {
        if (bound[bi]! <= bestMargin) break scan;
        const cb = cB[bi]!;
        const kb = t.k5[bi]!;
        for (let o = bi * 56; o < bi * 56 + 56; o++) {
          const mi = SPLIT_MID[o]!;
          const cm = cM[mi]!;
          const km = t.k5[mi]!;
          if (km > kb || cb + cm + Math.min(maxCF, fF(km)) <= bestMargin) continue;
          const fi = SPLIT_FRONT[o]!;
          if (t.k3[fi]! > km) continue;
          let margin = cb + cm + cF[fi]!;
          if (
            natPossible &&
            ((t.suited3[fi] === 1 && t.suited5[mi] === 1 && t.suited5[bi] === 1) ||
              (t.seq3[fi] === 1 && t.seq5[mi] === 1 && t.seq5[bi] === 1))
          )
            margin = natMargin;
          if (margin > bestMargin) {
            bestMargin = margin;
            best = score(arrangementOf(hand, SUB5[bi]!, SUB5[mi]!));
          }
        }
      }
    }
  }
  // pass B: arrangements showing three flushes or three straights (art. 9.º I)
  if (natPossible && natMargin > bestMargin) {
    search: for (let bi = 0; bi < n5; bi++) {
      if (t.suited5[bi] === 0 && t.seq5[bi] === 0) continue;
      const kb = t.k5[bi]!;
      for (let o = bi * 56; o < bi * 56 + 56; o++) {
        const mi = SPLIT_MID[o]!;
        const km = t.k5[mi]!;
        if (km > kb) continue;
        const fi = SPLIT_FRONT[o]!;
        if (t.k3[fi]! > km) continue;
        const natural =
          (t.suited3[fi] === 1 && t.suited5[mi] === 1 && t.suited5[bi] === 1) ||
          (t.seq3[fi] === 1 && t.seq5[mi] === 1 && t.seq5[bi] === 1);
        if (natural) {
          best = score(arrangementOf(hand, SUB5[bi]!, SUB5[mi]!));
          bestMargin = best.margin;
          break search;
        }
      }
    }
  }
  return best;
}

/**
 * The strongest back, the strongest middle of the 8 cards left, the rest in front: never a foul, since the back is
 * the strongest 5 of all 13 and the middle the strongest 5 of 8 that include the front's 3 cards.
 */
function greedyArrangement(hand: readonly Card[], t: HandTables): Arrangement {
  let bi = 0;
  for (let i = 1; i < SUB5.length; i++) if (t.k5[i]! > t.k5[bi]!) bi = i;
  let mi = SPLIT_MID[bi * 56]!;
  for (let o = bi * 56 + 1; o < bi * 56 + 56; o++) if (t.k5[SPLIT_MID[o]!]! > t.k5[mi]!) mi = SPLIT_MID[o]!;
  return arrangementOf(hand, SUB5[bi]!, SUB5[mi]!);
}

/**
 * A quick necessary condition for three flushes or three straights: every suit's count is a sum of tier sizes
 * (0, 3, 5, 8, 10 or 13), or the hand holds five ranks in sequence for a straight back. The search decides.
 */
function couldShowArrangedNatural(hand: readonly Card[]): boolean {
  const suits = [0, 0, 0, 0];
  for (const c of hand) suits[c & 3]!++;
  // three flushes: every suit's count is a sum of tier sizes (0, 3, 5, 8, 10, 13)
  const flushable = suits.every((k) => k === 0 || k === 3 || k === 5 || k === 8 || k === 10 || k === 13);
  return flushable || hasTwoStraightsAndARun(hand);
}

/** whether the hand holds five ranks in sequence (A-2-3-4-5 included) */
function hasTwoStraightsAndARun(hand: readonly Card[]): boolean {
  let mask = 0;
  for (const c of hand) mask |= 1 << (c >> 2);
  const ext = (mask << 1) | ((mask >> 12) & 1);
  return (ext & (ext >> 1) & (ext >> 2) & (ext >> 3) & (ext >> 4)) !== 0;
}
