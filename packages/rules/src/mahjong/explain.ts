/**
 * A Mah-Jong deal step by step, as an inspector pictures it (Portaria 52/89/M art. 1.º–2.º): the tiles counted,
 * the four walls of 17 stacks, the dice and the break they give (M1), the deal order and who received which tiles
 * (M2), the findings, and the scope note: outcomes are out of scope until the rest of the regulation is available.
 * Times as UTC text in the JSON (shown in Macau time); no amounts (no payment is judged).
 */
import type { MahjongEvent } from '@table-audit/schemas/events';
import type { Finding } from '../findings.ts';
import type { NotDerived } from '../game.ts';
import { formatMacauTime, utcText } from '../present.ts';
import { timelineOf } from '../round-fold.ts';
import { breakStack, drawTurns, HAND, RING, SEATS, STACKS_PER_ROW, type Seat } from './deal.ts';
import type { MahjongDeal } from './round.ts';
import { TILE_COUNT } from './tiles.ts';

/**
 * Where a Mah-Jong round appears, the project says what is judged and what is not: this note, machine-readable,
 * rides with every Mah-Jong round explained (the API's round and findings responses, the CLI's replay output).
 */
export const MAHJONG_SCOPE = Object.freeze({
  code: 'outcomes-out-of-scope',
  game: 'MAHJONG',
  ruleSet: 'mahjong-1989-deal',
  judged: Object.freeze([
    'the tile set (art. 1.º)',
    'the walls, the dice-chosen break and the deal (art. 2.º)',
  ]),
  notJudged: Object.freeze(['winning hands', 'outcomes', 'payments']),
  message:
    'Outcomes are out of scope until the rest of the regulation is available: the text held of Portaria 52/89/M is art. 1.º–2.º (the tiles and the deal), so only the deal is judged; winning hands, outcomes and payments are not.',
  doc: 'docs/games/mahjong-1989.md',
});
export type MahjongScope = typeof MAHJONG_SCOPE;

const WINDS: Record<Seat, string> = { E: 'East (the banker)', S: 'South', W: 'West', N: 'North' };

/** One event of a Mah-Jong game in words, for the timeline. */
export function describeMahjongEvent(e: MahjongEvent): string {
  const d = e.data as unknown as Record<string, unknown>;
  switch (e.type) {
    case 'RoundStarted':
      return `game ${String(d['roundNumber'])} started, dealer ${String(d['dealerId'] ?? 'not named')}`;
    case 'MahjongTilesCounted':
      return `${((d['tiles'] as string[]) ?? []).length} tiles counted into the walls (art. 1.º: ${TILE_COUNT})`;
    case 'MahjongDiceThrown': {
      const faces = (d['faces'] as number[]) ?? [];
      const sum = faces.reduce((a, b) => a + b, 0);
      const where =
        sum >= 3 && sum <= 18
          ? `; the wall breaks at stack ${breakStack(sum)} (M1)`
          : '; no break for this sum';
      return `the banker throws ${faces.join('-')} = ${sum}${where}`;
    }
    case 'MahjongTilesDrawn': {
      const seat = d['seat'] as Seat | 'UNKNOWN';
      return `${WINDS[seat as Seat] ?? String(seat)} draws ${((d['tiles'] as string[]) ?? []).join(' ')} from stack ${String(d['fromStack'])}`;
    }
    case 'RoundSettled':
      return 'game ended (its outcome is out of scope)';
    case 'RoundVoided':
      return `game voided${d['reason'] ? `: ${String(d['reason'])}` : ''}`;
    default:
      return e.type;
  }
}

export const mahjongSteps = (events: readonly MahjongEvent[]) => timelineOf(events, describeMahjongEvent);

/** The four walls as rows of 17 stacks: which stacks the dice set aside and which turn took each stack. */
function wallsOf(deal: MahjongDeal, expectedBreak: number | null) {
  const takenBy = new Map<number, { turn: number; seat: Seat }[]>();
  deal.draws.forEach((x, i) => {
    const stacks = Math.max(1, Math.ceil(x.tiles.length / 2));
    for (let k = 0; k < stacks; k++) {
      const pos = (((x.fromStack + k) % RING) + RING) % RING;
      takenBy.set(pos, [...(takenBy.get(pos) ?? []), { turn: i + 1, seat: x.seat }]);
    }
  });
  const setAside = new Set<number>();
  if (expectedBreak !== null)
    for (let k = 1; k <= deal.dice.sum; k++) setAside.add((expectedBreak - k + RING) % RING);
  return SEATS.map((row, w) => ({
    row,
    name: WINDS[row],
    stacks: Array.from({ length: STACKS_PER_ROW }, (_, i) => {
      const position = STACKS_PER_ROW * w + i;
      return {
        position,
        setAside: setAside.has(position),
        isBreak: position === expectedBreak,
        takenBy: takenBy.get(position) ?? [],
      };
    }),
  }));
}

