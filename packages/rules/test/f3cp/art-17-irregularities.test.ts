import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { F3cpEvent } from '@table-audit/schemas/events';
import {
  change,
  eventLike,
  first,
  insertAfter,
  insertBefore,
  is,
  swapDealt,
  TableBuilder,
  voidRound,
  type RoundSpec,
} from './clean-round.ts';
import { dealt, THREE_HANDS, threeHands, WITH_PROGRESSIVE } from './fixtures.ts';
import { citationKeys, given, onlyFinding, replayTable } from './spec.ts';

/** A CardExposed during the deal of the card with this deal order. */
const exposeCard = (events: F3cpEvent[], n: number): F3cpEvent[] => {
  const d = first(events, 'CardDealt', (x) => x.dealOrder === n);
  return insertAfter(
    events,
    dealt(n),
    eventLike(d, 'CardExposed', { card: d.card, target: d.target, seat: d.seat, duringDeal: true }),
  );
};

const carried = (spec: RoundSpec): RoundSpec => ({
  ...spec,
  seats: spec.seats.map((s) => (s.progressive ? { ...s, carriedOver: true } : s)),
});

describe('art. 17.º: irregularities and how the table handles them', () => {
  it('art. 17.º n.º 1 2): a banker card exposed during the deal and the round settled → IRREG.NOT_VOIDED', () => {
    const t = given(exposeCard(threeHands(), 11))
      .when(replayTable)
      .then(['F3CP.IRREG.NOT_VOIDED'])
      .positive('F3CP.IRREG.NOT_VOIDED');
    assert.ok(citationKeys(onlyFinding(t, 'F3CP.IRREG.NOT_VOIDED')).includes('89/2025 art.17 n.1 al.2'));
  });

  it('art. 17.º n.º 1 3): two player cards exposed during the deal and the round settled → IRREG.NOT_VOIDED', () => {
    const t = given(exposeCard(exposeCard(threeHands(), 2), 5))
      .when(replayTable)
      .then(['F3CP.IRREG.NOT_VOIDED'])
      .positive('F3CP.IRREG.NOT_VOIDED');
    assert.ok(citationKeys(onlyFinding(t, 'F3CP.IRREG.NOT_VOIDED')).includes('89/2025 art.17 n.1 al.3'));
  });

  it('art. 17.º n.º 4 1): exactly one player card exposed and the round goes on → nothing', () => {
    given(exposeCard(threeHands(), 2)).when(replayTable).then([]).negative('F3CP.IRREG.NOT_VOIDED');
  });

  it('art. 17.º n.º 4 1): one player card exposed, yet the round voided → IRREG.WRONGLY_VOIDED', () => {
    const events = voidRound(exposeCard(threeHands(), 2), { reason: 'PLAYER_CARDS_EXPOSED' });
    given(events).when(replayTable).then(['F3CP.IRREG.WRONGLY_VOIDED']).positive('F3CP.IRREG.WRONGLY_VOIDED');
  });

  it('art. 17.º n.º 1 3): two player cards exposed and the round voided, bets returned → nothing', () => {
    const events = voidRound(exposeCard(exposeCard(threeHands(), 2), 5), { reason: 'PLAYER_CARDS_EXPOSED' });
    given(events).when(replayTable).then([]).negative('F3CP.IRREG.WRONGLY_VOIDED');
  });

  it('art. 17.º n.º 1: a banker card exposed, round voided, but seat 3’s Ante collected → IRREG.BETS_NOT_RETURNED', () => {
    const voided = voidRound(exposeCard(threeHands(), 11), { reason: 'BANKER_CARD_EXPOSED' });
    const events = voided.map((e) =>
      is('BetReturned', (b) => b.seat === 3 && b.betType === 'ANTE')(e)
        ? ({
            type: 'BetCollected',
            data: { header: e.data.header, seat: 3, betType: 'ANTE', amount: 20_000 },
          } as F3cpEvent)
        : e,
    );
    given(events)
      .when(replayTable)
      .then(['F3CP.IRREG.BETS_NOT_RETURNED'])
      .positive('F3CP.IRREG.BETS_NOT_RETURNED');
  });

  it('art. 17.º n.º 1: a banker card exposed, round voided, every bet returned → nothing', () => {
    const events = voidRound(exposeCard(threeHands(), 11), { reason: 'BANKER_CARD_EXPOSED' });
    given(events).when(replayTable).then([]).negative('F3CP.IRREG.BETS_NOT_RETURNED');
  });

  it('art. 17.º n.º 3: a misdeal voided, the Progressive stake carried over yet also collected → DEAL.ORDER (handled) + IRREG.BETS_NOT_RETURNED', () => {
    const t = new TableBuilder();
    const r = t.voidedRound(WITH_PROGRESSIVE, {
      reason: 'DEALING_RULES_BROKEN',
      transform: (e) => swapDealt(e, 3, 4),
    });
    t.round(carried(WITH_PROGRESSIVE));
    const voided = first(r.events, 'RoundVoided');
    const events = insertBefore(
      t.close(),
      is('RoundVoided'),
      eventLike(voided, 'BetCollected', { seat: 1, betType: 'PROGRESSIVE', amount: 5_000, betId: null }),
    );
    const then = given(events)
      .when(replayTable)
      .then(['F3CP.DEAL.ORDER', 'F3CP.IRREG.BETS_NOT_RETURNED'])
      .positive('F3CP.IRREG.BETS_NOT_RETURNED');
    assert.ok(citationKeys(onlyFinding(then, 'F3CP.IRREG.BETS_NOT_RETURNED')).includes('89/2025 art.17 n.3'));
  });

  it('art. 17.º n.º 3: a misdeal voided, the Progressive stakes carried over and not collected → only DEAL.ORDER, handled', () => {
    const t = new TableBuilder();
    t.voidedRound(WITH_PROGRESSIVE, { reason: 'DEALING_RULES_BROKEN', transform: (e) => swapDealt(e, 3, 4) });
    t.round(carried(WITH_PROGRESSIVE));
    const then = given(t.close())
      .when(replayTable)
      .then(['F3CP.DEAL.ORDER'])
      .negative('F3CP.IRREG.BETS_NOT_RETURNED')
      .negative('F3CP.IRREG.JACKPOT_NOT_CARRIED');
    assert.equal(onlyFinding(then, 'F3CP.DEAL.ORDER').handled, true);
  });

  it('art. 17.º n.º 3: after a shuffler malfunction the next round takes new Progressive stakes instead of the carried ones → IRREG.JACKPOT_NOT_CARRIED', () => {
    const t = new TableBuilder();
    t.voidedRound(WITH_PROGRESSIVE, { reason: 'SHUFFLER_MALFUNCTION', cards: 4, malfunction: true });
    t.round(WITH_PROGRESSIVE);
    const then = given(t.close())
      .when(replayTable)
      .then(['F3CP.IRREG.JACKPOT_NOT_CARRIED'])
      .positive('F3CP.IRREG.JACKPOT_NOT_CARRIED');
    assert.deepEqual(onlyFinding(then, 'F3CP.IRREG.JACKPOT_NOT_CARRIED').seats, [1, 5]);
  });

  it('art. 17.º n.º 2–3: a round voided for a shuffler malfunction with Progressive bets carried over → nothing', () => {
    const t = new TableBuilder();
    t.voidedRound(WITH_PROGRESSIVE, { reason: 'SHUFFLER_MALFUNCTION', cards: 4, malfunction: true });
    t.round(carried(WITH_PROGRESSIVE));
    given(t.close())
      .when(replayTable)
      .then([])
      .negative('F3CP.IRREG.JACKPOT_NOT_CARRIED')
      .negative('F3CP.IRREG.SHUFFLER_NOT_SUSPENDED');
  });

  it('art. 17.º n.º 2 (J15): the shuffler fails after the 4th card and the deal goes on to a settlement → IRREG.SHUFFLER_NOT_SUSPENDED', () => {
    const base = threeHands();
    const events = insertAfter(
      base,
      dealt(4),
      eventLike(
        first(base, 'CardDealt', (d) => d.dealOrder === 4),
        'ShufflerMalfunction',
        {
          shufflerId: 'SH-T-01',
          duringDeal: true,
          description: 'card jam',
        },
      ),
    );
    const t = given(events)
      .when(replayTable)
      .then(['F3CP.IRREG.SHUFFLER_NOT_SUSPENDED'])
      .positive('F3CP.IRREG.SHUFFLER_NOT_SUSPENDED');
    assert.ok(onlyFinding(t, 'F3CP.IRREG.SHUFFLER_NOT_SUSPENDED').interpretations.includes('J15'));
  });

  it('art. 17.º n.º 2 (J15): a new round after a second malfunction in a row, same shuffler → IRREG.PLAY_AFTER_SECOND_FAILURE', () => {
    const t = new TableBuilder();
    t.voidedRound(THREE_HANDS, { reason: 'SHUFFLER_MALFUNCTION', cards: 4, malfunction: true });
    t.voidedRound(THREE_HANDS, { reason: 'SHUFFLER_MALFUNCTION', cards: 7, malfunction: true });
    const third = t.round(THREE_HANDS);
    const then = given(t.close())
      .when(replayTable)
      .then(['F3CP.IRREG.PLAY_AFTER_SECOND_FAILURE'])
      .positive('F3CP.IRREG.PLAY_AFTER_SECOND_FAILURE');
    assert.equal(onlyFinding(then, 'F3CP.IRREG.PLAY_AFTER_SECOND_FAILURE').roundId, third.roundId);
  });

  it('art. 17.º n.º 2: after a second malfunction the shuffler is replaced before the next round → nothing', () => {
    const t = new TableBuilder();
    t.voidedRound(THREE_HANDS, { reason: 'SHUFFLER_MALFUNCTION', cards: 4, malfunction: true });
    t.voidedRound(THREE_HANDS, { reason: 'SHUFFLER_MALFUNCTION', cards: 7, malfunction: true });
    t.emit('ShufflerReplaced', null, { oldShufflerId: 'SH-T-01', newShufflerId: 'SH-T-01b' });
    t.shuffle('AUTOMATIC');
    t.round(THREE_HANDS);
    given(t.close()).when(replayTable).then([]).negative('F3CP.IRREG.PLAY_AFTER_SECOND_FAILURE');
  });

  it('art. 17.º n.º 2: after a second malfunction the table deals from a shoe → nothing', () => {
    const t = new TableBuilder();
    t.voidedRound(THREE_HANDS, { reason: 'SHUFFLER_MALFUNCTION', cards: 4, malfunction: true });
    t.voidedRound(THREE_HANDS, { reason: 'SHUFFLER_MALFUNCTION', cards: 7, malfunction: true });
    t.emit('DealingSwitchedToShoe', null, { reason: 'shuffler failed twice' });
    t.shuffle('MANUAL');
    const r = t.round(THREE_HANDS);
    // dealt one card at a time: seat 1, seat 3, seat 5, seat 1, …
    assert.equal(first(r.events, 'CardDealt', (d) => d.dealOrder === 2).seat, 3);
    given(t.close()).when(replayTable).then([]).negative('F3CP.IRREG.PLAY_AFTER_SECOND_FAILURE');
  });

  it('art. 17.º n.º 4 2) and n.º 5: a card dealt to the empty seat 2 is then declared as seat 2’s hand → IRREG.VOID_CARDS_USED', () => {
    const base = threeHands();
    let events = insertAfter(
      base,
      dealt(1),
      eventLike(first(base, 'CardDealt'), 'CardDealt', {
        card: '9s',
        target: 'SEAT',
        seat: 2,
        faceUp: false,
        dealOrder: 2,
      }),
    );
    events = change(
      events,
      'OutcomeDeclared',
      () => true,
      (o) =>
        o.seats.push({
          seat: 2,
          hand: 'HIGH_CARD',
          result: 'NONE',
          sixCardHand: null,
          progressiveHand: null,
        }),
    );
    given(events)
      .when(replayTable)
      .then(['F3CP.IRREG.VOID_CARDS_USED'])
      .positive('F3CP.IRREG.VOID_CARDS_USED');
  });

  it('art. 17.º n.º 4 2): the card dealt to the empty seat 2 is left out of the round → nothing', () => {
    const base = threeHands();
    const events = insertAfter(
      base,
      dealt(1),
      eventLike(first(base, 'CardDealt'), 'CardDealt', {
        card: '9s',
        target: 'SEAT',
        seat: 2,
        faceUp: false,
        dealOrder: 2,
      }),
    );
    given(events).when(replayTable).then([]).negative('F3CP.IRREG.VOID_CARDS_USED');
  });
});
