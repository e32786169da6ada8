/** What every game's round page draws with: playing cards, Mah-Jong tiles, the scope note. */
import { MAHJONG_SCOPE } from '@table-audit/rules/mahjong';
import { html, type Html } from '../html.ts';

const SUITS: Record<string, [string, string, boolean]> = {
  s: ['♠', 'spades', false],
  h: ['♥', 'hearts', true],
  d: ['♦', 'diamonds', true],
  c: ['♣', 'clubs', false],
};
const RANKS: Record<string, [string, string]> = {
  A: ['A', 'ace'],
  K: ['K', 'king'],
  Q: ['Q', 'queen'],
  J: ['J', 'jack'],
  T: ['10', 'ten'],
};

/** "Kh" as a card face: K♥, red, read out as "king of hearts". */
export function card(code: string): Html {
  const suit = SUITS[code.slice(-1)];
  const r = code.slice(0, -1);
  const [rank, rankName] = RANKS[r] ?? [r, r];
  if (!suit || !/^(?:[2-9]|[AKQJT])$/.test(r)) return html`<span class="card unknown">${code}</span>`;
  return html`<span class="card${suit[2] ? ' red' : ''}" role="img" aria-label="${rankName} of ${suit[1]}"
    >${rank}${suit[0]}</span
  >`;
}
export const cards = (codes: readonly string[]) =>
  codes.length
    ? html`<span class="cards">${codes.map(card)}</span>`
    : html`<span class="cards">no cards</span>`;

/** Mah-Jong tiles (Portaria 52/89/M art. 1.º) by their two-character codes, as people name them. */
const TILE_NAMES: Record<string, [string, string]> = {
  DR: ['中', 'red dragon'],
  DG: ['發', 'green dragon'],
  DW: ['白', 'white dragon'],
  WE: ['東', 'east wind'],
  WS: ['南', 'south wind'],
  WW: ['西', 'west wind'],
  WN: ['北', 'north wind'],
};
const SUIT_NAMES: Record<string, string> = { B: 'bamboo', N: 'number', C: 'circle' };

/** "B3" as a tile: its code shown, read out as "3 of bamboos"; a code no tile has is shown as it is, marked. */
export function tile(code: string): Html {
  const honour = TILE_NAMES[code];
  if (honour)
    return html`<span class="tile honour" role="img" aria-label="${honour[1]}" title="${code}"
      >${honour[0]}<small>${code}</small></span
    >`;
  const suit = SUIT_NAMES[code.slice(0, 1)];
  const n = code.slice(1);
  if (suit && /^[1-9]$/.test(n))
    return html`<span class="tile suit-${code.slice(0, 1)}" role="img" aria-label="${n} of ${suit}s"
      >${n}<small>${code.slice(0, 1)}</small></span
    >`;
  return html`<span class="tile unknown">${code}</span>`;
}
export const tiles = (codes: readonly string[]) =>
  codes.length
    ? html`<span class="tiles">${codes.map(tile)}</span>`
    : html`<span class="tiles">no tiles</span>`;

/**
 * The notice shown wherever Mah-Jong appears (its rounds, the inbox and the search when they show Mah-Jong):
 * only the deal is judged; outcomes are out of scope until the rest of the regulation is available.
 */
export function mahjongScopeNotice(): Html {
  return html`<aside class="scope-notice" role="note" data-testid="scope-notice">
    <strong>Mah-Jong: the deal only.</strong> ${MAHJONG_SCOPE.message} Judged:
    ${MAHJONG_SCOPE.judged.join('; ')}. Not judged: ${MAHJONG_SCOPE.notJudged.join(', ')}. (The project's page
    on it: <code>${MAHJONG_SCOPE.doc}</code>.)
  </aside>`;
}
