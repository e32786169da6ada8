import { rankOf, suitOf, type Card } from '../cards.ts';

/**
 * Best five-card class among 5 to 7 cards (art. 7.º n.º 2 and 3: Six Card Bonus, Progressive Jackpot).
 * Only the class matters for these bets, so no kicker is computed.
 */
export const FIVE_CARD_CLASSES = [
  'high-card',
  'pair',
  'two-pair',
  'three-of-a-kind',
  'straight',
  'flush',
  'full-house',
  'four-of-a-kind',
  'straight-flush',
  'royal-flush',
] as const;
export type FiveCardClass = (typeof FIVE_CARD_CLASSES)[number];

export const C5 = {
  highCard: 0,
  pair: 1,
  twoPair: 2,
  threeOfAKind: 3,
  straight: 4,
  flush: 5,
  fullHouse: 6,
  fourOfAKind: 7,
  straightFlush: 8,
  royalFlush: 9,
} as const;

const ROYAL = 0b1_1111_0000_0000; // T J Q K A

/** Whether a 13-bit rank mask (bit 0 = "2") holds five ranks in sequence, 5-4-3-2-A included. */
function hasStraight(mask: number): boolean {
  // bit 0 of `ext` is the Ace played low (5-4-3-2-A), bits 1..13 the ranks 2..A
  const ext = (mask << 1) | ((mask >> 12) & 1);
  return (ext & (ext >> 1) & (ext >> 2) & (ext >> 3) & (ext >> 4)) !== 0;
}

// Scratch space: the function stays pure (it leaves it zeroed), and the hot enumeration loops allocate nothing.
const rankCount = new Uint8Array(13);
const suitMask = new Uint16Array(4);

/** Class id (C5) of the best five-card hand that can be made from `n` cards of `cards` (5 <= n <= 7). */
export function bestFiveClassId(cards: ArrayLike<Card>, n: number = cards.length): number {
  let rankMask = 0;
  let quads = 0;
  let trips = 0;
  let pairs = 0;
  for (let i = 0; i < n; i++) {
    const c = cards[i]!;
    const r = rankOf(c);
    const k = ++rankCount[r]!;
    // keep the counts of pairs, trips and quads as each card arrives
    if (k === 2) pairs++;
    else if (k === 3) {
      pairs--;
      trips++;
    } else if (k === 4) {
      trips--;
      quads++;
    }
    suitMask[suitOf(c)]! |= 1 << r;
    rankMask |= 1 << r;
  }
  let flushMask = 0;
  for (let s = 0; s < 4; s++) {
    if (popcount(suitMask[s]!) >= 5) flushMask = suitMask[s]!;
    suitMask[s] = 0;
  }
  for (let i = 0; i < n; i++) rankCount[rankOf(cards[i]!)] = 0;
  if (flushMask !== 0 && hasStraight(flushMask)) {
    return (flushMask & ROYAL) === ROYAL ? C5.royalFlush : C5.straightFlush;
  }
  if (quads > 0) return C5.fourOfAKind;
  if (trips > 0 && (pairs > 0 || trips > 1)) return C5.fullHouse;
  if (flushMask !== 0) return C5.flush;
  if (hasStraight(rankMask)) return C5.straight;
  if (trips > 0) return C5.threeOfAKind;
  if (pairs > 1) return C5.twoPair;
  if (pairs === 1) return C5.pair;
  return C5.highCard;
}

export const bestFiveClass = (cards: readonly Card[]): FiveCardClass => {
  if (cards.length < 5 || cards.length > 7)
    throw new Error(`best five-card hand needs 5 to 7 cards, got ${cards.length}`);
  return FIVE_CARD_CLASSES[bestFiveClassId(cards)]!;
};

function popcount(x: number): number {
  x -= (x >> 1) & 0x5555;
  x = (x & 0x3333) + ((x >> 2) & 0x3333);
  x = (x + (x >> 4)) & 0x0f0f;
  return (x + (x >> 8)) & 0x1f;
}
