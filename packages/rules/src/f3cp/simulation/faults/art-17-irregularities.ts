/**
 * Art. 17.º: irregularities and how the table handles them: a round voided when n.º 1 says so and only then, its
 * bets returned and its Progressive bets carried over, the shuffler suspended after a malfunction. The handled
 * irregularities are negative controls: the table does what the law says, and nothing may be found.
 */
import type { F3cpEvent, F3cpEvents } from '@table-audit/schemas/events';
import {
  cardsDealt,
  dealt,
  defineFaults,
  exposed,
  extraCard,
  firstDealtTo,
  misdealOrder,
  voided,
  type EventContext,
} from '../fault.ts';
import { change, insertAfter, insertBefore, is } from '../transforms.ts';
import { shuffleEvents, type RoundPlan } from '../script.ts';

/** A card dealt to the first empty seat, somewhere in the deal after the first card and before the last three. */
function cardToEmptySeat(events: F3cpEvent[], ctx: EventContext): { events: F3cpEvent[]; seat: number } {
  const seat = Array.from({ length: ctx.table.seats }, (_, i) => i + 1).find(
    (s) => !ctx.table.occupants.has(s),
  )!;
  const position = 2 + ctx.rng.int(cardsDealt(events) - 4);
  return { events: extraCard(events, ctx, position, { target: 'SEAT', seat }), seat };
}

const shufflerReplaced = (ctx: EventContext): F3cpEvent =>
  ctx.event(
    'ShufflerReplaced',
    { oldShufflerId: ctx.table.shufflerId, newShufflerId: `${ctx.table.shufflerId}-b` },
    { roundId: null },
  );

/** The Progressive bets a voided round carries over, forgotten: the next round does not re-state them. */
const forgetCarriedOver = (plan: RoundPlan): RoundPlan => ({
  ...plan,
  bets: plan.bets.filter((b) => !b.carriedOver),
});

export const IRREGULARITY_FAULTS = defineFaults(
  {
    name: 'banker-exposed-not-voided',
    checkIds: ['F3CP.IRREG.NOT_VOIDED'],
    events: (events, ctx) => exposed(events, ctx, firstDealtTo('BANKER')),
  },
  {
    name: 'wrongly-voided',
    checkIds: ['F3CP.IRREG.WRONGLY_VOIDED'],
    // one player card exposed lets the round go on (n.º 4); the table voids it all the same
    events: (events, ctx) => voided(exposed(events, ctx, dealt(3)), ctx, 'PLAYER_CARDS_EXPOSED'),
  },
  {
    name: 'void-bets-collected',
    checkIds: ['F3CP.IRREG.BETS_NOT_RETURNED'],
    // voided for a banker card exposed, as it must be, but the Antes are collected, not returned
    events: (events, ctx) =>
      voided(exposed(events, ctx, firstDealtTo('BANKER')), ctx, 'BANKER_CARD_EXPOSED').map((e) => {
        if (e.type !== 'BetReturned' || e.data.betType !== 'ANTE') return e;
        const { reason: _, ...collected } = e.data;
        return { type: 'BetCollected', data: collected };
      }),
  },
  {
    name: 'jackpot-not-carried',
    checkIds: ['F3CP.DEAL.ORDER', 'F3CP.IRREG.JACKPOT_NOT_CARRIED'],
    needs: { occupiedSeats: 3, laterRound: true, progressive: 'first-seat' },
    events: (events, ctx) => voided(misdealOrder(events), ctx, 'DEALING_RULES_BROKEN'),
    nextRound: forgetCarriedOver,
  },
  {
    name: 'void-progressive-collected',
    checkIds: ['F3CP.DEAL.ORDER', 'F3CP.IRREG.BETS_NOT_RETURNED'],
    needs: { occupiedSeats: 3, laterRound: true, progressive: 'first-seat' },
    // voided for a broken deal; the Progressive stakes go to the next round and are collected here as well
    events: (events, ctx) => {
      const out = voided(misdealOrder(events), ctx, 'DEALING_RULES_BROKEN');
      const closing = out.find(is('RoundVoided'))!.data;
      const collected = out.filter(is('BetPlaced', (b) => b.betType === 'PROGRESSIVE')).map((e) => {
        const { seat, betType, amount, betId } = e.data as F3cpEvents['BetPlaced'];
        return ctx.event('BetCollected', { seat, betType, amount, betId }, { after: closing });
      });
      return insertBefore(out, is('RoundVoided'), ...collected);
    },
  },
  {
    name: 'shuffler-not-suspended',
    checkIds: ['F3CP.IRREG.SHUFFLER_NOT_SUSPENDED'],
    needs: { dealing: 'SHUFFLER' },
    // the shuffler fails after the fourth card; the deal goes on and the round is settled; then it is replaced
    events: (events, ctx) => {
      const fourth = events.find(dealt(4))!.data;
      const failed = ctx.event(
        'ShufflerMalfunction',
        {
          shufflerId: ctx.table.shufflerId,
          duringDeal: true,
          description: 'card jam in the dispensing tray',
        },
        { source: 'SHUFFLER', after: fourth },
      );
      return [...insertAfter(events, dealt(4), failed), shufflerReplaced(ctx)];
    },
  },
  {
    name: 'play-after-second-failure',
    checkIds: ['F3CP.IRREG.PLAY_AFTER_SECOND_FAILURE'],
    needs: { dealing: 'SHUFFLER' },
    // two rounds end in a malfunction, handled; the next is dealt from the same shuffler, which is replaced after
    preceded: ['malfunction-handled', 'malfunction-handled'],
    events: (events, ctx) => [...events, shufflerReplaced(ctx)],
  },
  {
    name: 'void-cards-used',
    checkIds: ['F3CP.IRREG.VOID_CARDS_USED'],
    needs: { emptySeat: true },
    // cards dealt to an empty seat, then that hand declared as if it had played
    events: (events, ctx) => {
      const { events: out, seat } = cardToEmptySeat(events, ctx);
      return change(
        out,
        'OutcomeDeclared',
        () => true,
        (o) =>
          void o.seats.push({
            seat,
            hand: 'HIGH_CARD',
            sixCardHand: null,
            progressiveHand: null,
            result: 'NONE',
          }),
      );
    },
  },
);

export const HANDLED_IRREGULARITIES = defineFaults(
  {
    name: 'malfunction-handled',
    checkIds: [],
    needs: { dealing: 'SHUFFLER', progressive: 'first-seat' },
    // n.º 2: the deal stops at the malfunction, the round is voided, Progressive bets carried, the cards reshuffled
    events: (events, ctx) => [
      ...voided(events, ctx, 'SHUFFLER_MALFUNCTION', { keepCards: 4, malfunction: ctx.table.shufflerId }),
      ...shuffleEvents(ctx.table, ctx.clock, {
        mode: 'AUTOMATIC',
        shuffleId: `${ctx.plan.shuffleId}-R`,
        shufflerId: ctx.table.shufflerId,
        shuffledBy: null,
        cut: { by: 'BANKER', seat: null, byId: null },
      }),
    ],
  },
  {
    name: 'one-card-exposed',
    checkIds: [],
    // n.º 4 1): one player card exposed, and play goes on
    events: (events, ctx) => exposed(events, ctx, dealt(3)),
  },
  {
    name: 'card-to-empty-seat',
    checkIds: [],
    needs: { emptySeat: true },
    // n.º 4 2): a card to a hand without bets is void, and left out
    events: (events, ctx) => cardToEmptySeat(events, ctx).events,
  },
);
