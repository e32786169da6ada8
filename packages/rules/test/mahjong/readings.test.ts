/**
 * The Mah-Jong alternative readings M1 and M2 (readings.ts), as Given / When / Then: given a deal, when judged under
 * the register's reading and under the alternative, then the findings differ where the reading matters and agree
 * where it does not.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRng } from '../../src/rng.ts';
import {
  breakStack,
  cleanMahjongDeal,
  DRAW_TURNS_EAST_TWICE,
  judgeMahjongDeal,
  MAHJONG_CHECKS as C,
  RING,
  type MahjongDeal,
} from '../../src/mahjong/index.ts';

const rng = seededRng(5290);
let n = 0;
const given = (): MahjongDeal =>
  cleanMahjongDeal(rng, { roundId: `m${++n}`, tableId: 'MJ-02', start: Date.UTC(2026, 2, 1) });
const ids = (d: MahjongDeal, alternatives: readonly string[] = []) =>
  judgeMahjongDeal(d, alternatives)
    .map((f) => f.check.id)
    .sort();

/** The deal with its dice summing `sum` and its draws moved to start at ring stack `from`. */
function withDice(d: MahjongDeal, sum: number, from: number): MahjongDeal {
  const shift = from - d.draws[0]!.fromStack;
  return {
    ...d,
    dice: { ...d.dice, sum },
    draws: d.draws.map((x) => ({ ...x, fromStack: (((x.fromStack + shift) % RING) + RING) % RING })),
  };
}

/** The deal's last five draws (E 2, S 1, W 1, N 1) redrawn as E 1, S 1, W 1, N 1, E 1. */
function eastTwice(d: MahjongDeal): MahjongDeal {
  const head = d.draws.slice(0, 12);
  const tail = d.draws.slice(12);
  const east = tail[0]!;
  const [s, w, nn] = [tail[1]!, tail[2]!, tail[3]!];
  return {
    ...d,
    draws: [
      ...head,
      { ...east, tiles: east.tiles.slice(0, 1) },
      s,
      w,
      nn,
      { ...east, eventId: `${east.eventId}-2`, time: nn.time + 1, tiles: east.tiles.slice(1) },
    ],
  };
}

describe('Mah-Jong alternatives: Given a deal, When judged under both readings, Then …', () => {
  it('M1: dice 7, drawing from West’s row (ring 2 × 17 + 7) — chosen: nothing; alternative: BREAK_POSITION (the banker’s row, stack 7)', () => {
    const d = withDice(given(), 7, breakStack(7));
    assert.equal(breakStack(7), 41);
    assert.deepEqual(ids(d), []);
    assert.deepEqual(ids(d, ['M1']), [C.breakPosition.id]);
    assert.equal(breakStack(7, ['M1']), 7);
    const f = judgeMahjongDeal(d, ['M1'])[0]!;
    assert.deepEqual(f.check.interpretations, ['M1']);
    assert.match(f.summary, /should start at ring stack 7/);
  });
  it('M1: the law’s example, 13 (the banker’s own row either way) — agree', () => {
    const d = withDice(given(), 13, breakStack(13));
    assert.equal(breakStack(13, ['M1']), breakStack(13));
    assert.deepEqual(ids(d, ['M1']), ids(d));
    assert.deepEqual(ids(d), []);
  });

  it('M2: East draws its last two tiles at one turn — chosen: nothing; alternative: DEAL.ORDER', () => {
    const d = given();
    assert.deepEqual(ids(d), []);
    assert.deepEqual(ids(d, ['M2']), [C.order.id]);
  });
  it('M2: East takes one tile before the others and one after — chosen: DEAL.ORDER; alternative: nothing', () => {
    const d = eastTwice(given());
    assert.deepEqual(
      d.draws.slice(12).map((x) => `${x.seat}${x.tiles.length}`),
      DRAW_TURNS_EAST_TWICE.slice(12).map((t) => `${t.seat}${t.tiles}`),
    );
    assert.deepEqual(ids(d), [C.order.id]);
    assert.deepEqual(ids(d, ['M2']), []);
  });
  it('M2: a deal that stops after the three rounds of stacks — agree (DEAL.ORDER and DEAL.COUNTS either way)', () => {
    const g = given();
    const d = { ...g, draws: g.draws.slice(0, 12) };
    assert.deepEqual(ids(d, ['M2']), ids(d));
    assert.deepEqual(ids(d), [C.counts.id, C.order.id]);
  });
});
