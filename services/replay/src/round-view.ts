import type {
  BetPlaced,
  BetType,
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

/** What the table looked like when a round started: everything the checks need beyond the round's own events. */
export interface RoundContext {
  readonly config: TableOpened;
  /** how this round's cards should be dealt: from the shoe (manual shuffle) or the automatic shuffler */
  readonly dealingMode: 'SHOE' | 'SHUFFLER';
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
  readonly context: RoundContext;
  readonly bets: Map<number, SeatBets>;
  readonly betEvents: BetPlaced[];
  /** non-Play bets placed after the first card (art. 10.º 3)) */
  readonly lateBets: BetPlaced[];
  readonly dealt: CardDealt[];
  readonly exposures: CardExposed[];
  readonly decisions: Map<number, PlayDecision>;
  communityRevealed: CommunityCardsRevealed | null;
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

const key = (seat: number, type: string): string => `${seat}:${type}`;

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
  const k = key(seat, type);
  let d = v.declared.get(k);
  if (!d) v.declared.set(k, (d = { payout: 0, collected: 0, returned: 0, eventIds: [] }));
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

const FIELD: Record<
  BetType,
  keyof Pick<SeatBets, 'ante' | 'play' | 'pairPlus' | 'sixCardBonus' | 'progressive'>
> = {
  ANTE: 'ante',
  PLAY: 'play',
  PAIR_PLUS: 'pairPlus',
  SIX_CARD_BONUS: 'sixCardBonus',
  PROGRESSIVE: 'progressive',
};

/** Sorts a round's events; `poolAt(i)` gives the table's jackpot pool after the round's i-th event. */
export function buildRoundView(
  roundId: string,
  events: readonly F3cpEvent[],
  context: RoundContext,
  pools: readonly (number | null)[],
): RoundView {
  const v: RoundView = {
    roundId,
    events,
    context,
    bets: new Map(),
    betEvents: [],
    lateBets: [],
    dealt: [],
    exposures: [],
    decisions: new Map(),
    communityRevealed: null,
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
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (!settlementStarted && SETTLEMENT_PHASE.has(e.type)) {
      settlementStarted = true;
      v.poolAtSettlement = i === 0 ? (pools[0] ?? null) : pools[i - 1]!;
    }
    switch (e.type) {
      case 'BetPlaced': {
        const b = e.data;
        v.betEvents.push(b);
        if (v.dealt.length > 0 && b.betType !== 'PLAY' && !b.carriedOver) v.lateBets.push(b);
        let s = v.bets.get(b.seat);
        if (!s) v.bets.set(b.seat, (s = emptySeatBets(b.seat)));
        s[FIELD[b.betType]] += b.amount;
        if (b.betType === 'PROGRESSIVE' && b.carriedOver) s.progressiveCarriedOver = true;
        if (b.playerId) s.players.add(b.playerId);
        break;
      }
      case 'BetWithdrawn': {
        const s = v.bets.get(e.data.seat);
        if (s) s[FIELD[e.data.betType]] = Math.max(0, s[FIELD[e.data.betType]] - e.data.amount);
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
        break;
      case 'CommunityCardsRevealed':
        v.communityRevealed = e.data;
        break;
      case 'OutcomeDeclared':
        v.outcome = e.data;
        break;
      case 'PayoutMade':
        declared(v, e.data.seat, e.data.betType, e.data.header.eventId).payout += e.data.amount;
        break;
      case 'BetCollected':
        declared(v, e.data.seat, e.data.betType, e.data.header.eventId).collected += e.data.amount;
        break;
      case 'BetReturned':
        declared(v, e.data.seat, e.data.betType, e.data.header.eventId).returned += e.data.amount;
        break;
      case 'JackpotPaid':
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
        if (v.dealt.length > 0 && !v.settled && !v.voided) v.vacatedDuringPlay.push(e.data);
        break;
      default:
        break;
    }
  }
  if (v.poolAtSettlement === null && pools.length) v.poolAtSettlement = pools[pools.length - 1]!;
  return v;
}

export const declaredKey = key;
