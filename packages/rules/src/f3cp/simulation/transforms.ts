/**
 * Changes to a round's events, the vocabulary of the faults (and of the Given/When/Then tests): each returns a new
 * list; events are deep-copied, never edited in place, so a clean round can be reused.
 */
import type { EventHeader, F3cpEvent, F3cpEvents, VoidReason } from '@table-audit/schemas/events';

export type Transform = (events: F3cpEvent[]) => F3cpEvent[];
type Pred = (e: F3cpEvent, i: number) => boolean;

export const copy = (events: readonly F3cpEvent[]): F3cpEvent[] => events.map(deepCopy);

// events are plain data (objects, arrays, strings, numbers, booleans, null): copied by hand, several times faster
// than structuredClone
function deepCopy<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(deepCopy) as T;
  const out: Record<string, unknown> = {};
  for (const k in value) out[k] = deepCopy((value as Record<string, unknown>)[k]);
  return out as T;
}

export const is =
  <K extends keyof F3cpEvents>(type: K, where: (d: F3cpEvents[K]) => boolean = () => true) =>
  (e: F3cpEvent): boolean =>
    e.type === type && where(e.data as F3cpEvents[K]);

export function first<K extends keyof F3cpEvents>(
  events: readonly F3cpEvent[],
  type: K,
  where: (d: F3cpEvents[K]) => boolean = () => true,
): F3cpEvents[K] {
  const e = events.find(is(type, where));
  if (!e) throw new Error(`no ${type} in the events`);
  return e.data as F3cpEvents[K];
}

export function last<K extends keyof F3cpEvents>(
  events: readonly F3cpEvent[],
  type: K,
  where: (d: F3cpEvents[K]) => boolean = () => true,
): F3cpEvents[K] {
  const match = is(type, where);
  for (let i = events.length - 1; i >= 0; i--) if (match(events[i]!)) return events[i]!.data as F3cpEvents[K];
  throw new Error(`no ${type} in the events`);
}

export const removeWhere = (events: readonly F3cpEvent[], pred: Pred): F3cpEvent[] =>
  copy(events).filter((e, i) => !pred(e, i));

/** Changes the data of the events matching `type` and `where` (all of them, or the `nth` only). */
export function change<K extends keyof F3cpEvents>(
  events: readonly F3cpEvent[],
  type: K,
  where: (d: F3cpEvents[K]) => boolean,
  edit: (d: F3cpEvents[K]) => void,
  nth?: number,
): F3cpEvent[] {
  const out = copy(events);
  const hits = out.filter(is(type, where));
  if (!hits.length) throw new Error(`no ${type} to change`);
  (nth === undefined ? hits : [hits[nth]!]).forEach((e) => edit(e.data as F3cpEvents[K]));
  return out;
}

/** Puts `make(event)` in place of the first event matching `pred` (an event of another type, say). */
export function replaceFirst(
  events: readonly F3cpEvent[],
  pred: Pred,
  make: (e: F3cpEvent) => F3cpEvent,
): F3cpEvent[] {
  const out = copy(events);
  const i = out.findIndex(pred);
  if (i < 0) throw new Error('no event to replace');
  out[i] = make(out[i]!);
  return out;
}

let made = 0;
/** A new event placed right after `anchor`, with a header copied from it (new id, one tick later). */
export function eventLike<K extends keyof F3cpEvents>(
  anchor: { header: EventHeader },
  type: K,
  body: Omit<F3cpEvents[K], 'header'>,
  header: Partial<EventHeader> = {},
): F3cpEvent {
  const h = anchor.header;
  return {
    type,
    data: {
      header: { ...h, eventId: `${h.eventId}+${++made}`, eventTime: h.eventTime + 1, ...header },
      ...body,
    },
  } as F3cpEvent;
}

export function insertAfter(events: readonly F3cpEvent[], pred: Pred, ...add: F3cpEvent[]): F3cpEvent[] {
  const out = copy(events);
  const i = out.findIndex(pred);
  if (i < 0) throw new Error('no event to insert after');
  out.splice(i + 1, 0, ...add);
  return out;
}

