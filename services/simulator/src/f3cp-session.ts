import {
  classifyThree,
  jackpotConfigOf,
  F3CP_2025A,
  formatCard,
  parseCard,
  playDecisionOracle,
  ruleSetFor,
  settleF3cpRound,
  suitOf,
  type Card,
  type F3cpRoundFacts,
  type F3cpRuleSet,
  type F3cpSettlement,
  type SettlementLine,
} from '@table-audit/rules';
import type {
  BetType,
  CardTarget,
  EventHeader,
  F3cpEvent,
  F3cpEvents,
  SourceKind,
  TableOpened,
} from '@table-audit/schemas/events';
import {
  FAULTS,
  HANDLED_IRREGULARITIES,
  ROUND_FAULTS,
  type GroundTruth,
  type HandledIrregularity,
  type RoundFault,
} from './faults.ts';
import { rng, shuffledDeck, type Rng } from './rng.ts';

export interface SessionOptions {
  seed: number;
  tables: number;
  roundsPerTable: number;
  /** first event time, UTC ms; the rule set follows from the Macau date */
  start: number;
  /** share of rounds given one of `faults` (assigned in turn, so every kind appears) */
  faultRate: number;
  faults: readonly RoundFault[];
  /** share of rounds given an irregularity that the table handles correctly (must raise nothing) */
  handledRate: number;
  /** tables with one player who doubles the Ante after each loss */
  bettingSystemTables: number;
  /** tables with three adjacent players who share their cards, and how many rounds those tables play */
  collusionTables: number;
  collusionRounds: number;
}

export const DEFAULT_SESSION: SessionOptions = {
  seed: 1,
  tables: 10,
  roundsPerTable: 50,
  start: Date.parse('2025-12-01T04:00:00Z'),
  faultRate: 0,
  faults: ROUND_FAULTS,
  handledRate: 0,
  bettingSystemTables: 0,
  collusionTables: 0,
  collusionRounds: 400,
};

export interface Session {
  tables: { tableId: string; events: F3cpEvent[] }[];
  truth: GroundTruth[];
  /** every event of every table, by event time (ties keep table order) */
  events: F3cpEvent[];
}

const CASINOS: [string, string][] = [
  ['Casino Lisboa', 'SJM Resorts'],
  ['Galaxy Macau', 'Galaxy Casino'],
  ['The Venetian Macao', 'Venetian Macau'],
  ['MGM Cotai', 'MGM Grand Paradise'],
  ['Wynn Palace', 'Wynn Resorts (Macau)'],
  ['City of Dreams', 'Melco Resorts (Macau)'],
];
const STAKES = [10_000, 20_000, 50_000, 100_000];
const Q64 = 10 * 256 + 4 * 16 + 2; // Q-6-4 as classifyThree encodes it

/** Generates seeded, reproducible table sessions with labelled faults. */
export function simulateSession(options: Partial<SessionOptions> = {}): Session {
  const o = { ...DEFAULT_SESSION, ...options };
  const r = rng(o.seed);
  const truth: GroundTruth[] = [];
  const tables: Session['tables'] = [];
  const delivered: number[][] = [];
  let faultTurn = 0;
  let handledTurn = 0;
  for (let t = 0; t < o.tables; t++) {
    const colluding = t < o.collusionTables;
    const martingale = !colluding && t < o.collusionTables + o.bettingSystemTables;
    const sim = new TableSim(r, t, o.start + t * 1_000, truth, { colluding, martingale });
    const rounds = colluding ? o.collusionRounds : o.roundsPerTable;
    for (let i = 0; i < rounds; i++) {
      let fault: RoundFault | undefined;
      let handled: HandledIrregularity | undefined;
      if (!colluding && o.faults.length && r.next() < o.faultRate) {
        for (let k = 0; k < o.faults.length && !fault; k++) {
          const candidate = o.faults[(faultTurn + k) % o.faults.length]!;
          if (sim.canInject(candidate, i === rounds - 1)) {
            fault = candidate;
            faultTurn = (faultTurn + k + 1) % o.faults.length;
          }
        }
      } else if (!colluding && r.next() < o.handledRate) {
        const candidate = HANDLED_IRREGULARITIES[handledTurn++ % HANDLED_IRREGULARITIES.length]!;
        if (sim.canHandle(candidate)) handled = candidate;
      }
      sim.round(fault, handled);
    }
    sim.close();
    tables.push({ tableId: sim.tableId, events: sim.events });
    delivered.push(sim.delivered);
  }
  // interleaved by when each event reached the pipeline (an event may carry a wrong time of its own)
  const order = tables.flatMap((x, t) => x.events.map((e, i) => ({ e, at: delivered[t]![i]! })));
  const events = order.sort((a, b) => a.at - b.at).map((x) => x.e);
  return { tables, truth, events };
}

interface Player {
  id: string;
  kind: 'honest' | 'martingale' | 'colluder';
  base: number;
  lastStake: number;
  lastResult: 'win' | 'lose' | 'push';
}

interface DealtCard {
  card: Card;
  target: CardTarget;
  seat: number | null;
  faceUp: boolean;
}

/** A bet's id: one bet of each type per seat and round, so the round, seat and type name it. */
const betIdOf = (roundId: string, seat: number, betType: BetType): string => `${roundId}/${seat}-${betType}`;

