/**
 * A simulated Fortune 3 Card Poker table: players come and go, stake and decide as their kind does, and each round
 * is the clean-round script, changed by the fault or handled irregularity the simulator assigns to it. The table
 * keeps its settings, pool and carried-over bets by the events it emitted, as the replay will read them.
 */
import type { F3cpEvent, F3cpEvents, TableOpened } from '@table-audit/schemas/events';
import { parseCard, suitOf, type Card } from '../../cards.ts';
import type { PlayedRounds, SimulatedTable, SimulatedTableSpec, TableClock } from '../../game.ts';
import { shuffledDeck, type Rng } from '../../rng.ts';
import type { DealingMode } from '../events.ts';
import type { EventContext, F3cpFault, RoundNeeds, SimulatedF3cpTable } from './fault.ts';
import { F3CP_HANDLED_IRREGULARITIES, F3CP_ROUND_FAULTS } from './faults/index.ts';
import { F3CP08_HANDLED_IRREGULARITIES, F3CP08_ROUND_FAULTS } from './faults/f3cp08.ts';
import {
  CONDUCT_SEATING,
  PLAYER_KINDS,
  type ConductSeating,
  type Player,
  type PlayerKind,
} from './players.ts';
import {
  playF3cpRound,
  shuffleEvents,
  tableEvent,
  type PlannedBet,
  type RoundPlan,
  type SeatPlay,
} from './script.ts';
import { voidCarriesProgressive } from './transforms.ts';
import { ruleSetFor } from '../../registry.ts';

const byName = (faults: readonly F3cpFault[]) => new Map(faults.map((f) => [f.name, f]));
/** the faults and handled irregularities of each era, labelled with that era's check ids */
const CATALOGUE = {
  '2025': { faults: byName(F3CP_ROUND_FAULTS), handled: byName(F3CP_HANDLED_IRREGULARITIES) },
  '2008': { faults: byName(F3CP08_ROUND_FAULTS), handled: byName(F3CP08_HANDLED_IRREGULARITIES) },
};

/** The settings every simulated table opens with (amounts in avos); the pool starts between MOP 200,000 and 690,000. */
function settings(
  seats: number,
  shuffleMode: 'MANUAL' | 'AUTOMATIC',
  pool: number,
  era2008: boolean,
): Omit<TableOpened, 'header'> {
  // a 2008 table (Despacho 78/2008 art. 5.º n.º 1): Ante, Play and Pair Plus only, no Progressive Jackpot
  if (era2008)
    return {
      game: 'F3CP',
      craps: null,
      thirteenCards: null,
      seats,
      betLimits: [
        { betType: 'ANTE', minimum: 10_000, maximum: 2_000_000 },
        { betType: 'PLAY', minimum: 10_000, maximum: 4_000_000 },
        { betType: 'PAIR_PLUS', minimum: 10_000, maximum: 500_000 },
      ],
      shuffleMode,
      jackpot: null,
      rounding: { unitAvos: 100, mode: 'DOWN' },
      currency: 'MOP',
    };
  return {
    game: 'F3CP',
    craps: null,
    thirteenCards: null,
    seats,
    betLimits: [
      { betType: 'ANTE', minimum: 10_000, maximum: 2_000_000 },
      { betType: 'PLAY', minimum: 10_000, maximum: 4_000_000 },
      { betType: 'PAIR_PLUS', minimum: 10_000, maximum: 500_000 },
      { betType: 'SIX_CARD_BONUS', minimum: 5_000, maximum: 100_000 },
      { betType: 'PROGRESSIVE', minimum: 5_000, maximum: 5_000 },
    ],
    shuffleMode,
    jackpot: {
      fixedAmounts: {
        royalFlush: 5_000_000,
        straightFlush: 500_000,
        fourOfAKind: 100_000,
        fullHouse: 30_000,
        flush: 20_000,
      },
      resetAmount: 20_000_000,
      initialPool: pool,
    },
    rounding: { unitAvos: 100, mode: 'DOWN' },
    currency: 'MOP',
  };
}

const PROGRESSIVE_STAKE = 5_000;
const cardsOf = (text: string): Card[] => text.split(' ').map(parseCard);