export function insertBefore(events: readonly F3cpEvent[], pred: Pred, ...add: F3cpEvent[]): F3cpEvent[] {
  const out = copy(events);
  const i = out.findIndex(pred);
  if (i < 0) throw new Error('no event to insert before');
  out.splice(i, 0, ...add);
  return out;
}

/** Moves the first event matching `what` to just before the first event matching `before`. */
export function moveBefore(events: readonly F3cpEvent[], what: Pred, before: Pred): F3cpEvent[] {
  const out = copy(events);
  const i = out.findIndex(what);
  if (i < 0) throw new Error('no event to move');
  const [e] = out.splice(i, 1);
  const j = out.findIndex(before);
  if (j < 0) throw new Error('no event to move before');
  out.splice(j, 0, e!);
  return out;
}

/** Swaps what two dealt cards were (card, target, seat) by deal order: the deal order breaks, the cards do not. */
export function swapDealt(events: readonly F3cpEvent[], a: number, b: number, roundId?: string): F3cpEvent[] {
  const out = copy(events);
  const dealt = (n: number) =>
    out.find(
      is('CardDealt', (d) => d.dealOrder === n && (roundId === undefined || d.header.roundId === roundId)),
    )!.data as F3cpEvents['CardDealt'];
  const x = dealt(a);
  const y = dealt(b);
  const xs = { card: x.card, target: x.target, seat: x.seat, faceUp: x.faceUp };
  Object.assign(x, { card: y.card, target: y.target, seat: y.seat, faceUp: y.faceUp });
  Object.assign(y, xs);
  return out;
}

/**
 * One more card dealt, as the `position`-th card of the deal (1 = first; one past the last card appends it); the
 * cards after it move one place on in the deal order.
 */
export function insertDealt(
  events: readonly F3cpEvent[],
  position: number,
  card: Pick<F3cpEvents['CardDealt'], 'card' | 'target' | 'seat'>,
): F3cpEvent[] {
  const out = copy(events);
  const displaced = out.findIndex(is('CardDealt', (d) => d.dealOrder === position));
  const previous = out.findIndex(is('CardDealt', (d) => d.dealOrder === position - 1));
  if (displaced < 0 && previous < 0) throw new Error(`no card dealt as number ${position}`);
  // before the card it displaces, a moment earlier; or, appended, right after the last card
  const at = displaced >= 0 ? displaced : previous + 1;
  const neighbour = out[displaced >= 0 ? displaced : previous]!.data as F3cpEvents['CardDealt'];
  for (const e of out) if (e.type === 'CardDealt' && e.data.dealOrder >= position) e.data.dealOrder++;
  const added = eventLike(neighbour, 'CardDealt', { ...card, faceUp: false, dealOrder: position });
  added.data.header.eventTime = neighbour.header.eventTime + (displaced >= 0 ? -1 : 1);
  out.splice(at, 0, added);
  return out;
}

/** The cards matching `pred` taken out of the deal; the others keep their order, numbered 1, 2, … again. */
export function removeDealt(
  events: readonly F3cpEvent[],
  pred: (d: F3cpEvents['CardDealt']) => boolean,
): F3cpEvent[] {
  const out = removeWhere(events, (e) => e.type === 'CardDealt' && pred(e.data));
  let n = 0;
  for (const e of out) if (e.type === 'CardDealt') e.data.dealOrder = ++n;
  return out;
}

/** Every event's time moved by `ms` (a round replayed as if on another date). */
export const shiftTimes = (events: readonly F3cpEvent[], ms: number): F3cpEvent[] =>
  copy(events).map((e) => {
    e.data.header.eventTime += ms;
    return e;
  });

export interface VoidOptions {
  reason: VoidReason;
  /** the deal stops after this many cards (default: every card was dealt) */
  keepCards?: number;
  /** the shuffler that failed right after the last card kept */
  malfunction?: string;
  roundId?: string;
  /** whether the Progressive bets stay on the table for the next round (default: as art. 17.º n.º 3 says) */
  carry?: boolean;
  /** the pit supervisor who authorised the void */
  authorisedBy?: string | null;
}

