import type {
  BetPlaced,
  CardDealt,
  CardExposed,
  CommunityCardsRevealed,
  F3cpEvent,
  JackpotPaid,
  OutcomeDeclared,
  PlayDecision,
  RoundVoided,
  SeatVacated,
  ShufflerMalfunction,
  SurveillanceObservation,
  TableOpened,
} from '@table-audit/schemas/events';
import { BET_FIELD, declaredKey, type DealingMode } from './events.ts';

/** What the table looked like when a round started: everything the checks need beyond the round's own events. */
export interface RoundContext {
  readonly config: TableOpened;
  /** how this round's cards should be dealt: from the shoe (manual shuffle) or the automatic shuffler */
  readonly dealingMode: DealingMode;
  /** seat → player seated there when the round started */
  readonly occupants: ReadonlyMap<number, string>;
}

export interface SeatBets {
  seat: number;
  ante: number;
  play: number;
  pairPlus: number;
  sixCardBonus: number;
  progressive: number;
  progressiveCarriedOver: boolean;
  players: Set<string>;
}

/** One round's events, sorted into what the checks look at. Built once per round, in event order. */
export interface RoundView {
  readonly roundId: string;
  readonly events: readonly F3cpEvent[];
  /** a RoundStarted is among the events */
  readonly started: boolean;
  /** when the round ended without its closing event: what ended it (the next round, the table closing, …) */
  readonly endedBy: string | null;
  /** the round's time (UTC ms): its start, or its first event whose time is in line with the rest */
  readonly time: number;
  /** events whose time is more than ROUND_TIME_SPAN_MS from the round's median time */
  readonly timeOutliers: readonly F3cpEvent[];
  readonly context: RoundContext;
  readonly bets: Map<number, SeatBets>;
  readonly betEvents: BetPlaced[];
  /** non-Play bets placed after the first card (art. 10.º 3)) */
  readonly lateBets: BetPlaced[];
  readonly dealt: CardDealt[];
  readonly exposures: CardExposed[];
  readonly decisions: Map<number, PlayDecision>;
  /** every Play bet, with how many cards its seat had been dealt when it was placed */
  readonly playBets: { bet: BetPlaced; cardsDealtToSeat: number }[];
  communityRevealed: CommunityCardsRevealed | null;
  /** Play/Fold decisions made after the community cards were revealed (art. 13.º 7): they come last) */
  readonly decisionsAfterReveal: PlayDecision[];
  /** settlement events that repeat an earlier one of the round (same kind, seat, bet and amount) */
  readonly repeatedSettlements: { event: F3cpEvent; first: string }[];
  outcome: OutcomeDeclared | null;
  /** "seat:TYPE" → amounts declared */
  readonly declared: Map<string, { payout: number; collected: number; returned: number; eventIds: string[] }>;
  readonly jackpotPaid: JackpotPaid[];
  voided: RoundVoided | null;
  settled: boolean;
  readonly malfunctions: { event: ShufflerMalfunction; dealtBefore: number }[];
  readonly observations: SurveillanceObservation[];
  /** seats vacated between the first card and the end of the round */
  readonly vacatedDuringPlay: SeatVacated[];
  /** jackpot pool just before settlement (null when the table has no jackpot) */
  poolAtSettlement: number | null;
  /** jackpot pool after the round's pool changes */
  poolAfterRound: number | null;
}

/** The first of these events starts the settlement: the jackpot pool just before it is the one paid from. */
const SETTLEMENT_PHASE = new Set([
  'OutcomeDeclared',
  'PayoutMade',
  'BetCollected',
  'BetReturned',
  'JackpotPaid',
  'RoundVoided',
  'RoundSettled',
]);

function declared(v: RoundView, seat: number, type: string, eventId: string) {
  const k = declaredKey(seat, type);
  const d = v.declared.get(k);
  // most bets are declared by one event: a list made with it is one slot long, where a push onto [] reserves 17
  if (!d) {
    const first = { payout: 0, collected: 0, returned: 0, eventIds: [eventId] };
    v.declared.set(k, first);
    return first;
  }
  d.eventIds.push(eventId);
  return d;
}

export function emptySeatBets(seat: number): SeatBets {
  return {
    seat,
    ante: 0,
    play: 0,
    pairPlus: 0,
    sixCardBonus: 0,
    progressive: 0,
    progressiveCarriedOver: false,
    players: new Set(),
  };
}

