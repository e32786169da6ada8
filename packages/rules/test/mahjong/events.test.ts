import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EventHeader, MahjongEvent, TableEvent } from '@table-audit/schemas/events';
import { seededRng } from '../../src/rng.ts';
import {
  cleanMahjongDeal,
  dealFromEvents,
  eventsOfDeal,
  judgeMahjongDeal,
  MAHJONG_FAULTS,
  MAHJONG_MODULE,
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
