import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatCard } from '../../src/cards.ts';
import { playDecisionOracle } from '../../src/f3cp/math/index.ts';
import { F3CP_2025A } from '../../src/f3cp/rule-set.ts';
import {
  eventLike,
  first,
  fixedDeck,
  insertAfter,
  insertBefore,
  is,
  TableBuilder,
  type RoundSpec,
} from './clean-round.ts';
import { dealt, observation, threeHands } from './fixtures.ts';
import { given, onlyFinding, replayTable } from './spec.ts';

const observed = (kind: Parameters<typeof observation>[1], confidence: number) => {
  const base = threeHands();
  return insertAfter(base, dealt(12), observation(first(base, 'CardDealt'), kind, confidence, 3));
};

/** A fold (seven-high loses the Ante) or a win (a pair against a banker below Queen-high). */
const LOSE = { cards: '7c 5d 2h', banker: 'Qs Jd 3c' };
const WIN = { cards: 'Kh Kd 4s', banker: 'Jc 9c 4h' };

/** Rounds of one table where P1 at seat 1 meets these results, staking what `stake` says. */
function session(results: (typeof LOSE)[], stake: (i: number, previous: number) => number) {
  const t = new TableBuilder();
  let previous = 0;
  results.forEach((r, i) => {
    previous = stake(i, previous);
    t.round({ seats: [{ seat: 1, ante: previous, cards: r.cards }], banker: r.banker });
  });
  return t.close();
}
// L L L W L L W L L W L: ten steps after the first round, seven of them doublings after a loss
const RESULTS = [LOSE, LOSE, LOSE, WIN, LOSE, LOSE, WIN, LOSE, LOSE, WIN, LOSE];
const martingale = (i: number, previous: number) =>
  i === 0 || RESULTS[i - 1] === WIN ? 10_000 : previous * 2;

describe('art. 18.º: prohibited behaviour', () => {
  it('art. 18.º n.º 1: a player writing down results, observed at 80% → CONDUCT.RECORDING', () => {
    given(observed('NOTES', 80))
      .when(replayTable)
      .then(['F3CP.CONDUCT.RECORDING'])
      .positive('F3CP.CONDUCT.RECORDING');
  });

  it('art. 18.º n.º 1: an observation of another kind (OTHER) at 80% → nothing', () => {
    given(observed('OTHER', 80)).when(replayTable).then([]).negative('F3CP.CONDUCT.RECORDING');
  });

  it('art. 18.º n.º 2–3 (J16): cards shown to a spectator, observed at 90% → CONDUCT.CARD_REVEAL', () => {
    const t = given(observed('CARD_SHOWN_TO_THIRD_PARTY', 90))
      .when(replayTable)
      .then(['F3CP.CONDUCT.CARD_REVEAL'])
      .positive('F3CP.CONDUCT.CARD_REVEAL');
    assert.ok(onlyFinding(t, 'F3CP.CONDUCT.CARD_REVEAL').interpretations.includes('J16'));
  });

  it('art. 18.º n.º 2–3: the same observation at 49%, below the threshold → nothing', () => {
    given(observed('CARD_SHOWN_TO_THIRD_PARTY', 49))
      .when(replayTable)
      .then([])
      .negative('F3CP.CONDUCT.CARD_REVEAL');
  });

  it('art. 18.º n.º 2: the player at seat 1 leaves after the deal, before the seat is settled → CONDUCT.LEFT_SEAT', () => {
    const base = threeHands();
    const events = insertAfter(
      base,
      dealt(12),
      eventLike(
        first(base, 'CardDealt'),
        'SeatVacated',
        { seat: 1, playerId: 'P1' },
        { roundId: null, sourceKind: 'SEAT_SENSOR' },
      ),
    );
    const t = given(events)
      .when(replayTable)
      .then(['F3CP.CONDUCT.LEFT_SEAT'])
      .positive('F3CP.CONDUCT.LEFT_SEAT');
    assert.deepEqual(onlyFinding(t, 'F3CP.CONDUCT.LEFT_SEAT').players, ['P1']);
  });

  it('art. 18.º n.º 2: the player at seat 3 leaves once its folded Ante is collected → nothing', () => {
    const base = threeHands();
    const events = insertBefore(
      base,
      is('RoundSettled'),
      eventLike(
        first(base, 'BetCollected', (b) => b.seat === 3),
        'SeatVacated',
        { seat: 3, playerId: 'P3' },
        { roundId: null, sourceKind: 'SEAT_SENSOR' },
      ),
    );
    given(events).when(replayTable).then([]).negative('F3CP.CONDUCT.LEFT_SEAT');
  });

  it('art. 18.º n.º 1: P1 doubles the Ante after each loss and returns to MOP 100 after each win, 10 steps → CONDUCT.BETTING_SYSTEM (low)', () => {
    const t = given(session(RESULTS, martingale))
      .when(replayTable)
      .then(['F3CP.CONDUCT.BETTING_SYSTEM'])
      .positive('F3CP.CONDUCT.BETTING_SYSTEM');
    const f = onlyFinding(t, 'F3CP.CONDUCT.BETTING_SYSTEM');
    assert.equal(f.severity, 'low');
    assert.deepEqual(f.declared, { base: 10_000, steps: 10, doublings: 7 });
  });

  it('art. 18.º n.º 1: the same results one round short of the run (9 steps) → nothing', () => {
    given(session(RESULTS.slice(0, 10), martingale))
      .when(replayTable)
      .then([])
      .negative('F3CP.CONDUCT.BETTING_SYSTEM');
  });

  it('art. 18.º n.º 1: the same results with a flat stake → nothing', () => {
    given(session(RESULTS, () => 10_000))
      .when(replayTable)
      .then([])
      .negative('F3CP.CONDUCT.BETTING_SYSTEM');
  });
});