class TableSim {
  readonly tableId: string;
  readonly events: F3cpEvent[] = [];
  /** when each event reached the pipeline: its own time, unless a fault gave it a wrong one */
  readonly delivered: number[] = [];
  private readonly casino: string;
  private readonly concessionaire: string;
  private readonly seats: number;
  private readonly mode: 'MANUAL' | 'AUTOMATIC';
  private config: TableOpened;
  /** the table's dealer (staff id), and the pit supervisor who authorises voids */
  private readonly dealer: string;
  private readonly supervisor: string;
  private clock: number;
  private readonly sequence = new Map<string, number>();
  private readonly occupants = new Map<number, Player>();
  private pool: number;
  private roundNumber = 0;
  private nextPlayer = 1;
  private carry: { seat: number; amount: number }[] = [];
  private suppressCarry = false;
  private readonly oracle = playDecisionOracle(F3CP_2025A);

  constructor(
    private readonly r: Rng,
    index: number,
    start: number,
    private readonly truth: GroundTruth[],
    private readonly kind: { colluding: boolean; martingale: boolean },
  ) {
    const [casino, concessionaire] = CASINOS[index % CASINOS.length]!;
    this.casino = casino;
    this.concessionaire = concessionaire;
    this.tableId = `${casino.split(' ').pop()!.slice(0, 3).toUpperCase()}-F3-${String(index + 1).padStart(3, '0')}`;
    this.clock = start;
    this.dealer = `D-${this.tableId}`;
    this.supervisor = `PS-${this.tableId.slice(0, 3)}`;
    this.seats = kind.colluding ? 7 : 5 + r.int(3);
    this.mode = r.next() < 0.3 ? 'MANUAL' : 'AUTOMATIC';
    this.pool = 20_000_000 + r.int(50) * 1_000_000;
    this.config = this.emit('TableOpened', 'TABLE_CONTROLLER', null, {
      game: 'F3CP',
      seats: this.seats,
      betLimits: [
        { betType: 'ANTE', minimum: 10_000, maximum: 2_000_000 },
        { betType: 'PLAY', minimum: 10_000, maximum: 4_000_000 },
        { betType: 'PAIR_PLUS', minimum: 10_000, maximum: 500_000 },
        { betType: 'SIX_CARD_BONUS', minimum: 5_000, maximum: 100_000 },
        { betType: 'PROGRESSIVE', minimum: 5_000, maximum: 5_000 },
      ],
      shuffleMode: this.mode,
      jackpot: {
        fixedAmounts: {
          royalFlush: 5_000_000,
          straightFlush: 500_000,
          fourOfAKind: 100_000,
          fullHouse: 30_000,
          flush: 20_000,
        },
        resetAmount: 20_000_000,
        initialPool: this.pool,
      },
      rounding: { unitAvos: 100, mode: 'DOWN' },
      currency: 'MOP',
    }) as TableOpened;
    const initial = kind.colluding ? 7 : 3 + r.int(this.seats - 2);
    for (let seat = 1; seat <= initial; seat++)
      this.seat(
        seat,
        kind.martingale && seat === 1
          ? 'martingale'
          : kind.colluding && seat >= 3 && seat <= 5
            ? 'colluder'
            : 'honest',
      );
    const special = [...this.occupants.values()].filter((p) => p.kind !== 'honest');
    if (kind.martingale)
      truth.push({
        tableId: this.tableId,
        roundId: null,
        fault: 'betting-system',
        checkIds: ['F3CP.CONDUCT.BETTING_SYSTEM'],
        players: special.map((p) => p.id),
      });
    if (kind.colluding)
      truth.push({
        tableId: this.tableId,
        roundId: null,
        fault: 'collusion',
        checkIds: ['F3CP.CONDUCT.COLLUSION'],
        players: special.map((p) => p.id),
      });
  }

  canInject(f: RoundFault, lastRound: boolean): boolean {
    const occupied = this.occupants.size;
    if (this.carry.length) return false; // keep a carry-over round clean
    if (f === 'jackpot-not-carried' && lastRound) return false; // judged in the next round, and there is none
    if (f === 'shuffler-not-suspended' || f === 'play-after-second-failure') return this.mode === 'AUTOMATIC';
    if (f === 'void-cards-used') return occupied < this.seats;
    if (f === 'bet-no-such-seat') return this.seats < 7 && occupied >= 2;
    if (f === 'void-progressive-collected') return !lastRound && occupied >= 3;
    if (
      f === 'bet-other-hand' ||
      f.startsWith('misdeal') ||
      f === 'jackpot-not-carried' ||
      f === 'jackpot-order'
    )
      return occupied >= 3;
    return occupied >= 2;
  }

  canHandle(h: HandledIrregularity): boolean {
    if (this.carry.length) return false;
    if (h === 'malfunction-handled') return this.mode === 'AUTOMATIC';
    if (h === 'card-to-empty-seat') return this.occupants.size < this.seats;
    return this.occupants.size >= 2;
  }

  close(): void {
    this.emit('TableClosed', 'TABLE_CONTROLLER', null, { reason: 'end of session' });
  }

  // ---------------------------------------------------------------------------------------------------------------

  round(fault?: RoundFault, handled?: HandledIrregularity): void {
    if (fault === 'play-after-second-failure') {
      this.round(undefined, 'malfunction-handled');
      this.round(undefined, 'malfunction-handled');
      this.playRound('play-after-second-failure', undefined);
      this.emit('ShufflerReplaced', 'TABLE_CONTROLLER', null, {
        oldShufflerId: this.shufflerId(),
        newShufflerId: `${this.shufflerId()}-b`,
      });
      return;
    }
    this.playRound(fault, handled);
    if (fault === 'shuffler-not-suspended')
      this.emit('ShufflerReplaced', 'TABLE_CONTROLLER', null, {
        oldShufflerId: this.shufflerId(),
        newShufflerId: `${this.shufflerId()}-b`,
      });
    this.seatChanges();
  }

