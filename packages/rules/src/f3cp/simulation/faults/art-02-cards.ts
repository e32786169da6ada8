/** Art. 2.º: one 52-card deck; no card twice in a round. */
import { change, first } from '../transforms.ts';
import { defineFaults } from '../fault.ts';

export const CARDS_FAULTS = defineFaults({
  name: 'card-twice',
  checkIds: ['F3CP.CARDS.INTEGRITY'],
  // the fifth card dealt shows the first card again
  events: (events) => {
    const again = first(events, 'CardDealt', (d) => d.dealOrder === 1).card;
    return change(
      events,
      'CardDealt',
      (d) => d.dealOrder === 5,
      (d) => void (d.card = again),
    );
  },
});
