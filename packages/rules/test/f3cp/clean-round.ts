/**
 * Builds the events a correct Fortune 3 Card Poker table emits (docs/event-conventions.md), with the settlement
 * declared exactly as the engine settles the cards. Fault tests start from these events and change one thing.
 */
import type {
  BetLimit,
  BetType,
  CardTarget,
  EventHeader,
  F3cpEvent,
  F3cpEvents,
  JackpotHand,
  JackpotSettings,
  SourceKind,
  TableOpened,
  VoidReason,
} from '@table-audit/schemas/events';
import { formatCard, parseCard, type Card } from '../../src/cards.ts';
import {
  BANKER,
  COMMUNITY,
  DISCARD,
  declaredKey,
  eventHand,
  expectedDeclarations,
  LINE_TYPE,
  prescribedCommunityDeal,
  prescribedDealOrder,
  Q64,
  type DealingMode,
} from '../../src/f3cp/events.ts';
import { jackpotConfigOf, type F3cpRoundFacts } from '../../src/f3cp/facts.ts';
import { settleF3cpRound, type F3cpSettlement } from '../../src/f3cp/settle/index.ts';
import { classifyThree } from '../../src/poker/three-card.ts';
import { ruleSetFor } from '../../src/registry.ts';

export const DEFAULT_JACKPOT: JackpotSettings = {
  fixedAmounts: {
    royalFlush: 5_000_000,
    straightFlush: 500_000,
    fourOfAKind: 100_000,
    fullHouse: 30_000,
    flush: 20_000,
  },
  resetAmount: 1_000_000,
  initialPool: 2_000_000,
};

export const DEFAULT_LIMITS: BetLimit[] = [
  { betType: 'ANTE', minimum: 10_000, maximum: 2_000_000 },
  { betType: 'PLAY', minimum: 10_000, maximum: 4_000_000 },
  { betType: 'PAIR_PLUS', minimum: 10_000, maximum: 500_000 },
  { betType: 'SIX_CARD_BONUS', minimum: 5_000, maximum: 100_000 },
  { betType: 'PROGRESSIVE', minimum: 5_000, maximum: 5_000 },
];

export interface TableConfig {
  tableId?: string;
  seats?: number;
  shuffleMode?: 'MANUAL' | 'AUTOMATIC';
  /** null: a table without the Progressive Jackpot */
  jackpot?: JackpotSettings | null;
  rounding?: TableOpened['rounding'];
  betLimits?: BetLimit[];
  /** the share of each new Progressive stake the jackpot system adds to the pool (default 50) */
  contributionPercent?: number;
  /** the first event's time, e.g. '2025-12-01T14:00:00+08:00' (Macau) */
  start?: string;
}

export interface SeatSpec {
  seat: number;
  /** the seated player; null: nobody identified, no SeatOccupied */
  player?: string | null;
  ante?: number;
  pairPlus?: number;
  sixCardBonus?: number;
  progressive?: number;
  /** the Progressive bet is re-stated from a voided round (art. 17.º n.º 3) */
  carriedOver?: boolean;
  /** the hand's three cards, e.g. 'Qh 6d 4c'; otherwise from the deck */
  cards?: string;
  /** default: play Q-6-4 or better */
  decision?: 'PLAY' | 'FOLD';
}

export interface RoundSpec {
  roundId?: string;
  seats: SeatSpec[];
  banker?: string;
  community?: string;
  /** the cards not given above are dealt from this order (default: a fixed shuffled deck) */
  deck?: string;
}

/** A fixed, shuffled deck (seeded), so that undirected cards make ordinary hands. */
export function fixedDeck(seed = 7): Card[] {
  const deck = Array.from({ length: 52 }, (_, i) => i);
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = deck.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [deck[i], deck[j]] = [deck[j]!, deck[i]!];
  }
  return deck;
}

export const cardsOf = (text: string): Card[] => text.trim().split(/\s+/).map(parseCard);

const DEVICE: Record<SourceKind, string> = {
  TABLE_CONTROLLER: 'TC',
  SHUFFLER: 'SH',
  SEAT_SENSOR: 'SS',
  SURVEILLANCE: 'CAM',
};

/** What a built round was: its events, the engine's settlement, and the cards each target got. */
export interface BuiltRound {
  roundId: string;
  events: F3cpEvent[];
  settlement: F3cpSettlement;
}