  private playRound(fault: RoundFault | undefined, handled: HandledIrregularity | undefined): void {
    const r = this.r;
    this.roundNumber++;
    const roundId = `${this.tableId}-R${String(this.roundNumber).padStart(5, '0')}`;
    if (fault) this.truth.push({ tableId: this.tableId, roundId, fault, checkIds: FAULTS[fault] });
    this.clock += 30_000 + r.int(30_000);

    if (fault === 'table-reconfigured' || fault === 'pool-changed-unrecorded') {
      // opened again mid-session, without TableClosed: other limits, or a pool the jackpot system never reported
      const { header: _, ...settings } = this.config;
      if (fault === 'pool-changed-unrecorded') this.pool += 1_000_000;
      this.config = this.emit('TableOpened', 'TABLE_CONTROLLER', null, {
        ...settings,
        betLimits:
          fault === 'table-reconfigured'
            ? settings.betLimits.map((l) => (l.betType === 'ANTE' ? { ...l, maximum: 3_000_000 } : l))
            : settings.betLimits,
        jackpot: settings.jackpot && { ...settings.jackpot, initialPool: this.pool },
      }) as TableOpened;
    }

    // shuffle (art. 9.º)
    const manual = this.mode === 'MANUAL';
    const badShuffle = fault === 'shuffle-procedure';
    const shuffleId = `${this.tableId}-S${String(this.roundNumber).padStart(5, '0')}`; // one shuffle per round here
    this.emit('ShuffleStarted', manual ? 'TABLE_CONTROLLER' : 'SHUFFLER', null, {
      mode: this.mode,
      shufflerId: manual ? null : this.shufflerId(),
      shuffleId,
    });
    const cutBySeat = manual ? [...this.occupants.keys()][0]! : null;
    const cutBy = manual && !badShuffle ? (r.next() < 0.5 ? 'BANKER' : 'PLAYER') : 'NONE';
    this.emit('ShuffleCompleted', manual ? 'TABLE_CONTROLLER' : 'SHUFFLER', null, {
      mode: this.mode,
      shufflerId: manual ? null : this.shufflerId(),
      cutCardUsed: manual ? !badShuffle : badShuffle,
      cutBy,
      cutBySeat: manual && !badShuffle ? cutBySeat : null,
      shuffleId,
      shuffledBy: manual ? this.dealer : null,
      cutById:
        cutBy === 'BANKER' ? this.dealer : cutBy === 'PLAYER' ? this.occupants.get(cutBySeat!)!.id : null,
    });
    if (fault !== 'round-not-started')
      this.emit('RoundStarted', 'TABLE_CONTROLLER', roundId, {
        roundNumber: this.roundNumber,
        dealerId: this.dealer,
        shuffleId,
      });

    // bets (art. 10.º): every occupied seat bets an Ante; optional bets on some
    const seatsAsc = [...this.occupants.keys()].sort((a, b) => a - b);
    const bets = new Map<
      number,
      { ante: number; pairPlus: number; six: number; progressive: number; carried: boolean; player: Player }
    >();
    const needsProgressive =
      fault === 'jackpot-order' ||
      fault === 'jackpot-amount' ||
      fault === 'jackpot-pool' ||
      fault === 'misdeal-community-settled' ||
      fault === 'jackpot-not-carried' ||
      fault === 'jackpot-paid-twice' ||
      fault === 'community-revealed-early' ||
      fault === 'void-progressive-collected' ||
      handled === 'malfunction-handled';
    const noProgressive = fault === 'community-revealed-without-bets';
    const onlySix = fault === 'additional-without-basic' ? seatsAsc[seatsAsc.length - 1]! : -1;
    const jackpotSeats =
      fault === 'jackpot-order'
        ? [seatsAsc[0]!, seatsAsc[2]!]
        : fault === 'jackpot-amount' || fault === 'jackpot-pool' || fault === 'jackpot-paid-twice'
          ? [seatsAsc[0]!]
          : [];
    for (const seat of seatsAsc) {
      const p = this.occupants.get(seat)!;
      // a table that fails to carry Progressive bets over (art. 17.º n.º 3) simply does not re-state them
      const carried = this.suppressCarry ? undefined : this.carry.find((c) => c.seat === seat);
      const ante =
        seat === onlySix
          ? 0
          : fault === 'bet-over-limit' && seat === seatsAsc[0]
            ? 2_010_000
            : this.stakeFor(p);
      const progressive = carried
        ? carried.amount
        : noProgressive
          ? 0
          : jackpotSeats.includes(seat) || (needsProgressive && seat === seatsAsc[0]) || r.next() < 0.3
            ? 5_000
            : 0;
      bets.set(seat, {
        ante,
        pairPlus: seat !== onlySix && r.next() < 0.4 ? r.pick([10_000, 20_000, 50_000]) : 0,
        six: seat === onlySix || r.next() < 0.25 ? r.pick([5_000, 10_000]) : 0,
        progressive,
        carried: carried !== undefined,
        player: p,
      });
    }
    if (fault === 'bet-no-such-seat') {
      // a hand on a seat the table does not have, played like any other
      const ghost: Player = {
        id: `P-${roundId}-X`,
        kind: 'honest',
        base: 10_000,
        lastStake: 0,
        lastResult: 'push',
      };
      bets.set(this.seats + 1, {
        ante: 10_000,
        pairPlus: 0,
        six: 0,
        progressive: 0,
        carried: false,
        player: ghost,
      });
    }
    this.suppressCarry = false;
    this.carry = [];
    for (const [seat, b] of bets) {
      const player = b.player.id;
      if (b.ante) this.bet(roundId, seat, 'ANTE', b.ante, player);
      if (b.pairPlus) this.bet(roundId, seat, 'PAIR_PLUS', b.pairPlus, player);
      if (b.six) this.bet(roundId, seat, 'SIX_CARD_BONUS', b.six, player);
      if (b.progressive) this.bet(roundId, seat, 'PROGRESSIVE', b.progressive, player, b.carried);
    }
    if (fault === 'bet-other-hand') {
      const [a, b] = [seatsAsc[0]!, seatsAsc[1]!];
      this.bet(roundId, b, 'PAIR_PLUS', 10_000, this.occupants.get(a)!.id);
      bets.get(b)!.pairPlus += 10_000;
    }
    const anyProgressive = [...bets.values()].some((b) => b.progressive > 0);
    const contribution = [...bets.values()]
      .filter((b) => b.progressive && !b.carried)
      .reduce((s, b) => s + b.progressive / 2, 0);
    if (contribution) this.poolChange(roundId, this.pool + contribution, 'CONTRIBUTION');

    // the deal (art. 11.º)
    const betSeats = [...bets.keys()]
      .sort((a, b) => a - b)
      .filter((s) => {
        const b = bets.get(s)!;
        return b.ante + b.pairPlus + b.six + b.progressive > 0;
      });
    const targets: { target: CardTarget; seat: number | null }[] = [];
    if (manual)
      for (let k = 0; k < 3; k++) for (const s of betSeats) targets.push({ target: 'SEAT', seat: s });
    else for (const s of betSeats) for (let k = 0; k < 3; k++) targets.push({ target: 'SEAT', seat: s });
    for (let k = 0; k < 3; k++) targets.push({ target: 'BANKER', seat: null });
    const earlyPlay = fault === 'play-before-deal' ? betSeats.find((x) => bets.get(x)!.ante > 0) : undefined;
    if (earlyPlay !== undefined)
      this.bet(roundId, earlyPlay, 'PLAY', bets.get(earlyPlay)!.ante, bets.get(earlyPlay)!.player.id);
    const dealCommunity = anyProgressive || fault === 'community-revealed-without-bets';
    if (dealCommunity) {
      if (!manual) targets.push({ target: 'DISCARD', seat: null });
      targets.push({ target: 'COMMUNITY', seat: null }, { target: 'COMMUNITY', seat: null });
    }
    const deck = this.deckFor(fault, targets, jackpotSeats);
    const dealt: DealtCard[] = targets.map((t, i) => ({
      card: deck[i]!,
      target: t.target,
      seat: t.seat,
      faceUp: false,
    }));
    let next = targets.length;
    // faults and irregularities in the deal
    const events: DealtCard[] = [...dealt];
    if (
      fault === 'misdeal-order-settled' ||
      fault === 'misdeal-order-voided' ||
      fault === 'jackpot-not-carried' ||
      fault === 'void-progressive-collected'
    ) {
      const i = events.findIndex(
        (d, k) =>
          k > 0 && d.target === 'SEAT' && d.seat !== events[k - 1]!.seat && events[k - 1]!.target === 'SEAT',
      );
      [events[i - 1], events[i]] = [events[i]!, events[i - 1]!];
    }
    if (fault === 'misdeal-count-settled')
      events.splice(
        events.findIndex((d) => d.target === 'BANKER'),
        0,
        { card: deck[next++]!, target: 'SEAT', seat: betSeats[0]!, faceUp: false },
      );
    if (fault === 'misdeal-community-settled')
      events.splice(
        events.findIndex((d) => d.target === 'COMMUNITY'),
        1,
      );
    if (fault === 'card-face-up') events[1]!.faceUp = true;
    if (fault === 'banker-card-face-up' || fault === 'banker-card-face-up-voided')
      events.find((d) => d.target === 'BANKER')!.faceUp = true;
    if (fault === 'card-twice') events[4] = { ...events[4]!, card: events[0]!.card };
    if (fault === 'void-cards-used' || handled === 'card-to-empty-seat') {
      const empty = [...Array(this.seats).keys()].map((x) => x + 1).find((s) => !this.occupants.has(s))!;
      events.splice(1 + r.int(events.length - 4), 0, {
        card: deck[next++]!,
        target: 'SEAT',
        seat: empty,
        faceUp: false,
      });
    }
    const exposeAfter =
      fault === 'banker-exposed-not-voided' || fault === 'void-bets-collected'
        ? events.findIndex((d) => d.target === 'BANKER')
        : fault === 'wrongly-voided' || handled === 'one-card-exposed'
          ? 2
          : -1;
    const malfunctionAfter = fault === 'shuffler-not-suspended' || handled === 'malfunction-handled' ? 4 : -1;
    // a malfunction handled as the law says stops the deal at once; everything else deals to the end
    const stopAt = handled === 'malfunction-handled' ? malfunctionAfter : events.length;
    for (let i = 0; i < events.length && i < stopAt; i++) {
      const d = events[i]!;
      this.emit('CardDealt', manual ? 'TABLE_CONTROLLER' : 'SHUFFLER', roundId, {
        card: formatCard(d.card),
        target: d.target,
        seat: d.seat,
        faceUp: d.faceUp,
        dealOrder: i + 1,
      });
      if (i === 0 && fault === 'bet-late') {
        const seat = betSeats.find((s) => bets.get(s)!.ante > 0)!;
        this.bet(roundId, seat, 'PAIR_PLUS', 10_000, this.occupants.get(seat)!.id);
        bets.get(seat)!.pairPlus += 10_000;
      }
      if (i === exposeAfter)
        this.emit('CardExposed', 'SURVEILLANCE', roundId, {
          card: formatCard(d.card),
          target: d.target,
          seat: d.seat,
          duringDeal: true,
        });
      if (i + 1 === malfunctionAfter)
        this.emit('ShufflerMalfunction', 'SHUFFLER', roundId, {
          shufflerId: this.shufflerId(),
          duringDeal: true,
          description: 'card jam in the dispensing tray',
        });
    }

    // voided rounds (art. 17.º)
    const voidReason =
      handled === 'malfunction-handled'
        ? 'SHUFFLER_MALFUNCTION'
        : fault === 'misdeal-order-voided' ||
            fault === 'jackpot-not-carried' ||
            fault === 'void-progressive-collected'
          ? 'DEALING_RULES_BROKEN'
          : fault === 'void-bets-collected' || fault === 'banker-card-face-up-voided'
            ? 'BANKER_CARD_EXPOSED'
            : fault === 'wrongly-voided'
              ? 'PLAYER_CARDS_EXPOSED'
              : null;
    if (voidReason) {
      const carries = voidReason === 'SHUFFLER_MALFUNCTION' || voidReason === 'DEALING_RULES_BROKEN';
      for (const [seat, b] of bets) {
        for (const [type, amount] of [
          ['ANTE', b.ante],
          ['PAIR_PLUS', b.pairPlus],
          ['SIX_CARD_BONUS', b.six],
          ['PROGRESSIVE', b.progressive],
        ] as [BetType, number][]) {
          if (!amount) continue;
          if (type === 'PROGRESSIVE' && carries) {
            this.carry.push({ seat, amount });
            // the stake goes to the next round and is collected here as well
            if (fault === 'void-progressive-collected')
              this.emit('BetCollected', 'TABLE_CONTROLLER', roundId, {
                seat,
                betType: type,
                amount,
                betId: betIdOf(roundId, seat, type),
              });
            continue;
          }
          const betId = betIdOf(roundId, seat, type);
          if (fault === 'void-bets-collected' && type === 'ANTE')
            this.emit('BetCollected', 'TABLE_CONTROLLER', roundId, { seat, betType: type, amount, betId });
          else
            this.emit('BetReturned', 'TABLE_CONTROLLER', roundId, {
              seat,
              betType: type,
              amount,
              reason: 'round voided',
              betId,
            });
        }
      }
      this.emit('RoundVoided', 'TABLE_CONTROLLER', roundId, {
        reason: voidReason,
        note: null,
        authorisedBy: this.supervisor,
      });
      if (fault === 'jackpot-not-carried') this.suppressCarry = true;
      if (handled === 'malfunction-handled') {
        const reshuffle = `${shuffleId}-R`; // the shuffler's replacement shuffles again
        this.emit('ShuffleStarted', 'SHUFFLER', null, {
          mode: this.mode,
          shufflerId: this.shufflerId(),
          shuffleId: reshuffle,
        });
        this.emit('ShuffleCompleted', 'SHUFFLER', null, {
          mode: this.mode,
          shufflerId: this.shufflerId(),
          cutCardUsed: false,
          cutBy: 'NONE',
          cutBySeat: null,
          shuffleId: reshuffle,
          shuffledBy: null,
          cutById: null,
        });
      }
      return;
    }

    // decisions (art. 12.º)
    if (fault === 'community-revealed-early')
      this.emit('CommunityCardsRevealed', 'TABLE_CONTROLLER', roundId, {
        cards: dealt.filter((d) => d.target === 'COMMUNITY').map((d) => formatCard(d.card)),
      });
    const cardsOf = (seat: number) =>
      dealt.filter((d) => d.target === 'SEAT' && d.seat === seat).map((d) => d.card);
    const groupCards = (seat: number) =>
      [...bets.keys()]
        .filter((s) => s !== seat && Math.abs(s - seat) <= 2 && bets.get(s)!.player.kind === 'colluder')
        .flatMap(cardsOf);
    const decisions = new Map<number, 'play' | 'fold'>();
    for (const seat of betSeats) {
      const b = bets.get(seat)!;
      if (!b.ante) continue;
      const hand = cardsOf(seat);
      // these faults need a Play bet
      const forced = (fault === 'play-not-equal-ante' && seat === betSeats[0]) || seat === earlyPlay;
      const plays =
        forced ||
        (b.player.kind === 'colluder'
          ? this.oracle.plays(hand, groupCards(seat))
          : classifyThree(hand[0]!, hand[1]!, hand[2]!) >= Q64);
      decisions.set(seat, plays ? 'play' : 'fold');
      this.emit('PlayDecision', 'TABLE_CONTROLLER', roundId, { seat, decision: plays ? 'PLAY' : 'FOLD' });
      if (plays && seat !== earlyPlay)
        this.bet(
          roundId,
          seat,
          'PLAY',
          fault === 'play-not-equal-ante' && seat === betSeats[0] ? b.ante * 2 : b.ante,
          b.player.id,
        );
    }
    if (fault === 'left-seat') {
      const seat = betSeats[0]!;
      this.emit('SeatVacated', 'SEAT_SENSOR', null, { seat, playerId: this.occupants.get(seat)!.id });
    }
    const observation =
      fault === 'recording-observed'
        ? 'NOTES'
        : fault === 'card-reveal'
          ? 'CARD_SHOWN_TO_THIRD_PARTY'
          : fault === 'non-seated-handling'
            ? 'NON_SEATED_HANDLING'
            : null;
    if (observation) {
      const seat = betSeats[betSeats.length - 1]!;
      this.emit('SurveillanceObservation', 'SURVEILLANCE', roundId, {
        kind: observation,
        seat,
        playerId: this.occupants.get(seat)!.id,
        camera: `CAM-${this.tableId}-2`,
        analyst: 'analyst-07',
        inspectorId: null,
        evidence: [
          {
            camera: `CAM-${this.tableId}-2`,
            clipId: `CLIP-${this.tableId}-${this.clock}`,
            clipStart: this.clock - 10_000,
            clipEnd: this.clock + 10_000, // the observation's own time is a little after the clock
          },
        ],
        confidence: 70 + r.int(30),
        description:
          observation === 'NOTES'
            ? 'player writing down results on a card'
            : observation === 'CARD_SHOWN_TO_THIRD_PARTY'
              ? 'player tilted cards towards a standing spectator'
              : 'spectator behind the seat lifted the cards',
      });
    }
    if (
      dealCommunity &&
      (anyProgressive || fault === 'community-revealed-without-bets') &&
      fault !== 'misdeal-community-settled' &&
      fault !== 'community-revealed-early'
    ) {
      this.emit('CommunityCardsRevealed', 'TABLE_CONTROLLER', roundId, {
        cards: dealt.filter((d) => d.target === 'COMMUNITY').map((d) => formatCard(d.card)),
      });
    }

    // settlement by the engine, then the table's declarations (with the fault, if any)
    const rules = this.rules();
    const facts: F3cpRoundFacts = {
      seats: betSeats.map((seat) => {
        const b = bets.get(seat)!;
        const decision = decisions.get(seat);
        const play =
          decision === 'play'
            ? fault === 'play-not-equal-ante' && seat === betSeats[0]
              ? b.ante * 2
              : b.ante
            : 0;
        return {
          seat,
          cards: cardsOf(seat),
          bets: {
            ante: b.ante,
            play,
            pairPlus: b.pairPlus,
            sixCardBonus: b.six,
            progressive: fault === 'misdeal-community-settled' ? 0 : b.progressive,
          },
          ...(decision ? { decision } : {}),
        };
      }),
      banker: dealt.filter((d) => d.target === 'BANKER').map((d) => d.card),
      ...(anyProgressive && fault !== 'misdeal-community-settled'
        ? {
            community: dealt.filter((d) => d.target === 'COMMUNITY').map((d) => d.card),
            jackpot: { config: jackpotConfigOf(this.config)!, poolBefore: this.pool },
          }
        : {}),
    };
    const s = settleF3cpRound(facts, rules);
    this.declare(roundId, s, fault, bets, decisions);
    if (fault === 'misdeal-community-settled')
      for (const [seat, b] of bets)
        if (b.progressive)
          this.emit('BetCollected', 'TABLE_CONTROLLER', roundId, {
            seat,
            betType: 'PROGRESSIVE',
            amount: b.progressive,
            betId: betIdOf(roundId, seat, 'PROGRESSIVE'),
          });
    if (fault === 'settlement-repeated' || fault === 'jackpot-paid-twice') {
      const kinds = fault === 'jackpot-paid-twice' ? ['JackpotPaid'] : ['PayoutMade', 'BetCollected'];
      const last = this.events
        .filter((e) => e.data.header.roundId === roundId && kinds.includes(e.type))
        .pop()!;
      const { header: _, ...body } = last.data;
      this.emit(last.type, 'TABLE_CONTROLLER', roundId, body as never);
    }
    if (fault === 'event-time-off') {
      // a controller whose clock jumped a year ahead for one event; it arrives in its place all the same
      const bet = this.events.find((e) => e.data.header.roundId === roundId && e.type === 'BetPlaced')!;
      bet.data.header.eventTime += 365 * 24 * 3_600_000;
    }
    if (fault !== 'round-not-closed') this.emit('RoundSettled', 'TABLE_CONTROLLER', roundId, {});
    if (fault === 'left-seat')
      this.emit('SeatOccupied', 'SEAT_SENSOR', null, {
        seat: betSeats[0]!,
        playerId: bets.get(betSeats[0]!)!.player.id,
      });
    for (const [seat, b] of bets) {
      const ante = s.lines.find((l) => l.seat === seat && l.bet === 'ante');
      if (ante) {
        b.player.lastStake = fault === 'bet-over-limit' ? b.player.base : b.ante; // the over-limit stake was a one-off
        b.player.lastResult = ante.outcome === 'win' ? 'win' : ante.outcome === 'lose' ? 'lose' : 'push';
      }
    }
  }

