import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { change, cleanRound, first, is, moveBefore, TableBuilder } from './clean-round.ts';
import { dealt, THREE_HANDS, threeHands } from './fixtures.ts';
import { given, onlyFinding, replayTable } from './spec.ts';

describe('arts. 3.º–5.º and 10.º: bets', () => {
  it('art. 10.º 3): seat 1 places its Pair Plus after the first card → BET.LATE', () => {
    const events = moveBefore(
      threeHands(),
      is('BetPlaced', (b) => b.seat === 1 && b.betType === 'PAIR_PLUS'),
      dealt(2),
    );
    given(events).when(replayTable).then(['F3CP.BET.LATE']).positive('F3CP.BET.LATE');
  });

  it('art. 10.º 3) and art. 12.º n.º 2: the Play bets come after the cards → nothing', () => {
    const events = threeHands();
    const play = events.findIndex(is('BetPlaced', (b) => b.betType === 'PLAY'));
    assert.ok(play > events.findIndex(dealt(12)), 'a Play bet after the deal');
    given(events).when(replayTable).then([]).negative('F3CP.BET.LATE');
  });

  it('art. 10.º 1): an Ante of MOP 20,100 on a table whose maximum is MOP 20,000 → BET.LIMITS', () => {
    const events = cleanRound({ ...THREE_HANDS, seats: [{ ...THREE_HANDS.seats[0]!, ante: 2_010_000 }] });
    const t = given(events).when(replayTable).then(['F3CP.BET.LIMITS']).positive('F3CP.BET.LIMITS');
    assert.deepEqual(onlyFinding(t, 'F3CP.BET.LIMITS').expected, { minimum: 10_000, maximum: 2_000_000 });
  });

  it("art. 10.º 1): an Ante of exactly the table's maximum and one of exactly its minimum → nothing", () => {
    const events = cleanRound({
      ...THREE_HANDS,
      seats: [
        { ...THREE_HANDS.seats[0]!, ante: 2_000_000 },
        { ...THREE_HANDS.seats[1]!, ante: 10_000 },
      ],
    });
    given(events).when(replayTable).then([]).negative('F3CP.BET.LIMITS');
  });

  it("art. 10.º 2): the player seated at seat 1 bets the Pair Plus of seat 3's hand → BET.OTHER_HAND (J12)", () => {
    const spec = {
      ...THREE_HANDS,
      seats: THREE_HANDS.seats.map((s) => (s.seat === 3 ? { ...s, pairPlus: 10_000 } : s)),
    };
    const events = change(
      cleanRound(spec),
      'BetPlaced',
      (b) => b.seat === 3 && b.betType === 'PAIR_PLUS',
      (b) => (b.playerId = 'P1'),
    );
    const t = given(events).when(replayTable).then(['F3CP.BET.OTHER_HAND']).positive('F3CP.BET.OTHER_HAND');
    const f = onlyFinding(t, 'F3CP.BET.OTHER_HAND');
    assert.deepEqual(f.seats, [1, 3]);
    assert.ok(f.interpretations.includes('J12'));
  });

  // seats 3 and 5 with nobody the seat sensors identify; their bets carry the player id the table gave them
  const unseatedBets = (player3: string, player5: string) =>
    change(
      cleanRound({
        ...THREE_HANDS,
        seats: THREE_HANDS.seats.map((s) => (s.seat === 1 ? s : { ...s, player: null })),
      }),
      'BetPlaced',
      (b) => b.seat === 3 || b.seat === 5,
      (b) => (b.playerId = b.seat === 3 ? player3 : player5),
    );

  it('art. 10.º 2): a player the sensors seat nowhere bets on seats 3 and 5 → BET.OTHER_HAND on each (J12)', () => {
    const t = given(unseatedBets('PX', 'PX'))
      .when(replayTable)
      .then(['F3CP.BET.OTHER_HAND'])
      .positive('F3CP.BET.OTHER_HAND');
    const found = t.of('F3CP.BET.OTHER_HAND');
    // seat 3's Ante (its hand folds); seat 5's Ante, Six Card Bonus and Play: every bet of the joint play
    assert.deepEqual(found.map((f) => f.seats[0]).sort(), [3, 5, 5, 5]);
    assert.deepEqual(found[0]!.expected, { hands: 1 });
    assert.ok(found.every((f) => f.interpretations.includes('J12')));
  });

  it('art. 10.º 2): two players the sensors seat nowhere, each on one hand → nothing', () => {
    given(unseatedBets('PX', 'PY')).when(replayTable).then([]).negative('F3CP.BET.OTHER_HAND');
  });

  it('art. 10.º 2): a player who moved from seat 1 to seat 4 bets on seat 4 → nothing', () => {
    const t = new TableBuilder();
    t.round(THREE_HANDS);
    t.vacate(1);
    t.round({
      seats: [
        { seat: 4, player: 'P1', ante: 10_000, pairPlus: 10_000 },
        { seat: 3, ante: 10_000 },
      ],
    });
    given(t.close()).when(replayTable).then([]).negative('F3CP.BET.OTHER_HAND');
  });

  it('art. 4.º n.º 2–3: a Six Card Bonus on seat 6 with neither Ante nor Pair Plus → BET.ADDITIONAL_WITHOUT_BASIC', () => {
    const events = cleanRound({
      ...THREE_HANDS,
      seats: [...THREE_HANDS.seats, { seat: 6, sixCardBonus: 5_000 }],
    });
    // the engine returns the invalid bet: the table did so too, so nothing else is wrong
    assert.equal(first(events, 'BetReturned', (b) => b.seat === 6).amount, 5_000);
    given(events)
      .when(replayTable)
      .then(['F3CP.BET.ADDITIONAL_WITHOUT_BASIC'])
      .positive('F3CP.BET.ADDITIONAL_WITHOUT_BASIC');
  });

  it('art. 3.º n.º 4: a Six Card Bonus beside a Pair Plus alone (a basic bet) → nothing', () => {
    const events = cleanRound({
      ...THREE_HANDS,
      seats: [...THREE_HANDS.seats, { seat: 6, pairPlus: 10_000, sixCardBonus: 5_000 }],
    });
    given(events).when(replayTable).then([]).negative('F3CP.BET.ADDITIONAL_WITHOUT_BASIC');
  });

  it('art. 5.º n.º 2: a hand on seat 6 of a table with 5 player seats → BET.NO_SUCH_SEAT', () => {
    const events = cleanRound(
      { ...THREE_HANDS, seats: [...THREE_HANDS.seats, { seat: 6, ante: 10_000 }] },
      { seats: 5 },
    );
    given(events).when(replayTable).then(['F3CP.BET.NO_SUCH_SEAT']).positive('F3CP.BET.NO_SUCH_SEAT');
  });

  it('art. 5.º n.º 2: a hand on seat 7 of a table with 7 player seats → nothing', () => {
    const events = cleanRound(
      { ...THREE_HANDS, seats: [...THREE_HANDS.seats, { seat: 7, ante: 10_000 }] },
      { seats: 7 },
    );
    given(events).when(replayTable).then([]).negative('F3CP.BET.NO_SUCH_SEAT');
  });
});
