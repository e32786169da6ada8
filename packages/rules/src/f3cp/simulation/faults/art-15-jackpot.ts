/** Arts. 15.º–16.º: the Progressive Jackpot: its community cards, payments in seat order, the pool. */
import type { F3cpEvents } from '@table-audit/schemas/events';
import { tableEvent } from '../script.ts';
import { cardsDealt, defineFaults, extraCard, roundSettled } from '../fault.ts';
import { change, copy, insertBefore, is, moveBefore, removeWhere } from '../transforms.ts';

/** Two Flushes (fixed amounts) on the first and third hands, the community cards of their suit. */
const TWO_FLUSHES = {
  community: '2h 5h',
  hands: [
    { seatIndex: 0, cards: '7h 9h Jh' },
    { seatIndex: 2, cards: '3h 8h Kh' },
  ],
};
const ONE_FLUSH = { community: '2h 5h', hands: [{ seatIndex: 0, cards: '7h 9h Jh' }] };
/** A Straight Flush 5-9 on the first hand: 10% of the pool (art. 16.º n.º 3). */
const STRAIGHT_FLUSH = { community: '5s 6s', hands: [{ seatIndex: 0, cards: '7s 8s 9s' }] };

export const JACKPOT_FAULTS = defineFaults(
  {
    name: 'jackpot-order',
    checkIds: ['F3CP.JACKPOT.ORDER'],
    needs: { occupiedSeats: 3, jackpot: TWO_FLUSHES },
    // the jackpot paid from the last seat backwards
    events: (events) => {
      const out = copy(events);
      const paid = out.filter(is('JackpotPaid')).map((e) => e.data as F3cpEvents['JackpotPaid']);
      const reversed = paid.map(({ seat, hand, amount, betId }) => ({ seat, hand, amount, betId })).reverse();
      paid.forEach((p, i) => Object.assign(p, reversed[i]));
      return out;
    },
  },
  {
    name: 'jackpot-amount',
    checkIds: ['F3CP.JACKPOT.AMOUNT'],
    needs: { jackpot: ONE_FLUSH },
    events: (events) =>
      change(
        events,
        'JackpotPaid',
        () => true,
        (p) => void (p.amount -= 1_000),
      ),
  },
  {
    name: 'jackpot-pool',
    checkIds: ['F3CP.JACKPOT.POOL'],
    needs: { jackpot: STRAIGHT_FLUSH },
    // the pool said to be untouched by a percentage award
    events: (events) =>
      change(
        removeWhere(events, (e) => e.type === 'JackpotPoolChanged' && e.data.reason !== 'CONTRIBUTION'),
        'JackpotPaid',
        () => true,
        (p) => void (p.poolAfter = p.poolBefore),
      ),
  },
  {
    name: 'jackpot-paid-twice',
    checkIds: ['F3CP.PAYOUT.REPEATED'],
    needs: { jackpot: ONE_FLUSH },
    events: (events, ctx) => {
      const paid = copy(events).reverse().find(is('JackpotPaid'))!.data as F3cpEvents['JackpotPaid'];
      const { header, ...body } = paid;
      return insertBefore(events, roundSettled, ctx.event('JackpotPaid', body, { after: { header } }));
    },
  },
  {
    name: 'community-revealed-without-bets',
    checkIds: ['F3CP.JACKPOT.COMMUNITY_REVEALED_WITHOUT_BETS'],
    needs: { progressive: 'none' },
    // community cards dealt (allowed, J17) and revealed (not allowed) in a round without a Progressive bet
    events: (events, ctx) => {
      const shuffler = ctx.table.dealingMode === 'SHUFFLER';
      let out = events;
      const targets = [
        ...(shuffler ? [{ target: 'DISCARD' as const, seat: null }] : []),
        { target: 'COMMUNITY' as const, seat: null },
        { target: 'COMMUNITY' as const, seat: null },
      ];
      targets.forEach((t, i) => (out = extraCard(out, ctx, cardsDealt(out) + 1, t, i)));
      const cards = out
        .filter(is('CardDealt', (d) => d.target === 'COMMUNITY'))
        .map((e) => (e.data as F3cpEvents['CardDealt']).card);
      const outcome = out.find(is('OutcomeDeclared'))!.data;
      return insertBefore(
        out,
        is('OutcomeDeclared'),
        ctx.event(
          'CommunityCardsRevealed',
          { cards },
          { after: { header: { ...outcome.header, eventTime: outcome.header.eventTime - 2 } } },
        ),
      );
    },
  },
  {
    name: 'community-revealed-early',
    checkIds: ['F3CP.JACKPOT.COMMUNITY_REVEALED_EARLY'],
    needs: { progressive: 'first-seat' },
    // the community cards revealed before the players decide
    events: (events) => moveBefore(events, is('CommunityCardsRevealed'), is('PlayDecision')),
  },
  {
    name: 'pool-changed-unrecorded',
    checkIds: ['F3CP.JACKPOT.POOL'],
    // the table opened again with a pool the jackpot system never reported moving
    before: ({ table, clock }) => {
      const { header: _, ...settings } = table.config;
      const jackpot = settings.jackpot && { ...settings.jackpot, initialPool: (table.pool ?? 0) + 1_000_000 };
      return [tableEvent(table, clock, 'TableOpened', { ...settings, jackpot })];
    },
  },
);