export class F3cpSimulatedTable implements SimulatedTable {
  readonly conductPlayers: string[] = [];
  readonly tableId: string;
  private readonly rng: Rng;
  private readonly clock: TableClock;
  private readonly seating: ConductSeating | null;
  private readonly seats: number;
  private readonly shuffleMode: 'MANUAL' | 'AUTOMATIC';
  readonly dealerId: string;
  private readonly supervisorId: string;
  private readonly shufflerId: string;
  private config: TableOpened | null = null;
  private pool: number | null;
  private readonly occupants = new Map<number, Player>();
  private roundNumber = 0;
  private nextPlayer = 1;
  /** Progressive bets a voided round left on the table for the next one (art. 17.º n.º 3) */
  private carry: { seat: number; amount: number }[] = [];
  private nextRoundChange: ((plan: RoundPlan) => RoundPlan) | null = null;
  /**
   * The table opens under the 2008 rules (its first instant's Macau date is before 2025-11-11): it offers only
   * Ante, Play and Pair Plus, and a player with a Pair Plus always plays (art. 9.º 3)). Its faults and handled
   * irregularities are the 2008 catalogue (faults/f3cp08.ts), labelled with F3CP08 check ids.
   */
  private readonly era2008: boolean;

  constructor(spec: SimulatedTableSpec) {
    this.tableId = spec.tableId;
    this.rng = spec.rng;
    this.clock = spec.clock;
    this.seating = spec.conduct ? CONDUCT_SEATING[spec.conduct] : null;
    this.dealerId = `D-${this.tableId}`;
    this.supervisorId = `PS-${this.tableId.slice(0, 3)}`;
    this.shufflerId = `SH-${this.tableId}`;
    this.seats = this.seating?.seats ?? 5 + this.rng.int(3);
    this.shuffleMode = this.rng.next() < 0.3 ? 'MANUAL' : 'AUTOMATIC';
    const lookup = ruleSetFor('f3cp', this.clock.now());
    this.era2008 = lookup.status === 'implemented' && lookup.rules.era === '2008';
    if (this.era2008 && spec.conduct)
      throw new Error(
        `table ${this.tableId}: no conduct is simulated at a 2008 table (78/2008 has no conduct article to find it under)`,
      );
    this.pool = this.era2008 ? null : 20_000_000 + this.rng.int(50) * 1_000_000;
  }

  open(): F3cpEvent[] {
    const events = [
      tableEvent(
        this,
        this.clock,
        'TableOpened',
        settings(this.seats, this.shuffleMode, this.pool ?? 0, this.era2008),
      ),
    ];
    this.follow(events, null);
    const seated = this.seating?.seated ?? 3 + this.rng.int(this.seats - 2);
    for (let seat = 1; seat <= seated; seat++) {
      const kind = this.seating?.kinds[seat] ?? PLAYER_KINDS.ordinary;
      events.push(this.sit(seat, kind));
      if (kind !== PLAYER_KINDS.ordinary) this.conductPlayers.push(this.occupants.get(seat)!.id);
    }
    return events;
  }

  canInject(fault: string, lastRound: boolean): boolean {
    const { faults, handled } = this.catalogue;
    const f = faults.get(fault);
    if (!f || this.carry.length) return false; // a round that re-states carried bets is kept clean
    return [f, ...(f.preceded ?? []).map((h) => handled.get(h)!)].every((x) =>
      this.offers(x.needs, lastRound),
    );
  }

  canHandle(irregularity: string): boolean {
    const h = this.catalogue.handled.get(irregularity);
    return h !== undefined && !this.carry.length && this.offers(h.needs, false);
  }

  playRound(fault: string | null, handled: string | null): PlayedRounds {
    const { faults, handled: handledByName } = this.catalogue;
    const f = fault !== null ? faults.get(fault) : handled !== null ? handledByName.get(handled) : undefined;
    if ((fault ?? handled) !== null && !f)
      throw new Error(`no F3CP fault or irregularity "${fault ?? handled}"`);
    const events: F3cpEvent[] = [];
    for (const name of f?.preceded ?? []) events.push(...this.play(handledByName.get(name)!).events);
    const played = this.play(f);
    events.push(...played.events, ...this.seatChanges());
    const deliveredOutOfOrder = f?.delivery?.(played.events) ?? [];
    return { events, faultyRoundId: fault !== null ? played.roundId : null, deliveredOutOfOrder };
  }

  close(): F3cpEvent[] {
    return [tableEvent(this, this.clock, 'TableClosed', { reason: 'end of session' })];
  }

  // ---------------------------------------------------------------------------------------------------------------

  private get catalogue() {
    return CATALOGUE[this.era2008 ? '2008' : '2025'];
  }

  private get dealingMode(): DealingMode {
    return this.shuffleMode === 'MANUAL' ? 'SHOE' : 'SHUFFLER';
  }

