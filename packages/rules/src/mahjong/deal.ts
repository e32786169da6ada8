/**
 * Portaria 52/89/M art. 2.º: four players, the banker always East; South on the banker's right, West opposite,
 * North on the left. Four double rows ("filas duplas") of 17 stacks of two tiles, pushed into a square. The
 * banker throws three dice; under interpretation M1 the sum picks the row, counting counter-clockwise from the
 * banker's (the banker's row counting as one), and the same number of stacks is set aside from that row's right;
 * drawing starts at the next stack. Under M2 the draw is: East, South, West, North take two stacks (4 tiles)
 * each, three times round (12 tiles each); then East two more tiles and South, West, North one each: 14, 13, 13, 13.
 *
 * The stacks form a ring of 68: row w (0 East/the banker's, 1 South, 2 West, 3 North) holds ring positions
 * 17w … 17w + 16, counted from that row's right end.
 */
export const SEATS = ['E', 'S', 'W', 'N'] as const;
export type Seat = (typeof SEATS)[number];
export const STACKS_PER_ROW = 17;
export const RING = 4 * STACKS_PER_ROW;
export const HAND = { E: 14, S: 13, W: 13, N: 13 } as const;

/**
 * M1: the ring position of the first stack drawn, for a sum of three dice (3..18). `alternatives` holding 'M1' (its
 * alternative reading): the count always starts in the banker's own row, so the first stack drawn is ring position
 * `sum` (an 18 runs one stack into South's row).
 */
export function breakStack(diceSum: number, alternatives: readonly string[] = []): number {
  if (!Number.isInteger(diceSum) || diceSum < 3 || diceSum > 18)
    throw new RangeError(`a sum of three dice is 3..18, not ${diceSum}`);
  const row = alternatives.length > 0 && alternatives.includes('M1') ? 0 : (diceSum - 1) % 4;
  return (STACKS_PER_ROW * row + diceSum) % RING;
}

/** M2: the turns of the deal in order, each with the tiles taken. */
export const DRAW_TURNS: readonly { seat: Seat; tiles: number }[] = [
  ...[0, 1, 2].flatMap(() => SEATS.map((seat) => ({ seat, tiles: 4 }))),
  { seat: 'E', tiles: 2 },
  { seat: 'S', tiles: 1 },
  { seat: 'W', tiles: 1 },
  { seat: 'N', tiles: 1 },
];

/**
 * The alternative reading of M2: after the three rounds of two stacks, East takes one tile before the others and one
 * after them (E, S, W, N, E), still 14, 13, 13, 13.
 */
export const DRAW_TURNS_EAST_TWICE: readonly { seat: Seat; tiles: number }[] = [
  ...DRAW_TURNS.slice(0, 12),
  { seat: 'E', tiles: 1 },
  { seat: 'S', tiles: 1 },
  { seat: 'W', tiles: 1 },
  { seat: 'N', tiles: 1 },
  { seat: 'E', tiles: 1 },
];

/** The turns of the deal under the readings selected (M2 or its alternative). */
export const drawTurns = (alternatives: readonly string[] = []): readonly { seat: Seat; tiles: number }[] =>
  alternatives.length > 0 && alternatives.includes('M2') ? DRAW_TURNS_EAST_TWICE : DRAW_TURNS;

/** The Mah-Jong keys among a replay's alternatives (the other games' keys are ignored). */
export const MAHJONG_READING_KEYS: readonly string[] = Object.freeze(['M1', 'M2']);