describe('art. 18.º n.º 3: collusion, from the decisions of players sitting side by side', () => {
  const oracle = playDecisionOracle(F3CP_2025A);
  const ROUNDS = 300;

  /** P3, P4 and P5 at seats 3–5; `shared` players decide on all three hands, others on their own. */
  function table(shared: boolean) {
    const t = new TableBuilder();
    for (let i = 0; i < ROUNDS; i++) {
      const deck = fixedDeck(1_000 + i);
      const hands = [0, 1, 2].map((k) => deck.slice(3 * k, 3 * k + 3));
      const spec: RoundSpec = {
        seats: hands.map((own, k) => ({
          seat: 3 + k,
          ante: 10_000,
          cards: own.map(formatCard).join(' '),
          ...(shared
            ? {
                decision: oracle.plays(own, hands.filter((_, j) => j !== k).flat())
                  ? ('PLAY' as const)
                  : ('FOLD' as const),
              }
            : {}),
        })),
        deck: deck.slice(9).map(formatCard).join(' '),
      };
      t.round(spec);
    }
    return t.close();
  }

  it('art. 18.º n.º 3: three neighbours who play on each other’s cards for 300 rounds → CONDUCT.COLLUSION', () => {
    const t = given(table(true))
      .when(replayTable)
      .thenFindings((f) => f.length > 0 && f.every((x) => x.checkId === 'F3CP.CONDUCT.COLLUSION'))
      .positive('F3CP.CONDUCT.COLLUSION');
    for (const f of t.of('F3CP.CONDUCT.COLLUSION')) {
      assert.ok(f.players.every((p) => ['P3', 'P4', 'P5'].includes(p)));
      const d = f.details as { pValue: number; bonferroniGroups: number; rounds: string[] };
      assert.ok(d.pValue * d.bonferroniGroups < 0.001 && d.rounds.length > 0);
    }
  });

  it('art. 18.º n.º 3: the same neighbours and cards, each deciding on their own hand → nothing', () => {
    given(table(false)).when(replayTable).then([]).negative('F3CP.CONDUCT.COLLUSION');
  });
});
