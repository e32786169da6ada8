/**
 * Art. 2.º b)–c) of the 13 Cards regulation: the place that receives the first card and the order of the deal.
 * Places are numbered from the banker counter-clockwise: 0 the banker, then 1, 2 and 3. The dice sum is counted
 * from the banker, the banker counting as one (interpretation T3): 1, 5, 9 … give the banker, 2, 6, 10 … place 1.
 */
export const PLACES = 4;
export const CARDS_PER_PLACE = 13;
export const DICE = 4;

/**
 * The place that receives the first card for a sum of the four dice (4..24). `alternatives` holding 'T3' (its
 * alternative reading): the count starts at the place after the banker, place = sum mod 4.
 */
export function firstPlace(diceSum: number, alternatives: readonly string[] = []): number {
  if (!Number.isInteger(diceSum) || diceSum < DICE || diceSum > DICE * 6)
    throw new RangeError(`a sum of four dice is 4..24, not ${diceSum}`);
  return alternatives.length > 0 && alternatives.includes('T3') ? diceSum % PLACES : (diceSum - 1) % PLACES;
}

/** The place that receives the n-th card (0-based) of the deal: one at a time, counter-clockwise. */
export const placeOfCard = (diceSum: number, n: number, alternatives: readonly string[] = []): number =>
  (firstPlace(diceSum, alternatives) + n) % PLACES;

/** The places of all 52 cards in the order dealt. */
export const dealOrder = (diceSum: number, alternatives: readonly string[] = []): number[] =>
  Array.from({ length: PLACES * CARDS_PER_PLACE }, (_, n) => placeOfCard(diceSum, n, alternatives));
