import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { change, first, insertAfter, is, moveBefore } from './clean-round.ts';
import { dealt, observation, threeHands } from './fixtures.ts';
import { given, onlyFinding, replayTable } from './spec.ts';

describe('art. 12.º: playing the hand', () => {
  it('art. 12.º n.º 2: seat 1 plays MOP 200 on an Ante of MOP 100 (and is paid on it) → BET.PLAY_NOT_EQUAL_ANTE', () => {
    let events = change(
      threeHands(),
      'BetPlaced',
      (b) => b.seat === 1 && b.betType === 'PLAY',
      (b) => (b.amount = 20_000),
    );
    // the Play bet won 1 to 1 on what was staked: only the amount staked is wrong
    events = change(
      events,
      'PayoutMade',
      (p) => p.seat === 1 && p.betType === 'PLAY',
      (p) => (p.amount = 20_000),
    );
    const t = given(events)
      .when(replayTable)
      .then(['F3CP.BET.PLAY_NOT_EQUAL_ANTE'])
      .positive('F3CP.BET.PLAY_NOT_EQUAL_ANTE');
    assert.deepEqual(onlyFinding(t, 'F3CP.BET.PLAY_NOT_EQUAL_ANTE').expected, { play: 10_000 });
  });

  it('art. 12.º n.º 2: each Play bet equals its Ante → nothing', () => {
    const events = threeHands();
    for (const seat of [1, 5])
      assert.equal(
        first(events, 'BetPlaced', (b) => b.seat === seat && b.betType === 'PLAY').amount,
        first(events, 'BetPlaced', (b) => b.seat === seat && b.betType === 'ANTE').amount,
      );
    given(events).when(replayTable).then([]).negative('F3CP.BET.PLAY_NOT_EQUAL_ANTE');
  });

  it('art. 12.º n.º 1–2: seat 1 makes its Play bet before the first card → BET.PLAY_BEFORE_DEAL', () => {
    const events = moveBefore(
      threeHands(),
      is('BetPlaced', (b) => b.seat === 1 && b.betType === 'PLAY'),
      dealt(1),
    );
    given(events).when(replayTable).then(['F3CP.BET.PLAY_BEFORE_DEAL']).positive('F3CP.BET.PLAY_BEFORE_DEAL');
  });

  it('art. 12.º n.º 1–2: the Play bets after every card is dealt → nothing', () => {
    given(threeHands()).when(replayTable).then([]).negative('F3CP.BET.PLAY_BEFORE_DEAL');
  });

  it('art. 12.º n.º 1: a spectator behind seat 5 lifts its cards (confidence 80) → CONDUCT.NON_SEATED_HANDLING (J13)', () => {
    const events = threeHands();
    const after = insertAfter(
      events,
      dealt(12),
      observation(first(events, 'CardDealt'), 'NON_SEATED_HANDLING', 80, 5),
    );
    const t = given(after)
      .when(replayTable)
      .then(['F3CP.CONDUCT.NON_SEATED_HANDLING'])
      .positive('F3CP.CONDUCT.NON_SEATED_HANDLING');
    const f = onlyFinding(t, 'F3CP.CONDUCT.NON_SEATED_HANDLING');
    assert.ok(f.interpretations.includes('J13'));
    assert.deepEqual(f.seats, [5]);
  });

  it('art. 12.º n.º 1: the same observation at confidence 40, a lead below the threshold → nothing', () => {
    const events = threeHands();
    const after = insertAfter(
      events,
      dealt(12),
      observation(first(events, 'CardDealt'), 'NON_SEATED_HANDLING', 40, 5),
    );
    given(after).when(replayTable).then([]).negative('F3CP.CONDUCT.NON_SEATED_HANDLING');
  });
});