export interface MahjongExplainInput {
  readonly roundId: string;
  readonly tableId: string;
  readonly ruleSet: string | null;
  readonly notDerived: NotDerived | null;
  readonly deal: MahjongDeal | null;
  readonly events: readonly MahjongEvent[];
  /** the alternative readings (M1, M2) the deal is explained under; absent: the register's */
  readonly alternatives?: readonly string[];
}

export function explainMahjongDeal(
  u: MahjongExplainInput,
  findings: readonly Finding[],
): { json: object; text: string } {
  const lines = [
    `Mah-Jong game ${u.roundId} at table ${u.tableId} — rule set ${u.ruleSet ?? '(none)'}; times in Macau time (UTC+8)${u.alternatives?.length ? `; alternative readings ${u.alternatives.join(', ')}` : ''}`,
    `SCOPE: ${MAHJONG_SCOPE.message}`,
  ];
  if (u.notDerived) lines.push(`not derived: ${u.notDerived.code}: ${u.notDerived.message}`);
  let deal: object | null = null;
  const d = u.deal;
  if (d) {
    const diceEvent = u.events.find((e) => e.type === 'MahjongDiceThrown');
    const faces = diceEvent?.type === 'MahjongDiceThrown' ? diceEvent.data.faces : [];
    const validSum = Number.isInteger(d.dice.sum) && d.dice.sum >= 3 && d.dice.sum <= 18;
    const alternatives = u.alternatives ?? [];
    const DRAW_TURNS = drawTurns(alternatives);
    const expectedBreak = validSum ? breakStack(d.dice.sum, alternatives) : null;
    const hands = Object.fromEntries(SEATS.map((s) => [s, [] as string[]])) as Record<Seat, string[]>;
    for (const x of d.draws) hands[x.seat].push(...x.tiles);
    const turns = d.draws.map((x, i) => {
      const want = DRAW_TURNS[i] ?? null;
      const wantStack = i < 12 && d.draws[0] ? (d.draws[0].fromStack + 2 * i) % RING : null;
      return {
        turn: i + 1,
        time: utcText(x.time),
        eventId: x.eventId,
        seat: x.seat,
        tiles: [...x.tiles],
        fromStack: x.fromStack,
        expected: want ? { seat: want.seat, tiles: want.tiles, fromStack: wantStack } : null,
        inOrder:
          want !== null &&
          want.seat === x.seat &&
          want.tiles === x.tiles.length &&
          (wantStack === null || wantStack === x.fromStack),
      };
    });
    deal = {
      tilesCounted: d.tileSet.tiles.length,
      tilesExpected: TILE_COUNT,
      dice: { faces: [...faces], sum: d.dice.sum, time: utcText(d.dice.time) },
      break: {
        expectedStack: expectedBreak,
        expectedRow: expectedBreak === null ? null : SEATS[Math.floor(expectedBreak / STACKS_PER_ROW)]!,
        setAside: validSum ? d.dice.sum : null,
        firstStackDrawn: d.draws[0]?.fromStack ?? null,
        interpretations: ['M1'],
      },
      walls: wallsOf(d, expectedBreak),
      turns,
      hands: SEATS.map((seat) => ({
        seat,
        name: WINDS[seat],
        tiles: hands[seat],
        count: hands[seat].length,
        expected: HAND[seat],
      })),
      orderInterpretations: ['M2'],
    };
    lines.push(
      `${formatMacauTime(d.tileSet.time)}  ${d.tileSet.tiles.length} tiles counted (art. 1.º: ${TILE_COUNT})`,
      `${formatMacauTime(d.dice.time)}  dice ${faces.join('-')} = ${d.dice.sum}: break at stack ${expectedBreak ?? '(no such sum)'} (art. 2.º, M1); drawing started at ${d.draws[0]?.fromStack ?? '(nothing drawn)'}`,
    );
    for (const t of turns)
      lines.push(
        `  turn ${t.turn}: ${t.seat} draws ${t.tiles.join(' ')} from stack ${t.fromStack}${t.inOrder ? '' : ` — the order gives ${t.expected ? `${t.expected.seat}, ${t.expected.tiles} tile(s)${t.expected.fromStack === null ? '' : ` from stack ${t.expected.fromStack}`}` : 'no such turn'} (M2)`}`,
      );
    lines.push(
      `hands: ${SEATS.map((s) => `${s} ${hands[s].length}`).join(', ')} (art. 2.º: E 14, S 13, W 13, N 13)`,
    );
  }
  for (const f of findings) lines.push(`finding ${f.checkId}: ${f.summary}`);
  return {
    json: {
      game: 'MAHJONG',
      roundId: u.roundId,
      tableId: u.tableId,
      ruleSet: u.ruleSet,
      notDerived: u.notDerived,
      scope: MAHJONG_SCOPE,
      deal,
      steps: mahjongSteps(u.events),
      findings,
    },
    text: lines.join('\n'),
  };
}
