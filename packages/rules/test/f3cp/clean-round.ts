/**
 * The Given/When/Then tests' table: a thin layer over the production clean-round script
 * (src/f3cp/simulation/script.ts) with a test clock (one second per event, a minute between rounds), the tests'
 * default settings, and cards named in text. Fault tests start from these events and change one thing with the
 * transforms of src/f3cp/simulation/transforms.ts.
 */
import type {
  BetLimit,
  BetType,
  EventHeader,
  F3cpEvent,
  F3cpEvents,
  JackpotSettings,
  SourceKind,
  TableOpened,
  VoidReason,
} from '@table-audit/schemas/events';
import { parseCard, type Card } from '../../src/cards.ts';
import type { DealingMode } from '../../src/f3cp/events.ts';
import type { F3cpSettlement } from '../../src/f3cp/index.ts';
import {
  playF3cpRound,
  shuffleEvents,
  type PlannedBet,
  type RoundPlan,
  type SeatPlay,
} from '../../src/f3cp/simulation/script.ts';
import { copy, voidRound, type Transform } from '../../src/f3cp/simulation/transforms.ts';
import type { TableClock } from '../../src/game.ts';
import { seededRng, shuffledDeck } from '../../src/rng.ts';

export {
  change,
  copy,
  eventLike,
  first,
  insertAfter,
  insertBefore,
  is,
  moveBefore,
  removeWhere,
  shiftTimes,
  swapDealt,
  voidRound,
  type Transform,
} from '../../src/f3cp/simulation/transforms.ts';

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
export const fixedDeck = (seed = 7): Card[] => shuffledDeck(seededRng(seed));

export const cardsOf = (text: string): Card[] => text.trim().split(/\s+/).map(parseCard);

const DEVICE: Record<SourceKind, string> = {
  TABLE_CONTROLLER: 'TC',
  SHUFFLER: 'SH',
  SEAT_SENSOR: 'SS',
  SURVEILLANCE: 'CAM',
  UNKNOWN: 'XX',
};

/** What a built round was: its events and the engine's settlement. */
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
  /** one second between events, casino and devices of the tests */
  private readonly tableClock: TableClock = {
    now: () => this.clock,
    pause: (ms) => void (this.clock += ms),
    stamp: (source, roundId, staffId) => {
      this.clock += 1_000;
      const device = `${DEVICE[source]}-${this.tableId}`;
      const sequence = (this.sequences.get(device) ?? 0) + 1;
      this.sequences.set(device, sequence);
      return {
        eventId: `${device}-${sequence}`,
        staffId,
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
    },
  };

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
      craps: null,
      thirteenCards: null,
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
    const header: EventHeader = this.tableClock.stamp(source, roundId, null);
    const data = { header, ...body } as F3cpEvents[K];
    into.push({ type, data } as F3cpEvent);
    return data;
  }

  /** Art. 9.º: manual with a cut by the cut card (n.º 2), automatic with none (n.º 3). */
  shuffle(mode: 'MANUAL' | 'AUTOMATIC' = this.mode === 'SHOE' ? 'MANUAL' : 'AUTOMATIC'): this {
    const manual = mode === 'MANUAL';
    this.events.push(
      ...shuffleEvents({ dealerId: null }, this.tableClock, {
        mode,
        shuffleId: null,
        shufflerId: manual ? null : `SH-${this.tableId}`,
        shuffledBy: null,
        cut: { by: 'BANKER', seat: null, byId: null },
      }),
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

  private build(spec: RoundSpec) {
    this.clock += 60_000;
    const roundId = spec.roundId ?? `${this.tableId}-R${String(++this.roundNumber).padStart(3, '0')}`;
    for (const s of spec.seats) if (s.player !== null) this.seat(s.seat, s.player ?? `P${s.seat}`);
    const seats = [...spec.seats].sort((a, b) => a.seat - b.seat);
    const bets: PlannedBet[] = [];
    const play = new Map<number, SeatPlay>();
    for (const s of seats) {
      const playerId = s.player === undefined ? `P${s.seat}` : s.player;
      for (const [betType, amount] of [
        ['ANTE', s.ante],
        ['PAIR_PLUS', s.pairPlus],
        ['SIX_CARD_BONUS', s.sixCardBonus],
        ['PROGRESSIVE', s.progressive],
      ] as [Exclude<BetType, 'PLAY' | 'UNKNOWN'>, number | undefined][])
        if (amount)
          bets.push({
            seat: s.seat,
            betType,
            amount,
            playerId,
            carriedOver: betType === 'PROGRESSIVE' && s.carriedOver === true,
          });
      if (s.decision) play.set(s.seat, { decision: s.decision });
    }
    const plan: RoundPlan = {
      roundId,
      roundNumber: this.roundNumber,
      shuffleId: null,
      bets,
      hands: new Map(seats.filter((s) => s.cards).map((s) => [s.seat, cardsOf(s.cards!)])),
      banker: spec.banker ? cardsOf(spec.banker) : [],
      community: spec.community ? cardsOf(spec.community) : [],
      deck: spec.deck ? cardsOf(spec.deck) : fixedDeck(),
      play,
    };
    const table = {
      tableId: this.tableId,
      config: this.config,
      dealingMode: this.mode,
      pool: this.pool,
      dealerId: null,
      contributionPercent: this.contributionPercent,
    };
    return playF3cpRound(table, plan, this.tableClock);
  }
}

/** One clean round on a fresh table, opened and closed: the usual starting point of a fault test. */
export function cleanRound(spec: RoundSpec, table: TableConfig = {}): F3cpEvent[] {
  const t = new TableBuilder(table);
  t.round(spec);
  return t.close();
}

/**
 * Each source's events numbered 1 more than its last, in the order they are listed: the events a test writes
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
