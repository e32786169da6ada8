import { rankOf, suitOf, type Card } from '../../cards.ts';
import { classifyThree } from '../../poker/three-card.ts';

/**
 * The three-card hands the exact figures enumerate: all 22,100 in one table, their suit-pattern classes (hands
 * that differ only by a renaming of suits share every expected value) and the index of any ordering of three cards.
 */

export const HANDS = 22_100; // C(52, 3)
export const BANKER_HANDS = 18_424; // C(49, 3)

export interface HandTable {
  cards: Uint8Array; // 3 per hand
  lo: Int32Array; // card bits 0..31
  hi: Int32Array; // card bits 32..51
  classified: Int32Array;
}

let handTable: HandTable | undefined;

/** All 22,100 three-card hands in lexicographic order of card indexes. */
export function allThreeCardHands(): HandTable {
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

export const cardsOf = (t: HandTable, i: number): Card[] => [
  t.cards[i * 3]!,
  t.cards[i * 3 + 1]!,
  t.cards[i * 3 + 2]!,
];

/** The suit-pattern class of a hand: equal for hands that differ only by a renaming of suits (equal EVs). */
export function canonicalKey(cards: Card[]): string {
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

export const SUIT_PERMUTATIONS: number[][] = [];
(function permute(prefix: number[]) {
  if (prefix.length === 4) SUIT_PERMUTATIONS.push(prefix);
  for (let s = 0; s < 4; s++) if (!prefix.includes(s)) permute([...prefix, s]);
})([]);

let canonicalTable: { hand: Int32Array; perm: Uint8Array } | undefined;

/** For every hand: the index of its suit-pattern representative and the suit renaming that maps it there. */
export function canonicalHands(): { hand: Int32Array; perm: Uint8Array } {
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

// Hands whose first card is below a, and, of those starting with a, whose second card is below b (a < b).
const FIRST_BELOW = new Int32Array(53);
const SECOND_BELOW = new Int32Array(53);
for (let a = 0; a < 52; a++) {
  FIRST_BELOW[a + 1] = FIRST_BELOW[a]! + ((51 - a) * (50 - a)) / 2;
  SECOND_BELOW[a + 1] = SECOND_BELOW[a]! + (51 - a);
}

/**
 * The hand index of three cards a < b < c (their rank in allThreeCardHands' lexicographic order), by arithmetic on
 * two small tables: what handIndex() gives, without a read in its 52³ table, which a hot loop pays in cache misses.
 */
export const rankOfAscending = (a: number, b: number, c: number): number =>
  FIRST_BELOW[a]! + SECOND_BELOW[b]! - SECOND_BELOW[a + 1]! + (c - b - 1);

/** Hand index (position in allThreeCardHands) of any ordering of three distinct cards. */
export function handIndex(): Int32Array {
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
