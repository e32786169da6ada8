/**
 * The faults the simulator injects at a 2008 table (Despacho 78/2008, art. 9.º re-worded by 97/2008), labelled with
 * the F3CP08 check ids that must find them. Where the 2008 rules ask the same question as the 2025 ones, the 2025
 * fault is played as it is and labelled with the 2008 counterpart of its check (COUNTERPART_2008); what differs in
 * substance (the bets offered, the compulsory Play bet, art. 11.º's irregularities, one shuffler malfunction) has
 * its own fault here. Faults about what 2008 does not have (Six Card Bonus, Progressive Jackpot, community cards,
 * art. 18.º conduct) are left out.
 */
import type { F3cpEvent } from '@table-audit/schemas/events';
import { COUNTERPART_2008, F3CP08 } from '../../checks/f3cp08-definitions.ts';
import {
  anteSeats,
  forcePlay,
  dealt,
  defineFaults,
  exposed,
  firstDealtTo,
  misdealOrder,
  voided,
  withBets,
  type EventContext,
  type F3cpFault,
} from '../fault.ts';
import { insertAfter } from '../transforms.ts';
import { F3CP_HANDLED_IRREGULARITIES, F3CP_ROUND_FAULTS } from './index.ts';

/** 2025 faults whose every check has a 2008 counterpart and that play the same at a 2008 table. */
const SAME_QUESTION = [
  'card-twice',
  'bet-late',
  'bet-over-limit',
  'bet-other-hand',
  'bet-no-such-seat',
  'shuffle-procedure',
  'card-face-up',
  'play-not-equal-ante',
  'play-before-deal',
  'payout-wrong',
  'outcome-misdeclared',
  'settlement-repeated',
  'void-cards-used',
  'non-seated-handling',
  'round-not-started',
  'round-not-closed',
  'event-after-close',
  'sequence-out-of-order',
  'event-time-off',
  'table-reconfigured',
];

const byName = new Map(F3CP_ROUND_FAULTS.map((f) => [f.name, f]));
const relabelled: F3cpFault[] = SAME_QUESTION.map((name) => {
  const f = byName.get(name);
  if (!f) throw new Error(`no 2025 fault ${name} to play at a 2008 table`);
  const checkIds = f.checkIds.map((id) => {
    const c = COUNTERPART_2008.get(id);
    if (!c) throw new Error(`fault ${name}: ${id} has no 2008 counterpart`);
    return c.id;
  });
  // a bet added late or for another hand may be a Pair Plus, which obliges the Play bet (art. 9.º 3)): every seat
  // of such a round plays, so that the one breach injected is the only one
  if (name !== 'bet-late' && name !== 'bet-other-hand') return { ...f, checkIds };
  return {
    ...f,
    checkIds,
    plan: (plan, ctx) => {
      const p = f.plan ? f.plan(plan, ctx) : plan;
      return anteSeats(p).reduce((q, seat) => forcePlay(q, seat), p);
    },
  };
});

/** 2025 faults that break what 2008 answers differently, labelled by 78/2008 art. 11.º. */
const relabel = (name: string, checkIds: string[]): F3cpFault => ({ ...byName.get(name)!, checkIds });
const ART_11 = [
  // n.º 1): a hand without three cards invalidates the round; the table settles it
  relabel('misdeal-count-settled', [F3CP08.dealCount.id, F3CP08.irregNotVoided.id]),
  // n.º 2): the banker's card exposed lets the round go on; voided all the same, and its Antes collected
  relabel('void-bets-collected', [F3CP08.irregWronglyVoided.id, F3CP08.irregBetsNotReturned.id]),
];

const shufflerReplaced = (ctx: EventContext): F3cpEvent =>
  ctx.event(
    'ShufflerReplaced',
    { oldShufflerId: ctx.table.shufflerId, newShufflerId: `${ctx.table.shufflerId}-b` },
    { roundId: null },
  );

/** The shuffler fails after the fourth card dealt. */
const malfunctionAfterFourth = (events: F3cpEvent[], ctx: EventContext): F3cpEvent[] =>
  insertAfter(
    events,
    dealt(4),
    ctx.event(
      'ShufflerMalfunction',
      { shufflerId: ctx.table.shufflerId, duringDeal: true, description: 'card jam in the dispensing tray' },
      { source: 'SHUFFLER', after: events.find(dealt(4))!.data },
    ),
  );

