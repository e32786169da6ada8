import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { F3CP_MODULE } from '../../src/f3cp/module.ts';
import { cleanRound } from './clean-round.ts';
import { THREE_HANDS } from './fixtures.ts';
import { IN_2019, threeHands2008 } from './fixtures-2008.ts';

/** Event validation of a 2008 table: what the 2008 rules do not have is refused, naming the field. */
describe('validation: a 2008 table offers only Ante, Play and Pair Plus (78/2008 art. 5.º n.º 1)', () => {
  it('every event of a clean 2008 round passes', () => {
    for (const e of threeHands2008()) assert.deepEqual(F3CP_MODULE.validate(e), [], e.type);
  });

  it('a Six Card Bonus bet, a Progressive jackpot and community cards dated 2019 are refused, naming the field', () => {
    const events = cleanRound(
      {
        ...THREE_HANDS,
        seats: THREE_HANDS.seats.map((s) => ({ ...s, progressive: 5_000 })),
        community: '9h 8d',
      },
      { start: IN_2019 },
    );
    const problems = events.flatMap((e) => F3CP_MODULE.validate(e).map((p) => `${e.type}: ${p}`));
    assert.ok(
      problems.some((p) =>
        /^BetPlaced: betType SIX_CARD_BONUS: the 2008 rules \(f3cp-2008a, Despacho 78\/2008 art\. 5\.º n\.º 1\)/.test(
          p,
        ),
      ),
      problems.join('\n'),
    );
    assert.ok(problems.some((p) => /^BetPlaced: betType PROGRESSIVE: /.test(p)));
    assert.ok(problems.some((p) => /^TableOpened: jackpot must be null: /.test(p)));
    assert.ok(problems.some((p) => /^TableOpened: betLimits SIX_CARD_BONUS: /.test(p)));
    assert.ok(problems.some((p) => /^CardDealt: target COMMUNITY: /.test(p)));
  });

  it('the same bets dated 2025-12-01 (89/2025) pass', () => {
    const events = cleanRound({
      ...THREE_HANDS,
      seats: THREE_HANDS.seats.map((s) => ({ ...s, progressive: 5_000 })),
      community: '9h 8d',
    });
    for (const e of events) assert.deepEqual(F3CP_MODULE.validate(e), [], e.type);
  });
});
