/**
 * Problems with one Mah-Jong deal event that no table could have produced (a tile that is no tile, other than
 * three dice, a stack off the ring), each naming the field. What is merely wrong is left to the checks.
 */
import type { MahjongEvent } from '@table-audit/schemas/events';
import { RING } from './deal.ts';
import { isTile } from './tiles.ts';

const tiles = (p: string[], list: readonly string[]): void =>
  list.forEach((t, i) => {
    if (!isTile(t))
      p.push(`tiles[${i}] ${JSON.stringify(t)} is not a tile (DR DG DW, WE WS WW WN, B1-B9, N1-N9, C1-C9)`);
  });

export function mahjongEventProblems(e: MahjongEvent): string[] {
  const p: string[] = [];
  if (e.type.startsWith('Mahjong') && e.data.header.roundId === null)
    p.push(`header.roundId is required for ${e.type}: the game it belongs to`);
  switch (e.type) {
    case 'MahjongTilesCounted':
      if (e.data.tiles.length > 200)
        p.push(`tiles has ${e.data.tiles.length} tiles: more than any set (136)`);
      tiles(p, e.data.tiles);
      break;
    case 'MahjongDiceThrown':
      if (e.data.faces.length !== 3)
        p.push(`faces has ${e.data.faces.length} values: the banker throws three dice`);
      e.data.faces.forEach((f, i) => {
        if (!Number.isInteger(f) || f < 1 || f > 6)
          p.push(`faces[${i}] ${f} is not a face of a die (1 to 6)`);
      });
      break;
    case 'MahjongTilesDrawn':
      if (e.data.seat === 'UNKNOWN') p.push('seat is UNKNOWN: a symbol this reader does not know');
      if (!Number.isInteger(e.data.fromStack) || e.data.fromStack < 0 || e.data.fromStack >= RING)
        p.push(`fromStack ${e.data.fromStack} is not a stack of the ring (0 to ${RING - 1})`);
      tiles(p, e.data.tiles);
      break;
    default:
      break;
  }
  return p;
}