const OWN_2008 = defineFaults(
  {
    // art. 5.º n.º 1: Ante, Play and Pair Plus only; a Six Card Bonus bet is taken all the same
    name: '2008-bet-not-offered',
    checkIds: [F3CP08.betNotOffered.id],
    plan: (plan) => {
      const seat = anteSeats(plan)[0]!;
      const playerId = plan.bets.find((b) => b.seat === seat)!.playerId;
      return withBets(plan, [...plan.bets, { seat, betType: 'SIX_CARD_BONUS', amount: 5_000, playerId }]);
    },
  },
  {
    // art. 9.º 3) (97/2008): a player with Ante and Pair Plus must play; the table lets one fold
    name: '2008-pair-plus-folded',
    checkIds: [F3CP08.playRequired.id],
    plan: (plan) => {
      const seat = anteSeats(plan)[0]!;
      const playerId = plan.bets.find((b) => b.seat === seat)!.playerId;
      const bets = plan.bets.some((b) => b.seat === seat && b.betType === 'PAIR_PLUS')
        ? plan.bets
        : [...plan.bets, { seat, betType: 'PAIR_PLUS' as const, amount: 10_000, playerId }];
      return { ...withBets(plan, bets), play: new Map(plan.play ?? []).set(seat, { decision: 'FOLD' }) };
    },
  },
  {
    // art. 11.º 1): cards dealt out of order invalidate the round; the table settles it
    name: '2008-misdeal-settled',
    checkIds: [F3CP08.dealOrder.id, F3CP08.irregNotVoided.id],
    needs: { occupiedSeats: 3 },
    events: (events) => misdealOrder(events),
  },
  {
    // art. 11.º 1): a deal out of order invalidates the round, as the table does: the breach is still reported,
    // as handled (H8)
    name: '2008-misdeal-voided',
    checkIds: [F3CP08.dealOrder.id],
    needs: { occupiedSeats: 3 },
    events: (events, ctx) => voided(misdealOrder(events), ctx, 'DEALING_RULES_BROKEN'),
  },
  {
    // art. 11.º 2): a card exposed lets the round go on; the table voids it
    name: '2008-exposed-voided',
    checkIds: [F3CP08.irregWronglyVoided.id],
    events: (events, ctx) => voided(exposed(events, ctx, firstDealtTo('BANKER')), ctx, 'BANKER_CARD_EXPOSED'),
  },
);

const SHUFFLER_2008 = defineFaults(
  {
    // art. 11.º 1): a shuffler malfunction invalidates the round; the table deals on and settles it
    name: '2008-malfunction-settled',
    checkIds: [F3CP08.irregNotVoided.id],
    needs: { dealing: 'SHUFFLER' },
    events: (events, ctx) => [...malfunctionAfterFourth(events, ctx), shufflerReplaced(ctx)],
  },
  {
    // art. 11.º 4): after one malfunction the shuffler is replaced (or a shoe used); the next round is dealt by it
    name: '2008-shuffler-not-replaced',
    checkIds: [F3CP08.irregShufflerNotReplaced.id],
    needs: { dealing: 'SHUFFLER' },
    preceded: ['2008-malfunction-voided-kept'],
    events: (events, ctx) => [...events, shufflerReplaced(ctx)],
  },
);

export const F3CP08_ROUND_FAULTS: readonly F3cpFault[] = [
  ...relabelled,
  ...ART_11,
  ...OWN_2008,
  ...SHUFFLER_2008,
];

/** Irregularities a 2008 table handles as art. 11.º says: nothing may be found. */
export const F3CP08_HANDLED_IRREGULARITIES: readonly F3cpFault[] = [
  ...F3CP_HANDLED_IRREGULARITIES.filter(
    (h) => h.name === 'one-card-exposed' || h.name === 'card-to-empty-seat',
  ),
  ...defineFaults(
    {
      // art. 11.º 1) and 4): the deal stops at the malfunction, the round is invalidated, the shuffler replaced
      name: '2008-malfunction-voided',
      checkIds: [],
      needs: { dealing: 'SHUFFLER' },
      events: (events, ctx) => [
        ...voided(events, ctx, 'SHUFFLER_MALFUNCTION', { keepCards: 4, malfunction: ctx.table.shufflerId }),
        shufflerReplaced(ctx),
      ],
    },
    {
      // the same, the shuffler kept: only played before '2008-shuffler-not-replaced', never alone
      name: '2008-malfunction-voided-kept',
      checkIds: [],
      needs: { dealing: 'SHUFFLER' },
      events: (events, ctx) =>
        voided(events, ctx, 'SHUFFLER_MALFUNCTION', { keepCards: 4, malfunction: ctx.table.shufflerId }),
    },
    {
      // art. 11.º 2): the banker's card exposed during the deal, play goes on
      name: '2008-banker-exposed-played',
      checkIds: [],
      events: (events, ctx) => exposed(events, ctx, firstDealtTo('BANKER')),
    },
  ),
];
