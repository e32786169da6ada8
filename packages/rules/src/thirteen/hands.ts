import { rankOf, suitOf, type Card } from '../cards.ts';

/**
 * Art. 6.º and 9.º II of the 13 Cards regulation: the value of the cards (A K Q J 10 … 2) and the order of the
 * formations of one tier, with their ties. Written from the law rather than reusing poker/: the law ranks
 * A-2-3-4-5 as the second-highest straight and the highest straight flush (the poker evaluators rank it lowest),
 * and its ties ignore the odd cards of fours, full houses and trios.
 *
 * A tier's strength is one integer key: the formation's class above four bits per tie-breaking card, so keys
 * compare with < and a 3-card front tier compares with a 5-card tier for the foul of art. 7.º (interpretation
 * T4). Equal keys mean every card that counts is of equal rank: art. 10.º gives such a tier to the banker.
 */
export const TIER_CLASSES = [
  'high-card',
  'pair',
  'two-pairs',
  'three-of-a-kind',
  'straight',
  'flush',
  'full-house',
  'four-of-a-kind',
  'straight-flush',
  'royal-flush',
] as const;
export type TierClass = (typeof TIER_CLASSES)[number];

export const TC = {
  highCard: 0,
  pair: 1,
  twoPairs: 2,
  threeOfAKind: 3,
  straight: 4,
  flush: 5,
  fullHouse: 6,
  fourOfAKind: 7,
  straightFlush: 8,
  royalFlush: 9,
} as const;

/** The three tiers of art. 7.º: 0 the first (3 cards), 1 the second (5), 2 the third (5, the strongest). */
export type Tier = 0 | 1 | 2;
export const TIER_NAMES = ['front (3 cards)', 'middle (5 cards)', 'back (5 cards)'] as const;

const CLASS_SHIFT = 1 << 20;
export const classOfKey = (key: number): number => Math.floor(key / CLASS_SHIFT);
export const tierClassName = (key: number): TierClass => TIER_CLASSES[classOfKey(key)]!;

/**
 * Art. 9.º II 1.–10.: the points a formation scores in a tier. Royal and straight flushes 10 in the second tier
 * and 5 in the third; four of a kind 8 / 4; full house 2 / 1; a trio 3 in the first tier and 1 elsewhere; every
 * other formation 1.
 */
export function tierPoints(key: number, tier: Tier): number {
  const c = classOfKey(key);
  if (tier === 0) return c === TC.threeOfAKind ? 3 : 1;
  const middle = tier === 1;
  switch (c) {
    case TC.royalFlush:
    case TC.straightFlush:
      return middle ? 10 : 5;
    case TC.fourOfAKind:
      return middle ? 8 : 4;
    case TC.fullHouse:
      return middle ? 2 : 1;
    default:
      return 1;
  }
}

// scratch space, left zeroed after each call
const counts = new Uint8Array(13);

/**
 * Art. 9.º II: the key of a 5-card tier. Straights (art. 9.º II 6.): A-K-Q-J-10 highest, A-2-3-4-5 second, then
 * K-Q-J-10-9 down to 6-5-4-3-2; straight flushes (2.): A-2-3-4-5 highest, then K-Q-J-10-9 …; A-K-Q-J-10 of one
 * suit is the royal flush (1.). Fours, full houses and trios rank by the four or the trio alone (3., 4., 7.); two
 * pairs by the higher pair, the lower pair, the odd card (8.); a pair by the pair, then the others (9.); flushes
 * and high cards card by card (5., 10.).
 */
export function fiveKey(a: Card, b: Card, c: Card, d: Card, e: Card): number {
  const r0 = rankOf(a);
  const r1 = rankOf(b);
  const r2 = rankOf(c);
  const r3 = rankOf(d);
  const r4 = rankOf(e);
  const s = suitOf(a);
  const flush = s === suitOf(b) && s === suitOf(c) && s === suitOf(d) && s === suitOf(e);
  counts[r0]!++;
  counts[r1]!++;
  counts[r2]!++;
  counts[r3]!++;
  counts[r4]!++;
  let mask = 0;
  let four = -1;
  let three = -1;
  let pairHi = -1;
  let pairLo = -1;
  // ranks from A down, so singles come out in descending order
  let singles = 0;
  for (let r = 12; r >= 0; r--) {
    const k = counts[r]!;
    if (k === 0) continue;
    counts[r] = 0;
    mask |= 1 << r;
    if (k === 1) {
      singles = singles * 16 + (r + 1);
    } else if (k === 2) {
      if (pairHi < 0) pairHi = r;
      else pairLo = r;
    } else if (k === 3) three = r;
    else four = r;
  }
  if (four >= 0) return TC.fourOfAKind * CLASS_SHIFT + (four + 1) * 65536;
  if (three >= 0) {
    return (pairHi >= 0 ? TC.fullHouse : TC.threeOfAKind) * CLASS_SHIFT + (three + 1) * 65536;
  }
  if (pairLo >= 0)
    return TC.twoPairs * CLASS_SHIFT + ((pairHi + 1) * 256 + (pairLo + 1) * 16 + singles) * 256;
  if (pairHi >= 0) return TC.pair * CLASS_SHIFT + ((pairHi + 1) * 4096 + singles) * 16;
  // five different ranks
  let straightTop = -1; // 14 = A-K-Q-J-10, 13 = A-2-3-4-5, else the top card's rank + 1
  if (mask === 0b1_1111_0000_0000) straightTop = 14;
  else if (mask === 0b1_0000_0000_1111) straightTop = 13;
  else {
    const low = 31 - Math.clz32(mask & -mask);
    if (mask === 0b11111 << low) straightTop = low + 5; // top rank index low+4, plus one
  }
  if (straightTop > 0) {
    if (flush)
      return straightTop === 14
        ? TC.royalFlush * CLASS_SHIFT
        : TC.straightFlush * CLASS_SHIFT + straightTop * 65536;
    return TC.straight * CLASS_SHIFT + straightTop * 65536;
  }
  return (flush ? TC.flush : TC.highCard) * CLASS_SHIFT + singles;
}

