import type { Seat } from './deal.ts';

/**
 * The facts of one Mah-Jong deal, as the checks judge them; every fact names the event it comes from. Only the
 * deal: the rules for winning hands and payouts are not in the text held (Portaria 52/89/M art. 1.º–2.º only),
 * so outcomes are out of scope. events.ts translates ta.mahjong.* events into these facts; table.ts is the fold.
 */
export interface MahjongFact {
  readonly eventId: string;
  readonly time: number;
}

export interface MahjongDeal {
  readonly roundId: string;
  readonly tableId: string;
  /** the tiles set out in the walls, as counted at the start of the game */
  readonly tileSet: MahjongFact & { readonly tiles: readonly string[] };
  readonly dice: MahjongFact & { readonly sum: number };
  /** each turn of the deal in order: who drew, which tiles, and the ring position of the first stack touched */
  readonly draws: readonly (MahjongFact & {
    readonly seat: Seat;
    readonly tiles: readonly string[];
    readonly fromStack: number;
  })[];
}
