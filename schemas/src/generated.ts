// Generated from schemas/avro/*.avsc by schemas/scripts/generate-types.ts. Do not edit: change the .avsc
// files (and events.ts), then run `pnpm --filter @table-audit/schemas generate-types`.
import type * as events from './events.ts';

/** Common to every event: identity, time, source and place. Conventions of every ta.* schema: amounts are avos (1/100 MOP) as long, never floats; times are UTC milliseconds since the Unix epoch (long, logicalType timestamp-millis); a card is two characters, rank 2-9, T, J, Q, K, A then suit c, d, h, s (e.g. "Th"); seats are numbered from 1, the seat immediately left of the banker, counting to the right. */
export interface EventHeader {
  /** Unique per event; a redelivery of the same event carries the same id. */
  eventId: string;
  /** When it happened at the table, UTC milliseconds since the Unix epoch. */
  eventTime: number;
  /** When the pipeline received it, UTC milliseconds since the Unix epoch; null until the ingest edge sets it. */
  receivedTime: number | null;
  /** What kind of source emitted the event. */
  sourceKind: SourceKind;
  /** The emitting device or analyst station. */
  sourceDevice: string;
  /** Sequence number per source device, increasing by 1 from one event to the next. */
  sequence: number;
  /** The casino the table is in. */
  casino: string;
  /** The gaming concessionaire that operates the casino. */
  concessionaire: string;
  /** The table; also the Kafka message key. */
  tableId: string;
  /** The round the event belongs to; null for an event outside any round. */
  roundId: string | null;
}

/** What kind of source emitted the event. */
export type SourceKind = 'TABLE_CONTROLLER' | 'SHUFFLER' | 'SEAT_SENSOR' | 'SURVEILLANCE';

/** The table opens for play, with the settings every later round of this session is judged by. */
export interface TableOpened {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** The game: F3CP = Fortune 3 Card Poker. */
  game: Game;
  /** Number of player seats, 5 to 7 (art. 5.º n.º 2). */
  seats: number;
  /** The limits of each bet type offered at the table. */
  betLimits: BetLimit[];
  /** How the cards are shuffled and dealt at this table. */
  shuffleMode: ShuffleMode;
  /** The Progressive Jackpot settings; null when the table does not offer the Progressive Jackpot. */
  jackpot: JackpotSettings | null;
  /** The rounding policy of the table. */
  rounding: RoundingPolicy;
}

/** The game played at the table. */
export type Game = 'F3CP';

/** The table minimum and maximum of one bet type. */
export interface BetLimit {
  /** The bet the limits apply to. */
  betType: BetType;
  /** Smallest stake accepted, in avos (1/100 MOP, 100 avos = 1 pataca), a whole number, never a float. */
  minimum: number;
  /** Largest stake accepted, in avos (1/100 MOP, 100 avos = 1 pataca), a whole number, never a float. */
  maximum: number;
}

/** A bet of Fortune 3 Card Poker. */
export type BetType = 'ANTE' | 'PLAY' | 'PAIR_PLUS' | 'SIX_CARD_BONUS' | 'PROGRESSIVE';

/** MANUAL: shuffled by hand and dealt from the shoe; AUTOMATIC: by a shuffler that also deals. */
export type ShuffleMode = 'MANUAL' | 'AUTOMATIC';

/** The Progressive Jackpot of the table. */
export interface JackpotSettings {
  /** The fixed award of each qualifying hand. */
  fixedAmounts: JackpotFixedAmounts;
  /** The amount the pool restarts at once emptied (art. 15.º n.º 6), in avos (1/100 MOP, 100 avos = 1 pataca), a whole number, never a float. */
  resetAmount: number;
  /** The pool when the table opens, in avos (1/100 MOP, 100 avos = 1 pataca), a whole number, never a float. */
  initialPool: number;
}

