/**
 * Cards of one 52-card deck.
 *
 * A card is an integer 0..51: rank * 4 + suit, rank 0 = "2" … 12 = "A", suit 0..3 = clubs, diamonds, hearts,
 * spades. The text form, used in events and reports, is rank then suit: "2c" … "9s", "Tc", "Jd", "Qh", "Ks",
 * "As" (ten is "T"). Integers keep the evaluators allocation-free; the text form is what people read.
 */
export type Card = number;

export const RANK_CHARS = '23456789TJQKA';
export const SUIT_CHARS = 'cdhs';
export const DECK_SIZE = 52;

/** Rank index 0 ("2") … 12 ("A"). */
export const rankOf = (card: Card): number => card >> 2;
/** Suit index 0 (clubs) … 3 (spades). */
export const suitOf = (card: Card): number => card & 3;

export class CardError extends Error {
  override readonly name = 'CardError';
}

/** Parses "As", "Td", "2c"; case-insensitive; "10" is accepted for ten. Throws a CardError naming the input. */
export function parseCard(text: string): Card {
  const t = text.trim();
  const rankText = t.length === 3 && t.startsWith('10') ? 'T' : t.slice(0, -1).toUpperCase();
  const suitText = t.slice(-1).toLowerCase();
  const rank = rankText.length === 1 ? RANK_CHARS.indexOf(rankText) : -1;
  const suit = SUIT_CHARS.indexOf(suitText);
  if (rank < 0 || suit < 0 || t.length < 2) {
    throw new CardError(
      `"${text}" is not a card: expected a rank (2-9, T, J, Q, K, A) followed by a suit (c, d, h, s), e.g. "Qh" or "Ts"`,
    );
  }
  return rank * 4 + suit;
}

export function formatCard(card: Card): string {
  if (!Number.isInteger(card) || card < 0 || card >= DECK_SIZE)
    throw new CardError(`${card} is not a card index 0..51`);
  return RANK_CHARS[rankOf(card)]! + SUIT_CHARS[suitOf(card)]!;
}

export const parseCards = (texts: readonly string[]): Card[] => texts.map(parseCard);
export const formatCards = (cards: readonly Card[]): string[] => cards.map(formatCard);

export const isCard = (value: unknown): value is Card =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < DECK_SIZE;

/** The full deck in index order. */
export const fullDeck = (): Card[] => Array.from({ length: DECK_SIZE }, (_, i) => i);

/** Cards that occur more than once in the list (each reported once). */
export function duplicateCards(cards: readonly Card[]): Card[] {
  const seen = new Set<Card>();
  const dups = new Set<Card>();
  for (const c of cards) (seen.has(c) ? dups : seen).add(c);
  return [...dups];
}
