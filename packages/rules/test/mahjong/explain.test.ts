import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EventHeader, MahjongEvent } from '@table-audit/schemas/events';
import { seededRng } from '../../src/rng.ts';
import {
  cleanMahjongDeal,
  eventsOfDeal,
  MAHJONG_FAULTS,
  MAHJONG_SCOPE,
  MahjongTable,
  type MahjongDeal,
} from '../../src/mahjong/index.ts';
import { breakStack } from '../../src/mahjong/deal.ts';

/**
 * A Mah-Jong deal explained as the round page draws it: the walls of 4 × 17 stacks, the stacks set aside and the
 * break (M1), every turn beside the order (M2), the hands, the timeline, and the scope note in the JSON and first
 * in the text (what `table-audit replay ROUND_ID` prints).
 */
const rng = seededRng(52);
const TABLE = 'LIS-MAHJONG-009';
const START = Date.parse('2025-12-01T04:00:00Z');
let seq = 0;
const header = (roundId: string, time: number): EventHeader => ({
  eventId: `mx-${++seq}`,
  eventTime: time,
  receivedTime: null,
  sourceKind: 'TABLE_CONTROLLER',
  sourceDevice: 'mj',
  sequence: seq,
  casino: 'Casino Lisboa',
  concessionaire: 'SJM Resorts',
  tableId: TABLE,
  roundId,
  staffId: null,
});

function explained(d: MahjongDeal) {
  const events: MahjongEvent[] = [
    {
      type: 'RoundStarted',
      data: { header: header(d.roundId, START), roundNumber: 1, dealerId: null, shuffleId: null },
    },
    ...eventsOfDeal(d).map(
      (e) => ({ type: e.type, data: { header: header(d.roundId, e.time), ...e.data } }) as MahjongEvent,
    ),
    { type: 'RoundSettled', data: { header: header(d.roundId, START + 100_000) } },
  ];
  const table = new MahjongTable(TABLE);
  const [unit] = events.flatMap((e) => table.apply(e));
  const x = table.explain(unit!, []);
  return { events, x, json: x.json as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

describe('a Mah-Jong deal explained', () => {
  it('draws a clean deal: walls, set-aside stacks and break, every turn in order, hands of 14, 13, 13, 13', () => {
    const d = cleanMahjongDeal(rng, { roundId: `${TABLE}/1`, tableId: TABLE, start: START });
    const { events, x, json } = explained(d);
    assert.deepEqual(json['scope'], MAHJONG_SCOPE);
    assert.match(
      x.text.split('\n')[1]!,
      /^SCOPE: Outcomes are out of scope until the rest of the regulation/,
    );
    const deal = json['deal'];
    assert.equal(deal.walls.length, 4);
    const stacks = deal.walls.flatMap((w: { stacks: unknown[] }) => w.stacks);
    assert.deepEqual(
      stacks.map((s: { position: number }) => s.position),
      Array.from({ length: 68 }, (_, i) => i),
    );
    const brk = breakStack(d.dice.sum);
    assert.equal(deal.break.expectedStack, brk);
    assert.equal(deal.break.firstStackDrawn, brk);
    assert.deepEqual(
      stacks.filter((s: { isBreak: boolean }) => s.isBreak).map((s: { position: number }) => s.position),
      [brk],
    );
    assert.equal(stacks.filter((s: { setAside: boolean }) => s.setAside).length, d.dice.sum);
    assert.ok(deal.turns.every((t: { inOrder: boolean }) => t.inOrder));
    assert.deepEqual(
      deal.hands.map((h: { seat: string; count: number }) => `${h.seat}${h.count}`),
      ['E14', 'S13', 'W13', 'N13'],
    );
    // a set-aside stack is never drawn from; the break's stack is the first turn's
    assert.ok(
      stacks.every((s: { setAside: boolean; takenBy: unknown[] }) => !s.setAside || s.takenBy.length === 0),
    );
    assert.deepEqual(stacks[brk].takenBy[0], { turn: 1, seat: 'E' });
    assert.deepEqual(
      json['steps'].map((s: { eventId: string }) => s.eventId),
      events.map((e) => e.data.header.eventId),
    );
  });

  it('marks the turns a faulty deal takes out of order, and the break where the table did not start', () => {
    const order = MAHJONG_FAULTS.find((f) => f.checkIds.includes('MAHJONG.DEAL.ORDER'))!;
    const d = order.apply(
      cleanMahjongDeal(rng, { roundId: `${TABLE}/2`, tableId: TABLE, start: START }),
      rng,
    );
    const { json } = explained(d);
    assert.ok(json['deal'].turns.some((t: { inOrder: boolean }) => !t.inOrder));
    assert.ok(json['findings'].some((f: { checkId: string }) => f.checkId === 'MAHJONG.DEAL.ORDER'));
    const brk = MAHJONG_FAULTS.find((f) => f.checkIds.includes('MAHJONG.DEAL.BREAK_POSITION'))!;
    const b = brk.apply(cleanMahjongDeal(rng, { roundId: `${TABLE}/3`, tableId: TABLE, start: START }), rng);
    const moved = explained(b).json['deal'].break;
    assert.notEqual(moved.firstStackDrawn, moved.expectedStack);
  });
});
