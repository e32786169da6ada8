import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { F3cpEvent } from '@table-audit/schemas/events';
import { eventLike, first, insertAfter, is, swapDealt, TableBuilder, voidRound } from './clean-round.ts';
import { dealt } from './fixtures.ts';
import { TABLE_2008, THREE_HANDS_2008, threeHands2008 } from './fixtures-2008.ts';
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

const table2008 = () => new TableBuilder(TABLE_2008);

describe('78/2008 art. 11.º: irregularities (the opposite of 2025 for an exposed croupier card)', () => {
  it('art. 11.º 2) (H6): a croupier card exposed during the deal and the round played on → nothing (2025 would void it)', () => {
    given(exposeCard(threeHands2008(), 11))
      .when(replayTable)
      .then([])
      .negative('F3CP08.IRREG.NOT_VOIDED')
      .negative('F3CP08.IRREG.WRONGLY_VOIDED');
  });

  it('art. 11.º 2) (H6): a croupier card exposed and the round voided → IRREG.WRONGLY_VOIDED', () => {
    const events = voidRound(exposeCard(threeHands2008(), 11), { reason: 'BANKER_CARD_EXPOSED' });
    const t = given(events)
      .when(replayTable)
      .then(['F3CP08.IRREG.WRONGLY_VOIDED'])
      .positive('F3CP08.IRREG.WRONGLY_VOIDED');
    const f = onlyFinding(t, 'F3CP08.IRREG.WRONGLY_VOIDED');
    assert.deepEqual(citationKeys(f), ['78/2008 art.11 al.2', '78/2008 art.11 al.3']);
    assert.deepEqual(f.interpretations, ['H6']);
    assert.match(f.summary, /the croupier's among them/);
  });

  it('art. 11.º 2): two player cards exposed and the round played on → nothing (2025 would void it)', () => {
    given(exposeCard(exposeCard(threeHands2008(), 2), 5))
      .when(replayTable)
      .then([]);
  });

  it('art. 11.º 1): cards out of order and the round settled → IRREG.NOT_VOIDED (with DEAL.ORDER)', () => {
    const t = given(swapDealt(threeHands2008(), 3, 4))
      .when(replayTable)
      .then(['F3CP08.DEAL.ORDER', 'F3CP08.IRREG.NOT_VOIDED'])
      .positive('F3CP08.IRREG.NOT_VOIDED')
      .positive('F3CP08.DEAL.ORDER');
    assert.deepEqual(citationKeys(onlyFinding(t, 'F3CP08.IRREG.NOT_VOIDED')), ['78/2008 art.11 al.1']);
    assert.deepEqual(citationKeys(onlyFinding(t, 'F3CP08.DEAL.ORDER')), [
      '78/2008 art.7 al.1',
      '78/2008 art.7 al.2',
    ]);
  });

  it('art. 11.º 1) (H8): cards out of order, round voided, every bet returned → DEAL.ORDER only, handled', () => {
    const t = table2008();
    t.voidedRound(THREE_HANDS_2008, { reason: 'DEALING_RULES_BROKEN', transform: (e) => swapDealt(e, 3, 4) });
    const then = given(t.close())
      .when(replayTable)
      .then(['F3CP08.DEAL.ORDER'])
      .negative('F3CP08.IRREG.NOT_VOIDED')
      .negative('F3CP08.IRREG.BETS_NOT_RETURNED');
    const f = onlyFinding(then, 'F3CP08.DEAL.ORDER');
    assert.equal(f.handled, true);
    assert.deepEqual(f.interpretations, ['H8']);
  });

  it('art. 11.º 1): a voided round whose seat 3 Ante is collected → IRREG.BETS_NOT_RETURNED', () => {
    const t = table2008();
    t.voidedRound(THREE_HANDS_2008, { reason: 'DEALING_RULES_BROKEN', transform: (e) => swapDealt(e, 3, 4) });
    const events = t.close().map((e) =>
      is('BetReturned', (b) => b.seat === 3 && b.betType === 'ANTE')(e)
        ? ({
            type: 'BetCollected',
            data: { header: e.data.header, seat: 3, betType: 'ANTE', amount: 20_000 },
          } as F3cpEvent)
        : e,
    );
    const then = given(events)
      .when(replayTable)
      .then(['F3CP08.DEAL.ORDER', 'F3CP08.IRREG.BETS_NOT_RETURNED'])
      .positive('F3CP08.IRREG.BETS_NOT_RETURNED');
    const keys = citationKeys(onlyFinding(then, 'F3CP08.IRREG.BETS_NOT_RETURNED'));
    assert.deepEqual(keys, ['78/2008 art.11 al.1']);
  });

  it('art. 11.º 4): the shuffler fails during the deal and the round is settled → IRREG.NOT_VOIDED', () => {
    const base = threeHands2008();
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
      .then(['F3CP08.IRREG.NOT_VOIDED'])
      .positive('F3CP08.IRREG.NOT_VOIDED');
    assert.ok(citationKeys(onlyFinding(t, 'F3CP08.IRREG.NOT_VOIDED')).includes('78/2008 art.11 al.4'));
  });

  it('art. 11.º 4): after ONE malfunction the same shuffler deals the next round → IRREG.SHUFFLER_NOT_REPLACED (2025 waits for a second)', () => {
    const t = table2008();
    t.voidedRound(THREE_HANDS_2008, { reason: 'SHUFFLER_MALFUNCTION', cards: 4, malfunction: true });
    const next = t.round(THREE_HANDS_2008);
    const then = given(t.close())
      .when(replayTable)
      .then(['F3CP08.IRREG.SHUFFLER_NOT_REPLACED'])
      .positive('F3CP08.IRREG.SHUFFLER_NOT_REPLACED');
    const f = onlyFinding(then, 'F3CP08.IRREG.SHUFFLER_NOT_REPLACED');
    assert.equal(f.roundId, next.roundId);
    assert.deepEqual(citationKeys(f), ['78/2008 art.11 al.4']);
  });

  it('art. 11.º 4): after a malfunction the shuffler is replaced → nothing', () => {
    const t = table2008();
    t.voidedRound(THREE_HANDS_2008, { reason: 'SHUFFLER_MALFUNCTION', cards: 4, malfunction: true });
    t.emit('ShufflerReplaced', null, { oldShufflerId: 'SH-T-01', newShufflerId: 'SH-T-01b' });
    t.shuffle('AUTOMATIC');
    t.round(THREE_HANDS_2008);
    given(t.close()).when(replayTable).then([]).negative('F3CP08.IRREG.SHUFFLER_NOT_REPLACED');
  });

  it('art. 11.º 3): a card dealt to the empty seat 2, left out of the round → nothing; declared as a hand → IRREG.VOID_CARDS_USED', () => {
    const base = threeHands2008();
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
    given(events).when(replayTable).then([]).negative('F3CP08.IRREG.VOID_CARDS_USED');
    const used = events.map((e) =>
      e.type === 'OutcomeDeclared'
        ? ({
            ...e,
            data: {
              ...e.data,
              seats: [
                ...e.data.seats,
                { seat: 2, hand: 'HIGH_CARD', result: 'NONE', sixCardHand: null, progressiveHand: null },
              ],
            },
          } as F3cpEvent)
        : e,
    );
    given(used)
      .when(replayTable)
      .then(['F3CP08.IRREG.VOID_CARDS_USED'])
      .positive('F3CP08.IRREG.VOID_CARDS_USED');
  });
});
