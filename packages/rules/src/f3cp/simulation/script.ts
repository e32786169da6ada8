/**
 * The clean round: what a correct Fortune 3 Card Poker table emits for one round (docs/event-conventions.md),
 * with the settlement declared exactly as the engine settles the cards. Pure: the time and every header come from
 * the clock it is given, the cards from the plan. The simulator's faults and the Given/When/Then tests both start
 * from these events.
 */
import type {
  BetType,
  CardTarget,
  F3cpEvent,
  F3cpEvents,
  JackpotHand,
  SourceKind,
  TableOpened,
} from '@table-audit/schemas/events';
import { formatCard, type Card } from '../../cards.ts';
import type { TableClock } from '../../game.ts';
import { classifyThree } from '../../poker/three-card.ts';
import { ruleSetFor } from '../../registry.ts';
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
} from '../events.ts';
import { jackpotConfigOf, type F3cpRoundFacts } from '../facts.ts';
import type { F3cpRuleSet } from '../rule-set.ts';
// settle.ts and math.ts are being split into folders: their exports are taken from the module's index
import { playDecisionOracle, settleF3cpRound, type F3cpSettlement } from '../index.ts';

/** What the round script needs to know of the table. */
export interface F3cpTableState {
  readonly tableId: string;
  /** the settings in force (the last TableOpened): limits, jackpot, rounding */
  readonly config: TableOpened;
  /** the shoe (manual shuffle) or the automatic shuffler (art. 11.º n.º 1–2) */
  readonly dealingMode: DealingMode;
  /** the jackpot pool before the round; null for a table without the Progressive Jackpot */
  readonly pool: number | null;
  /** the dealer, who acts for the table controller within a round; null when the table does not say */
  readonly dealerId: string | null;
  /** the share of each new Progressive stake the jackpot system adds to the pool, in per cent */
  readonly contributionPercent: number;
}

/** A bet placed before the first card (art. 10.º 3)); the Play bet follows from the decision. */
export interface PlannedBet {
  readonly seat: number;
  readonly betType: Exclude<BetType, 'PLAY' | 'UNKNOWN'>;
  readonly amount: number;
  readonly playerId: string | null;
  /** a Progressive bet re-stated from a voided round (art. 17.º n.º 3) */
  readonly carriedOver?: boolean;
}

/** How a hand with an Ante decides (art. 12.º): by default, Play with Q-6-4 or better, Play = Ante. */
export interface SeatPlay {
  readonly decision?: 'PLAY' | 'FOLD';
  /** the Play bet's amount when it is not the Ante */
  readonly play?: number;
  /** seats whose cards this player sees (colluders): then the exact play-decision oracle decides */
  readonly seesSeats?: readonly number[];
}

export interface RoundPlan {
  readonly roundId: string;
  readonly roundNumber: number;
  /** the shuffle the round is dealt from (RoundStarted.shuffleId) */
  readonly shuffleId: string | null;
  /** the bets in the order they are placed */
  readonly bets: readonly PlannedBet[];
  /** cards set beforehand (a test names them, a jackpot fault needs them); the rest come from `deck` */
  readonly hands?: ReadonlyMap<number, readonly Card[]>;
  readonly banker?: readonly Card[];
  readonly community?: readonly Card[];
  /** the shuffled cards, in the order they leave the shoe or the shuffler */
  readonly deck: readonly Card[];
  readonly play?: ReadonlyMap<number, SeatPlay>;
}

export interface PlayedRound {
  readonly roundId: string;
  readonly events: F3cpEvent[];
  readonly rules: F3cpRuleSet;
  readonly facts: F3cpRoundFacts;
  readonly settlement: F3cpSettlement;
  /** the cards still in the shoe or the shuffler after the deal, in order */
  readonly undealt: readonly Card[];
  /** the pool once the contributions are in, before any payment */
  readonly poolBeforeSettlement: number | null;
  readonly poolAfter: number | null;
}

/** A bet's id: the round, the seat and the type name it (a second bet of a type gets a number). */
export const betIdOf = (roundId: string, seat: number, betType: BetType, nth = 1): string =>
  `${roundId}/${seat}-${betType}${nth > 1 ? `-${nth}` : ''}`;