  private offers(needs: RoundNeeds = {}, lastRound: boolean): boolean {
    const occupied = this.occupants.size;
    return (
      occupied >= (needs.occupiedSeats ?? 2) &&
      (!needs.emptySeat || occupied < this.seats) &&
      (!needs.seatPastTable || this.seats < 7) &&
      (!needs.dealing || needs.dealing === this.dealingMode) &&
      (!needs.laterRound || !lastRound)
    );
  }

  /** The table as the script and the faults see it. */
  private state(): SimulatedF3cpTable {
    return {
      tableId: this.tableId,
      config: this.config!,
      dealingMode: this.dealingMode,
      pool: this.pool,
      dealerId: this.dealerId,
      contributionPercent: 50,
      seats: this.seats,
      occupants: new Map([...this.occupants].map(([seat, p]) => [seat, p.id])),
      supervisorId: this.supervisorId,
      shufflerId: this.shufflerId,
    };
  }

  private play(f: F3cpFault | undefined): { roundId: string; events: F3cpEvent[] } {
    const { rng, clock } = this;
    clock.pause(30_000 + rng.int(30_000));
    const n = String(++this.roundNumber).padStart(5, '0');
    const roundId = `${this.tableId}-R${n}`;
    const shuffleId = `${this.tableId}-S${n}`; // one shuffle per round here
    const before = f?.before?.({ table: this.state(), rng, clock }) ?? [];
    this.follow(before, null);
    const shuffle = this.shuffle(shuffleId);
    const planned = this.plan(roundId, shuffleId, f?.needs ?? {});
    let plan = this.nextRoundChange ? this.nextRoundChange(planned) : planned;
    this.nextRoundChange = null;
    const table = this.state();
    if (f?.plan) plan = f.plan(plan, { table, rng });
    const played = playF3cpRound(table, plan, clock);
    let events = [...shuffle, ...played.events];
    if (f?.events) {
      const ctx: EventContext = {
        table,
        rng,
        clock,
        roundId,
        plan,
        played,
        event: (type, body, options = {}) => {
          const source = options.source ?? 'TABLE_CONTROLLER';
          const e = tableEvent(
            this,
            clock,
            type,
            body,
            source,
            options.roundId === undefined ? roundId : options.roundId,
          );
          if (options.after) e.data.header.eventTime = options.after.header.eventTime + 1;
          return e;
        },
      };
      events = f.events(events, ctx);
    }
    this.follow(events, roundId);
    this.nextRoundChange = f?.nextRound ?? null;
    if (!events.some((e) => e.type === 'RoundVoided'))
      for (const b of planned.bets) {
        const player = this.occupants.get(b.seat);
        const ante = played.settlement.lines.find((l) => l.seat === b.seat && l.bet === 'ante');
        if (b.betType !== 'ANTE' || !ante || player?.id !== b.playerId) continue;
        player.lastStake = b.amount;
        player.lastResult = ante.outcome === 'win' ? 'win' : ante.outcome === 'lose' ? 'lose' : 'push';
      }
    return { roundId, events: [...before, ...events] };
  }

  /** The table takes its settings, pool and carried-over bets from what it reported. */
  private follow(events: readonly F3cpEvent[], roundId: string | null): void {
    for (const e of events) {
      if (e.type === 'TableOpened') {
        this.config = e.data;
        this.pool = e.data.jackpot?.initialPool ?? null;
      } else if (e.type === 'JackpotPoolChanged') this.pool = e.data.poolAfter;
      else if (
        e.type === 'RoundVoided' &&
        e.data.header.roundId === roundId &&
        voidCarriesProgressive(e.data.reason)
      )
        this.carry = events
          .filter(
            (x) =>
              x.type === 'BetPlaced' && x.data.betType === 'PROGRESSIVE' && x.data.header.roundId === roundId,
          )
          .map((x) => ({
            seat: (x.data as F3cpEvents['BetPlaced']).seat,
            amount: (x.data as F3cpEvents['BetPlaced']).amount,
          }));
    }
  }

  /** Art. 9.º before every round: by hand, cut by the banker or a player; or by the automatic shuffler. */
  private shuffle(shuffleId: string): F3cpEvent[] {
    const manual = this.shuffleMode === 'MANUAL';
    const cutter = [...this.occupants].sort(([a], [b]) => a - b)[0]!;
    const byPlayer = manual && this.rng.next() < 0.5;
    return shuffleEvents(this, this.clock, {
      mode: this.shuffleMode,
      shuffleId,
      shufflerId: manual ? null : this.shufflerId,
      shuffledBy: manual ? this.dealerId : null,
      cut: byPlayer
        ? { by: 'PLAYER', seat: cutter[0], byId: cutter[1].id }
        : { by: 'BANKER', seat: null, byId: this.dealerId },
    });
  }

