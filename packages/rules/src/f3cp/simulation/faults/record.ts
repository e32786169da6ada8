/** The record itself: every round opened and closed, event times in line, the table's settings kept. */
import { tableEvent } from '../script.ts';
import { defineFaults } from '../fault.ts';
import { change, insertAfter, is, removeWhere } from '../transforms.ts';

const A_YEAR = 365 * 24 * 3_600_000;

export const RECORD_FAULTS = defineFaults(
  {
    name: 'round-not-started',
    checkIds: ['F3CP.ROUND.NOT_STARTED'],
    events: (events) => removeWhere(events, (e) => e.type === 'RoundStarted'),
  },
  {
    name: 'round-not-closed',
    checkIds: ['F3CP.ROUND.NOT_CLOSED'],
    events: (events) => removeWhere(events, (e) => e.type === 'RoundSettled'),
  },
  {
    name: 'event-after-close',
    checkIds: ['F3CP.ROUND.EVENT_AFTER_CLOSE'],
    // a stake collected once more after the round was settled: money moved outside the round
    events: (events, ctx) => {
      const settled = events.find(is('RoundSettled'))!;
      const ante = ctx.plan.bets.find((b) => b.betType === 'ANTE')!;
      const { seat, betType, amount } = ante;
      const betId = null; // a collection that settles no bet of the round
      return insertAfter(
        events,
        is('RoundSettled'),
        ctx.event('BetCollected', { seat, betType, amount, betId }, { after: settled.data }),
      );
    },
  },
  {
    name: 'sequence-out-of-order',
    checkIds: ['F3CP.EVENT.SEQUENCE'],
    // the device sends its 3rd card ahead of its 2nd: numbered as dealt, received the other way round
    delivery: (events) => {
      const card = (n: number) => events.find((e) => e.type === 'CardDealt' && e.data.dealOrder === n)!;
      return [{ event: card(3), before: card(2) }];
    },
  },
  {
    name: 'event-time-off',
    checkIds: ['F3CP.EVENT.TIME_OUT_OF_LINE'],
    // a controller whose clock jumped a year ahead for one event; the event arrives in its place all the same
    events: (events) =>
      change(
        events,
        'BetPlaced',
        () => true,
        (b) => void (b.header.eventTime += A_YEAR),
        0,
      ),
  },
  {
    name: 'table-reconfigured',
    checkIds: ['F3CP.TABLE.RECONFIGURED'],
    // opened again mid-session, without TableClosed, with a higher Ante maximum (and the pool as it stands)
    before: ({ table, clock }) => {
      const { header: _, ...settings } = table.config;
      const betLimits = settings.betLimits.map((l) =>
        l.betType === 'ANTE' ? { ...l, maximum: 3_000_000 } : l,
      );
      const jackpot =
        settings.jackpot && table.pool !== null ? { ...settings.jackpot, initialPool: table.pool } : null;
      return [tableEvent(table, clock, 'TableOpened', { ...settings, betLimits, jackpot })];
    },
  },
);
