import type { Rng } from '../rng.ts';
import { MAHJONG_CHECKS as C } from './checks.ts';
import { breakStack, DRAW_TURNS, RING } from './deal.ts';
import type { MahjongDeal } from './round.ts';
import { fullTileSet } from './tiles.ts';

/**
 * Labelled Mah-Jong deals at the level of facts: a correct deal under M1/M2 and each fault kind with the check
 * ids that must find it. module.ts plays them as ta.mahjong.* events for the simulator service.
 */
export function cleanMahjongDeal(
  rng: Rng,
  o: { roundId: string; tableId: string; start: number },
): MahjongDeal {
  let t = o.start;
  let n = 0;
  const id = (what: string) => `${o.roundId}:${what}:${n++}`;
  const tiles = fullTileSet();
  for (let i = tiles.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [tiles[i], tiles[j]] = [tiles[j]!, tiles[i]!];
  }
  const sum = 3 + rng.int(6) + rng.int(6) + rng.int(6);
  const start = breakStack(sum);
  // the walls as a ring of 68 stacks, two tiles each (top, bottom)
  let next = 0;
  const draws = DRAW_TURNS.map((turn, i) => {
    const fromStack = i < 12 ? (start + 2 * i) % RING : (start + 24 + (i - 12)) % RING;
    const taken = tiles.slice(next, next + turn.tiles);
    next += turn.tiles;
    return { eventId: id(`draw-${turn.seat}`), time: (t += 1_500), seat: turn.seat, tiles: taken, fromStack };
  });
  return {
    roundId: o.roundId,
    tableId: o.tableId,
    tileSet: { eventId: id('tiles'), time: o.start, tiles },
    dice: { eventId: id('dice'), time: o.start + 500, sum },
    draws,
  };
}

export interface MahjongFault {
  readonly name: string;
  readonly checkIds: readonly string[];
  apply(d: MahjongDeal, rng: Rng): MahjongDeal;
}

export const MAHJONG_FAULTS: readonly MahjongFault[] = [
  {
    name: 'a red dragon replaced by a fifth B1',
    checkIds: [C.tileSet.id],
    apply: (d) => {
      const tiles = [...d.tileSet.tiles];
      tiles[tiles.indexOf('DR')] = 'B1';
      return { ...d, tileSet: { ...d.tileSet, tiles } };
    },
  },
  {
    name: 'wall broken one stack late',
    checkIds: [C.breakPosition.id],
    apply: (d) => ({ ...d, draws: d.draws.map((x) => ({ ...x, fromStack: (x.fromStack + 1) % RING })) }),
  },
  {
    name: 'North given two tiles in the last turn',
    checkIds: [C.counts.id],
    apply: (d) => ({
      ...d,
      draws: d.draws.map((x, i) => (i === d.draws.length - 1 ? { ...x, tiles: [...x.tiles, 'C9'] } : x)),
    }),
  },
  {
    name: 'West drew before South in the second round',
    checkIds: [C.order.id],
    apply: (d) => {
      const draws = [...d.draws];
      const s = draws[5]!;
      const w = draws[6]!;
      draws[5] = { ...w, fromStack: s.fromStack };
      draws[6] = { ...s, fromStack: w.fromStack };
      return { ...d, draws };
    },
  },
];
