/** Art. 11.º: the deal, its order and count, the community cards, every card face down. */
import { anteSeats, defineFaults, extraCard, misdealOrder, voided } from '../fault.ts';
import { change, first, removeDealt, removeWhere } from '../transforms.ts';

const faceUp = (d: { faceUp: boolean }) => void (d.faceUp = true);

export const DEALING_FAULTS = defineFaults(
  {
    name: 'misdeal-order-settled',
    checkIds: ['F3CP.DEAL.ORDER', 'F3CP.IRREG.NOT_VOIDED'],
    needs: { occupiedSeats: 3 },
    events: (events) => misdealOrder(events),
  },
  {
    name: 'misdeal-order-voided',
    checkIds: ['F3CP.DEAL.ORDER'],
    needs: { occupiedSeats: 3 },
    events: (events, ctx) => voided(misdealOrder(events), ctx, 'DEALING_RULES_BROKEN'),
  },
  {
    name: 'misdeal-count-settled',
    checkIds: ['F3CP.DEAL.COUNT', 'F3CP.IRREG.NOT_VOIDED'],
    needs: { occupiedSeats: 3 },
    // a fourth card to the first hand, just before the banker's; the round is settled on the first three
    events: (events, ctx) => {
      const bankerFirst = first(events, 'CardDealt', (d) => d.target === 'BANKER').dealOrder;
      return extraCard(events, ctx, bankerFirst, { target: 'SEAT', seat: anteSeats(ctx.plan)[0]! });
    },
  },
  {
    name: 'misdeal-community-settled',
    checkIds: ['F3CP.DEAL.COMMUNITY', 'F3CP.IRREG.NOT_VOIDED'],
    needs: { occupiedSeats: 3, progressive: 'first-seat' },
    // one community card only, never revealed; the table takes every Progressive stake and pays no jackpot
    events: (events) => {
      const missing = first(events, 'CardDealt', (d) => d.target === 'COMMUNITY').dealOrder;
      const out = removeDealt(events, (d) => d.dealOrder === missing);
      return removeWhere(
        out,
        (e) =>
          e.type === 'CommunityCardsRevealed' ||
          e.type === 'JackpotPaid' ||
          (e.type === 'JackpotPoolChanged' && e.data.reason !== 'CONTRIBUTION'),
      );
    },
  },
  {
    name: 'card-face-up',
    checkIds: ['F3CP.DEAL.FACE_UP'],
    // one player card face up: exposed, but one player card lets the round go on (art. 17.º n.º 4)
    events: (events) => change(events, 'CardDealt', (d) => d.dealOrder === 2, faceUp),
  },
  {
    name: 'banker-card-face-up',
    checkIds: ['F3CP.DEAL.FACE_UP', 'F3CP.IRREG.NOT_VOIDED'],
    events: (events) => change(events, 'CardDealt', (d) => d.target === 'BANKER', faceUp, 0),
  },
  {
    name: 'banker-card-face-up-voided',
    // the table voids the round, as it must: the face-up card is recorded, handled (J18, J19)
    checkIds: ['F3CP.DEAL.FACE_UP'],
    events: (events, ctx) =>
      voided(
        change(events, 'CardDealt', (d) => d.target === 'BANKER', faceUp, 0),
        ctx,
        'BANKER_CARD_EXPOSED',
      ),
  },
);