/** The fixed award of each qualifying hand (art. 16.º n.º 3), in avos (1/100 MOP, 100 avos = 1 pataca), a whole number, never a float. */
export interface JackpotFixedAmounts {
  /** Award for a Royal Flush, in avos (1/100 MOP, 100 avos = 1 pataca), a whole number, never a float. */
  royalFlush: number;
  /** Award for a Straight Flush, in avos (1/100 MOP, 100 avos = 1 pataca), a whole number, never a float. */
  straightFlush: number;
  /** Award for Four of a Kind, in avos (1/100 MOP, 100 avos = 1 pataca), a whole number, never a float. */
  fourOfAKind: number;
  /** Award for a Full House, in avos (1/100 MOP, 100 avos = 1 pataca), a whole number, never a float. */
  fullHouse: number;
  /** Award for a Flush, in avos (1/100 MOP, 100 avos = 1 pataca), a whole number, never a float. */
  flush: number;
}

/** How the table rounds a payout that is not a whole multiple of its smallest paid unit. */
export interface RoundingPolicy {
  /** The smallest paid unit, in avos (1 = one avo, 100 = one pataca). */
  unitAvos: number;
  /** Which way a fractional payout is rounded to the unit. */
  mode: RoundingMode;
}

/** Which way a fractional payout is rounded to the unit. */
export type RoundingMode = 'DOWN' | 'HALF_UP' | 'UP';

/** The table closes; no round follows until the next TableOpened. */
export interface TableClosed {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** Why the table closed, as entered at the table; null if none given. */
  reason: string | null;
}

/** A shuffle starts. */
export interface ShuffleStarted {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** How the cards are shuffled. */
  mode: ShuffleMode;
  /** The shuffler; null for a manual shuffle. */
  shufflerId: string | null;
}

/** A shuffle ends; the rounds that follow are dealt from it. */
export interface ShuffleCompleted {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** How the cards were shuffled. */
  mode: ShuffleMode;
  /** The shuffler; null for a manual shuffle. */
  shufflerId: string | null;
  /** True when the deck was cut with the cut card (manual shuffle, art. 9.º n.º 2). */
  cutCardUsed: boolean;
  /** Who cut (manual shuffle): the banker, or a player at a seat; NONE when there was no cut. */
  cutBy: CutBy;
  /** The seat number, from 1 (the seat immediately left of the banker) counting to the right of the player who cut; null unless cutBy is PLAYER. */
  cutBySeat: number | null;
}

/** Who cut the deck. */
export type CutBy = 'BANKER' | 'PLAYER' | 'NONE';

/** The shuffler fails. */
export interface ShufflerMalfunction {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** The shuffler that failed. */
  shufflerId: string;
  /** True when it failed while cards were being dealt (art. 17.º n.º 2). */
  duringDeal: boolean;
  /** What went wrong, as reported by the shuffler or the table. */
  description: string;
}

/** A shuffler is swapped for another. */
export interface ShufflerReplaced {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** The shuffler taken out. */
  oldShufflerId: string;
  /** The shuffler put in. */
  newShufflerId: string;
}

/** The table stops dealing from the shuffler and deals from the shoe. */
export interface DealingSwitchedToShoe {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** Why the table switched to the shoe. */
  reason: string;
}

/** A round starts; the header carries its round id. */
export interface RoundStarted {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** The number of the round at this table, increasing from one round to the next. */
  roundNumber: number;
}

/** A stake is placed on a hand. */
export interface BetPlaced {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** The seat number, from 1 (the seat immediately left of the banker) counting to the right of the hand the bet is placed on. */
  seat: number;
  /** Which bet is placed. */
  betType: BetType;
  /** The stake, in avos (1/100 MOP, 100 avos = 1 pataca), a whole number, never a float. */
  amount: number;
  /** The player as identified by the table (card, face recognition); null if unknown. */
  playerId: string | null;
  /** True for a Progressive bet carried over from a voided round (art. 17.º n.º 3). */
  carriedOver: boolean;
}