/** One table, round after round, as a correct table reports it. `events` is everything emitted so far. */
export class TableBuilder {
  readonly events: F3cpEvent[] = [];
  readonly tableId: string;
  readonly config: TableOpened;
  private clock: number;
  private readonly sequences = new Map<string, number>();
  private readonly occupants = new Map<number, string>();
  private mode: DealingMode;
  pool: number | null;
  private roundNumber = 0;
  private readonly contributionPercent: number;

  constructor(c: TableConfig = {}) {
    this.tableId = c.tableId ?? 'T-01';
    this.clock = Date.parse(c.start ?? '2025-12-01T14:00:00+08:00');
    const shuffleMode = c.shuffleMode ?? 'AUTOMATIC';
    this.mode = shuffleMode === 'MANUAL' ? 'SHOE' : 'SHUFFLER';
    const jackpot = c.jackpot === undefined ? DEFAULT_JACKPOT : c.jackpot;
    this.pool = jackpot ? jackpot.initialPool : null;
    this.contributionPercent = c.contributionPercent ?? 50;
    this.config = this.emit('TableOpened', null, {
      game: 'F3CP',
      currency: 'MOP',
      seats: c.seats ?? 7,
      betLimits: c.betLimits ?? DEFAULT_LIMITS,
      shuffleMode,
      jackpot,
      rounding: c.rounding ?? { unitAvos: 100, mode: 'DOWN' },
    });
    this.shuffle(shuffleMode);
  }

  /** Appends an event with a fresh header (one second after the last). */
  emit<K extends keyof F3cpEvents>(
    type: K,
    roundId: string | null,
    body: Omit<F3cpEvents[K], 'header'>,
    source: SourceKind = 'TABLE_CONTROLLER',
    into: F3cpEvent[] = this.events,
  ): F3cpEvents[K] {
    this.clock += 1_000;
    const device = `${DEVICE[source]}-${this.tableId}`;
    const sequence = (this.sequences.get(device) ?? 0) + 1;
    this.sequences.set(device, sequence);
    const header: EventHeader = {
      eventId: `${device}-${sequence}`,
      staffId: null,
      eventTime: this.clock,
      receivedTime: null,
      sourceKind: source,
      sourceDevice: device,
      sequence,
      casino: 'Casino Teste',
      concessionaire: 'Concessionária Teste',
      tableId: this.tableId,
      roundId,
    };
    const data = { header, ...body } as F3cpEvents[K];
    into.push({ type, data } as F3cpEvent);
    return data;
  }

  /** Art. 9.º: manual with a cut by the cut card (n.º 2), automatic with none (n.º 3). */
  shuffle(mode: 'MANUAL' | 'AUTOMATIC' = this.mode === 'SHOE' ? 'MANUAL' : 'AUTOMATIC'): this {
    const manual = mode === 'MANUAL';
    const source = manual ? 'TABLE_CONTROLLER' : 'SHUFFLER';
    const shufflerId = manual ? null : `SH-${this.tableId}`;
    this.emit('ShuffleStarted', null, { mode, shufflerId, shuffleId: null }, source);
    this.emit(
      'ShuffleCompleted',
      null,
      {
        mode,
        shufflerId,
        shuffleId: null,
        shuffledBy: null,
        cutById: null,
        cutCardUsed: manual,
        cutBy: manual ? 'BANKER' : 'NONE',
        cutBySeat: null,
      },
      source,
    );
    this.mode = manual ? 'SHOE' : 'SHUFFLER';
    return this;
  }

  seat(seat: number, player: string): this {
    if (this.occupants.get(seat) === player) return this;
    if (this.occupants.has(seat)) this.vacate(seat);
    this.occupants.set(seat, player);
    this.emit('SeatOccupied', null, { seat, playerId: player }, 'SEAT_SENSOR');
    return this;
  }

  vacate(seat: number): this {
    const player = this.occupants.get(seat);
    if (player === undefined) return this;
    this.occupants.delete(seat);
    this.emit('SeatVacated', null, { seat, playerId: player }, 'SEAT_SENSOR');
    return this;
  }

  close(): F3cpEvent[] {
    this.emit('TableClosed', null, { reason: 'end of session' });
    return this.events;
  }

  /** A round played and settled correctly. */
  round(spec: RoundSpec): BuiltRound {
    const built = this.build(spec);
    this.events.push(...built.events);
    this.pool = built.poolAfter;
    return built;
  }

