/**
 * A fault is data: its name, the check ids that must find it, what the round must offer for it to show, and what
 * it changes in a clean round: the plan (which bets, which cards, which decisions) and/or the events the table
 * emits. The handled irregularities (negative controls) have the same shape and no check id.
 */
import type {
  CardTarget,
  EventHeader,
  F3cpEvent,
  F3cpEvents,
  SourceKind,
  VoidReason,
} from '@table-audit/schemas/events';
import { formatCard } from '../../cards.ts';
import type { FaultLabel, TableClock } from '../../game.ts';
import type { Rng } from '../../rng.ts';
import type { DealingMode } from '../events.ts';
import type { F3cpTableState, PlayedRound, PlannedBet, RoundPlan } from './script.ts';
import { insertAfter, insertDealt, is, swapDealt, voidRound, type VoidOptions } from './transforms.ts';

/** What a round must offer for a fault to show in it. */
export interface RoundNeeds {
  /** at least this many players seated (default 2) */
  readonly occupiedSeats?: number;
  /** a seat nobody sits at */
  readonly emptySeat?: boolean;
  /** a seat number past the table's last (a table of fewer than 7 seats) */
  readonly seatPastTable?: boolean;
  readonly dealing?: DealingMode;
  /** a round after this one: what the fault breaks is judged there */
  readonly laterRound?: boolean;
  /** a Progressive bet on the first occupied seat, or none at all */
  readonly progressive?: 'first-seat' | 'none';
  /** hands dealt on purpose: the community cards and the hands of the occupied seats by index (0 = first) */
  readonly jackpot?: {
    readonly community: string;
    readonly hands: readonly { readonly seatIndex: number; readonly cards: string }[];
  };
}

/** The simulated table as a fault sees it. */
export interface SimulatedF3cpTable extends F3cpTableState {
  /** the number of seats the table has */
  readonly seats: number;
  /** seat → the player sitting there */
  readonly occupants: ReadonlyMap<number, string>;
  readonly supervisorId: string;
  readonly shufflerId: string;
}

export interface PlanContext {
  readonly table: SimulatedF3cpTable;
  readonly rng: Rng;
}

export interface EventContext extends PlanContext {
  readonly roundId: string;
  readonly plan: RoundPlan;
  readonly played: PlayedRound;
  readonly clock: TableClock;
  /** a new event from the table's devices; placed after `after`, it carries that event's time (one ms later) */
  event<K extends keyof F3cpEvents>(
    type: K,
    body: Omit<F3cpEvents[K], 'header'>,
    options?: { source?: SourceKind; roundId?: string | null; after?: { header: EventHeader } },
  ): F3cpEvent;
}

export interface F3cpFault extends FaultLabel {
  readonly needs?: RoundNeeds;
  /** correctly handled irregularities the table plays first, one round each */
  readonly preceded?: readonly string[];
  /** events of the table before the round (its shuffle included): the table takes them as they say */
  readonly before?: (ctx: PlanContext & { readonly clock: TableClock }) => F3cpEvent[];
  readonly plan?: (plan: RoundPlan, ctx: PlanContext) => RoundPlan;
  /** the round's events, its shuffle first, changed */
  readonly events?: (events: F3cpEvent[], ctx: EventContext) => F3cpEvent[];
  /** events of the round that reach the pipeline before an event emitted (and numbered) ahead of them */
  readonly delivery?: (
    events: readonly F3cpEvent[],
  ) => readonly { readonly event: F3cpEvent; readonly before: F3cpEvent }[];
  /** what the fault changes in the round after (a carry-over the table forgets) */
  readonly nextRound?: (plan: RoundPlan) => RoundPlan;
}

export const defineFaults = (...faults: F3cpFault[]): readonly F3cpFault[] => faults;

// ---------------------------------------------------------------------------------------------------------------
// The plan

/** Occupied seats with an Ante, in seat order. */
export const anteSeats = (plan: RoundPlan): number[] =>
  [...new Set(plan.bets.filter((b) => b.betType === 'ANTE' && b.amount > 0).map((b) => b.seat))].sort(
    (a, b) => a - b,
  );

export const withBets = (plan: RoundPlan, bets: readonly PlannedBet[]): RoundPlan => ({ ...plan, bets });

/** The plan with one seat's decision fixed (a Play bet of another amount, if given). */
export const forcePlay = (plan: RoundPlan, seat: number, play?: number): RoundPlan => ({
  ...plan,
  play: new Map([...(plan.play ?? [])]).set(seat, { decision: 'PLAY', ...(play ? { play } : {}) }),
});

// ---------------------------------------------------------------------------------------------------------------
// The events

export const dealt =
  (n: number) =>
  (e: F3cpEvent): boolean =>
    e.type === 'CardDealt' && e.data.dealOrder === n;

export const firstDealtTo = (target: CardTarget) => is('CardDealt', (d) => d.target === target);

/** Swaps the first two adjacent cards for different hands: the deal order breaks, each hand keeps its cards. */
export function misdealOrder(events: F3cpEvent[]): F3cpEvent[] {
  const cards = events.filter((e) => e.type === 'CardDealt').map((e) => e.data as F3cpEvents['CardDealt']);
  const i = cards.findIndex(
    (d, k) =>
      k > 0 && d.target === 'SEAT' && cards[k - 1]!.target === 'SEAT' && cards[k - 1]!.seat !== d.seat,
  );
  if (i < 0) throw new Error('no two adjacent cards for different hands to swap');
  return swapDealt(events, cards[i - 1]!.dealOrder, cards[i]!.dealOrder);
}

/** One card taken from the shoe or the shuffler (not dealt in the clean round) and dealt at `position`. */
export function extraCard(
  events: F3cpEvent[],
  ctx: EventContext,
  position: number,
  target: { target: CardTarget; seat: number | null },
  nth = 0,
): F3cpEvent[] {
  const card = ctx.played.undealt[nth];
  if (card === undefined) throw new Error('no card left to deal');
  return insertDealt(events, position, { card: formatCard(card), ...target });
}

/** The number of cards dealt in the round. */
export const cardsDealt = (events: readonly F3cpEvent[]): number =>
  events.filter((e) => e.type === 'CardDealt').length;

/** Surveillance sees the card matching `which` exposed during the deal, right after it is dealt. */
export function exposed(
  events: F3cpEvent[],
  ctx: EventContext,
  which: (e: F3cpEvent) => boolean,
): F3cpEvent[] {
  const card = events.find(which)!.data as F3cpEvents['CardDealt'];
  return insertAfter(
    events,
    which,
    ctx.event(
      'CardExposed',
      { card: card.card, target: card.target, seat: card.seat, duringDeal: true },
      { source: 'SURVEILLANCE', after: card },
    ),
  );
}

/** The round voided as a correct table voids it, authorised by the pit supervisor. */
export const voided = (
  events: F3cpEvent[],
  ctx: EventContext,
  reason: VoidReason,
  options: Omit<VoidOptions, 'reason' | 'authorisedBy'> = {},
): F3cpEvent[] => voidRound(events, { reason, authorisedBy: ctx.table.supervisorId, ...options });

/** The round's settling event, before which what the table adds to the settlement goes. */
export const roundSettled = is('RoundSettled');