  private declare(
    roundId: string,
    s: F3cpSettlement,
    fault: RoundFault | undefined,
    bets: Map<number, { ante: number; pairPlus: number }>,
    decisions: Map<number, 'play' | 'fold'>,
  ): void {
    const upper = (x: string) => x.toUpperCase().replaceAll('-', '_');
    const seatsDeclared = s.seats
      .filter((x) => (bets.get(x.seat)?.ante ?? 0) > 0 || (bets.get(x.seat)?.pairPlus ?? 0) > 0)
      .map((x) => ({
        seat: x.seat,
        hand: upper(x.hand),
        sixCardHand: x.sixCardHand ? upper(x.sixCardHand) : null,
        progressiveHand: x.progressiveHand ? upper(x.progressiveHand) : null,
        result:
          decisions.get(x.seat) !== 'play'
            ? 'NONE'
            : !s.banker.qualifies || x.versusBanker === 'higher'
              ? 'WIN'
              : x.versusBanker === 'lower'
                ? 'LOSE'
                : 'TIE',
      }));
    if (fault === 'void-cards-used') {
      const voidSeat = this.events
        .filter(
          (e) =>
            e.type === 'CardDealt' &&
            e.data.header.roundId === roundId &&
            e.data.target === 'SEAT' &&
            !bets.has(e.data.seat!),
        )
        .map((e) => (e.data as F3cpEvents['CardDealt']).seat!)[0]!;
      seatsDeclared.push({
        seat: voidSeat,
        hand: 'HIGH_CARD',
        sixCardHand: null,
        progressiveHand: null,
        result: 'NONE',
      });
    }
    this.emit('OutcomeDeclared', 'TABLE_CONTROLLER', roundId, {
      bankerHand: upper(s.banker.hand),
      bankerQualifies: fault === 'outcome-misdeclared' ? !s.banker.qualifies : s.banker.qualifies,
      seats: seatsDeclared,
    } as Omit<F3cpEvents['OutcomeDeclared'], 'header'>);
    let payments = [...(s.jackpot?.payments ?? [])];
    if (fault === 'jackpot-order') payments = payments.reverse();
    let wrongPaid = false;
    const winLines = s.lines.filter((l) => l.outcome === 'win' && l.bet !== 'progressive');
    const wrongLine: SettlementLine | undefined =
      fault === 'payout-wrong' ? (winLines[0] ?? s.lines.find((l) => l.outcome === 'lose')) : undefined;
    for (const l of s.lines) {
      const type = (
        {
          ante: 'ANTE',
          play: 'PLAY',
          anteBonus: 'ANTE_BONUS',
          pairPlus: 'PAIR_PLUS',
          sixCardBonus: 'SIX_CARD_BONUS',
          progressive: 'PROGRESSIVE',
        } as const
      )[l.bet];
      if (l.bet === 'progressive' && l.outcome === 'win') continue; // paid below, in payment order
      const betId = betIdOf(roundId, l.seat, type === 'ANTE_BONUS' ? 'ANTE' : type); // the bonus is paid on the Ante
      if (l === wrongLine) {
        wrongPaid = true;
        if (l.outcome === 'win')
          this.emit('PayoutMade', 'TABLE_CONTROLLER', roundId, {
            seat: l.seat,
            betType: type,
            amount: l.payout + l.amount,
            betId,
          });
        else
          this.emit('PayoutMade', 'TABLE_CONTROLLER', roundId, {
            seat: l.seat,
            betType: type as BetType,
            amount: l.amount,
            betId,
          });
        continue;
      }
      if (l.outcome === 'win')
        this.emit('PayoutMade', 'TABLE_CONTROLLER', roundId, {
          seat: l.seat,
          betType: type,
          amount: l.payout,
          betId,
        });
      else if (l.outcome === 'lose')
        this.emit('BetCollected', 'TABLE_CONTROLLER', roundId, {
          seat: l.seat,
          betType: type as BetType,
          amount: l.amount,
          betId,
        });
      else
        this.emit('BetReturned', 'TABLE_CONTROLLER', roundId, {
          seat: l.seat,
          betType: type as BetType,
          amount: l.amount,
          reason: l.outcome === 'push' ? 'push' : 'invalid bet',
          betId,
        });
    }
    if (fault === 'payout-wrong' && !wrongPaid) throw new Error('payout fault found no line to change');
    payments.forEach((p, i) => {
      const amount = fault === 'jackpot-amount' ? p.amount - 1_000 : p.amount;
      const poolAfter = fault === 'jackpot-pool' ? p.poolBefore : p.poolAfter;
      this.emit('JackpotPaid', 'TABLE_CONTROLLER', roundId, {
        seat: p.seat,
        hand: upper(p.hand) as F3cpEvents['JackpotPaid']['hand'],
        amount,
        poolBefore: this.pool,
        poolAfter: fault === 'jackpot-order' ? this.pool : poolAfter,
        paymentOrder: i + 1,
        betId: betIdOf(roundId, p.seat, 'PROGRESSIVE'),
      });
      if (fault !== 'jackpot-pool' && p.poolAfter !== p.poolBefore) {
        if (p.poolReset) {
          this.poolChange(roundId, 0, 'PAYMENT');
          this.poolChange(roundId, p.poolAfter, 'RESET');
        } else this.poolChange(roundId, p.poolAfter, 'PAYMENT');
      }
      const line = s.lines.find((l) => l.seat === p.seat && l.bet === 'progressive')!;
      this.emit('BetCollected', 'TABLE_CONTROLLER', roundId, {
        seat: p.seat,
        betType: 'PROGRESSIVE',
        amount: line.amount,
        betId: betIdOf(roundId, p.seat, 'PROGRESSIVE'),
      });
    });
  }

