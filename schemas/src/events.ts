/**
 * The event vocabulary of a Fortune 3 Card Poker table, as TypeScript types. The Avro schemas in schemas/avro/
 * are the contract on the wire; a test checks that these types and those schemas say the same thing.
 *
 * Conventions (also in the schemas' docs):
 * - amounts are avos (1/100 MOP), Avro long, never floats;
 * - times are UTC milliseconds (Avro long, logicalType timestamp-millis);
 * - a card is a two-character string: rank 2-9, T, J, Q, K, A, then suit c, d, h, s (e.g. "Th", "As");
 * - seats are numbered from 1, the seat immediately left of the banker, to the right.
 */

export type SourceKind = 'TABLE_CONTROLLER' | 'SHUFFLER' | 'SEAT_SENSOR' | 'SURVEILLANCE';

/** Common to every event. */
export interface EventHeader {
  /** unique per event; a redelivery carries the same id */
  eventId: string;
  /** when it happened at the table (UTC ms) */
  eventTime: number;
  /** when the pipeline received it (UTC ms); null until the ingest edge sets it */
  receivedTime: number | null;
  sourceKind: SourceKind;
  /** the emitting device or analyst station */
  sourceDevice: string;
  /** per-source sequence number, increasing by 1 */
  sequence: number;
  casino: string;
  concessionaire: string;
  tableId: string;
  /** the round the event belongs to, when there is one */
  roundId: string | null;
}

export type BetType = 'ANTE' | 'PLAY' | 'PAIR_PLUS' | 'SIX_CARD_BONUS' | 'PROGRESSIVE';
/** what can be paid: the bets plus the Ante bonus, which is paid on the Ante */
export type PayoutType = BetType | 'ANTE_BONUS';
export type ShuffleMode = 'MANUAL' | 'AUTOMATIC';
export type JackpotHand = 'ROYAL_FLUSH' | 'STRAIGHT_FLUSH' | 'FOUR_OF_A_KIND' | 'FULL_HOUSE' | 'FLUSH';
export type ThreeCardHand =
  'STRAIGHT_FLUSH' | 'THREE_OF_A_KIND' | 'STRAIGHT' | 'FLUSH' | 'PAIR' | 'HIGH_CARD';

export interface BetLimit {
  betType: BetType;
  minimum: number;
  maximum: number;
}

export interface JackpotSettings {
  fixedAmounts: {
    royalFlush: number;
    straightFlush: number;
    fourOfAKind: number;
    fullHouse: number;
    flush: number;
  };
  resetAmount: number;
  /** the pool when the table opens */
  initialPool: number;
}

export interface TableOpened {
  header: EventHeader;
  game: 'F3CP';
  /** player seats, 5 to 7 (art. 5.º n.º 2) */
  seats: number;
  betLimits: BetLimit[];
  shuffleMode: ShuffleMode;
  /** null when the table does not offer the Progressive Jackpot */
  jackpot: JackpotSettings | null;
  rounding: { unitAvos: number; mode: 'DOWN' | 'HALF_UP' | 'UP' };
}

export interface TableClosed {
  header: EventHeader;
  reason: string | null;
}

export interface ShuffleStarted {
  header: EventHeader;
  mode: ShuffleMode;
  shufflerId: string | null;
}

export interface ShuffleCompleted {
  header: EventHeader;
  mode: ShuffleMode;
  shufflerId: string | null;
  cutCardUsed: boolean;
  /** who cut (manual shuffle): the banker, or a player at a seat; NONE = no cut */
  cutBy: 'BANKER' | 'PLAYER' | 'NONE';
  cutBySeat: number | null;
}

export interface ShufflerMalfunction {
  header: EventHeader;
  shufflerId: string;
  duringDeal: boolean;
  description: string;
}

export interface ShufflerReplaced {
  header: EventHeader;
  oldShufflerId: string;
  newShufflerId: string;
}

export interface DealingSwitchedToShoe {
  header: EventHeader;
  reason: string;
}

export interface RoundStarted {
  header: EventHeader;
  roundNumber: number;
}

export interface BetPlaced {
  header: EventHeader;
  /** the hand the bet is placed on */
  seat: number;
  betType: BetType;
  amount: number;
  /** the player as identified by the table (card, face recognition); null if unknown */
  playerId: string | null;
  /** a Progressive bet carried over from a voided round (art. 17.º n.º 3) */
  carriedOver: boolean;
}

export interface BetWithdrawn {
  header: EventHeader;
  seat: number;
  betType: BetType;
  amount: number;
  playerId: string | null;
  reason: string | null;
}