  /**
   * A round stopped after `cards` cards and voided correctly (art. 17.º n.º 1): every bet returned, except the
   * Progressive bets that n.º 3 carries over (after a broken deal or a shuffler malfunction). With `malfunction`
   * the shuffler fails after the last card dealt, and the deck is reshuffled after the round (n.º 2).
   */
  voidedRound(
    spec: RoundSpec,
    opts: { reason: VoidReason; cards?: number; malfunction?: boolean; transform?: Transform },
  ): BuiltRound {
    const built = this.build(spec);
    let events = opts.transform ? opts.transform(built.events) : built.events;
    events = voidRound(events, {
      reason: opts.reason,
      ...(opts.cards !== undefined ? { keepCards: opts.cards } : {}),
      ...(opts.malfunction ? { malfunction: `SH-${this.tableId}` } : {}),
    });
    this.events.push(...events);
    this.pool = built.poolBeforeSettlement;
    if (opts.malfunction) this.shuffle('AUTOMATIC');
    return { roundId: built.roundId, events, settlement: built.settlement };
  }

  private build(
    spec: RoundSpec,
  ): BuiltRound & { poolAfter: number | null; poolBeforeSettlement: number | null } {
    this.clock += 60_000;
    const roundId = spec.roundId ?? `${this.tableId}-R${String(++this.roundNumber).padStart(3, '0')}`;
    for (const s of spec.seats) if (s.player !== null) this.seat(s.seat, s.player ?? `P${s.seat}`);
    const out: F3cpEvent[] = [];
    const emit = <K extends keyof F3cpEvents>(
      type: K,
      body: Omit<F3cpEvents[K], 'header'>,
      source: SourceKind = 'TABLE_CONTROLLER',
    ) => this.emit(type, roundId, body, source, out);
    const rules = ruleSetFor('f3cp', this.clock);
    if (rules.status !== 'implemented') throw new Error(`no implemented rules at ${this.clock}`);
    emit('RoundStarted', { roundNumber: this.roundNumber, dealerId: null, shuffleId: null });

    const seats = [...spec.seats].sort((a, b) => a.seat - b.seat);
    const playerOf = (s: SeatSpec) => (s.player === undefined ? `P${s.seat}` : s.player);
    for (const s of seats)
      for (const [betType, amount] of [
        ['ANTE', s.ante],
        ['PAIR_PLUS', s.pairPlus],
        ['SIX_CARD_BONUS', s.sixCardBonus],
        ['PROGRESSIVE', s.progressive],
      ] as [BetType, number | undefined][])
        if (amount)
          emit('BetPlaced', {
            seat: s.seat,
            betType,
            amount,
            playerId: playerOf(s),
            betId: null,
            carriedOver: betType === 'PROGRESSIVE' && s.carriedOver === true,
          });
    const anyProgressive = seats.some((s) => (s.progressive ?? 0) > 0);
    let pool = this.pool;
    // a share of each new Progressive stake goes to the pool; a carried-over stake was counted already
    const contribution = seats
      .filter((s) => s.progressive && !s.carriedOver)
      .reduce((sum, s) => sum + Math.floor((s.progressive! * this.contributionPercent) / 100), 0);
    if (pool !== null && contribution) {
      emit('JackpotPoolChanged', {
        poolBefore: pool,
        poolAfter: pool + contribution,
        reason: 'CONTRIBUTION',
      });
      pool += contribution;
    }

    // the cards: those given, then the deck in order
    const given = new Set<Card>();
    const take = (text: string | undefined) => {
      const list = text ? cardsOf(text) : [];
      list.forEach((c) => given.add(c));
      return list;
    };
    const hands = new Map(seats.map((s) => [s.seat, take(s.cards)]));
    const banker = take(spec.banker);
    const community = take(spec.community);
    const deck = (spec.deck ? cardsOf(spec.deck) : fixedDeck()).filter((c) => !given.has(c));
    let next = 0;
    const fill = (list: Card[]) => {
      while (list.length < 3) list.push(deck[next++]!);
    };
    const betSeats = seats.filter(
      (s) => (s.ante ?? 0) + (s.pairPlus ?? 0) + (s.sixCardBonus ?? 0) + (s.progressive ?? 0) > 0,
    );
    for (const s of betSeats) fill(hands.get(s.seat)!);
    fill(banker);
    while (anyProgressive && community.length < 2) community.push(deck[next++]!);

    const order = [
      ...prescribedDealOrder(
        this.mode,
        betSeats.map((s) => s.seat),
      ),
      ...prescribedCommunityDeal(this.mode, anyProgressive),
    ];
    const used = new Map<number, number>();
    order.forEach((t, i) => {
      const k = used.get(t) ?? 0;
      used.set(t, k + 1);
      const card =
        t === BANKER
          ? banker[k]!
          : t === COMMUNITY
            ? community[k]!
            : t === DISCARD
              ? deck[next++]!
              : hands.get(t)![k]!;
      const target: CardTarget =
        t === BANKER ? 'BANKER' : t === COMMUNITY ? 'COMMUNITY' : t === DISCARD ? 'DISCARD' : 'SEAT';
      emit(
        'CardDealt',
        {
          card: formatCard(card),
          target,
          seat: target === 'SEAT' ? t : null,
          faceUp: false,
          dealOrder: i + 1,
        },
        this.mode === 'SHUFFLER' ? 'SHUFFLER' : 'TABLE_CONTROLLER',
      );
    });

    // art. 12.º: each Ante plays (Play = Ante) or folds
    const decisions = new Map<number, 'PLAY' | 'FOLD'>();
    for (const s of betSeats) {
      if (!s.ante) continue;
      const [a, b, c] = hands.get(s.seat)!;
      const d = s.decision ?? (classifyThree(a!, b!, c!) >= Q64 ? 'PLAY' : 'FOLD');
      decisions.set(s.seat, d);
      emit('PlayDecision', { seat: s.seat, decision: d });
      if (d === 'PLAY')
        emit('BetPlaced', {
          seat: s.seat,
          betType: 'PLAY',
          amount: s.ante,
          playerId: playerOf(s),
          betId: null,
          carriedOver: false,
        });
    }
    if (anyProgressive) emit('CommunityCardsRevealed', { cards: community.map(formatCard) });

    const jackpotConfig = jackpotConfigOf(this.config);
    const facts: F3cpRoundFacts = {
      seats: betSeats.map((s) => ({
        seat: s.seat,
        cards: hands.get(s.seat)!,
        bets: {
          ante: s.ante ?? 0,
          play: decisions.get(s.seat) === 'PLAY' ? s.ante! : 0,
          pairPlus: s.pairPlus ?? 0,
          sixCardBonus: s.sixCardBonus ?? 0,
          progressive: s.progressive ?? 0,
        },
        ...(decisions.has(s.seat) ? { decision: decisions.get(s.seat) === 'PLAY' ? 'play' : 'fold' } : {}),
      })),
      banker,
      ...(anyProgressive ? { community } : {}),
      ...(jackpotConfig && pool !== null ? { jackpot: { config: jackpotConfig, poolBefore: pool } } : {}),
    };
    const settlement = settleF3cpRound(facts, rules.rules);
    const poolBeforeSettlement = pool;

    // art. 13.º: the outcome, then one settlement event per bet
    emit('OutcomeDeclared', {
      bankerHand: eventHand(settlement.banker.hand) as F3cpEvents['OutcomeDeclared']['bankerHand'],
      bankerQualifies: settlement.banker.qualifies,
      seats: settlement.seats
        .filter((x) => {
          const s = betSeats.find((b) => b.seat === x.seat)!;
          return (s.ante ?? 0) > 0 || (s.pairPlus ?? 0) > 0;
        })
        .map((x) => ({
          seat: x.seat,
          hand: eventHand(x.hand) as F3cpEvents['OutcomeDeclared']['bankerHand'],
          sixCardHand: null,
          progressiveHand: null,
          result:
            x.decision !== 'play'
              ? 'NONE'
              : !settlement.banker.qualifies || x.versusBanker === 'higher'
                ? 'WIN'
                : x.versusBanker === 'lower'
                  ? 'LOSE'
                  : 'TIE',
        })),
    });
    const expected = expectedDeclarations(settlement);
    for (const l of settlement.lines) {
      if (l.bet === 'progressive' && l.outcome === 'win') continue; // below, in payment order
      const d = expected.get(declaredKey(l.seat, LINE_TYPE[l.bet]))!;
      const betType = LINE_TYPE[l.bet] as BetType;
      if (d.payout)
        emit('PayoutMade', {
          seat: l.seat,
          betType: LINE_TYPE[l.bet] as BetType,
          amount: d.payout,
          betId: null,
        });
      if (d.collected) emit('BetCollected', { seat: l.seat, betType, amount: d.collected, betId: null });
      if (d.returned)
        emit('BetReturned', {
          seat: l.seat,
          betType,
          amount: d.returned,
          reason: l.outcome === 'push' ? 'push' : 'void',
          betId: null,
        });
    }
    for (const p of settlement.jackpot?.payments ?? []) {
      emit('JackpotPaid', {
        seat: p.seat,
        hand: eventHand(p.hand) as JackpotHand,
        amount: p.amount,
        poolBefore: p.poolBefore,
        poolAfter: p.poolAfter,
        paymentOrder: p.order,
        betId: null,
      });
      if (p.poolReset) {
        emit('JackpotPoolChanged', { poolBefore: p.poolBefore, poolAfter: 0, reason: 'PAYMENT' });
        emit('JackpotPoolChanged', { poolBefore: 0, poolAfter: p.poolAfter, reason: 'RESET' });
      } else if (p.poolAfter !== p.poolBefore)
        emit('JackpotPoolChanged', { poolBefore: p.poolBefore, poolAfter: p.poolAfter, reason: 'PAYMENT' });
      const stake = expected.get(declaredKey(p.seat, 'PROGRESSIVE'))!;
      emit('BetCollected', { seat: p.seat, betType: 'PROGRESSIVE', amount: stake.collected, betId: null });
    }
    emit('RoundSettled', {});
    return {
      roundId,
      events: out,
      settlement,
      poolAfter: settlement.jackpot?.poolAfter ?? pool,
      poolBeforeSettlement,
    };
  }
}

