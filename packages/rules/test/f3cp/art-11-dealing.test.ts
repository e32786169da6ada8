import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  change,
  eventLike,
  first,
  insertAfter,
  insertBefore,
  removeWhere,
  swapDealt,
  TableBuilder,
  voidRound,
} from './clean-round.ts';
import { dealt, threeHands, WITH_PROGRESSIVE, withProgressive } from './fixtures.ts';
import { citationKeys, given, onlyFinding, replayTable } from './spec.ts';

const extraCard = (events: ReturnType<typeof threeHands>, seat: number, card: string) =>
  eventLike(
    first(events, 'CardDealt', (d) => d.dealOrder === 9),
    'CardDealt',
    {
      card,
      target: 'SEAT',
      seat,
      faceUp: false,
      dealOrder: 10,
    },
  );

describe('art. 11.º: the deal', () => {
  it('art. 11.º n.º 2: the 3rd card goes to seat 3 and the 4th to seat 1, and the round is settled → DEAL.ORDER + IRREG.NOT_VOIDED', () => {
    const events = swapDealt(threeHands(), 3, 4);
    const t = given(events)
      .when(replayTable)
      .then(['F3CP.DEAL.ORDER', 'F3CP.IRREG.NOT_VOIDED'])
      .positive('F3CP.DEAL.ORDER');
    assert.equal(onlyFinding(t, 'F3CP.DEAL.ORDER').severity, 'medium');
    assert.ok(citationKeys(onlyFinding(t, 'F3CP.IRREG.NOT_VOIDED')).includes('89/2025 art.17 n.1 al.1'));
  });

  it('art. 11.º n.º 1: from the shoe, seat 1 gets its 2nd card before seat 3 its 1st, round settled → DEAL.ORDER + IRREG.NOT_VOIDED', () => {
    // from the shoe: S1 S3 S5 S1 S3 S5 …; dealing 1 and 4 the other way round keeps each hand's cards
    const events = swapDealt(threeHands({ shuffleMode: 'MANUAL' }), 2, 4);
    given(events)
      .when(replayTable)
      .then(['F3CP.DEAL.ORDER', 'F3CP.IRREG.NOT_VOIDED'])
      .positive('F3CP.DEAL.ORDER');
  });

  it('art. 17.º n.º 1 1): a misdeal correctly voided, bets returned → only DEAL.ORDER, handled, low (J19)', () => {
    const events = voidRound(swapDealt(threeHands(), 3, 4), { reason: 'DEALING_RULES_BROKEN' });
    const t = given(events).when(replayTable).then(['F3CP.DEAL.ORDER']).negative('F3CP.IRREG.NOT_VOIDED');
    const f = onlyFinding(t, 'F3CP.DEAL.ORDER');
    assert.equal(f.severity, 'low');
    assert.equal(f.handled, true);
    assert.ok(f.interpretations.includes('J19'));
  });

  it('art. 17.º n.º 4 2): a card dealt to the empty seat 2 is void and left out of the order → nothing', () => {
    const events = insertAfter(
      threeHands(),
      dealt(1),
      eventLike(first(threeHands(), 'CardDealt'), 'CardDealt', {
        card: '9s',
        target: 'SEAT',
        seat: 2,
        faceUp: false,
        dealOrder: 2,
      }),
    );
    given(events).when(replayTable).then([]).negative('F3CP.DEAL.ORDER');
  });

  it('art. 11.º n.º 2: seat 1 gets a fourth card (Ah) and the round is settled → DEAL.COUNT + IRREG.NOT_VOIDED', () => {
    const base = threeHands();
    const events = insertBefore(base, dealt(10), extraCard(base, 1, 'Ah'));
    const t = given(events)
      .when(replayTable)
      .then(['F3CP.DEAL.COUNT', 'F3CP.IRREG.NOT_VOIDED'])
      .positive('F3CP.DEAL.COUNT');
    assert.deepEqual(onlyFinding(t, 'F3CP.DEAL.COUNT').declared, { 'seat 1': 4 });
  });

  it('art. 17.º n.º 2: the shuffler fails after 4 cards and the round is voided: hands short of three cards → nothing', () => {
    const t = new TableBuilder();
    t.voidedRound(WITH_PROGRESSIVE, { reason: 'SHUFFLER_MALFUNCTION', cards: 4, malfunction: true });
    t.round({
      ...WITH_PROGRESSIVE,
      seats: WITH_PROGRESSIVE.seats.map((s) => (s.progressive ? { ...s, carriedOver: true } : s)),
    });
    given(t.close()).when(replayTable).then([]).negative('F3CP.DEAL.COUNT');
  });

  it('art. 11.º n.º 3: with Progressive bets only one community card is dealt, round settled → DEAL.COMMUNITY + IRREG.NOT_VOIDED', () => {
    const events = removeWhere(withProgressive(), dealt(15));
    given(events)
      .when(replayTable)
      .then(['F3CP.DEAL.COMMUNITY', 'F3CP.IRREG.NOT_VOIDED'])
      .positive('F3CP.DEAL.COMMUNITY');
  });

  it('art. 11.º n.º 3 (J17): two community cards dealt with no Progressive bet, left face down → nothing', () => {
    const base = threeHands();
    const after12 = first(base, 'CardDealt', (d) => d.dealOrder === 12);
    const events = insertAfter(
      base,
      dealt(12),
      eventLike(after12, 'CardDealt', {
        card: '9h',
        target: 'COMMUNITY',
        seat: null,
        faceUp: false,
        dealOrder: 13,
      }),
      eventLike(after12, 'CardDealt', {
        card: '8d',
        target: 'COMMUNITY',
        seat: null,
        faceUp: false,
        dealOrder: 14,
      }),
    );
    given(events).when(replayTable).then([]).negative('F3CP.DEAL.COMMUNITY');
  });

  it('art. 11.º n.º 5: seat 1’s second card dealt face up, one player card, the round goes on → DEAL.FACE_UP only', () => {
    const events = change(
      threeHands(),
      'CardDealt',
      (d) => d.dealOrder === 2,
      (d) => (d.faceUp = true),
    );
    const t = given(events).when(replayTable).then(['F3CP.DEAL.FACE_UP']).positive('F3CP.DEAL.FACE_UP');
    const f = onlyFinding(t, 'F3CP.DEAL.FACE_UP');
    assert.equal(f.handled, false);
    assert.deepEqual(f.seats, [1]);
  });

  it('art. 17.º n.º 1 2): a banker card dealt face up voids the round — settled → IRREG.NOT_VOIDED + DEAL.FACE_UP (J18)', () => {
    const events = change(
      threeHands(),
      'CardDealt',
      (d) => d.dealOrder === 10,
      (d) => (d.faceUp = true),
    );
    const t = given(events)
      .when(replayTable)
      .then(['F3CP.DEAL.FACE_UP', 'F3CP.IRREG.NOT_VOIDED'])
      .positive('F3CP.DEAL.FACE_UP')
      .positive('F3CP.IRREG.NOT_VOIDED');
    const f = onlyFinding(t, 'F3CP.IRREG.NOT_VOIDED');
    assert.ok(f.interpretations.includes('J18'));
    assert.ok(citationKeys(f).includes('89/2025 art.17 n.1 al.2'));
    assert.equal(f.severity, 'critical');
  });

  it('art. 17.º n.º 1 2): a banker card dealt face up and the round voided, bets returned → DEAL.FACE_UP handled, low (J18, J19)', () => {
    const events = voidRound(
      change(
        threeHands(),
        'CardDealt',
        (d) => d.dealOrder === 10,
        (d) => (d.faceUp = true),
      ),
      { reason: 'BANKER_CARD_EXPOSED' },
    );
    const t = given(events).when(replayTable).then(['F3CP.DEAL.FACE_UP']).negative('F3CP.IRREG.NOT_VOIDED');
    const f = onlyFinding(t, 'F3CP.DEAL.FACE_UP');
    assert.equal(f.severity, 'low');
    assert.equal(f.handled, true);
    assert.ok(f.interpretations.includes('J19'));
  });

  it('art. 17.º n.º 4 1): a player card dealt face down and then shown by accident, the round goes on → nothing', () => {
    const base = threeHands();
    const events = insertAfter(
      base,
      dealt(2),
      eventLike(
        first(base, 'CardDealt', (d) => d.dealOrder === 2),
        'CardExposed',
        {
          card: 'Kd',
          target: 'SEAT',
          seat: 1,
          duringDeal: true,
        },
      ),
    );
    given(events).when(replayTable).then([]).negative('F3CP.DEAL.FACE_UP');
  });
});
