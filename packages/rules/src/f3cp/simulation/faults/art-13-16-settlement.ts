/** Arts. 13.º–16.º: the outcome declared and every bet settled once, as the rules pay it. */
import type { F3cpEvent } from '@table-audit/schemas/events';
import { LINE_TYPE } from '../../events.ts';
import { defineFaults, roundSettled } from '../fault.ts';
import { change, copy, insertBefore, is, replaceFirst } from '../transforms.ts';

export const SETTLEMENT_FAULTS = defineFaults(
  {
    name: 'payout-wrong',
    checkIds: ['F3CP.PAYOUT.MISMATCH'],
    // the first win paid with the stake added to the winnings; with no win, the first loss paid instead
    events: (events, ctx) => {
      if (events.some(is('PayoutMade')))
        return change(
          events,
          'PayoutMade',
          () => true,
          (p) => {
            const line = ctx.played.settlement.lines.find(
              (l) => l.seat === p.seat && LINE_TYPE[l.bet] === p.betType,
            )!;
            p.amount += line.amount;
          },
          0,
        );
      return replaceFirst(
        events,
        is('BetCollected'),
        (e) => ({ type: 'PayoutMade', data: e.data }) as F3cpEvent,
      );
    },
  },
  {
    name: 'outcome-misdeclared',
    checkIds: ['F3CP.OUTCOME.MISDECLARED'],
    events: (events) =>
      change(
        events,
        'OutcomeDeclared',
        () => true,
        (o) => void (o.bankerQualifies = !o.bankerQualifies),
      ),
  },
  {
    name: 'settlement-repeated',
    checkIds: ['F3CP.PAYOUT.REPEATED', 'F3CP.PAYOUT.MISMATCH'],
    // the last payment or collection declared a second time
    events: (events, ctx) => {
      const lastSettled = copy(events)
        .reverse()
        .find((e) => e.type === 'PayoutMade' || e.type === 'BetCollected')!;
      const { header, ...body } = lastSettled.data;
      return insertBefore(
        events,
        roundSettled,
        ctx.event(lastSettled.type, body as never, { after: { header } }),
      );
    },
  },
);
