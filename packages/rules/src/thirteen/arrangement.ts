import { formatCard, isCard, rankOf, type Card } from '../cards.ts';
import { allSameSuit, fiveKey, frontKey, frontKeyRanked, inSequence, TIER_NAMES } from './hands.ts';

/**
 * Art. 7.º and 9.º I: a place's 13 cards arranged in three tiers, whether the arrangement is a foul, and the
 * naturals ("jogo feito").
 */
export interface Arrangement {
  /** the first tier, 3 cards */
  readonly front: readonly Card[];
  /** the second tier, 5 cards */
  readonly middle: readonly Card[];
  /** the third tier, 5 cards, the strongest */
  readonly back: readonly Card[];
}

export type NaturalKind = 'dragon' | 'six-pairs-and-a-half' | 'three-flushes' | 'three-straights';

/** An arrangement with its tiers' keys, its foul and its natural worked out once. */
export interface JudgedArrangement {
  readonly arrangement: Arrangement;
  /** keys of the front, middle and back tiers (hands.ts) */
  readonly keys: readonly [number, number, number];
  /** art. 7.º: the tiers do not rise (front > middle or middle > back) */
  readonly foul: boolean;
  /**
   * art. 9.º I: the natural the place shows, or null; a fouled arrangement shows none (interpretation T6; under its
   * alternative a fouled arrangement shows its natural too)
   */
  readonly natural: NaturalKind | null;
}

/** Problems with an arrangement as data: 3, 5 and 5 cards, 13 different cards; each names its tier. */
export function arrangementProblems(a: Arrangement): string[] {
  const out: string[] = [];
  const sizes: [readonly Card[] | undefined, number, string][] = [
    [a.front, 3, TIER_NAMES[0]],
    [a.middle, 5, TIER_NAMES[1]],
    [a.back, 5, TIER_NAMES[2]],
  ];
  const seen = new Set<Card>();
  for (const [cards, n, name] of sizes) {
    if (!Array.isArray(cards)) {
      out.push(`the ${name} tier is missing`);
      continue;
    }
    if (cards.length !== n) out.push(`the ${name} tier has ${cards.length} cards; art. 7.º gives it ${n}`);
    cards.forEach((c, i) => {
      if (!isCard(c)) out.push(`the ${name} tier's card ${i} (${String(c)}) is not a card 0..51`);
      else if (seen.has(c)) out.push(`card ${formatCard(c)} appears twice in the arrangement`);
      else seen.add(c);
    });
  }
  return out;
}

/**
 * Art. 9.º I, the naturals that depend on the cards alone: a dragon (13 ranks A to K), six pairs and a half (four
 * of a kind counts as two pairs, so six pairs in all with one odd card).
 */
export function cardsNatural(cards: readonly Card[]): NaturalKind | null {
  const counts = new Array<number>(13).fill(0);
  for (const c of cards) counts[rankOf(c)]!++;
  if (cards.length === 13 && counts.every((k) => k === 1)) return 'dragon';
  const pairs = counts.reduce((n, k) => n + Math.floor(k / 2), 0);
  if (cards.length === 13 && pairs === 6) return 'six-pairs-and-a-half';
  return null;
}

const NO_ALTERNATIVES: readonly string[] = Object.freeze([]);

/**
 * Judges an arrangement (assumed well formed: see arrangementProblems). `alternatives`: the alternative readings
 * selected (readings.ts), of which three act here: T4 (strictly ascending: equal tiers are a foul), T5 (three
 * suited or consecutive cards in front rank as a flush or straight: frontKeyRanked) and T6 (a fouled arrangement
 * still shows its natural).
 */
export function judgeArrangement(
  a: Arrangement,
  alternatives: readonly string[] = NO_ALTERNATIVES,
): JudgedArrangement {
  const f = a.front;
  const m = a.middle;
  const b = a.back;
  const t5 = alternatives.length > 0 && alternatives.includes('T5');
  const keys: [number, number, number] = [
    t5 ? frontKeyRanked(f[0]!, f[1]!, f[2]!) : frontKey(f[0]!, f[1]!, f[2]!),
    fiveKey(m[0]!, m[1]!, m[2]!, m[3]!, m[4]!),
    fiveKey(b[0]!, b[1]!, b[2]!, b[3]!, b[4]!),
  ];
  const foul =
    alternatives.length > 0 && alternatives.includes('T4')
      ? keys[0] >= keys[1] || keys[1] >= keys[2]
      : keys[0] > keys[1] || keys[1] > keys[2];
  const natural =
    foul && !(alternatives.length > 0 && alternatives.includes('T6')) ? null : arrangedNatural(a);
  return { arrangement: a, keys, foul, natural };
}

/**
 * The natural an arrangement shows (art. 9.º I), strongest first as the law lists them. Three flushes and three
 * straights are judged on the tiers as arranged, the 3-card front included (T5); a straight or royal flush
 * counts as both a flush and a sequence.
 */
export function arrangedNatural(a: Arrangement): NaturalKind | null {
  const byCards = cardsNatural([...a.front, ...a.middle, ...a.back]);
  if (byCards) return byCards;
  if (allSameSuit(a.front) && allSameSuit(a.middle) && allSameSuit(a.back)) return 'three-flushes';
  if (inSequence(a.front) && inSequence(a.middle) && inSequence(a.back)) return 'three-straights';
  return null;
}

export const formatArrangement = (a: Arrangement): string =>
  [a.front, a.middle, a.back].map((t) => t.map(formatCard).join(' ')).join(' | ');