const SETTLED_TYPES = ['ANTE', 'PLAY', 'PAIR_PLUS', 'SIX_CARD_BONUS', 'PROGRESSIVE', 'ANTE_BONUS'];
const seatSettled = (v: RoundView, seat: number): boolean =>
  SETTLED_TYPES.some((t) => v.declared.has(declaredKey(seat, t)));

/**
 * Sorts a round's events; `poolAt(i)` gives the table's jackpot pool after the round's i-th event. One walk over
 * the events: whether the round started and whether its times are in line (roundTime's common case) are followed
 * in the same loop as the sorting.
 */
export function buildRoundView(
  roundId: string,
  events: readonly F3cpEvent[],
  context: RoundContext,
  pools: readonly (number | null)[],
  endedBy: string | null = null,
): RoundView {
  const v: { -readonly [K in keyof RoundView]: RoundView[K] } = {
    roundId,
    events,
    started: false,
    endedBy,
    time: 0,
    timeOutliers: NO_OUTLIERS,
    context,
    bets: new Map(),
    betEvents: [],
    lateBets: [],
    dealt: [],
    exposures: [],
    decisions: new Map(),
    playBets: [],
    communityRevealed: null,
    decisionsAfterReveal: [],
    repeatedSettlements: [],
    outcome: null,
    declared: new Map(),
    jackpotPaid: [],
    voided: null,
    settled: false,
    malfunctions: [],
    observations: [],
    vacatedDuringPlay: [],
    poolAtSettlement: null,
    poolAfterRound: pools.length ? pools[pools.length - 1]! : null,
  };
  let settlementStarted = false;
  seenCount = 0;
  const repeated = (e: F3cpEvent, kind: string, seat: number, what: string, amount: number) => {
    const first = firstSettlement(kind, seat, what, amount);
    if (first !== undefined) {
      v.repeatedSettlements.push({ event: e, first });
      return;
    }
    seenKind[seenCount] = kind;
    seenSeat[seenCount] = seat;
    seenWhat[seenCount] = what;
    seenAmount[seenCount] = amount;
    seenId[seenCount++] = e.data.header.eventId;
  };
  // roundTime's common case, followed as the events go: every time within the span of the first one
  const firstTime = events.length ? events[0]!.data.header.eventTime : 0;
  let inLine = true;
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (Math.abs(e.data.header.eventTime - firstTime) > ROUND_TIME_SPAN_MS) inLine = false;
    if (!settlementStarted && SETTLEMENT_PHASE.has(e.type)) {
      settlementStarted = true;
      v.poolAtSettlement = i === 0 ? (pools[0] ?? null) : pools[i - 1]!;
    }
    switch (e.type) {
      case 'RoundStarted':
        v.started = true;
        break;
      case 'BetPlaced': {
        const b = e.data;
        v.betEvents.push(b);
        if (v.dealt.length > 0 && b.betType !== 'PLAY' && !b.carriedOver) v.lateBets.push(b);
        let s = v.bets.get(b.seat);
        if (!s) v.bets.set(b.seat, (s = emptySeatBets(b.seat)));
        // UNKNOWN (a bet type added after this reader's schema) is refused by ingest; it is no stake of any kind
        if (b.betType !== 'UNKNOWN') s[BET_FIELD[b.betType]] += b.amount;
        if (b.betType === 'PROGRESSIVE' && b.carriedOver) s.progressiveCarriedOver = true;
        if (b.playerId) s.players.add(b.playerId);
        if (b.betType === 'PLAY') {
          let toSeat = 0;
          for (const d of v.dealt) if (d.target === 'SEAT' && d.seat === b.seat) toSeat++;
          v.playBets.push({ bet: b, cardsDealtToSeat: toSeat });
        }
        break;
      }
      case 'BetWithdrawn': {
        const s = v.bets.get(e.data.seat);
        const type = e.data.betType;
        if (s && type !== 'UNKNOWN') s[BET_FIELD[type]] = Math.max(0, s[BET_FIELD[type]] - e.data.amount);
        break;
      }
      case 'CardDealt':
        v.dealt.push(e.data);
        break;
      case 'CardExposed':
        v.exposures.push(e.data);
        break;
      case 'PlayDecision':
        v.decisions.set(e.data.seat, e.data);
        if (v.communityRevealed) v.decisionsAfterReveal.push(e.data);
        break;
      case 'CommunityCardsRevealed':
        v.communityRevealed = e.data;
        break;
      case 'OutcomeDeclared':
        v.outcome = e.data;
        break;
      case 'PayoutMade':
        repeated(e, 'P', e.data.seat, e.data.betType, e.data.amount);
        declared(v, e.data.seat, e.data.betType, e.data.header.eventId).payout += e.data.amount;
        break;
      case 'BetCollected':
        repeated(e, 'C', e.data.seat, e.data.betType, e.data.amount);
        declared(v, e.data.seat, e.data.betType, e.data.header.eventId).collected += e.data.amount;
        break;
      case 'BetReturned':
        repeated(e, 'R', e.data.seat, e.data.betType, e.data.amount);
        declared(v, e.data.seat, e.data.betType, e.data.header.eventId).returned += e.data.amount;
        break;
      case 'JackpotPaid':
        repeated(e, 'J', e.data.seat, e.data.hand, e.data.amount);
        v.jackpotPaid.push(e.data);
        break;
      case 'RoundVoided':
        v.voided = e.data;
        break;
      case 'RoundSettled':
        v.settled = true;
        break;
      case 'ShufflerMalfunction':
        v.malfunctions.push({ event: e.data, dealtBefore: v.dealt.length });
        break;
      case 'SurveillanceObservation':
        v.observations.push(e.data);
        break;
      case 'SeatVacated':
        // between the first card and the settlement of that seat (art. 18.º n.º 2)
        if (v.dealt.length > 0 && !v.settled && !v.voided && !seatSettled(v, e.data.seat))
          v.vacatedDuringPlay.push(e.data);
        break;
      default:
        break;
    }
  }
  if (v.poolAtSettlement === null && pools.length) v.poolAtSettlement = pools[pools.length - 1]!;
  if (
    events.length &&
    inLine &&
    Math.abs(events[events.length - 1]!.data.header.eventTime - firstTime) <= ROUND_TIME_SPAN_MS
  ) {
    v.time = firstTime;
    v.timeOutliers = [];
  } else {
    const { time, outliers } = roundTime(events);
    v.time = time;
    v.timeOutliers = outliers;
  }
  return v;
}