/**
 * Art. 9.º II 7., 9., 10.: the key of the 3-card first tier. Only a trio, a pair (with its one odd card) and the
 * high card are formations of that tier: flushes and straights are five cards (II 5., 6.), so three suited or
 * consecutive cards in front rank by their cards (they count for the naturals of art. 9.º I; interpretation T5).
 */
export function frontKey(a: Card, b: Card, c: Card): number {
  let x = rankOf(a);
  let y = rankOf(b);
  let z = rankOf(c);
  // sort descending
  if (x < y) [x, y] = [y, x];
  if (y < z) [y, z] = [z, y];
  if (x < y) [x, y] = [y, x];
  if (x === z) return TC.threeOfAKind * CLASS_SHIFT + (x + 1) * 65536;
  if (x === y) return TC.pair * CLASS_SHIFT + ((x + 1) * 4096 + (z + 1) * 256) * 16;
  if (y === z) return TC.pair * CLASS_SHIFT + ((y + 1) * 4096 + (x + 1) * 256) * 16;
  return TC.highCard * CLASS_SHIFT + ((x + 1) * 256 + (y + 1) * 16 + (z + 1)) * 256;
}

/**
 * The key of the front tier under the alternative reading of T5: three cards of one suit rank as a flush, three in
 * sequence (A-2-3 and Q-K-A included, as in inSequence) as a straight, both as a straight flush, in the order of
 * art. 9.º II (a straight and a flush above a trio). Within a class the key is that of the cards, A-2-3 the
 * second-highest sequence after Q-K-A as A-2-3-4-5 is among five cards (II 2., 6.); where a front flush and a
 * five-card flush agree card by card over the front's three, the front is the weaker (it has fewer cards, T4).
 */
export function frontKeyRanked(a: Card, b: Card, c: Card): number {
  const base = frontKey(a, b, c);
  if (classOfKey(base) !== TC.highCard) return base;
  const flush = suitOf(a) === suitOf(b) && suitOf(a) === suitOf(c);
  const mask = (1 << rankOf(a)) | (1 << rankOf(b)) | (1 << rankOf(c));
  const low = 31 - Math.clz32(mask & -mask);
  // 14 = Q-K-A, 13 = A-2-3, else the top card's rank + 1 (as fiveKey numbers straights)
  const straightTop =
    mask === 0b1_1100_0000_0000
      ? 14
      : mask === 0b1_0000_0000_0011
        ? 13
        : mask === 0b111 << low
          ? low + 3
          : -1;
  if (straightTop > 0) return (flush ? TC.straightFlush : TC.straight) * CLASS_SHIFT + straightTop * 65536;
  return flush ? TC.flush * CLASS_SHIFT + (base - TC.highCard * CLASS_SHIFT) : base;
}

/** The key of a tier given as its cards (3 for the front, 5 otherwise). */
export function tierKey(cards: readonly Card[]): number {
  if (cards.length === 3) return frontKey(cards[0]!, cards[1]!, cards[2]!);
  if (cards.length === 5) return fiveKey(cards[0]!, cards[1]!, cards[2]!, cards[3]!, cards[4]!);
  throw new RangeError(`a tier has 3 or 5 cards (art. 7.º), not ${cards.length}`);
}

/** Whether every card has the same suit (a flush, straight flush or royal; any size). */
export const allSameSuit = (cards: readonly Card[]): boolean =>
  cards.every((c) => suitOf(c) === suitOf(cards[0]!));

/**
 * Whether the cards are in sequence (T5 for three cards: A-2-3 and Q-K-A count; the Ace is high or low, never
 * both, as in art. 9.º II 6.).
 */
export function inSequence(cards: readonly Card[]): boolean {
  let mask = 0;
  for (const c of cards) mask |= 1 << rankOf(c);
  if (popcount(mask) !== cards.length) return false;
  const n = cards.length;
  const run = (1 << n) - 1;
  const low = 31 - Math.clz32(mask & -mask);
  if (mask === run << low) return true;
  // the Ace played low: A-2-3(-4-5)
  return mask === ((1 << 12) | ((1 << (n - 1)) - 1));
}

export const popcount = (x: number): number => {
  let n = 0;
  for (let v = x; v !== 0; v &= v - 1) n++;
  return n;
};