  /** A deck for this round: shuffled, with the cards a jackpot fault needs put where they will be dealt. */
  private deckFor(
    fault: RoundFault | undefined,
    targets: { target: CardTarget; seat: number | null }[],
    jackpotSeats: number[],
  ): Card[] {
    let deck = shuffledDeck(this.r);
    if (!jackpotSeats.length) return deck;
    const wanted = new Map<string, Card[]>();
    const cards = (t: string) => t.split(' ').map(parseCard);
    if (fault === 'jackpot-pool') {
      wanted.set('COMMUNITY', cards('5s 6s'));
      wanted.set(`SEAT${jackpotSeats[0]}`, cards('7s 8s 9s')); // straight flush 5-9: 10% of the pool
    } else {
      wanted.set('COMMUNITY', cards('2h 5h'));
      wanted.set(`SEAT${jackpotSeats[0]}`, cards('7h 9h Jh')); // flush
      if (jackpotSeats[1] !== undefined) wanted.set(`SEAT${jackpotSeats[1]}`, cards('3h 8h Kh')); // flush
    }
    const reserved = new Set([...wanted.values()].flat());
    // the other hands get no card of the jackpot suit, so no other jackpot hand can arise
    const suit = suitOf(wanted.get('COMMUNITY')![0]!);
    deck = deck
      .filter((c) => !reserved.has(c) && suitOf(c) !== suit)
      .concat(deck.filter((c) => !reserved.has(c) && suitOf(c) === suit));
    const out: Card[] = [];
    const used = new Map<string, number>();
    let k = 0;
    for (const t of targets) {
      const key = t.target === 'SEAT' ? `SEAT${t.seat}` : t.target;
      const w = wanted.get(key);
      const i = used.get(key) ?? 0;
      if (w && i < w.length) {
        out.push(w[i]!);
        used.set(key, i + 1);
      } else out.push(deck[k++]!);
    }
    return out.concat(deck.slice(k));
  }

