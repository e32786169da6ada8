import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { change, first, TableBuilder } from './clean-round.ts';
import { THREE_HANDS, threeHands } from './fixtures.ts';
import { given, replayTable } from './spec.ts';

describe('art. 2.º n.º 1 1): one deck of 52 cards', () => {
  it('art. 2.º n.º 1 1): the 5th card repeats the 1st (Kh twice in one deck) → CARDS.INTEGRITY', () => {
    const events = change(
      threeHands(),
      'CardDealt',
      (d) => d.dealOrder === 5,
      (d) => (d.card = 'Kh'),
    );
    given(events).when(replayTable).then(['F3CP.CARDS.INTEGRITY']).positive('F3CP.CARDS.INTEGRITY');
  });

  it('art. 2.º n.º 1 1): a card that is in no deck ("1x") → CARDS.INTEGRITY', () => {
    const events = change(
      threeHands(),
      'CardDealt',
      (d) => d.dealOrder === 12,
      (d) => (d.card = '1x'),
    );
    given(events).when(replayTable).then(['F3CP.CARDS.INTEGRITY']).positive('F3CP.CARDS.INTEGRITY');
  });

  it('art. 2.º n.º 1 1): the same cards in two rounds, the deck reshuffled between them → nothing', () => {
    const t = new TableBuilder();
    const a = t.round(THREE_HANDS);
    t.shuffle();
    const b = t.round(THREE_HANDS);
    assert.equal(first(a.events, 'CardDealt').card, first(b.events, 'CardDealt').card);
    given(t.close()).when(replayTable).then([]).negative('F3CP.CARDS.INTEGRITY');
  });
});
