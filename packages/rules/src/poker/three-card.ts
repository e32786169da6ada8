import { rankOf, suitOf, type Card } from '../cards.ts';

/**
 * Three-card hands (art. 6.º 2) and 7.º n.º 1 of Despacho 89/2025). The classes are fixed; their ORDER is not:
 * 89/2025 as published ranks Straight and Flush above Three of a Kind, 94/2025 moves Three of a Kind up to
 * second. So evaluation takes the rule set's order and returns one comparable integer.
 */
export const THREE_CARD_CLASSES = [
  'high-card',
  'pair',
  'flush',
  'straight',
  'three-of-a-kind',
  'straight-flush',
] as const;
export type ThreeCardClass = (typeof THREE_CARD_CLASSES)[number];

/** Class ids in THREE_CARD_CLASSES order, for the integer encoding below. */
export const C3 = { highCard: 0, pair: 1, flush: 2, straight: 3, threeOfAKind: 4, straightFlush: 5 } as const;

/**
 * A hand order: for each class id, its strength 0 (lowest) … 5 (highest). Built from a descending list of
 * class names as the diploma lists them.
 */
export type HandOrder = Readonly<Uint8Array>;

export function handOrder(descending: readonly ThreeCardClass[]): HandOrder {
  if (descending.length !== THREE_CARD_CLASSES.length || new Set(descending).size !== descending.length) {
    throw new Error(
      `a hand order must list each of the ${THREE_CARD_CLASSES.length} classes once: ${descending}`,
    );
  }
  const strength = new Uint8Array(THREE_CARD_CLASSES.length);
  descending.forEach((cls, i) => (strength[THREE_CARD_CLASSES.indexOf(cls)] = descending.length - 1 - i));
  return strength;
}

/**
 * Class id and tie-break of three cards, packed as classId << 12 | tieBreak (order-independent).
 * Tie-breaks: straights by their place in art. 6.º 2) (3-2-A lowest, its top card counted as the 3: J7);
 * three of a kind by rank; pair by pair then odd card; flush and high card card by card.
 */
export function classifyThree(a: Card, b: Card, c: Card): number {
  let r1 = rankOf(a);
  let r2 = rankOf(b);
  let r3 = rankOf(c);
  // sort descending: r1 >= r2 >= r3
  if (r1 < r2) [r1, r2] = [r2, r1];
  if (r2 < r3) [r2, r3] = [r3, r2];
  if (r1 < r2) [r1, r2] = [r2, r1];
  const flush = suitOf(a) === suitOf(b) && suitOf(b) === suitOf(c);
  let straightTop = -1;
  if (r1 - r2 === 1 && r2 - r3 === 1) straightTop = r1;
  else if (r1 === 12 && r2 === 1 && r3 === 0) straightTop = 1; // 3-2-A
  let cls: number;
  let tie: number;
  if (straightTop >= 0) {
    cls = flush ? C3.straightFlush : C3.straight;
    tie = straightTop;
  } else if (r1 === r3) {
    cls = C3.threeOfAKind;
    tie = r1;
  } else if (r1 === r2 || r2 === r3) {
    cls = C3.pair;
    tie = r1 === r2 ? r1 * 16 + r3 : r2 * 16 + r1;
  } else {
    cls = flush ? C3.flush : C3.highCard;
    tie = r1 * 256 + r2 * 16 + r3;
  }
  return (cls << 12) | tie;
}

export const classIdOf = (classified: number): number => classified >> 12;
export const classOfThree = (classified: number): ThreeCardClass => THREE_CARD_CLASSES[classified >> 12]!;

/** A comparable value: higher is better under `order`; equal values tie (art. 7.º n.º 1). */
export const valueUnder = (classified: number, order: HandOrder): number =>
  (order[classified >> 12]! << 12) | (classified & 0xfff);

export const evaluateThree = (cards: readonly Card[], order: HandOrder): number =>
  valueUnder(classifyThree(cards[0]!, cards[1]!, cards[2]!), order);

/**
 * Banker qualification (art. 13.º 1) and 2)): "Q or higher". Any combination (pair or better) qualifies;
 * three odd cards qualify when the top card is a Queen or better. Under either order every class above
 * three odd cards outranks any Queen-high hand, so this does not depend on the order (J11).
 */
export function qualifiesQueenHigh(classified: number): boolean {
  if (classified >> 12 !== C3.highCard) return true;
  const topRank = (classified & 0xfff) >> 8;
  return topRank >= 10; // rank 10 = Q
}