/** A stake is taken back before the first card. */
export interface BetWithdrawn {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** The seat number, from 1 (the seat immediately left of the banker) counting to the right of the hand the bet was on. */
  seat: number;
  /** Which bet is withdrawn. */
  betType: BetType;
  /** The stake withdrawn, in avos (1/100 MOP, 100 avos = 1 pataca), a whole number, never a float. */
  amount: number;
  /** The player as identified by the table; null if unknown. */
  playerId: string | null;
  /** Why the bet was withdrawn; null if none given. */
  reason: string | null;
}

/** A card is dealt. */
export interface CardDealt {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** A card as two characters: rank 2-9, T, J, Q, K or A, then suit c, d, h or s (e.g. "Th" = ten of hearts, "As" = ace of spades). */
  card: string;
  /** Where the card went. */
  target: CardTarget;
  /** The seat number, from 1 (the seat immediately left of the banker) counting to the right the card went to; null unless target is SEAT. */
  seat: number | null;
  /** True when the card was dealt face up. */
  faceUp: boolean;
  /** The 1-based order of this card in the round's deal. */
  dealOrder: number;
}

/** Where a card goes: a seat, the banker, the community area (Progressive Jackpot) or the discard. */
export type CardTarget = 'SEAT' | 'BANKER' | 'COMMUNITY' | 'DISCARD';

/** A card is shown inadvertently. */
export interface CardExposed {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** A card as two characters: rank 2-9, T, J, Q, K or A, then suit c, d, h or s (e.g. "Th" = ten of hearts, "As" = ace of spades). */
  card: string;
  /** Where the exposed card belongs. */
  target: CardTarget;
  /** The seat number, from 1 (the seat immediately left of the banker) counting to the right the card belongs to; null unless target is SEAT. */
  seat: number | null;
  /** True when exposed while the cards were being dealt (art. 17.º n.º 1 2)-3), n.º 4 1)). */
  duringDeal: boolean;
}

/** A hand with an Ante plays (places the Play bet) or folds. */
export interface PlayDecision {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** The seat number, from 1 (the seat immediately left of the banker) counting to the right of the hand. */
  seat: number;
  /** PLAY places the Play bet; FOLD gives up the hand. */
  decision: PlayChoice;
}

/** Play or fold. */
export type PlayChoice = 'PLAY' | 'FOLD';

/** The community cards are turned over (only when some hand bet the Progressive Jackpot). */
export interface CommunityCardsRevealed {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** The community cards, each a card as two characters: rank 2-9, T, J, Q, K or A, then suit c, d, h or s (e.g. "Th" = ten of hearts, "As" = ace of spades). */
  cards: string[];
}

/** The table declares the hands and the result of every seat against the banker. */
export interface OutcomeDeclared {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** The class of the banker's hand. */
  bankerHand: ThreeCardHand;
  /** True when the banker's hand qualifies. */
  bankerQualifies: boolean;
  /** One entry per seat with an Ante or a Pair Plus bet. */
  seats: SeatOutcome[];
}

/** The class of a three-card hand. */
export type ThreeCardHand =
  'STRAIGHT_FLUSH' | 'THREE_OF_A_KIND' | 'STRAIGHT' | 'FLUSH' | 'PAIR' | 'HIGH_CARD';

/** The hand of one seat and its result against the banker. */
export interface SeatOutcome {
  /** The seat number, from 1 (the seat immediately left of the banker) counting to the right. */
  seat: number;
  /** The class of the seat's hand. */
  hand: ThreeCardHand;
  /** The result against the banker; NONE for a hand that folded or had no Ante. */
  result: SeatResult;
}

/** The result of a hand against the banker. */
export type SeatResult = 'WIN' | 'LOSE' | 'TIE' | 'NONE';

/** A winning bet is paid. */
export interface PayoutMade {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** The seat number, from 1 (the seat immediately left of the banker) counting to the right of the hand paid. */
  seat: number;
  /** What is paid. */
  betType: PayoutType;
  /** The winnings, not counting the stake returned with them, in avos (1/100 MOP, 100 avos = 1 pataca), a whole number, never a float. */
  amount: number;
}

