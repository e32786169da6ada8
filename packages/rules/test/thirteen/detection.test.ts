import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRng } from '../../src/rng.ts';
import {
  ALL_THIRTEEN_CHECK_IDS,
  cleanThirteenRound,
  judgeThirteenRound,
  THIRTEEN_CARDS_1989,
  THIRTEEN_FAULTS,
  THIRTEEN_HANDLED,
} from '../../src/thirteen/index.ts';

/**
 * The labelled detection proof for 13 Cards, at the level of round facts: every fault kind the simulation
 * injects is found under its check ids, clean rounds and correctly handled irregularities raise nothing, and
 * every THIRTEEN. check id is exercised. The same proof over ta.thirteen.* events through the replay is
 * services/replay/test/thirteen-detection.test.ts.
 */
const rules = THIRTEEN_CARDS_1989;
const rng = seededRng(5189);
let n = 0;
const round = () =>
  cleanThirteenRound(rng, rules, {
    roundId: `r${++n}`,
    tableId: 'T13-01',
    start: Date.UTC(2026, 0, 5, 2) + n * 600_000,
  });
const ids = (r: ReturnType<typeof round>) => judgeThirteenRound(r, rules).findings.map((f) => f.check.id);

describe('13 Cards detection proof (labelled simulation, facts level)', () => {
  it('raises nothing on 40 clean rounds, all bets settled', () => {
    for (let i = 0; i < 40; i++) {
      const r = round();
      const judged = judgeThirteenRound(r, rules);
      assert.deepEqual(
        judged.findings.map((f) => f.summary),
        [],
        `clean round ${r.roundId}`,
      );
      assert.deepEqual(judged.settled.notSettled, []);
      assert.equal(judged.settled.bets.length, r.bets.length);
    }
  });

  it('raises nothing on irregularities handled as the law says', () => {
    for (const h of THIRTEEN_HANDLED)
      for (let i = 0; i < 3; i++) assert.deepEqual(ids(h.apply(round(), rules)), [], h.name);
  });

  it('finds every fault kind under its check ids, and exercises every check id', () => {
    const exercised = new Set<string>();
    for (const fault of THIRTEEN_FAULTS) {
      let injected = 0;
      for (let tries = 0; injected < 4 && tries < 40; tries++) {
        const faulty = fault.apply(round(), rng, rules);
        if (!faulty) continue;
        injected++;
        const found = ids(faulty);
        for (const id of fault.checkIds) {
          assert.ok(
            found.includes(id),
            `${fault.name}: expected ${id}, found ${found.join(', ') || 'nothing'}`,
          );
          exercised.add(id);
        }
        const unexpected = found.filter((id) => !fault.checkIds.includes(id));
        assert.deepEqual(unexpected, [], `${fault.name}: unexpected findings`);
      }
      assert.equal(injected, 4, `${fault.name} could be injected`);
    }
    assert.deepEqual([...exercised].sort(), [...ALL_THIRTEEN_CHECK_IDS].sort());
  });
});