/** One clean round on a fresh table, opened and closed: the usual starting point of a fault test. */
export function cleanRound(spec: RoundSpec, table: TableConfig = {}): F3cpEvent[] {
  const t = new TableBuilder(table);
  t.round(spec);
  return t.close();
}

// ---------------------------------------------------------------------------------------------------------------
// Transformations: each returns a new list (events are deep-copied, never edited in place).

export type Transform = (events: F3cpEvent[]) => F3cpEvent[];
type Pred = (e: F3cpEvent, i: number) => boolean;

export const copy = (events: readonly F3cpEvent[]): F3cpEvent[] => structuredClone(events) as F3cpEvent[];

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
 * The events with each source's sequence numbers counted on by one in their order here, from the source's first
 * number: what a table that emitted them in this order numbered them. The edits above (insert, remove, move)
 * describe what a table emitted; `given` renumbers, so that only the sequence tests see a broken numbering.
 */
export function renumber(events: readonly F3cpEvent[]): F3cpEvent[] {
  const out = copy(events);
  const next = new Map<string, number>();
  for (const e of out) {
    const h = e.data.header;
    const n = next.get(h.sourceDevice) ?? h.sequence;
    h.sequence = n;
    next.set(h.sourceDevice, n + 1);
  }
  return out;
}