  private stakeFor(p: Player): number {
    if (p.kind === 'martingale') {
      if (p.lastResult === 'lose' && p.lastStake * 2 <= 2_000_000) return p.lastStake * 2;
      return p.base;
    }
    if (p.lastStake && this.r.next() < 0.6) return p.lastStake;
    return this.r.pick(STAKES);
  }

  private seatChanges(): void {
    if (this.kind.colluding || this.carry.length) return;
    for (const [seat, p] of [...this.occupants]) {
      if (p.kind === 'honest' && this.r.next() < 0.03) {
        this.emit('SeatVacated', 'SEAT_SENSOR', null, { seat, playerId: p.id });
        this.occupants.delete(seat);
      }
    }
    for (let seat = 1; seat <= this.seats; seat++)
      if (!this.occupants.has(seat) && this.r.next() < 0.1) this.seat(seat, 'honest');
    if (this.occupants.size < 2)
      for (let seat = 1; seat <= this.seats && this.occupants.size < 3; seat++)
        if (!this.occupants.has(seat)) this.seat(seat, 'honest');
  }

  private seat(seat: number, kind: Player['kind']): void {
    const p: Player = {
      id: `P${this.tableId.replaceAll('-', '')}-${this.nextPlayer++}`,
      kind,
      base: kind === 'martingale' ? 10_000 : this.r.pick(STAKES),
      lastStake: 0,
      lastResult: 'push',
    };
    this.occupants.set(seat, p);
    this.emit('SeatOccupied', 'SEAT_SENSOR', null, { seat, playerId: p.id });
  }