/** Whether art. 17.º n.º 3 carries a voided round's Progressive bets over: a broken deal or a malfunction. */
export const voidCarriesProgressive = (reason: VoidReason): boolean =>
  reason === 'DEALING_RULES_BROKEN' || reason === 'SHUFFLER_MALFUNCTION';

/**
 * Ends a round as a correct table voids it: the deal cut after `keepCards` cards (a malfunction, if any, right
 * after them), nothing of the play or settlement, every bet returned except the Progressive bets carried over.
 */
export function voidRound(events: readonly F3cpEvent[], opts: VoidOptions): F3cpEvent[] {
  const roundId =
    opts.roundId ?? (events.find((e) => e.type === 'RoundStarted')!.data.header.roundId as string);
  const inRound = (e: F3cpEvent) => e.data.header.roundId === roundId;
  const out: F3cpEvent[] = [];
  let cards = 0;
  let dealing = true;
  for (const e of copy(events)) {
    if (!inRound(e)) {
      out.push(e); // table events stay where they are
      continue;
    }
    if (e.type === 'CardDealt') {
      if (opts.keepCards !== undefined && cards >= opts.keepCards) continue;
      cards++;
      out.push(e);
      if (opts.malfunction && cards === opts.keepCards)
        out.push(
          eventLike(
            e.data,
            'ShufflerMalfunction',
            { shufflerId: opts.malfunction, duringDeal: true, description: 'card jam' },
            { sourceKind: 'SHUFFLER', staffId: null },
          ),
        );
      continue;
    }
    if (AFTER_DEAL.has(e.type) || (e.type === 'BetPlaced' && e.data.betType === 'PLAY')) {
      if (dealing) {
        dealing = false;
        out.push(...closing(out, roundId, opts));
      }
      continue;
    }
    if (e.type === 'JackpotPoolChanged' && e.data.reason !== 'CONTRIBUTION') continue;
    out.push(e);
  }
  if (dealing) throw new Error(`round ${roundId} has nothing after its deal to void`);
  return out;
}

const AFTER_DEAL = new Set([
  'PlayDecision',
  'CommunityCardsRevealed',
  'OutcomeDeclared',
  'PayoutMade',
  'BetCollected',
  'BetReturned',
  'JackpotPaid',
  'RoundSettled',
]);

function closing(sofar: readonly F3cpEvent[], roundId: string, opts: VoidOptions): F3cpEvent[] {
  const carry = opts.carry ?? voidCarriesProgressive(opts.reason);
  const anchor = [...sofar].reverse().find((e) => e.data.header.roundId === roundId)!.data;
  const out: F3cpEvent[] = [];
  // the table controller records the void (the last event may be a card from the shuffler)
  const controller = sofar.find(
    (e) => e.data.header.roundId === roundId && e.data.header.sourceKind === 'TABLE_CONTROLLER',
  )?.data.header;
  const by: Partial<EventHeader> = controller
    ? { sourceKind: 'TABLE_CONTROLLER', sourceDevice: controller.sourceDevice, staffId: controller.staffId }
    : {};
  for (const e of sofar) {
    if (e.type !== 'BetPlaced' || e.data.header.roundId !== roundId || e.data.betType === 'PLAY') continue;
    if (e.data.betType === 'PROGRESSIVE' && carry) continue; // stays on the table for the next round
    out.push(
      eventLike(
        anchor,
        'BetReturned',
        {
          seat: e.data.seat,
          betType: e.data.betType,
          amount: e.data.amount,
          reason: 'round voided',
          betId: e.data.betId,
        },
        by,
      ),
    );
  }
  out.push(
    eventLike(
      anchor,
      'RoundVoided',
      { reason: opts.reason, note: null, authorisedBy: opts.authorisedBy ?? null },
      by,
    ),
  );
  return out;
}
