/**
 * Seeded randomness for simulations. The engines never draw at random; the simulator does, and only through an
 * `Rng` it is given, so the same seed always gives the same session.
 */
import { DECK_SIZE, type Card } from './cards.ts';

export interface Rng {
  /** uniform in [0, 1) */
  next(): number;
  /** uniform integer in [0, n) */
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
}

/** mulberry32: small, fast and good enough to deal cards; the seed fixes the whole sequence. */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  return { next, int, pick: (items) => items[int(items.length)]! };
}

/** A fresh 52-card deck, Fisher-Yates shuffled. */
export function shuffledDeck(r: Rng): Card[] {
  const deck = Array.from({ length: DECK_SIZE }, (_, i) => i);
  for (let i = deck.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [deck[i], deck[j]] = [deck[j]!, deck[i]!];
  }
  return deck;
}
