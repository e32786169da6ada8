import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EventHeader, MahjongEvent, TableEvent } from '@table-audit/schemas/events';
import { seededRng } from '../../src/rng.ts';
import { breakStack } from '../../src/mahjong/deal.ts';
import {
  cleanMahjongDeal,
  dealFromEvents,
  eventsOfDeal,
  judgeMahjongDeal,
  MAHJONG_FAULTS,
  MAHJONG_MODULE,
  MAHJONG_SCOPE,
  MahjongTable,
  type MahjongDeal,
} from '../../src/mahjong/index.ts';

/** The translation between ta.mahjong.* events and deal facts, the fold's records, and validation. */
const rng = seededRng(5289);
const TABLE = 'LIS-MAHJONG-001';
const START = Date.parse('2025-12-01T04:00:00Z');
let seq = 0;
const header = (roundId: string | null, time: number): EventHeader => ({
  eventId: `mj-${++seq}`,
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
let n = 0;
const deal = (): MahjongDeal =>
  cleanMahjongDeal(rng, { roundId: `${TABLE}/${++n}`, tableId: TABLE, start: START });
const asEvents = (d: MahjongDeal): MahjongEvent[] =>
  eventsOfDeal(d).map(
    (e) => ({ type: e.type, data: { header: header(d.roundId, e.time), ...e.data } }) as MahjongEvent,
  );
const ids = (d: MahjongDeal) =>
  judgeMahjongDeal(d)
    .map((f) => f.check.id)
    .sort();

describe('Mah-Jong deal events ↔ facts, and the fold', () => {
  it('judges a deal written as events and folded back exactly as its facts, clean and with each fault', () => {
    const clean = deal();
    assert.deepEqual(ids(dealFromEvents(clean.roundId, TABLE, asEvents(clean))!), []);
    for (const f of MAHJONG_FAULTS) {
      const d = f.apply(deal(), rng);
      assert.deepEqual(ids(dealFromEvents(d.roundId, TABLE, asEvents(d))!), ids(d), f.name);
      assert.ok(ids(d).length > 0, f.name);
    }
  });

  it('records a judged deal with no bet lines (outcomes out of scope), and a deal without dice as not derived', () => {
    const d = MAHJONG_FAULTS[0]!.apply(deal(), rng);
    const round = (events: MahjongEvent[]): TableEvent[] => [
      {
        type: 'RoundStarted',
        data: { header: header(d.roundId, START), roundNumber: 1, dealerId: null, shuffleId: null },
      },
      ...events,
      { type: 'RoundSettled', data: { header: header(d.roundId, START + 100_000) } },
    ];
    const table = new MahjongTable(TABLE);
    const [judged] = round(asEvents(d)).flatMap((e) => table.apply(e as MahjongEvent));
    assert.deepEqual(
      judged!.findings.map((f) => f.checkId),
      ['MAHJONG.DEAL.TILE_SET'],
    );
    assert.equal(judged!.record!.status, 'SETTLED');
    assert.deepEqual(judged!.record!.lines, []);
    assert.match(judged!.record!.statusReason!, /out of scope/);
    const nodice = new MahjongTable(TABLE);
    const [nd] = round(asEvents(d).filter((e) => e.type !== 'MahjongDiceThrown')).flatMap((e) =>
      nodice.apply(e as MahjongEvent),
    );
    assert.equal(nd!.notDerived?.code, 'cards-incomplete');
  });

  it('validation names the field', () => {
    const ev = asEvents(deal());
    const draw = ev.find((e) => e.type === 'MahjongTilesDrawn')! as Extract<
      MahjongEvent,
      { type: 'MahjongTilesDrawn' }
    >;
    assert.deepEqual(
      MAHJONG_MODULE.validate({ ...draw, data: { ...draw.data, tiles: ['B0'], fromStack: 68 } }),
      [
        'fromStack 68 is not a stack of the ring (0 to 67)',
        'tiles[0] "B0" is not a tile (DR DG DW, WE WS WW WN, B1-B9, N1-N9, C1-C9)',
      ],
    );
    const dice = ev.find((e) => e.type === 'MahjongDiceThrown')! as Extract<
      MahjongEvent,
      { type: 'MahjongDiceThrown' }
    >;
    assert.deepEqual(MAHJONG_MODULE.validate({ ...dice, data: { ...dice.data, faces: [1, 9] } }), [
      'faces has 2 values: the banker throws three dice',
      'faces[1] 9 is not a face of a die (1 to 6)',
    ]);
    for (const e of ev) assert.deepEqual(MAHJONG_MODULE.validate(e), [], e.type);
  });
});

function explained(d: MahjongDeal) {
  const events: MahjongEvent[] = [
    {
      type: 'RoundStarted',
      data: { header: header(d.roundId, START), roundNumber: 1, dealerId: null, shuffleId: null },
    },
    ...asEvents(d),
    { type: 'RoundSettled', data: { header: header(d.roundId, START + 100_000) } },
  ];
  const table = new MahjongTable(TABLE);
  const [unit] = events.flatMap((e) => table.apply(e));
  const x = table.explain(unit!, []);
  return { events, x, json: x.json as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/**
 * A Mah-Jong deal explained as the round page draws it: the walls of 4 × 17 stacks, the stacks set aside and the
 * break (M1), every turn beside the order (M2), the hands, the timeline, and the scope note in the JSON and first
 * in the text (what `table-audit replay ROUND_ID` prints).
 */
describe('a Mah-Jong deal explained', () => {
  it('draws a clean deal: walls, set-aside stacks and break, every turn in order, hands of 14, 13, 13, 13', () => {
    const d = deal();
    const { events, x, json } = explained(d);
    assert.deepEqual(json['scope'], MAHJONG_SCOPE);
    assert.match(
      x.text.split('\n')[1]!,
      /^SCOPE: Outcomes are out of scope until the rest of the regulation/,
    );
    const drawn = json['deal'];
    assert.equal(drawn.walls.length, 4);
    const stacks = drawn.walls.flatMap((w: { stacks: unknown[] }) => w.stacks);
    assert.deepEqual(
      stacks.map((s: { position: number }) => s.position),
      Array.from({ length: 68 }, (_, i) => i),
    );
    const brk = breakStack(d.dice.sum);
    assert.equal(drawn.break.expectedStack, brk);
    assert.equal(drawn.break.firstStackDrawn, brk);
    assert.deepEqual(
      stacks.filter((s: { isBreak: boolean }) => s.isBreak).map((s: { position: number }) => s.position),
      [brk],
    );
    assert.equal(stacks.filter((s: { setAside: boolean }) => s.setAside).length, d.dice.sum);
    assert.ok(drawn.turns.every((t: { inOrder: boolean }) => t.inOrder));
    assert.deepEqual(
      drawn.hands.map((h: { seat: string; count: number }) => `${h.seat}${h.count}`),
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
    const d = order.apply(deal(), rng);
    const { json } = explained(d);
    assert.ok(json['deal'].turns.some((t: { inOrder: boolean }) => !t.inOrder));
    assert.ok(json['findings'].some((f: { checkId: string }) => f.checkId === 'MAHJONG.DEAL.ORDER'));
    const brk = MAHJONG_FAULTS.find((f) => f.checkIds.includes('MAHJONG.DEAL.BREAK_POSITION'))!;
    const b = brk.apply(deal(), rng);
    const moved = explained(b).json['deal'].break;
    assert.notEqual(moved.firstStackDrawn, moved.expectedStack);
  });
});
