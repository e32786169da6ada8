/**
 * Portaria 52/89/M, Regulamento Oficial do Jogo de Mah-Jong, art. 1.º: the 136 tiles. A tile is a two-character
 * code: dragons ("trunfos") DR red (hong chông), DG green (fát chói), DW white (pak pán); winds WE East (tông),
 * WS South (nám), WW West (sai), WN North (pak); bamboos (sók chi) B1–B9, numbers (mán chi) N1–N9 and circles
 * (t'ông chi) C1–C9. Four of each: 12 + 16 + 108 = 136.
 */
export const MAHJONG_1989_DIPLOMA = 'Portaria 52/89/M';

export const TILE_KINDS: readonly string[] = [
  'DR',
  'DG',
  'DW',
  'WE',
  'WS',
  'WW',
  'WN',
  ...['B', 'N', 'C'].flatMap((suit) => Array.from({ length: 9 }, (_, i) => `${suit}${i + 1}`)),
];
export const COPIES = 4;
export const TILE_COUNT = TILE_KINDS.length * COPIES;

const KINDS = new Set(TILE_KINDS);
export const isTile = (code: unknown): code is string => typeof code === 'string' && KINDS.has(code);

/** The full set of art. 1.º, four of each kind. */
export const fullTileSet = (): string[] => TILE_KINDS.flatMap((k) => Array<string>(COPIES).fill(k));

/** How a set of tiles differs from the 136 of art. 1.º: kinds missing or in excess (with counts), unknown codes. */
export function tileSetProblems(tiles: readonly string[]): {
  missing: string[];
  extra: string[];
  unknown: string[];
} {
  const count = new Map<string, number>();
  const unknown: string[] = [];
  for (const t of tiles) {
    if (!isTile(t)) unknown.push(String(t));
    else count.set(t, (count.get(t) ?? 0) + 1);
  }
  const missing: string[] = [];
  const extra: string[] = [];
  for (const k of TILE_KINDS) {
    const c = count.get(k) ?? 0;
    if (c < COPIES) missing.push(`${k}×${COPIES - c}`);
    if (c > COPIES) extra.push(`${k}×${c - COPIES}`);
  }
  return { missing, extra, unknown };
}