/** the view's outliers until the walk has decided them (never handed out) */
const NO_OUTLIERS: readonly F3cpEvent[] = Object.freeze([]);

// Settlement events already seen in the round being built, as parallel columns (buildRoundView is synchronous and
// resets them per call): kind, seat, bet type or jackpot hand, amount, event id.
let seenCount = 0;
const seenKind: string[] = [];
const seenSeat: number[] = [];
const seenWhat: string[] = [];
const seenAmount: number[] = [];
const seenId: string[] = [];

// equal when `${kind}:${seat}:${what}:${amount}` would be, without making the strings
const sameNumber = (a: number, b: number): boolean => a === b || (a !== a && b !== b);
function firstSettlement(kind: string, seat: number, what: string, amount: number): string | undefined {
  for (let i = 0; i < seenCount; i++)
    if (
      seenKind[i] === kind &&
      seenWhat[i] === what &&
      sameNumber(seenSeat[i]!, seat) &&
      sameNumber(seenAmount[i]!, amount)
    )
      return seenId[i];
  return undefined;
}

/** A round lasts minutes: an event more than this far from the round's median time has a wrong time. */
export const ROUND_TIME_SPAN_MS = 6 * 60 * 60 * 1000;

function roundTime(events: readonly F3cpEvent[]): { time: number; outliers: F3cpEvent[] } {
  if (!events.length) return { time: 0, outliers: [] };
  const first = events[0]!.data.header.eventTime;
  const last = events[events.length - 1]!.data.header.eventTime;
  // the common case, checked without sorting: every event within the span of the first and of the last
  if (Math.abs(last - first) <= ROUND_TIME_SPAN_MS) {
    let inLine = true;
    for (const e of events)
      if (Math.abs(e.data.header.eventTime - first) > ROUND_TIME_SPAN_MS) {
        inLine = false;
        break;
      }
    if (inLine) return { time: first, outliers: [] };
  }
  const times = events.map((e) => e.data.header.eventTime).sort((a, b) => a - b);
  const median = times[Math.floor((times.length - 1) / 2)]!;
  const outliers = events.filter((e) => Math.abs(e.data.header.eventTime - median) > ROUND_TIME_SPAN_MS);
  const firstInLine = events.find((e) => !outliers.includes(e));
  return { time: (firstInLine ?? events[0]!).data.header.eventTime, outliers };
}