  private bet(
    roundId: string,
    seat: number,
    betType: BetType,
    amount: number,
    playerId: string,
    carriedOver = false,
  ): void {
    this.emit('BetPlaced', 'TABLE_CONTROLLER', roundId, {
      seat,
      betType,
      amount,
      playerId,
      carriedOver,
      betId: betIdOf(roundId, seat, betType),
    });
  }

  private poolChange(
    roundId: string,
    poolAfter: number,
    reason: F3cpEvents['JackpotPoolChanged']['reason'],
  ): void {
    this.emit('JackpotPoolChanged', 'TABLE_CONTROLLER', roundId, {
      poolBefore: this.pool,
      poolAfter,
      reason,
    });
    this.pool = poolAfter;
  }

  private shufflerId(): string {
    return `SH-${this.tableId}`;
  }

  private rules(): F3cpRuleSet {
    const found = ruleSetFor('f3cp', this.clock);
    if (found.status !== 'implemented')
      throw new Error(
        `the simulator only plays rounds under implemented rule sets: ${found.status === 'no-rules' ? found.reason : found.reason}`,
      );
    return found.rules;
  }

  private emit<K extends keyof F3cpEvents>(
    type: K,
    source: SourceKind,
    roundId: string | null,
    body: Omit<F3cpEvents[K], 'header'>,
  ): F3cpEvents[K] {
    this.clock += 200 + this.r.int(1_300);
    const device =
      source === 'TABLE_CONTROLLER'
        ? `TC-${this.tableId}`
        : source === 'SHUFFLER'
          ? `SH-${this.tableId}`
          : source === 'SEAT_SENSOR'
            ? `SS-${this.tableId}`
            : `CAM-${this.tableId}`;
    const sequence = (this.sequence.get(device) ?? 0) + 1;
    this.sequence.set(device, sequence);
    const header: EventHeader = {
      eventId: `${device}-${sequence}`,
      eventTime: this.clock,
      receivedTime: null,
      sourceKind: source,
      sourceDevice: device,
      sequence,
      casino: this.casino,
      concessionaire: this.concessionaire,
      tableId: this.tableId,
      roundId,
      // the dealer acts for the table controller within a round (deals, takes decisions, settles)
      staffId: source === 'TABLE_CONTROLLER' && roundId !== null ? this.dealer : null,
    };
    const data = { header, ...body } as F3cpEvents[K];
    this.events.push({ type, data } as F3cpEvent);
    this.delivered.push(this.clock);
    return data;
  }
}
