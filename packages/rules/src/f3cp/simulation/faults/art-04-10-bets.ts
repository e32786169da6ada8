/** Arts. 4.º–10.º: the bets, their limits, whose hand, and when they may be placed. */
import type { F3cpEvent } from '@table-audit/schemas/events';
import { anteSeats, defineFaults, withBets } from '../fault.ts';
import { copy } from '../transforms.ts';

const LATE_PAIR_PLUS = 10_000;

export const BETS_FAULTS = defineFaults(
  {
    name: 'bet-late',
    checkIds: ['F3CP.BET.LATE'],
    // a Pair Plus on the first hand, placed once the first card is out (and settled like any other)
    plan: (plan) => {
      const seat = anteSeats(plan)[0]!;
      const playerId = plan.bets.find((b) => b.seat === seat && b.betType === 'ANTE')!.playerId;
      return withBets(plan, [...plan.bets, { seat, betType: 'PAIR_PLUS', amount: LATE_PAIR_PLUS, playerId }]);
    },
    events: (events) => {
      const out = copy(events);
      let late = -1;
      for (let i = 0; i < out.length; i++) {
        const e = out[i]!;
        if (e.type === 'CardDealt') break;
        if (e.type === 'BetPlaced' && e.data.betType === 'PAIR_PLUS') late = i; // the plan put it last
      }
      const [bet] = out.splice(late, 1) as [F3cpEvent];
      out.splice(out.findIndex((e) => e.type === 'CardDealt') + 1, 0, bet);
      return out;
    },
  },
  {
    name: 'bet-over-limit',
    checkIds: ['F3CP.BET.LIMITS'],
    // the first Ante just over the table's maximum
    plan: (plan, { table }) => {
      const maximum = table.config.betLimits.find((l) => l.betType === 'ANTE')!.maximum;
      const i = plan.bets.findIndex((b) => b.betType === 'ANTE');
      return withBets(
        plan,
        plan.bets.map((b, k) => (k === i ? { ...b, amount: maximum + 10_000 } : b)),
      );
    },
  },
  {
    name: 'bet-other-hand',
    checkIds: ['F3CP.BET.OTHER_HAND'],
    needs: { occupiedSeats: 3 },
    // the first seat's player puts a Pair Plus on the second seat's hand
    plan: (plan) => {
      const [a, b] = anteSeats(plan) as [number, number];
      const playerId = plan.bets.find((x) => x.seat === a && x.betType === 'ANTE')!.playerId;
      return withBets(plan, [...plan.bets, { seat: b, betType: 'PAIR_PLUS', amount: 10_000, playerId }]);
    },
  },
  {
    name: 'additional-without-basic',
    checkIds: ['F3CP.BET.ADDITIONAL_WITHOUT_BASIC'],
    // the last hand bets the Six Card Bonus with neither an Ante nor a Pair Plus
    plan: (plan, { rng }) => {
      const seat = anteSeats(plan).at(-1)!;
      const bets = plan.bets.filter(
        (b) => b.seat !== seat || (b.betType !== 'ANTE' && b.betType !== 'PAIR_PLUS'),
      );
      const playerId = plan.bets.find((b) => b.seat === seat)!.playerId;
      if (!bets.some((b) => b.seat === seat && b.betType === 'SIX_CARD_BONUS'))
        bets.push({ seat, betType: 'SIX_CARD_BONUS', amount: rng.pick([5_000, 10_000]), playerId });
      return withBets(plan, bets);
    },
  },
  {
    name: 'bet-no-such-seat',
    checkIds: ['F3CP.BET.NO_SUCH_SEAT'],
    needs: { seatPastTable: true },
    // a hand on a seat the table does not have, played like any other
    plan: (plan, { table }) =>
      withBets(plan, [
        ...plan.bets,
        { seat: table.seats + 1, betType: 'ANTE', amount: 10_000, playerId: `P-${plan.roundId}-X` },
      ]),
  },
);