/** The staff member an event records: the dealer, for the table controller within a round. */
const staffOf = (table: F3cpTableState, source: SourceKind, roundId: string | null): string | null =>
  source === 'TABLE_CONTROLLER' && roundId !== null ? table.dealerId : null;

/** An event of the table, stamped by the clock (the events of rounds are made by `playF3cpRound`). */
export function tableEvent<K extends keyof F3cpEvents>(
  table: Pick<F3cpTableState, 'dealerId'>,
  clock: Pick<TableClock, 'stamp'>,
  type: K,
  body: Omit<F3cpEvents[K], 'header'>,
  source: SourceKind = 'TABLE_CONTROLLER',
  roundId: string | null = null,
): F3cpEvent {
  const header = clock.stamp(source, roundId, staffOf(table as F3cpTableState, source, roundId));
  return { type, data: { header, ...body } } as F3cpEvent;
}

export interface ShufflePlan {
  readonly mode: 'MANUAL' | 'AUTOMATIC';
  readonly shuffleId: string | null;
  readonly shufflerId: string | null;
  /** who shuffled by hand (null: the table does not say) */
  readonly shuffledBy: string | null;
  /** the cut of a manual shuffle with the cut card (art. 9.º n.º 2) */
  readonly cut: {
    readonly by: 'BANKER' | 'PLAYER';
    readonly seat: number | null;
    readonly byId: string | null;
  };
}

/** Art. 9.º: a manual shuffle ends with a cut by the cut card (n.º 2); the automatic shuffler uses none (n.º 3). */
export function shuffleEvents(
  table: Pick<F3cpTableState, 'dealerId'>,
  clock: Pick<TableClock, 'stamp'>,
  s: ShufflePlan,
): F3cpEvent[] {
  const manual = s.mode === 'MANUAL';
  const source = manual ? 'TABLE_CONTROLLER' : 'SHUFFLER';
  return [
    tableEvent(
      table,
      clock,
      'ShuffleStarted',
      { mode: s.mode, shufflerId: s.shufflerId, shuffleId: s.shuffleId },
      source,
    ),
    tableEvent(
      table,
      clock,
      'ShuffleCompleted',
      {
        mode: s.mode,
        shufflerId: s.shufflerId,
        shuffleId: s.shuffleId,
        shuffledBy: manual ? s.shuffledBy : null,
        cutCardUsed: manual,
        cutBy: manual ? s.cut.by : 'NONE',
        cutBySeat: manual ? s.cut.seat : null,
        cutById: manual ? s.cut.byId : null,
      },
      source,
    ),
  ];
}

