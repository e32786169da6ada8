import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRng } from '../../src/rng.ts';
import {
  ALL_MAHJONG_CHECK_IDS,
  breakStack,
  cleanMahjongDeal,
  DRAW_TURNS,
  fullTileSet,
  judgeMahjongDeal,
  MAHJONG_CHECKS as C,
  MAHJONG_FAULTS,
  tileSetProblems,
  type MahjongDeal,
} from '../../src/mahjong/index.ts';

const rng = seededRng(5289);
let n = 0;
const given = (): MahjongDeal =>
  cleanMahjongDeal(rng, { roundId: `m${++n}`, tableId: 'MJ-01', start: Date.UTC(2026, 2, 1) });
const found = (d: MahjongDeal, id: string) => judgeMahjongDeal(d).filter((f) => f.check.id === id);

describe('Mah-Jong tiles and deal (Portaria 52/89/M art. 1.º–2.º, M1, M2)', () => {
  it('art. 1.º: 136 tiles, four of each of 34 kinds', () => {
    assert.equal(fullTileSet().length, 136);
    assert.deepEqual(tileSetProblems(fullTileSet()), { missing: [], extra: [], unknown: [] });
    assert.deepEqual(tileSetProblems([...fullTileSet().slice(1), 'XX']).unknown, ['XX']);
  });

  it('M1: the law’s example, 13, breaks the banker’s own row after 13 stacks; other sums count rows counter-clockwise', () => {
    assert.equal(breakStack(13), 13);
    assert.equal(breakStack(3), 2 * 17 + 3);
    assert.equal(breakStack(18), 17 + 18);
    assert.throws(() => breakStack(2), /3\.\.18/);
  });

  it('M2: three rounds of four tiles, then East two and the others one: 14, 13, 13, 13', () => {
    const total = { E: 0, S: 0, W: 0, N: 0 };
    for (const t of DRAW_TURNS) total[t.seat] += t.tiles;
    assert.deepEqual(total, { E: 14, S: 13, W: 13, N: 13 });
  });
});

describe(C.tileSet.id, () => {
  it('When a tile is missing, Then it is found', () => {
    const d = given();
    assert.equal(
      found({ ...d, tileSet: { ...d.tileSet, tiles: d.tileSet.tiles.slice(1) } }, C.tileSet.id).length,
      1,
    );
  });
  it('When the set is the 136 tiles in any order, Then nothing is found', () =>
    assert.deepEqual(found(given(), C.tileSet.id), []));
});

describe(C.breakPosition.id, () => {
  it('When drawing starts one stack early, Then it is found', () => {
    const d = given();
    const draws = d.draws.map((x) => ({ ...x, fromStack: (x.fromStack + 67) % 68 }));
    assert.equal(found({ ...d, draws }, C.breakPosition.id).length, 1);
  });
  it('When drawing starts where M1 puts it, Then nothing is found', () =>
    assert.deepEqual(found(given(), C.breakPosition.id), []));
});

describe(C.counts.id, () => {
  it('When East ends with 13 tiles, Then it is found', () => {
    const d = given();
    const draws = d.draws.map((x, i) => (i === 12 ? { ...x, tiles: x.tiles.slice(1) } : x));
    assert.equal(found({ ...d, draws }, C.counts.id).length, 1);
  });
  it('When the hands are 14, 13, 13, 13, Then nothing is found', () =>
    assert.deepEqual(found(given(), C.counts.id), []));
});

describe(C.order.id, () => {
  it('When a turn skips a stack, Then it is found', () => {
    const d = given();
    const draws = d.draws.map((x, i) => (i === 3 ? { ...x, fromStack: (x.fromStack + 2) % 68 } : x));
    assert.equal(found({ ...d, draws }, C.order.id).length, 1);
  });
  it('When the turns follow E, S, W, N from the break, Then nothing is found', () =>
    assert.deepEqual(found(given(), C.order.id), []));
});

describe('Mah-Jong detection proof (labelled simulation, facts level)', () => {
  it('raises nothing on clean deals, finds every fault kind under its check id, exercises every check id', () => {
    for (let i = 0; i < 30; i++)
      assert.deepEqual(
        judgeMahjongDeal(given()).map((f) => f.summary),
        [],
      );
    const exercised = new Set<string>();
    for (const fault of MAHJONG_FAULTS)
      for (let i = 0; i < 5; i++) {
        const ids = judgeMahjongDeal(fault.apply(given(), rng)).map((f) => f.check.id);
        assert.deepEqual([...new Set(ids)].sort(), [...fault.checkIds].sort(), fault.name);
        fault.checkIds.forEach((id) => exercised.add(id));
      }
    assert.deepEqual([...exercised].sort(), [...ALL_MAHJONG_CHECK_IDS].sort());
  });
});