/** What can be paid: the bets, plus the Ante bonus (paid on the Ante). */
export type PayoutType = 'ANTE' | 'PLAY' | 'PAIR_PLUS' | 'SIX_CARD_BONUS' | 'PROGRESSIVE' | 'ANTE_BONUS';

/** A losing stake is taken by the house. */
export interface BetCollected {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** The seat number, from 1 (the seat immediately left of the banker) counting to the right of the hand. */
  seat: number;
  /** Which bet is collected. */
  betType: BetType;
  /** The stake collected, in avos (1/100 MOP, 100 avos = 1 pataca), a whole number, never a float. */
  amount: number;
}

/** A stake is returned to the player (a push, or a bet of a voided round). */
export interface BetReturned {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** The seat number, from 1 (the seat immediately left of the banker) counting to the right of the hand. */
  seat: number;
  /** Which bet is returned. */
  betType: BetType;
  /** The stake returned, in avos (1/100 MOP, 100 avos = 1 pataca), a whole number, never a float. */
  amount: number;
  /** Why it was returned; null if none given. */
  reason: string | null;
}

/** The Progressive Jackpot pool moves. */
export interface JackpotPoolChanged {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** The pool before the change, in avos (1/100 MOP, 100 avos = 1 pataca), a whole number, never a float. */
  poolBefore: number;
  /** The pool after the change, in avos (1/100 MOP, 100 avos = 1 pataca), a whole number, never a float. */
  poolAfter: number;
  /** CONTRIBUTION from Progressive stakes, PAYMENT of an award, RESET to the reset amount, or a manual ADJUSTMENT. */
  reason: JackpotPoolChangeReason;
}

/** Why the pool moved. */
export type JackpotPoolChangeReason = 'CONTRIBUTION' | 'PAYMENT' | 'RESET' | 'ADJUSTMENT';

/** A Progressive Jackpot award is paid. */
export interface JackpotPaid {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** The seat number, from 1 (the seat immediately left of the banker) counting to the right of the winning hand. */
  seat: number;
  /** The qualifying hand. */
  hand: JackpotHand;
  /** The award, in avos (1/100 MOP, 100 avos = 1 pataca), a whole number, never a float. */
  amount: number;
  /** The pool before this payment, in avos (1/100 MOP, 100 avos = 1 pataca), a whole number, never a float. */
  poolBefore: number;
  /** The pool after this payment, in avos (1/100 MOP, 100 avos = 1 pataca), a whole number, never a float. */
  poolAfter: number;
  /** The 1-based order of this payment among the round's jackpot payments. */
  paymentOrder: number;
}

/** A hand that qualifies for the Progressive Jackpot (art. 16.º n.º 3). */
export type JackpotHand = 'ROYAL_FLUSH' | 'STRAIGHT_FLUSH' | 'FOUR_OF_A_KIND' | 'FULL_HOUSE' | 'FLUSH';

/** The round is invalid under art. 17.º: every bet is returned, or carried over for Progressive bets. */
export interface RoundVoided {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** Why the round is void: DEALING_RULES_BROKEN (n.º 1 1)), BANKER_CARD_EXPOSED (n.º 1 2)), PLAYER_CARDS_EXPOSED (n.º 1 3)), SHUFFLER_MALFUNCTION (n.º 2), or OTHER. */
  reason: VoidReason;
  /** What the table entered about the void; null if nothing. */
  note: string | null;
}

/** Why a round is void under art. 17.º. */
export type VoidReason =
  'DEALING_RULES_BROKEN' | 'BANKER_CARD_EXPOSED' | 'PLAYER_CARDS_EXPOSED' | 'SHUFFLER_MALFUNCTION' | 'OTHER';

/** Every bet of the round is settled; the round is over. */
export interface RoundSettled {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
}

/** A player sits down. */
export interface SeatOccupied {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** The seat number, from 1 (the seat immediately left of the banker) counting to the right. */
  seat: number;
  /** The player as identified by the seat sensor or the table. */
  playerId: string;
}

