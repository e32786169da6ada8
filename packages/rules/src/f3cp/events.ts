/**
 * The one translation between a Fortune 3 Card Poker table's events and the engine: bet and hand names in both
 * directions, the deal order art. 11.º prescribes, the expected settlement declarations, the jackpot share and the
 * play threshold. The replay, the simulator, the explanation and the math all use these, so they cannot drift.
 */
import type { BetType, CardDealt, JackpotHand as EventJackpotHand } from '@table-audit/schemas/events';
import { proportion } from '../money.ts';
import type { JackpotConfig } from './facts.ts';
import type { JackpotHand } from './rule-set.ts';
import type { F3cpBetLine, F3cpSettlement, SettlementLine } from './settle/index.ts';

/** A settlement line's bet, as the events name it (the Ante bonus is paid on the Ante as ANTE_BONUS). */
export const LINE_TYPE: Readonly<Record<F3cpBetLine, string>> = Object.freeze({
  ante: 'ANTE',
  play: 'PLAY',
  anteBonus: 'ANTE_BONUS',
  pairPlus: 'PAIR_PLUS',
  sixCardBonus: 'SIX_CARD_BONUS',
  progressive: 'PROGRESSIVE',
});

/**
 * The bet types a table can place: BetType less UNKNOWN, the enum's default, which a reader reads for a bet type
 * added after its schema and which ingest refuses (such a bet never reaches replay).
 */
export type KnownBetType = Exclude<BetType, 'UNKNOWN'>;

/** A placed bet's type, as the engine's facts name it. */
export const BET_FIELD: Readonly<
  Record<KnownBetType, 'ante' | 'play' | 'pairPlus' | 'sixCardBonus' | 'progressive'>
> = Object.freeze({
  ANTE: 'ante',
  PLAY: 'play',
  PAIR_PLUS: 'pairPlus',
  SIX_CARD_BONUS: 'sixCardBonus',
  PROGRESSIVE: 'progressive',
});

/** The bet types in the order a table places them. */
export const BET_TYPES: readonly KnownBetType[] = [
  'ANTE',
  'PAIR_PLUS',
  'SIX_CARD_BONUS',
  'PROGRESSIVE',
  'PLAY',
];

/** An engine hand class ("three-of-a-kind") as the events spell it ("THREE_OF_A_KIND"). */
export const eventHand = (engineClass: string): string => {
  // a replay asks for a handful of names for every seat of every round: each is spelt once
  let name = EVENT_HANDS.get(engineClass);
  if (name === undefined) {
    name = engineClass.toUpperCase().replaceAll('-', '_');
    if (EVENT_HANDS.size < 1_000) EVENT_HANDS.set(engineClass, name);
  }
  return name;
};
const EVENT_HANDS = new Map<string, string>();

/** An event's jackpot hand ("ROYAL_FLUSH") as the engine names it ("royal-flush"). */
export const engineJackpotHand = (h: EventJackpotHand): JackpotHand =>
  h.toLowerCase().replaceAll('_', '-') as JackpotHand;

/** Key of a seat's bet in declarations: "3:PAIR_PLUS". */
export const declaredKey = (seat: number, type: string): string => {
  // the keys of seats 0..15 are made once: a replay asks for them for every settlement event and line
  const known = seat >= 0 && seat < 16 && Number.isInteger(seat) ? DECLARED_KEYS.get(type) : undefined;
  return known ? known[seat]! : `${seat}:${type}`;
};
const DECLARED_KEYS = new Map<string, string[]>(
  ['ANTE', 'PLAY', 'ANTE_BONUS', 'PAIR_PLUS', 'SIX_CARD_BONUS', 'PROGRESSIVE'].map((t) => [
    t,
    Array.from({ length: 16 }, (_, seat) => `${seat}:${t}`),
  ]),
);

// Deal targets as numbers: seats 1..7, banker 8, community 9, discard 10.
export const BANKER = 8;
export const COMMUNITY = 9;
export const DISCARD = 10;

