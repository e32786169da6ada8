/** Art. 12.º: the decision, and a Play bet equal to the Ante, placed once the hand has its cards. */
import { anteSeats, defineFaults, forcePlay } from '../fault.ts';
import { is, moveBefore } from '../transforms.ts';

export const PLAYING_FAULTS = defineFaults(
  {
    name: 'play-not-equal-ante',
    checkIds: ['F3CP.BET.PLAY_NOT_EQUAL_ANTE'],
    // the first hand plays twice its Ante (and is settled on that Play bet)
    plan: (plan) => {
      const seat = anteSeats(plan)[0]!;
      const ante = plan.bets.find((b) => b.seat === seat && b.betType === 'ANTE')!.amount;
      return forcePlay(plan, seat, ante * 2);
    },
  },
  {
    name: 'play-before-deal',
    checkIds: ['F3CP.BET.PLAY_BEFORE_DEAL'],
    // the first hand's Play bet is placed before its cards are dealt
    plan: (plan) => forcePlay(plan, anteSeats(plan)[0]!),
    events: (events, ctx) => {
      const seat = anteSeats(ctx.plan)[0]!;
      return moveBefore(
        events,
        is('BetPlaced', (b) => b.betType === 'PLAY' && b.seat === seat),
        is('CardDealt'),
      );
    },
  },
);
