/**
 * The one translation between ta.mahjong.* events and the deal facts the MAHJONG. checks judge (round.ts), both
 * ways: `dealFromEvents` folds one game's events into its deal, `eventsOfDeal` writes a deal as the events a table
 * controller emits for it, in time order.
 */
import type { MahjongEvent, MahjongEvents } from '@table-audit/schemas/events';
import type { Seat } from './deal.ts';
import type { MahjongDeal } from './round.ts';

/**
 * One game's events into its deal facts, or null when the deal is not all there: no tile count or no dice (the
 * checks need both). The first count and the first dice count; every draw is kept, in order.
 */
export function dealFromEvents(
  roundId: string,
  tableId: string,
  events: readonly MahjongEvent[],
): MahjongDeal | null {
  let tileSet: MahjongDeal['tileSet'] | null = null;
  let dice: MahjongDeal['dice'] | null = null;
  const draws: MahjongDeal['draws'][number][] = [];
  for (const e of events) {
    const fact = { eventId: e.data.header.eventId, time: e.data.header.eventTime };
    switch (e.type) {
      case 'MahjongTilesCounted':
        tileSet ??= { ...fact, tiles: e.data.tiles };
        break;
      case 'MahjongDiceThrown':
        dice ??= { ...fact, sum: e.data.faces.reduce((a, b) => a + b, 0) };
        break;
      case 'MahjongTilesDrawn':
        if (e.data.seat === 'UNKNOWN') break;
        draws.push({ ...fact, seat: e.data.seat as Seat, tiles: e.data.tiles, fromStack: e.data.fromStack });
        break;
      default:
        break;
    }
  }
  if (!tileSet || !dice) return null;
  return { roundId, tableId, tileSet, dice, draws };
}

export interface TimedMahjongEvent {
  readonly type: keyof MahjongEvents;
  readonly data: object;
  readonly time: number;
}

/** Three dice faces (1..6) that add up to `sum` (3..18). */
export function threeFacesOf(sum: number): number[] {
  const faces = [1, 1, 1];
  let rest = Math.min(18, Math.max(3, sum)) - 3;
  for (let i = 0; i < 3 && rest > 0; i++) {
    const add = Math.min(5, rest);
    faces[i]! += add;
    rest -= add;
  }
  return faces;
}

/** A deal as the events a table emits for it, sorted by time (stable). */
export function eventsOfDeal(d: MahjongDeal): TimedMahjongEvent[] {
  const out: TimedMahjongEvent[] = [
    { type: 'MahjongTilesCounted', data: { tiles: [...d.tileSet.tiles] }, time: d.tileSet.time },
    { type: 'MahjongDiceThrown', data: { faces: threeFacesOf(d.dice.sum) }, time: d.dice.time },
    ...d.draws.map((x) => ({
      type: 'MahjongTilesDrawn' as const,
      data: { seat: x.seat, tiles: [...x.tiles], fromStack: x.fromStack },
      time: x.time,
    })),
  ];
  return out
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.time - b.e.time || a.i - b.i)
    .map((x) => x.e);
}