/** Every event's time moved by `ms` (a round replayed as if on another date). */
export const shiftTimes = (events: readonly F3cpEvent[], ms: number): F3cpEvent[] =>
  copy(events).map((e) => {
    e.data.header.eventTime += ms;
    return e;
  });

/**
 * Ends a round as a correct table voids it: the deal cut after `keepCards` cards (a malfunction, if any, right
 * after them), nothing of the play or settlement, every bet returned except the Progressive bets carried over.
 */
export function voidRound(
  events: readonly F3cpEvent[],
  opts: { reason: VoidReason; keepCards?: number; malfunction?: string; roundId?: string; carry?: boolean },
): F3cpEvent[] {
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
          eventLike(e.data, 'ShufflerMalfunction', {
            shufflerId: opts.malfunction,
            duringDeal: true,
            description: 'card jam',
          }),
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

function closing(
  sofar: readonly F3cpEvent[],
  roundId: string,
  opts: { reason: VoidReason; carry?: boolean },
): F3cpEvent[] {
  const carry =
    opts.carry ?? (opts.reason === 'DEALING_RULES_BROKEN' || opts.reason === 'SHUFFLER_MALFUNCTION');
  const anchor = [...sofar].reverse().find((e) => e.data.header.roundId === roundId)!.data;
  const out: F3cpEvent[] = [];
  for (const e of sofar) {
    if (e.type !== 'BetPlaced' || e.data.header.roundId !== roundId || e.data.betType === 'PLAY') continue;
    if (e.data.betType === 'PROGRESSIVE' && carry) continue; // stays on the table for the next round
    out.push(
      eventLike(anchor, 'BetReturned', {
        seat: e.data.seat,
        betType: e.data.betType,
        amount: e.data.amount,
        reason: 'round voided',
        betId: null,
      }),
    );
  }
  out.push(eventLike(anchor, 'RoundVoided', { reason: opts.reason, note: null, authorisedBy: null }));
  return out;
}