/** A player leaves a seat. */
export interface SeatVacated {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** The seat number, from 1 (the seat immediately left of the banker) counting to the right. */
  seat: number;
  /** The player as identified by the seat sensor or the table. */
  playerId: string;
}

/** Surveillance sees something that may be prohibited conduct. */
export interface SurveillanceObservation {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** What was observed. */
  kind: ObservationKind;
  /** The seat number, from 1 (the seat immediately left of the banker) counting to the right concerned; null when no seat is. */
  seat: number | null;
  /** The player concerned; null if unknown. */
  playerId: string | null;
  /** The camera that recorded it; null if none. */
  camera: string | null;
  /** The analyst who reported it; null for an automatic detection. */
  analyst: string | null;
  /** How sure the observer is, 0 to 100. */
  confidence: number;
  /** What was observed, in words. */
  description: string;
}

/** What surveillance observed. */
export type ObservationKind =
  | 'RECORDING_DEVICE'
  | 'NOTES'
  | 'PREDICTION_OR_STRATEGY'
  | 'CARD_SHOWN_TO_THIRD_PARTY'
  | 'SIGNALLING'
  | 'NON_SEATED_HANDLING'
  | 'OTHER';

/** Every event record of schemas/avro, by name. */
export interface AvroEvents {
  TableOpened: TableOpened;
  TableClosed: TableClosed;
  ShuffleStarted: ShuffleStarted;
  ShuffleCompleted: ShuffleCompleted;
  ShufflerMalfunction: ShufflerMalfunction;
  ShufflerReplaced: ShufflerReplaced;
  DealingSwitchedToShoe: DealingSwitchedToShoe;
  RoundStarted: RoundStarted;
  BetPlaced: BetPlaced;
  BetWithdrawn: BetWithdrawn;
  CardDealt: CardDealt;
  CardExposed: CardExposed;
  PlayDecision: PlayDecision;
  CommunityCardsRevealed: CommunityCardsRevealed;
  OutcomeDeclared: OutcomeDeclared;
  PayoutMade: PayoutMade;
  BetCollected: BetCollected;
  BetReturned: BetReturned;
  JackpotPoolChanged: JackpotPoolChanged;
  JackpotPaid: JackpotPaid;
  RoundVoided: RoundVoided;
  RoundSettled: RoundSettled;
  SeatOccupied: SeatOccupied;
  SeatVacated: SeatVacated;
  SurveillanceObservation: SurveillanceObservation;
}

// The schemas and events.ts must describe the same data: each line below fails to compile when the event's
// Avro record and its TypeScript type are not assignable to each other both ways (a field renamed, missing
// or added, a nullability or type changed, an enum symbol missing on one side), or when an event type
// exists on one side only.
type Agree<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Agreement = {
  readonly [K in events.F3cpEventType | keyof AvroEvents]: K extends events.F3cpEventType
    ? K extends keyof AvroEvents
      ? Agree<AvroEvents[K], events.F3cpEvents[K]>
      : 'no .avsc record for this event type'
    : 'no event type in events.ts for this record';
};
const _headerAgrees: Agree<EventHeader, events.EventHeader> = true;
const _agreement: Agreement = {
  TableOpened: true,
  TableClosed: true,
  ShuffleStarted: true,
  ShuffleCompleted: true,
  ShufflerMalfunction: true,
  ShufflerReplaced: true,
  DealingSwitchedToShoe: true,
  RoundStarted: true,
  BetPlaced: true,
  BetWithdrawn: true,
  CardDealt: true,
  CardExposed: true,
  PlayDecision: true,
  CommunityCardsRevealed: true,
  OutcomeDeclared: true,
  PayoutMade: true,
  BetCollected: true,
  BetReturned: true,
  JackpotPoolChanged: true,
  JackpotPaid: true,
  RoundVoided: true,
  RoundSettled: true,
  SeatOccupied: true,
  SeatVacated: true,
  SurveillanceObservation: true,
};