  /** Every seated player bets an Ante, some the optional bets; the cards come from a freshly shuffled deck. */
  private plan(roundId: string, shuffleId: string, needs: RoundNeeds): RoundPlan {
    const { rng } = this;
    const seats = [...this.occupants.keys()].sort((a, b) => a - b);
    const jackpotHands = new Map(
      needs.jackpot?.hands.map((h) => [seats[h.seatIndex]!, cardsOf(h.cards)]) ?? [],
    );
    const bets: PlannedBet[] = [];
    for (const seat of seats) {
      const p = this.occupants.get(seat)!;
      const carried = this.carry.find((c) => c.seat === seat);
      const bet = (betType: PlannedBet['betType'], amount: number, carriedOver = false) =>
        bets.push({ seat, betType, amount, playerId: p.id, carriedOver });
      bet('ANTE', p.kind.stake(p, rng));
      if (rng.next() < 0.4) bet('PAIR_PLUS', rng.pick([10_000, 20_000, 50_000]));
      if (this.era2008) continue;
      if (rng.next() < 0.25) bet('SIX_CARD_BONUS', rng.pick([5_000, 10_000]));
      if (carried) bet('PROGRESSIVE', carried.amount, true);
      else if (
        needs.progressive !== 'none' &&
        (jackpotHands.has(seat) ||
          (needs.progressive === 'first-seat' && seat === seats[0]) ||
          rng.next() < 0.3)
      )
        bet('PROGRESSIVE', PROGRESSIVE_STAKE);
    }
    this.carry = [];
    // colluders decide knowing the cards of the colluders within two seats
    const play = new Map<number, SeatPlay>();
    const shares = (s: number) => this.occupants.get(s)!.kind.sharesCards;
    for (const seat of seats.filter(shares))
      play.set(seat, { seesSeats: seats.filter((s) => s !== seat && Math.abs(s - seat) <= 2 && shares(s)) });
    // 78/2008 art. 9.º 3): Ante and Pair Plus oblige the Play bet
    if (this.era2008)
      for (const b of bets) if (b.betType === 'PAIR_PLUS') play.set(b.seat, { decision: 'PLAY' });
    let deck = shuffledDeck(rng);
    const community = needs.jackpot ? cardsOf(needs.jackpot.community) : [];
    if (community.length) {
      // the other hands get no card of the jackpot suit, so no other jackpot hand can arise
      const suit = suitOf(community[0]!);
      deck = [...deck.filter((c) => suitOf(c) !== suit), ...deck.filter((c) => suitOf(c) === suit)];
    }
    return {
      roundId,
      roundNumber: this.roundNumber,
      shuffleId,
      bets,
      hands: jackpotHands,
      community,
      deck,
      play,
    };
  }

  /** Between rounds a few players leave and others sit down; the table keeps at least two. */
  private seatChanges(): F3cpEvent[] {
    if (this.seating?.fixedSeating || this.carry.length) return [];
    const out: F3cpEvent[] = [];
    for (const [seat, p] of [...this.occupants])
      if (p.kind === PLAYER_KINDS.ordinary && this.rng.next() < 0.03) {
        out.push(tableEvent(this, this.clock, 'SeatVacated', { seat, playerId: p.id }, 'SEAT_SENSOR'));
        this.occupants.delete(seat);
      }
    for (let seat = 1; seat <= this.seats; seat++)
      if (!this.occupants.has(seat) && this.rng.next() < 0.1) out.push(this.sit(seat, PLAYER_KINDS.ordinary));
    if (this.occupants.size < 2)
      for (let seat = 1; seat <= this.seats && this.occupants.size < 3; seat++)
        if (!this.occupants.has(seat)) out.push(this.sit(seat, PLAYER_KINDS.ordinary));
    return out;
  }

  private sit(seat: number, kind: PlayerKind): F3cpEvent {
    const p: Player = {
      id: `P${this.tableId.replaceAll('-', '')}-${this.nextPlayer++}`,
      kind,
      base: kind.base(this.rng),
      lastStake: 0,
      lastResult: 'push',
    };
    this.occupants.set(seat, p);
    return tableEvent(this, this.clock, 'SeatOccupied', { seat, playerId: p.id }, 'SEAT_SENSOR');
  }
}
