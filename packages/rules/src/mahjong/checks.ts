import { cite } from '../citations/citation.ts';
import { defineCheck, type FindingInput } from '../findings.ts';
import { breakStack, drawTurns, HAND, RING, SEATS } from './deal.ts';
import type { MahjongDeal, MahjongFact } from './round.ts';
import { MAHJONG_1989_DIPLOMA as D, tileSetProblems } from './tiles.ts';

/** The MAHJONG. checks of mahjong-1989-deal: the deal of art. 1.º–2.º only. */
export const tileSet = defineCheck(
  'MAHJONG.DEAL.TILE_SET',
  'a set that is not the 136 tiles of art. 1.º',
  'high',
  [cite(D, 1, { numero: 1 }), cite(D, 1, { numero: 2 })],
);
export const breakPosition = defineCheck(
  'MAHJONG.DEAL.BREAK_POSITION',
  'the wall broken elsewhere than where the dice sum gives',
  'high',
  [cite(D, 2)],
  ['M1'],
);
export const counts = defineCheck(
  'MAHJONG.DEAL.COUNTS',
  'hands other than 14 (banker), 13, 13, 13',
  'high',
  [cite(D, 2)],
  ['M2'],
);
export const order = defineCheck(
  'MAHJONG.DEAL.ORDER',
  'tiles drawn out of the prescribed order',
  'medium',
  [cite(D, 2)],
  ['M2'],
);

export const MAHJONG_CHECKS = { tileSet, breakPosition, counts, order } as const;
export const ALL_MAHJONG_CHECK_IDS: readonly string[] = Object.values(MAHJONG_CHECKS).map((c) => c.id);

const ev = (...facts: readonly MahjongFact[]) =>
  facts.map((f) => ({ eventId: f.eventId, eventTime: f.time }));

export function checkTileSet(d: MahjongDeal): FindingInput[] {
  const p = tileSetProblems(d.tileSet.tiles);
  if (p.missing.length + p.extra.length + p.unknown.length === 0 && d.tileSet.tiles.length === 136) return [];
  return [
    {
      check: tileSet,
      summary: `${d.tileSet.tiles.length} tiles; missing ${p.missing.join(' ') || 'none'}, in excess ${p.extra.join(' ') || 'none'}, unknown ${p.unknown.join(' ') || 'none'}`,
      expected: { tiles: 136 },
      declared: { tiles: d.tileSet.tiles.length, ...p },
      evidence: ev(d.tileSet),
    },
  ];
}

/** Art. 2.º under M1 (`alternatives` holding 'M1': its alternative reading, breakStack). */
export function checkBreak(d: MahjongDeal, alternatives: readonly string[] = []): FindingInput[] {
  const first = d.draws[0];
  if (!first) return [];
  const expected = breakStack(d.dice.sum, alternatives);
  if (first.fromStack === expected) return [];
  return [
    {
      check: breakPosition,
      summary: `dice sum ${d.dice.sum}: drawing should start at ring stack ${expected} (row ${Math.floor(expected / 17)}, stack ${expected % 17}); it started at ${first.fromStack}`,
      expected: { fromStack: expected },
      declared: { fromStack: first.fromStack },
      evidence: ev(d.dice, first),
    },
  ];
}

export function checkCounts(d: MahjongDeal): FindingInput[] {
  const got = Object.fromEntries(SEATS.map((s) => [s, 0])) as Record<string, number>;
  for (const x of d.draws) got[x.seat] = (got[x.seat] ?? 0) + x.tiles.length;
  if (SEATS.every((s) => got[s] === HAND[s])) return [];
  return [
    {
      check: counts,
      summary: `hands E ${got.E} S ${got.S} W ${got.W} N ${got.N}; art. 2.º gives 14, 13, 13, 13`,
      expected: HAND,
      declared: got,
      evidence: ev(...d.draws.slice(-4)),
    },
  ];
}

/**
 * M2: the seats take their turns in the order of art. 2.º, and the stacks follow on from the first one drawn
 * (two stacks a turn for the first twelve turns). `alternatives` holding 'M2': the order of its alternative
 * reading (E, S, W, N, E for the last five tiles).
 */
export function checkOrder(d: MahjongDeal, alternatives: readonly string[] = []): FindingInput[] {
  const first = d.draws[0];
  if (!first) return [];
  const DRAW_TURNS = drawTurns(alternatives);
  const wrong: string[] = [];
  d.draws.forEach((x, i) => {
    const turn = DRAW_TURNS[i];
    if (!turn) wrong.push(`turn ${i + 1} (${x.seat}) is beyond the ${DRAW_TURNS.length} turns of the deal`);
    else if (turn.seat !== x.seat) wrong.push(`turn ${i + 1} was ${x.seat}'s, the order gives ${turn.seat}`);
    else if (i < 12 && x.fromStack !== (first.fromStack + 2 * i) % RING)
      wrong.push(`turn ${i + 1} took stack ${x.fromStack}, the next was ${(first.fromStack + 2 * i) % RING}`);
  });
  if (d.draws.length < DRAW_TURNS.length) wrong.push(`only ${d.draws.length} of ${DRAW_TURNS.length} turns`);
  if (wrong.length === 0) return [];
  return [
    {
      check: order,
      summary: wrong.slice(0, 3).join('; ') + (wrong.length > 3 ? ` (+${wrong.length - 3} more)` : ''),
      expected: { turns: DRAW_TURNS.map((t) => t.seat).join('') },
      declared: { turns: d.draws.map((x) => x.seat).join('') },
      evidence: ev(...d.draws),
    },
  ];
}

/**
 * Runs every MAHJONG. check on one deal. Outcomes and payouts are out of scope (not in the text held).
 * `alternatives`: the alternative readings selected (M1, M2); the two checks they act on cite them already.
 */
export const judgeMahjongDeal = (d: MahjongDeal, alternatives: readonly string[] = []): FindingInput[] => [
  ...checkTileSet(d),
  ...checkBreak(d, alternatives),
  ...checkCounts(d),
  ...checkOrder(d, alternatives),
];