export type CardTarget = 'SEAT' | 'BANKER' | 'COMMUNITY' | 'DISCARD';

export interface CardDealt {
  header: EventHeader;
  card: string;
  target: CardTarget;
  /** the seat, when target is SEAT */
  seat: number | null;
  faceUp: boolean;
  /** 1-based order of this card in the round's deal */
  dealOrder: number;
}

export interface CardExposed {
  header: EventHeader;
  card: string;
  target: CardTarget;
  seat: number | null;
  /** exposed while the cards were being dealt (art. 17.º n.º 1 2)-3), n.º 4 1)) */
  duringDeal: boolean;
}

export interface PlayDecision {
  header: EventHeader;
  seat: number;
  decision: 'PLAY' | 'FOLD';
}

export interface CommunityCardsRevealed {
  header: EventHeader;
  cards: string[];
}

export interface SeatOutcome {
  seat: number;
  hand: ThreeCardHand;
  /** against the banker; NONE for a hand that folded or had no Ante */
  result: 'WIN' | 'LOSE' | 'TIE' | 'NONE';
}

export interface OutcomeDeclared {
  header: EventHeader;
  bankerHand: ThreeCardHand;
  bankerQualifies: boolean;
  seats: SeatOutcome[];
}

export interface PayoutMade {
  header: EventHeader;
  seat: number;
  betType: PayoutType;
  /** winnings, not counting the stake returned with them */
  amount: number;
}

export interface BetCollected {
  header: EventHeader;
  seat: number;
  betType: BetType;
  amount: number;
}

export interface BetReturned {
  header: EventHeader;
  seat: number;
  betType: BetType;
  amount: number;
  reason: string | null;
}

export interface JackpotPoolChanged {
  header: EventHeader;
  poolBefore: number;
  poolAfter: number;
  reason: 'CONTRIBUTION' | 'PAYMENT' | 'RESET' | 'ADJUSTMENT';
}

export interface JackpotPaid {
  header: EventHeader;
  seat: number;
  hand: JackpotHand;
  amount: number;
  poolBefore: number;
  poolAfter: number;
  /** 1-based order of payment in the round */
  paymentOrder: number;
}

export type VoidReason =
  'DEALING_RULES_BROKEN' | 'BANKER_CARD_EXPOSED' | 'PLAYER_CARDS_EXPOSED' | 'SHUFFLER_MALFUNCTION' | 'OTHER';

export interface RoundVoided {
  header: EventHeader;
  reason: VoidReason;
  note: string | null;
}

export interface RoundSettled {
  header: EventHeader;
}

export interface SeatOccupied {
  header: EventHeader;
  seat: number;
  playerId: string;
}

export interface SeatVacated {
  header: EventHeader;
  seat: number;
  playerId: string;
}

export type ObservationKind =
  | 'RECORDING_DEVICE'
  | 'NOTES'
  | 'PREDICTION_OR_STRATEGY'
  | 'CARD_SHOWN_TO_THIRD_PARTY'
  | 'SIGNALLING'
  | 'NON_SEATED_HANDLING'
  | 'OTHER';

export interface SurveillanceObservation {
  header: EventHeader;
  kind: ObservationKind;
  seat: number | null;
  playerId: string | null;
  camera: string | null;
  analyst: string | null;
  /** 0 to 100 */
  confidence: number;
  description: string;
}

/** Every event type by its Avro full name (namespace ta.f3cp). */
export interface F3cpEvents {
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

export type F3cpEventType = keyof F3cpEvents;

/** A decoded event: its type name and its data. */
export type F3cpEvent = { [K in F3cpEventType]: { type: K; data: F3cpEvents[K] } }[F3cpEventType];

export const F3CP_EVENT_TYPES: readonly F3cpEventType[] = [
  'TableOpened',
  'TableClosed',
  'ShuffleStarted',
  'ShuffleCompleted',
  'ShufflerMalfunction',
  'ShufflerReplaced',
  'DealingSwitchedToShoe',
  'RoundStarted',
  'BetPlaced',
  'BetWithdrawn',
  'CardDealt',
  'CardExposed',
  'PlayDecision',
  'CommunityCardsRevealed',
  'OutcomeDeclared',
  'PayoutMade',
  'BetCollected',
  'BetReturned',
  'JackpotPoolChanged',
  'JackpotPaid',
  'RoundVoided',
  'RoundSettled',
  'SeatOccupied',
  'SeatVacated',
  'SurveillanceObservation',
];