/** One round played and settled correctly, from RoundStarted to RoundSettled. */
export function playF3cpRound(
  table: F3cpTableState,
  plan: RoundPlan,
  clock: Pick<TableClock, 'stamp'>,
): PlayedRound {
  const { roundId } = plan;
  const events: F3cpEvent[] = [];
  const emit = <K extends keyof F3cpEvents>(
    type: K,
    body: Omit<F3cpEvents[K], 'header'>,
    source: SourceKind = 'TABLE_CONTROLLER',
  ): F3cpEvents[K] => {
    const e = tableEvent(table, clock, type, body, source, roundId);
    events.push(e);
    return e.data as F3cpEvents[K];
  };
  const started = emit('RoundStarted', {
    roundNumber: plan.roundNumber,
    dealerId: table.dealerId,
    shuffleId: plan.shuffleId,
  });
  const lookup = ruleSetFor('f3cp', started.header.eventTime);
  if (lookup.status !== 'implemented')
    throw new Error(
      `round ${roundId}: no implemented F3CP rules at ${new Date(started.header.eventTime).toISOString()}`,
    );
  const rules = lookup.rules;

  // art. 10.º: the bets, before the first card
  const totals = new Map<
    number,
    { ante: number; pairPlus: number; sixCardBonus: number; progressive: number }
  >();
  const anteBettor = new Map<number, string | null>();
  const betIds = new Map<string, string>();
  const placed = new Map<string, number>();
  let contribution = 0;
  for (const b of plan.bets) {
    const key = declaredKey(b.seat, b.betType);
    const nth = (placed.get(key) ?? 0) + 1;
    placed.set(key, nth);
    const betId = betIdOf(roundId, b.seat, b.betType, nth);
    if (nth === 1) betIds.set(key, betId);
    emit('BetPlaced', {
      seat: b.seat,
      betType: b.betType,
      amount: b.amount,
      playerId: b.playerId,
      betId,
      carriedOver: b.betType === 'PROGRESSIVE' && b.carriedOver === true,
    });
    let t = totals.get(b.seat);
    if (!t) totals.set(b.seat, (t = { ante: 0, pairPlus: 0, sixCardBonus: 0, progressive: 0 }));
    t[FIELD[b.betType]] += b.amount;
    if (b.betType === 'ANTE' && !anteBettor.has(b.seat)) anteBettor.set(b.seat, b.playerId);
    // a share of each new Progressive stake goes to the pool; a carried-over stake was counted already
    if (b.betType === 'PROGRESSIVE' && !b.carriedOver)
      contribution += Math.floor((b.amount * table.contributionPercent) / 100);
  }
  let pool = table.pool;
  if (pool !== null && contribution) {
    emit('JackpotPoolChanged', { poolBefore: pool, poolAfter: pool + contribution, reason: 'CONTRIBUTION' });
    pool += contribution;
  }
  const betSeats = [...totals]
    .filter(([, t]) => t.ante + t.pairPlus + t.sixCardBonus + t.progressive > 0)
    .map(([seat]) => seat)
    .sort((a, b) => a - b);
  const anyProgressive = betSeats.some((s) => totals.get(s)!.progressive > 0);

  // art. 11.º: the cards set beforehand, then the deck in order
  const given = new Set<Card>([
    ...[...(plan.hands?.values() ?? [])].flat(),
    ...(plan.banker ?? []),
    ...(plan.community ?? []),
  ]);
  const deck = plan.deck.filter((c) => !given.has(c));
  let next = 0;
  const fill = (list: Card[], n: number) => {
    while (list.length < n) list.push(deck[next++]!);
    return list;
  };
  const hands = new Map(betSeats.map((s) => [s, fill([...(plan.hands?.get(s) ?? [])], 3)]));
  const banker = fill([...(plan.banker ?? [])], 3);
  const community = anyProgressive ? fill([...(plan.community ?? [])], 2) : [];
  const order = [
    ...prescribedDealOrder(table.dealingMode, betSeats),
    ...prescribedCommunityDeal(table.dealingMode, anyProgressive),
  ];
  const used = new Map<number, number>();
  const dealer = table.dealingMode === 'SHUFFLER' ? 'SHUFFLER' : 'TABLE_CONTROLLER';
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
      { card: formatCard(card), target, seat: target === 'SEAT' ? t : null, faceUp: false, dealOrder: i + 1 },
      dealer,
    );
  });

  // art. 12.º: each Ante plays (Play = Ante) or folds
  const decisions = new Map<number, 'play' | 'fold'>();
  const plays = new Map<number, number>();
  for (const seat of betSeats) {
    const t = totals.get(seat)!;
    if (!t.ante) continue;
    const how = plan.play?.get(seat) ?? {};
    const hand = hands.get(seat)!;
    const seen = (how.seesSeats ?? []).flatMap((s) => hands.get(s) ?? []);
    const decision =
      how.decision ??
      (how.seesSeats
        ? playDecisionOracle(rules).plays(hand, seen)
          ? 'PLAY'
          : 'FOLD'
        : classifyThree(hand[0]!, hand[1]!, hand[2]!) >= Q64
          ? 'PLAY'
          : 'FOLD');
    decisions.set(seat, decision === 'PLAY' ? 'play' : 'fold');
    emit('PlayDecision', { seat, decision });
    if (decision === 'PLAY') {
      const amount = how.play ?? t.ante;
      plays.set(seat, amount);
      const betId = betIdOf(roundId, seat, 'PLAY');
      betIds.set(declaredKey(seat, 'PLAY'), betId);
      emit('BetPlaced', {
        seat,
        betType: 'PLAY',
        amount,
        playerId: anteBettor.get(seat) ?? null,
        betId,
        carriedOver: false,
      });
    }
  }
  if (anyProgressive) emit('CommunityCardsRevealed', { cards: community.map(formatCard) });

  const jackpotConfig = jackpotConfigOf(table.config);
  const facts: F3cpRoundFacts = {
    seats: betSeats.map((seat) => {
      const t = totals.get(seat)!;
      const decision = decisions.get(seat);
      return {
        seat,
        cards: hands.get(seat)!,
        bets: { ...t, play: plays.get(seat) ?? 0 },
        ...(decision ? { decision } : {}),
      };
    }),
    banker,
    ...(anyProgressive ? { community } : {}),
    ...(jackpotConfig && pool !== null ? { jackpot: { config: jackpotConfig, poolBefore: pool } } : {}),
  };
  const settlement = settleF3cpRound(facts, rules);
  const poolBeforeSettlement = pool;

  // art. 13.º: the outcome, then one settlement event per bet
  type HandName = F3cpEvents['OutcomeDeclared']['bankerHand'];
  emit('OutcomeDeclared', {
    bankerHand: eventHand(settlement.banker.hand) as HandName,
    bankerQualifies: settlement.banker.qualifies,
    seats: settlement.seats
      .filter((x) => totals.get(x.seat)!.ante > 0 || totals.get(x.seat)!.pairPlus > 0)
      .map((x) => ({
        seat: x.seat,
        hand: eventHand(x.hand) as HandName,
        sixCardHand: x.sixCardHand ? (eventHand(x.sixCardHand) as HandName) : null,
        progressiveHand: x.progressiveHand ? (eventHand(x.progressiveHand) as HandName) : null,
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
  // the Ante bonus is paid on the Ante
  const betIdFor = (seat: number, type: string) =>
    betIds.get(declaredKey(seat, type === 'ANTE_BONUS' ? 'ANTE' : type)) ?? null;
  for (const l of settlement.lines) {
    if (l.bet === 'progressive' && l.outcome === 'win') continue; // below, in payment order
    const type = LINE_TYPE[l.bet] as BetType;
    const d = expected.get(declaredKey(l.seat, type))!;
    const betId = betIdFor(l.seat, type);
    if (d.payout) emit('PayoutMade', { seat: l.seat, betType: type, amount: d.payout, betId });
    if (d.collected) emit('BetCollected', { seat: l.seat, betType: type, amount: d.collected, betId });
    if (d.returned)
      emit('BetReturned', {
        seat: l.seat,
        betType: type,
        amount: d.returned,
        reason: l.outcome === 'push' ? 'push' : 'void',
        betId,
      });
  }
  for (const p of settlement.jackpot?.payments ?? []) {
    const betId = betIdFor(p.seat, 'PROGRESSIVE');
    emit('JackpotPaid', {
      seat: p.seat,
      hand: eventHand(p.hand) as JackpotHand,
      amount: p.amount,
      poolBefore: p.poolBefore,
      poolAfter: p.poolAfter,
      paymentOrder: p.order,
      betId,
    });
    if (p.poolReset) {
      emit('JackpotPoolChanged', { poolBefore: p.poolBefore, poolAfter: 0, reason: 'PAYMENT' });
      emit('JackpotPoolChanged', { poolBefore: 0, poolAfter: p.poolAfter, reason: 'RESET' });
    } else if (p.poolAfter !== p.poolBefore)
      emit('JackpotPoolChanged', { poolBefore: p.poolBefore, poolAfter: p.poolAfter, reason: 'PAYMENT' });
    // the stake of a winning Progressive bet is collected as well (J5)
    const stake = expected.get(declaredKey(p.seat, 'PROGRESSIVE'))!;
    emit('BetCollected', { seat: p.seat, betType: 'PROGRESSIVE', amount: stake.collected, betId });
  }
  emit('RoundSettled', {});
  return {
    roundId,
    events,
    rules,
    facts,
    settlement,
    undealt: deck.slice(next),
    poolBeforeSettlement,
    poolAfter: settlement.jackpot?.poolAfter ?? pool,
  };
}

const FIELD = {
  ANTE: 'ante',
  PAIR_PLUS: 'pairPlus',
  SIX_CARD_BONUS: 'sixCardBonus',
  PROGRESSIVE: 'progressive',
} as const;