export const targetCode = (d: Pick<CardDealt, 'target' | 'seat'>): number =>
  d.target === 'SEAT'
    ? d.seat!
    : d.target === 'BANKER'
      ? BANKER
      : d.target === 'COMMUNITY'
        ? COMMUNITY
        : DISCARD;

export const targetName = (t: number): string =>
  t <= 7 ? `S${t}` : t === BANKER ? 'B' : t === COMMUNITY ? 'C' : 'D';

export type DealingMode = 'SHOE' | 'SHUFFLER';

/**
 * The hands' and the banker's cards in the order art. 11.º prescribes: from the shoe one card at a time to each
 * hand with a bet, left to right, three times round, then three to the banker (n.º 1); from the shuffler three
 * cards at a time to each hand, left to right, then three to the banker (n.º 2).
 */
export function prescribedDealOrder(mode: DealingMode, seatsWithBets: readonly number[]): number[] {
  const seats = ascending(seatsWithBets) ? seatsWithBets : [...seatsWithBets].sort((a, b) => a - b);
  const order: number[] = [];
  if (mode === 'SHOE') for (let k = 0; k < 3; k++) order.push(...seats);
  else for (const s of seats) order.push(s, s, s);
  order.push(BANKER, BANKER, BANKER);
  return order;
}

/** The numbers are in ascending order already (as a round's seats usually are): no sorted copy is needed. */
export function ascending(xs: readonly number[]): boolean {
  for (let i = 1; i < xs.length; i++) if (!(xs[i - 1]! <= xs[i]!)) return false;
  return true;
}

/**
 * After the hands, with any Progressive bet: two community cards (art. 11.º n.º 3); a shuffler that gives three
 * at a time first discards the top card of its three (n.º 4).
 */
export function prescribedCommunityDeal(mode: DealingMode, anyProgressive: boolean): number[] {
  if (!anyProgressive) return [];
  return mode === 'SHUFFLER' ? [DISCARD, COMMUNITY, COMMUNITY] : [COMMUNITY, COMMUNITY];
}

/**
 * The percentage share of the pool a Royal (100%) or Straight Flush (10%) takes (art. 16.º n.º 3, J4), rounded
 * as the table rounds; never more than the pool holds, whatever the rounding (a share rounded up past a small
 * pool would leave it negative).
 */
export function jackpotShare(hand: JackpotHand, pool: number, config: JackpotConfig): number | null {
  if (hand === 'royal-flush') return pool;
  if (hand !== 'straight-flush') return null;
  return Math.min(pool, proportion(pool, 10, 100, config.rounding));
}

/** Q-6-4 as classifyThree encodes it (high card; ranks Q = 10, 6 = 4, 4 = 2): any higher code plays. */
export const Q64 = 10 * 256 + 4 * 16 + 2;

/** What a table must declare for one bet of a settled round: winnings paid, stake collected, stake returned. */
export interface ExpectedDeclaration {
  readonly payout: number;
  readonly collected: number;
  readonly returned: number;
  readonly line: SettlementLine;
}

/**
 * The settlement events a correct table emits, per "seat:TYPE": `PayoutMade` for winnings (the stake stays with
 * the player), `BetCollected` for a lost stake, `BetReturned` for a push or a void bet. A Progressive award is a
 * `JackpotPaid` (judged by the jackpot checks), so its line declares no `PayoutMade`.
 */
export function expectedDeclarations(s: F3cpSettlement): Map<string, ExpectedDeclaration> {
  const out = new Map<string, ExpectedDeclaration>();
  for (const l of s.lines) {
    const jackpotWin = l.bet === 'progressive' && l.outcome === 'win';
    out.set(declaredKey(l.seat, LINE_TYPE[l.bet]), {
      payout: jackpotWin ? 0 : l.payout,
      collected: l.stake === 'collected' ? l.amount : 0,
      returned: l.outcome === 'push' || l.outcome === 'void' ? l.amount : 0,
      line: l,
    });
  }
  return out;
}
