/** Art. 9.º: the shuffle, and the cut with the cut card after a manual one. */
import { change } from '../transforms.ts';
import { defineFaults } from '../fault.ts';

export const SHUFFLE_FAULTS = defineFaults({
  name: 'shuffle-procedure',
  checkIds: ['F3CP.SHUFFLE.PROCEDURE'],
  // a manual shuffle with no cut, or the cut card used with the automatic shuffler
  events: (events) =>
    change(
      events,
      'ShuffleCompleted',
      () => true,
      (s) =>
        s.mode === 'MANUAL'
          ? Object.assign(s, { cutCardUsed: false, cutBy: 'NONE', cutBySeat: null, cutById: null })
          : Object.assign(s, { cutCardUsed: true }),
    ),
});
