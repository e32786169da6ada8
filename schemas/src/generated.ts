// Generated from schemas/avro/*.avsc by schemas/scripts/generate-types.ts. Do not edit: change the .avsc
// files, then run `pnpm --filter @table-audit/schemas generate-types`.

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
  /** The staff member whose act the event records: the dealer for dealing, decision and settlement events, the pit supervisor, the person who shuffles; null when a device acts alone or the source does not know. */
  staffId: string | null;
}

/** What kind of source emitted the event. UNKNOWN (the default) is what a reader reads for a symbol added after its own version of this schema; ingest refuses an event that holds it, so that it is never judged as something it is not. */
export type SourceKind = 'TABLE_CONTROLLER' | 'SHUFFLER' | 'SEAT_SENSOR' | 'SURVEILLANCE' | 'UNKNOWN';

/** The table stops dealing from the shuffler and deals from the shoe. */
export interface DealingSwitchedToShoe {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** Why the table switched to the shoe. */
  reason: string;
}

/** A table corrects an event it emitted with a mistake (a mis-keyed amount, seat or card) without rewriting history: the corrected event stays stored as it was; readers apply the correction over it. */
export interface EventCorrected {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** The eventId of the event corrected (same table). */
  correctedEventId: string;
  /** The record name of the event corrected (e.g. BetPlaced), so that a reader can check the corrections against its fields. */
  correctedEventType: string;
  /** The corrected field values as a JSON object, field name to value as the corrected event's record has them (e.g. {"amount": 50000, "seat": 3}); nested fields by dotted path. The header cannot be corrected. */
  corrections: string;
  /** Why the event was wrong, in words. */
  reason: string;
  /** The staff id of the person who entered the correction. */
  correctedBy: string;
  /** The staff id of the supervisor who authorised the correction; null when none was needed or recorded. */
  authorisedBy: string | null;
}

/** Every bet of the round is settled; the round is over. */
export interface RoundSettled {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
}

/** A round starts; the header carries its round id. */
export interface RoundStarted {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** The number of the round at this table, increasing from one round to the next. */
  roundNumber: number;
  /** The staff id of the dealer (croupier) who deals the round; null when the table did not say. */
  dealerId: string | null;
  /** The shuffle the round is dealt from (the shuffleId of its ShuffleCompleted); null when the table does not name its shuffles. */
  shuffleId: string | null;
}

/** The round is invalid under art. 17.º: every bet is returned, or carried over for Progressive bets. */
export interface RoundVoided {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** Why the round is void: DEALING_RULES_BROKEN (n.º 1 1)), BANKER_CARD_EXPOSED (n.º 1 2)), PLAYER_CARDS_EXPOSED (n.º 1 3)), SHUFFLER_MALFUNCTION (n.º 2), or OTHER. */
  reason: VoidReason;
  /** What the table entered about the void; null if nothing. */
  note: string | null;
  /** The staff id of the pit supervisor who authorised the void; null when not recorded (itself worth a finding). */
  authorisedBy: string | null;
}

/** Why a round is void under art. 17.º. UNKNOWN (the default) is what a reader reads for a symbol added after its own version of this schema; ingest refuses an event that holds it, so that it is never judged as something it is not. */
export type VoidReason =
  | 'DEALING_RULES_BROKEN'
  | 'BANKER_CARD_EXPOSED'
  | 'PLAYER_CARDS_EXPOSED'
  | 'SHUFFLER_MALFUNCTION'
  | 'OTHER'
  | 'UNKNOWN';

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
  /** The shuffle, as named by the table; the rounds dealt from it give the same id on RoundStarted. Null when the table does not name its shuffles. */
  shuffleId: string | null;
  /** The staff member who shuffled by hand; null for an automatic shuffle or when not known. */
  shuffledBy: string | null;
  /** Who cut: the staff id of the banker when cutBy is BANKER, the player id when it is PLAYER; null when there was no cut or it is not known. */
  cutById: string | null;
}

/** MANUAL: shuffled by hand and dealt from the shoe; AUTOMATIC: by a shuffler that also deals. UNKNOWN (the default) is what a reader reads for a symbol added after its own version of this schema; ingest refuses an event that holds it, so that it is never judged as something it is not. */
export type ShuffleMode = 'MANUAL' | 'AUTOMATIC' | 'UNKNOWN';

/** Who cut the deck. UNKNOWN (the default) is what a reader reads for a symbol added after its own version of this schema; ingest refuses an event that holds it, so that it is never judged as something it is not. */
export type CutBy = 'BANKER' | 'PLAYER' | 'NONE' | 'UNKNOWN';

/** A shuffle starts. */
export interface ShuffleStarted {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** How the cards are shuffled. */
  mode: ShuffleMode;
  /** The shuffler; null for a manual shuffle. */
  shufflerId: string | null;
  /** The shuffle, as named by the table; the rounds dealt from it give the same id on RoundStarted. Null when the table does not name its shuffles. */
  shuffleId: string | null;
}

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
  /** The DICJ inspector or surveillance supervisor who reviewed the observation; null while nobody has. */
  inspectorId: string | null;
  /** The recordings that show what was observed; empty when none is referenced. */
  evidence: EvidenceClip[];
}

/** What surveillance observed. UNKNOWN (the default) is what a reader reads for a symbol added after its own version of this schema; ingest refuses an event that holds it, so that it is never judged as something it is not. */
export type ObservationKind =
  | 'RECORDING_DEVICE'
  | 'NOTES'
  | 'PREDICTION_OR_STRATEGY'
  | 'CARD_SHOWN_TO_THIRD_PARTY'
  | 'SIGNALLING'
  | 'NON_SEATED_HANDLING'
  | 'OTHER'
  | 'UNKNOWN';

/** A recording that shows what was observed. */
export interface EvidenceClip {
  /** The camera that recorded the clip. */
  camera: string;
  /** The id of the clip in the surveillance recording system. */
  clipId: string;
  /** When the clip starts, UTC milliseconds since the Unix epoch. */
  clipStart: number;
  /** When the clip ends, UTC milliseconds since the Unix epoch. */
  clipEnd: number;
}

/** The table closes; no round follows until the next TableOpened. */
export interface TableClosed {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** Why the table closed, as entered at the table; null if none given. */
  reason: string | null;
}

/** The table opens for play, with the settings every later round of this session is judged by. */
export interface TableOpened {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** The game: F3CP = Fortune 3 Card Poker; UNKNOWN = a game this schema version does not know yet. */
  game: Game;
  /** Number of player seats, 5 to 7 (art. 5.º n.º 2). */
  seats: number;
  /** The limits of each bet type offered at the table (Fortune 3 Card Poker bet types). */
  betLimits: BetLimit[];
  /** How the cards are shuffled and dealt at this table. */
  shuffleMode: ShuffleMode;
  /** The Progressive Jackpot settings; null when the table does not offer the Progressive Jackpot. */
  jackpot: JackpotSettings | null;
  /** The rounding policy of the table. */
  rounding: RoundingPolicy;
  /** The ISO 4217 code of the currency the table plays in; every amount of the table's events is a whole number of its minor unit (for MOP, avos: 1/100 MOP). */
  currency: string;
  /** The CRAPS settings (Despacho 53/2010) when game is CRAPS; null for every other game. */
  craps: TableSettings | null;
  /** The 13 Cards payout settings (Portaria 51/89/M) when game is THIRTEEN_CARDS; null for every other game. */
  thirteenCards: ThirteenTableSettings | null;
}

/** The game played at the table. UNKNOWN is what a reader reads for a game added to the schema after its own version (its default): such a table is not audited by rules it does not know. */
export type Game = 'F3CP' | 'CRAPS' | 'THIRTEEN_CARDS' | 'MAHJONG' | 'UNKNOWN';

/** The table minimum and maximum of one bet type. */
export interface BetLimit {
  /** The bet the limits apply to. */
  betType: BetType;
  /** Smallest stake accepted, in avos (1/100 MOP, 100 avos = 1 pataca), a whole number, never a float. */
  minimum: number;
  /** Largest stake accepted, in avos (1/100 MOP, 100 avos = 1 pataca), a whole number, never a float. */
  maximum: number;
}

/** A bet of Fortune 3 Card Poker. UNKNOWN (the default) is what a reader reads for a symbol added after its own version of this schema; ingest refuses an event that holds it, so that it is never judged as something it is not. */
export type BetType = 'ANTE' | 'PLAY' | 'PAIR_PLUS' | 'SIX_CARD_BONUS' | 'PROGRESSIVE' | 'UNKNOWN';

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

/** Which way a fractional payout is rounded to the unit. UNKNOWN (the default) is what a reader reads for a symbol added after its own version of this schema; ingest refuses an event that holds it, so that it is never judged as something it is not. */
export type RoundingMode = 'DOWN' | 'HALF_UP' | 'UP' | 'UNKNOWN';

/** The settings of a CRAPS table (Despacho 53/2010), carried by its TableOpened. */
export interface TableSettings {
  /** The posted minimum; every stake must be a multiple of it (art. 5.º n.º 6), and a shooter must have bet at least it (art. 2.º n.º 1), in avos (1/100 MOP, 100 avos = 1 pataca), a whole number, never a float. */
  minimumBet: number;
  /** The posted maximum of one stake, in avos (1/100 MOP, 100 avos = 1 pataca), a whole number, never a float. */
  maximumBet: number;
  /** What the Field pays on a 12, to one: 2 or 3, the concessionaire's choice (art. 6.º 12)). */
  field12PaysToOne: number;
  /** The dice of the table (four or five, art. 1.º n.º 1), by the ids the throws name. */
  dieIds: string[];
  /** The names of the bets the DICJ authorised at this table beyond the regulation's (art. 7.º); a CrapsBetPlaced of type EXTRA names one of them. */
  authorisedExtraBets: string[];
}

/** The payout settings of a 13 Cards table (Portaria 51/89/M art. 11.º, read under interpretation T2), carried by its TableOpened. */
export interface ThirteenTableSettings {
  /** What a bet's units mean (T2). */
  unitsMeaning: ThirteenUnits;
  /** What the House's commission is taken from (T2). */
  commissionBase: ThirteenCommissionBase;
  /** The House's commission in percent (art. 11.º: 2). */
  commissionPercent: number;
}

/** STAKE_PER_POINT: a bet's amount is a stake per point, the sum at risk amount × units; UNITS_RECORDED: the amount is the whole sum at risk, the units only recorded. UNKNOWN (the default): a symbol added after the reader's version; ingest refuses it. */
export type ThirteenUnits = 'STAKE_PER_POINT' | 'UNITS_RECORDED' | 'UNKNOWN';

/** WIN: the commission is taken from the half-stake won; STAKE: from the sum at risk. UNKNOWN (the default): a symbol added after the reader's version; ingest refuses it. */
export type ThirteenCommissionBase = 'WIN' | 'STAKE' | 'UNKNOWN';

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
  /** The id of the bet collected (the betId of its BetPlaced); null when the table does not give bet ids. */
  betId: string | null;
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
  /** The id of this bet, unique within the round, given by the table; every event that settles the bet carries it. Null when the table does not give bet ids. */
  betId: string | null;
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
  /** The id of the bet returned (the betId of its BetPlaced); null when the table does not give bet ids. */
  betId: string | null;
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
  /** The id of the bet withdrawn (the betId of its BetPlaced); null when the table does not give bet ids. */
  betId: string | null;
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

/** Where a card goes: a seat, the banker, the community area (Progressive Jackpot) or the discard. UNKNOWN (the default) is what a reader reads for a symbol added after its own version of this schema; ingest refuses an event that holds it, so that it is never judged as something it is not. */
export type CardTarget = 'SEAT' | 'BANKER' | 'COMMUNITY' | 'DISCARD' | 'UNKNOWN';

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

/** The community cards are turned over (only when some hand bet the Progressive Jackpot). */
export interface CommunityCardsRevealed {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** The community cards, each a card as two characters: rank 2-9, T, J, Q, K or A, then suit c, d, h or s (e.g. "Th" = ten of hearts, "As" = ace of spades). */
  cards: string[];
}

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
  /** The id of the Progressive bet that won (the betId of its BetPlaced); null when the table does not give bet ids. */
  betId: string | null;
}

/** A hand that qualifies for the Progressive Jackpot (art. 16.º n.º 3). UNKNOWN (the default) is what a reader reads for a symbol added after its own version of this schema; ingest refuses an event that holds it, so that it is never judged as something it is not. */
export type JackpotHand =
  'ROYAL_FLUSH' | 'STRAIGHT_FLUSH' | 'FOUR_OF_A_KIND' | 'FULL_HOUSE' | 'FLUSH' | 'UNKNOWN';

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

/** Why the pool moved. UNKNOWN (the default) is what a reader reads for a symbol added after its own version of this schema; ingest refuses an event that holds it, so that it is never judged as something it is not. */
export type JackpotPoolChangeReason = 'CONTRIBUTION' | 'PAYMENT' | 'RESET' | 'ADJUSTMENT' | 'UNKNOWN';

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

/** The class of a three-card hand. UNKNOWN (the default) is what a reader reads for a symbol added after its own version of this schema; ingest refuses an event that holds it, so that it is never judged as something it is not. */
export type ThreeCardHand =
  'STRAIGHT_FLUSH' | 'THREE_OF_A_KIND' | 'STRAIGHT' | 'FLUSH' | 'PAIR' | 'HIGH_CARD' | 'UNKNOWN';

/** The hand of one seat and its result against the banker. */
export interface SeatOutcome {
  /** The seat number, from 1 (the seat immediately left of the banker) counting to the right. */
  seat: number;
  /** The class of the seat's hand. */
  hand: ThreeCardHand;
  /** The result against the banker; NONE for a hand that folded or had no Ante. */
  result: SeatResult;
  /** The declared best five-card hand of the seat's three cards and the banker's three, for a Six Card Bonus bet; null when the seat has none. */
  sixCardHand: FiveCardHand | null;
  /** The declared best five-card hand of the seat's three cards and the two community cards, for a Progressive Jackpot bet; null when the seat has none. */
  progressiveHand: FiveCardHand | null;
}

/** The result of a hand against the banker. UNKNOWN (the default) is what a reader reads for a symbol added after its own version of this schema; ingest refuses an event that holds it, so that it is never judged as something it is not. */
export type SeatResult = 'WIN' | 'LOSE' | 'TIE' | 'NONE' | 'UNKNOWN';

/** The class of the best five-card hand among six or seven cards (art. 7.º n.º 2 and 3: Six Card Bonus, Progressive Jackpot). UNKNOWN (the default) is what a reader reads for a symbol added after its own version of this schema; ingest refuses an event that holds it, so that it is never judged as something it is not. */
export type FiveCardHand =
  | 'HIGH_CARD'
  | 'PAIR'
  | 'TWO_PAIR'
  | 'THREE_OF_A_KIND'
  | 'STRAIGHT'
  | 'FLUSH'
  | 'FULL_HOUSE'
  | 'FOUR_OF_A_KIND'
  | 'STRAIGHT_FLUSH'
  | 'ROYAL_FLUSH'
  | 'UNKNOWN';

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
  /** The id of the bet paid (the betId of its BetPlaced; for ANTE_BONUS, of the Ante); null when the table does not give bet ids. */
  betId: string | null;
}

/** What can be paid: the bets, plus the Ante bonus (paid on the Ante). UNKNOWN (the default) is what a reader reads for a symbol added after its own version of this schema; ingest refuses an event that holds it, so that it is never judged as something it is not. */
export type PayoutType =
  'ANTE' | 'PLAY' | 'PAIR_PLUS' | 'SIX_CARD_BONUS' | 'PROGRESSIVE' | 'ANTE_BONUS' | 'UNKNOWN';

/** A hand with an Ante plays (places the Play bet) or folds. */
export interface PlayDecision {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** The seat number, from 1 (the seat immediately left of the banker) counting to the right of the hand. */
  seat: number;
  /** PLAY places the Play bet; FOLD gives up the hand. */
  decision: PlayChoice;
}

/** Play or fold. UNKNOWN (the default) is what a reader reads for a symbol added after its own version of this schema; ingest refuses an event that holds it, so that it is never judged as something it is not. */
export type PlayChoice = 'PLAY' | 'FOLD' | 'UNKNOWN';

/** A player places a stake on a CRAPS bet; it stays on the table until a throw resolves it. */
export interface CrapsBetPlaced {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** The id of this bet, unique at the table; every resolution of the bet carries it. */
  betId: string;
  /** The player who placed the bet, as identified by the table. */
  playerId: string;
  /** Which bet. */
  betType: CrapsBetType;
  /** The number bet on: 4, 6, 8 or 10 for HARD_WAY; 4, 5, 6, 8, 9 or 10 for BIG_NUMBER (Big 6 or Big 8, Big 5 or 9, Big 4 or 10); null for every other bet. */
  number: number | null;
  /** The stake, in avos (1/100 MOP, 100 avos = 1 pataca), a whole number, never a float. */
  amount: number;
  /** For an odds bet (PASS_ODDS, DONT_PASS_ODDS, COME_ODDS, DONT_COME_ODDS), the betId of the line or come bet it is added to; null otherwise. */
  behindBetId: string | null;
  /** For EXTRA, the name of the bet as the table's DICJ authorisation names it; null otherwise. */
  extraBetName: string | null;
}

/** A bet of art. 5.º of Despacho 53/2010, or EXTRA for one the DICJ authorised (art. 7.º). UNKNOWN (the default) is what a reader reads for a symbol added after its own version of this schema; ingest refuses an event that holds it, so that it is never judged as something it is not. */
export type CrapsBetType =
  | 'PASS_LINE'
  | 'PASS_ODDS'
  | 'DONT_PASS'
  | 'DONT_PASS_ODDS'
  | 'COME'
  | 'COME_ODDS'
  | 'DONT_COME'
  | 'DONT_COME_ODDS'
  | 'ANY_CRAPS'
  | 'ANY_SEVEN'
  | 'ELEVEN'
  | 'ACE_DEUCE'
  | 'ACES'
  | 'BOXCARS'
  | 'HORN'
  | 'FIELD'
  | 'BIG'
  | 'SMALL'
  | 'HARD_WAY'
  | 'BIG_NUMBER'
  | 'EXTRA'
  | 'UNKNOWN';

/** A throw resolved a bet and the croupier settled it: paid, collected or returned. */
export interface CrapsBetResolved {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** The betId of the CrapsBetPlaced resolved. */
  betId: string;
  /** How the bet was resolved. */
  outcome: CrapsBetOutcome;
  /** The winnings paid, not counting the stake returned with them (0 unless WIN), in avos (1/100 MOP, 100 avos = 1 pataca), a whole number, never a float. */
  payout: number;
}

/** How a throw resolved a bet: WIN (paid, stake returned), LOSE (stake collected), PUSH (neither: the Don't bar 12; stake returned). UNKNOWN (the default) is what a reader reads for a symbol added after its own version of this schema; ingest refuses an event that holds it, so that it is never judged as something it is not. */
export type CrapsBetOutcome = 'WIN' | 'LOSE' | 'PUSH' | 'UNKNOWN';

/** The shooter throws two dice; the header's roundId is the throw's id (the unit the law judges). The bets it resolves follow as CrapsBetResolved with the same roundId. */
export interface DiceThrown {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** The player who threw. */
  shooterId: string;
  /** The two dice thrown, by their ids in TableSettings.dieIds. */
  dieIds: string[];
  /** The face of each die read as the throw's result, 1 to 6, in the order of dieIds; for a die not flat, its most exposed upper face (art. 3.º n.º 1). */
  faces: number[];
  /** What the table's sensors or the surveillance saw that makes the throw void (art. 3.º n.º 2); null when nothing did. */
  voidReason: ThrowVoidReason | null;
  /** True when the croupier declared the throw void, to be repeated; a void throw settles nothing. */
  declaredVoid: boolean;
}

/** Why a throw is void (art. 3.º n.º 2): a die left the table; the dice did not pass the middle and hit no wall; the dice were thrown without rolling. UNKNOWN (the default) is what a reader reads for a symbol added after its own version of this schema; ingest refuses an event that holds it, so that it is never judged as something it is not. */
export type ThrowVoidReason = 'DIE_LEFT_TABLE' | 'NOT_PAST_MIDDLE' | 'NOT_ROLLING' | 'UNKNOWN';

/** A croupier (header.staffId) checked a die against art. 1.º n.º 2: equal edges, opposite faces adding up to 7, pips visible and equal, weight and balance. */
export interface DieChecked {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** The die, by its id in TableSettings.dieIds. */
  dieId: string;
  /** True when the die met every requirement and may be used; false when it was withdrawn. */
  passed: boolean;
}

/** A die left the table (art. 3.º n.º 2 1)); it may be used again only after a croupier checked it (art. 3.º, the OCR's n.º 4). */
export interface DieLeftTable {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** The die, by its id in TableSettings.dieIds. */
  dieId: string;
}

/** The dice pass to a new shooter. */
export interface ShooterChanged {
  /** Identity, time, source and place of the event (common to every event). */
  header: EventHeader;
  /** The new shooter. */
  shooterId: string;
  /** The shooter before; null for the table's first. */
  previousShooterId: string | null;
  /** Why the shooter changed. */
  reason: ShooterChangeReason;
}

/** Why the dice passed to a new shooter: FIRST_SHOOTER (the table's first, art. 2.º n.º 3), SEVEN_OUT (art. 4.º 2), interpretation C1), STOPPED_BETTING (art. 4.º 1)), DECLINED (the shooter declined the dice). UNKNOWN (the default) is what a reader reads for a symbol added after its own version of this schema; ingest refuses an event that holds it, so that it is never judged as something it is not. */
export type ShooterChangeReason = 'FIRST_SHOOTER' | 'SEVEN_OUT' | 'STOPPED_BETTING' | 'DECLINED' | 'UNKNOWN';

/** The signal that the places' time to arrange is over (art. 2.º d): five minutes after the banker showed). */
export interface ArrangeSignalGiven {
  /** Identity, time, source and place of the event (common to every event); the header's roundId is the round's. */
  header: EventHeader;
}

/** The banker shows the arrangement of the banker's 13 cards (art. 2.º d)); a later one is a re-arrangement. */
export interface BankerArranged {
  /** Identity, time, source and place of the event (common to every event); the header's roundId is the round's. */
  header: EventHeader;
  /** The first tier, 3 cards. A card as two characters: rank 2-9, T, J, Q, K or A, then suit c, d, h or s. */
  front: string[];
  /** The second tier, 5 cards. A card as two characters: rank 2-9, T, J, Q, K or A, then suit c, d, h or s. */
  middle: string[];
  /** The third tier, 5 cards. A card as two characters: rank 2-9, T, J, Q, K or A, then suit c, d, h or s. */
  back: string[];
}

/** The deal is cancelled because a misdeal could not be put right (art. 4.º); the cards are reshuffled and cut again (a DeckCut follows). */
export interface DealCancelled {
  /** Identity, time, source and place of the event (common to every event); the header's roundId is the round's. */
  header: EventHeader;
  /** The banker reshuffled the cards. */
  reshuffledByBanker: boolean;
  /** The cards went through the shuffling machine. */
  reshuffledByMachine: boolean;
}

/** The deck is cut with the blank card before the deal (art. 2.º a)); after a DealCancelled, the cut that follows the reshuffle. */
export interface DeckCut {
  /** Identity, time, source and place of the event (common to every event); the header's roundId is the round's. */
  header: EventHeader;
  /** How many cards the cut took (at least ten, art. 2.º a)). */
  cardCount: number;
}

/** The four dice are shaken (art. 2.º b)); their sum says which place the deal starts with. */
export interface DiceShaken {
  /** Identity, time, source and place of the event (common to every event); the header's roundId is the round's. */
  header: EventHeader;
  /** The four dice's faces, 1 to 6 each. */
  faces: number[];
  /** Who shook the dice (the highest bettor), or null when the table did not say. */
  shakerPlayerId: string | null;
}

/** A place's arrangement as finished, at the time it was finished (art. 2.º d) and 7.º). */
export interface PlaceArranged {
  /** Identity, time, source and place of the event (common to every event); the header's roundId is the round's. */
  header: EventHeader;
  /** The place, 1 to 3. */
  place: number;
  /** The first tier, 3 cards. A card as two characters: rank 2-9, T, J, Q, K or A, then suit c, d, h or s. */
  front: string[];
  /** The second tier, 5 cards. A card as two characters: rank 2-9, T, J, Q, K or A, then suit c, d, h or s. */
  middle: string[];
  /** The third tier, 5 cards. A card as two characters: rank 2-9, T, J, Q, K or A, then suit c, d, h or s. */
  back: string[];
}

/** The holder of a place first takes or looks at its cards (art. 2.º d) and 5.º). */
export interface PlaceCardsTaken {
  /** Identity, time, source and place of the event (common to every event); the header's roundId is the round's. */
  header: EventHeader;
  /** The place, 1 to 3. */
  place: number;
  /** Who holds the place's cards (the highest bettor on it, art. 5.º); null when the table did not say. */
  holderPlayerId: string | null;
}

/** A bet withdrawn or moved to another place (art. 2.º c): only before the dice are shaken). */
export interface ThirteenBetChanged {
  /** Identity, time, source and place of the event (common to every event); the header's roundId is the round's. */
  header: EventHeader;
  /** The bet changed. */
  betId: string;
  /** Withdrawn or moved. */
  change: ThirteenBetChange;
  /** For MOVED: the place it went to (1 to 3); null otherwise. */
  toPlace: number | null;
}

/** How a 13 Cards bet changed after it was placed: WITHDRAWN (taken back) or MOVED (to another place). UNKNOWN (the default) is what a reader reads for a symbol added after its own version; ingest refuses an event that holds it. */
export type ThirteenBetChange = 'WITHDRAWN' | 'MOVED' | 'UNKNOWN';

/** A bettor places a bet on one of the places 1 to 3 (art. 2.º and 11.º). */
export interface ThirteenBetPlaced {
  /** Identity, time, source and place of the event (common to every event); the header's roundId is the round's. */
  header: EventHeader;
  /** The id of this bet, unique at the table; its change and its settlement carry it. */
  betId: string;
  /** The place bet on: 1, 2 or 3, counter-clockwise from the banker (place 0). */
  place: number;
  /** The bettor, as identified by the table. */
  playerId: string;
  /** The stake in avos (1/100 MOP), a whole number, never a float; what it means beside units is the table's payout setting (T2). */
  amount: number;
  /** Art. 11.º: the bet's points, 1, 2 or 3. */
  units: number;
  /** True when the bettor is seated at the table. */
  seated: boolean;
}

/** The table settles one bet (art. 11.º). */
export interface ThirteenBetSettled {
  /** Identity, time, source and place of the event (common to every event); the header's roundId is the round's. */
  header: EventHeader;
  /** The bet settled. */
  betId: string;
  /** Won, lost or tied against the banker. */
  outcome: ThirteenOutcome;
  /** What the bettor gained (positive) or lost (negative), in avos (1/100 MOP), a whole number, after the House's commission. */
  net: number;
}

/** A 13 Cards bet's result against the banker (art. 8.º–11.º): WIN, LOSE or TIE. UNKNOWN (the default) is what a reader reads for a symbol added after its own version; ingest refuses an event that holds it. */
export type ThirteenOutcome = 'WIN' | 'LOSE' | 'TIE' | 'UNKNOWN';

/** One card of the deal (art. 2.º b) and 4.º), in the order dealt. */
export interface ThirteenCardDealt {
  /** Identity, time, source and place of the event (common to every event); the header's roundId is the round's. */
  header: EventHeader;
  /** A card as two characters: rank 2-9, T, J, Q, K or A, then suit c, d, h or s. */
  card: string;
  /** The place the card was dealt to: 0 (the banker) to 3. */
  place: number;
  /** True when the card was turned face up as it was dealt (the deal stays valid, art. 4.º). */
  faceUp: boolean;
  /** True when the table recorded the card as dealt to the wrong place (art. 4.º). */
  misdeal: boolean;
  /** For a misdealt card: the place the table then gave it to; null when the misdeal was not put right. */
  correctedTo: number | null;
}

/** The surveillance records a player's conduct at a 13 Cards table (art. 3.º and 5.º). */
export interface ThirteenConductObserved {
  /** Identity, time, source and place of the event (common to every event); the header's roundId is the round's. */
  header: EventHeader;
  /** What was seen. */
  conduct: ThirteenConduct;
  /** The player seen. */
  playerId: string;
  /** The place concerned (1 to 3). */
  place: number;
}

/** What the surveillance saw a 13 Cards player do (art. 3.º and 5.º): PLACE_CHANGED (moved to another place mid-round), CARDS_OFF_TABLE (held the cards away from the table), OTHER_PLACE_CARDS (handled another place's cards). UNKNOWN (the default): a symbol added after the reader's version; ingest refuses it. */
export type ThirteenConduct = 'PLACE_CHANGED' | 'CARDS_OFF_TABLE' | 'OTHER_PLACE_CARDS' | 'UNKNOWN';

/** The banker throws three dice; the sum says where the wall is broken (art. 2.º, interpretation M1). */
export interface MahjongDiceThrown {
  /** Identity, time, source and place of the event (common to every event); the header's roundId is the game's. */
  header: EventHeader;
  /** The three dice's faces, 1 to 6 each. */
  faces: number[];
}

/** The tiles set out in the walls, as counted at the start of the game (Portaria 52/89/M art. 1.º: 136 tiles). */
export interface MahjongTilesCounted {
  /** Identity, time, source and place of the event (common to every event); the header's roundId is the game's. */
  header: EventHeader;
  /** Every tile set out. A tile as two characters: DR, DG, DW (dragons), WE, WS, WW, WN (winds), B1-B9 (bamboos), N1-N9 (numbers), C1-C9 (circles). */
  tiles: string[];
}

/** One turn of the deal: a player takes tiles from the wall (art. 2.º, interpretation M2). */
export interface MahjongTilesDrawn {
  /** Identity, time, source and place of the event (common to every event); the header's roundId is the game's. */
  header: EventHeader;
  /** Who drew. */
  seat: MahjongSeat;
  /** The tiles taken in this turn. A tile as two characters: DR, DG, DW (dragons), WE, WS, WW, WN (winds), B1-B9 (bamboos), N1-N9 (numbers), C1-C9 (circles). */
  tiles: string[];
  /** The ring position (0 to 67) of the first stack touched: row w (0 East, 1 South, 2 West, 3 North) holds 17w to 17w + 16, counted from that row's right end. */
  fromStack: number;
}

/** A player's seat by wind: E (East, always the banker), S (on the banker's right), W (opposite), N (on the left). UNKNOWN (the default) is what a reader reads for a symbol added after its own version; ingest refuses an event that holds it. */
export type MahjongSeat = 'E' | 'S' | 'W' | 'N' | 'UNKNOWN';

/** Something was read or exported through the API, or a workflow action was taken: who, what and when. Written to the api-access stream. */
export interface AccessRecorded {
  /** Unique id of this record (the request id and the action). */
  accessId: string;
  /** Who: the subject (sub) of the caller's token, or the name of their API key. */
  actorSubject: string;
  /** The caller's role. */
  actorRole: Role;
  /** The concessionaire a compliance officer works for; null for roles that see every casino. */
  actorConcessionaire: string | null;
  /** When, UTC milliseconds since the Unix epoch. */
  time: number;
  /** The id of the API request (in the API's logs too). */
  requestId: string;
  /** What was done, e.g. round.replay, round.export, alert.export, alert.resolve, findings.list. */
  action: string;
  /** What kind of object: round, finding, alert, findings (a list). */
  objectType: string;
  /** Which object: its id, or for a list the filters as JSON text. */
  objectId: string;
  /** ok, or why it was refused (not-found, conflict, invalid). */
  outcome: string;
}

/** What a caller may do. inspector: DICJ, every casino, read and annotate; compliance_officer: only their concessionaire's casinos, works their alerts; auditor: read-only; machine: an API key of a system, read-only. UNKNOWN (the default) is what a reader reads for a role added after its version of this schema. */
export type Role = 'inspector' | 'compliance_officer' | 'auditor' | 'machine' | 'UNKNOWN';

/** Someone working alerts has seen an open alert and taken note of it. Written to the alert's stream (alert-<finding id>); the alert's state is the fold of its stream. */
export interface AlertAcknowledged {
  /** The alert: the id of the finding (FindingRaised.findingId) it is about. */
  alertId: string;
  /** Who: the subject (sub) of the caller's token, or the name of their API key. */
  actorSubject: string;
  /** The caller's role. */
  actorRole: Role;
  /** The concessionaire a compliance officer works for; null for roles that see every casino. */
  actorConcessionaire: string | null;
  /** When the API accepted it, UTC milliseconds since the Unix epoch. */
  time: number;
  /** The id of the API request that did it (in the API's logs too). */
  requestId: string;
  /** What they noted, if anything. */
  note: string | null;
}

/** An alert was given to someone to work (or taken back: assignee null). */
export interface AlertAssigned {
  /** The alert: the id of the finding (FindingRaised.findingId) it is about. */
  alertId: string;
  /** Who: the subject (sub) of the caller's token, or the name of their API key. */
  actorSubject: string;
  /** The caller's role. */
  actorRole: Role;
  /** The concessionaire a compliance officer works for; null for roles that see every casino. */
  actorConcessionaire: string | null;
  /** When the API accepted it, UTC milliseconds since the Unix epoch. */
  time: number;
  /** The id of the API request that did it (in the API's logs too). */
  requestId: string;
  /** The subject of the person who is to work it; null: unassigned. */
  assignee: string | null;
}

/** A comment on an alert, kept in its history; it does not change the alert's status. */
export interface AlertCommented {
  /** The alert: the id of the finding (FindingRaised.findingId) it is about. */
  alertId: string;
  /** Who: the subject (sub) of the caller's token, or the name of their API key. */
  actorSubject: string;
  /** The caller's role. */
  actorRole: Role;
  /** The concessionaire a compliance officer works for; null for roles that see every casino. */
  actorConcessionaire: string | null;
  /** When the API accepted it, UTC milliseconds since the Unix epoch. */
  time: number;
  /** The id of the API request that did it (in the API's logs too). */
  requestId: string;
  /** The comment, as written. */
  comment: string;
}

/** A resolved alert was opened again; its earlier resolution stays in its history. */
export interface AlertReopened {
  /** The alert: the id of the finding (FindingRaised.findingId) it is about. */
  alertId: string;
  /** Who: the subject (sub) of the caller's token, or the name of their API key. */
  actorSubject: string;
  /** The caller's role. */
  actorRole: Role;
  /** The concessionaire a compliance officer works for; null for roles that see every casino. */
  actorConcessionaire: string | null;
  /** When the API accepted it, UTC milliseconds since the Unix epoch. */
  time: number;
  /** The id of the API request that did it (in the API's logs too). */
  requestId: string;
  /** Why it was reopened. */
  reason: string;
}

/** An alert was closed with a disposition. */
export interface AlertResolved {
  /** The alert: the id of the finding (FindingRaised.findingId) it is about. */
  alertId: string;
  /** Who: the subject (sub) of the caller's token, or the name of their API key. */
  actorSubject: string;
  /** The caller's role. */
  actorRole: Role;
  /** The concessionaire a compliance officer works for; null for roles that see every casino. */
  actorConcessionaire: string | null;
  /** When the API accepted it, UTC milliseconds since the Unix epoch. */
  time: number;
  /** The id of the API request that did it (in the API's logs too). */
  requestId: string;
  /** How it was closed. */
  disposition: AlertDisposition;
  /** Why it was closed so, as written by who closed it. */
  comment: string;
}

/** How an alert was closed: confirmed (the finding stands), false_positive (it does not), referred (passed on, e.g. to DICJ enforcement). UNKNOWN (the default) is what a reader reads for a disposition added after its version of this schema. */
export type AlertDisposition = 'confirmed' | 'false_positive' | 'referred' | 'UNKNOWN';

/** The pipeline found something in a round (or across rounds) that differs from the rules in force: what, where, by which check, under which law and interpretations, on which evidence. Its id is deterministic, so a replay run twice raises it once. */
export interface FindingRaised {
  /** Deterministic id: a hash of the round (or table), the check id, the rule set, the interpretation ids and what distinguishes several findings of one check in one round. */
  findingId: string;
  /** The check that found it (e.g. PAYOUT.AMOUNT). */
  checkId: string;
  /** The title of the check. */
  title: string;
  /** How serious the finding is. */
  severity: Severity;
  /** The id of the rule set the round was judged by (e.g. f3cp-2025a). */
  ruleSet: string;
  /** The casino the table is in. */
  casino: string;
  /** The gaming concessionaire that operates the casino. */
  concessionaire: string;
  /** The table. */
  tableId: string;
  /** The round; null for a finding across rounds of the table (e.g. collusion). */
  roundId: string | null;
  /** The seat number, from 1 (the seat immediately left of the banker) counting to the right of each seat concerned, ascending; empty when none is. */
  seats: number[];
  /** The ids of the players concerned, sorted; empty when none is known. */
  players: string[];
  /** What was found, in one or two sentences. */
  summary: string;
  /** What the rules say should have happened, as JSON text (free-form: an amount, a hand, a list of lines); "null" when nothing is expected. */
  expected: string;
  /** What the table declared or did, as JSON text (free-form); "null" when the table declared nothing. */
  declared: string;
  /** The provisions the finding rests on, each once. */
  citations: Citation[];
  /** The ids of the interpretations of the register the finding depends on (e.g. J5), sorted. */
  interpretations: string[];
  /** The eventIds of the events that show what was found, each once. */
  evidenceEventIds: string[];
  /** The event time of the latest evidence event, UTC milliseconds since the Unix epoch (deterministic, unlike the clock). */
  eventTime: number;
  /** Anything more the check records, as a JSON object in text (free-form); null when nothing. */
  details: string | null;
}

/** How serious a finding is. unknown (the default) is what a reader reads for a symbol added after its own version of this schema; ingest refuses an event that holds it, so that it is never judged as something it is not. */
export type Severity = 'critical' | 'high' | 'medium' | 'low' | 'unknown';

/** A provision of the law a finding rests on. */
export interface Citation {
  /** The citation key (table-audit cite KEY prints the PT and ZH text), e.g. "89/2025 art.15 n.5". */
  key: string;
  /** The provision in its Portuguese legal form: diploma, artigo, número, alínea. */
  reference: string;
}

/** Ingest refused an input (bytes that do not decode, or an event that decoded but cannot describe anything at a table); it keeps the bytes, where they came from and why, so that nothing received is silently dropped. */
export interface InputRejected {
  /** Deterministic id: a hash of where the input came from and its bytes, so a redelivery is kept once. */
  rejectId: string;
  /** When ingest received the input, UTC milliseconds since the Unix epoch. */
  receivedTime: number;
  /** Where the input came from. */
  source: InputPosition;
  /** The same position as one line of text, as the command line prints it (e.g. "file data/run/events.avro block 3 record 17"). */
  sourceText: string;
  /** The stable kind of the reject, e.g. TRUNCATED_PAYLOAD, CORRUPT_BLOCK, INVALID_EVENT, EVENT_ID_CONFLICT, UNDECODABLE. */
  code: string;
  /** What is wrong, naming the field or byte position, so that whoever fixes the source knows what to fix. */
  reason: string;
  /** The bytes as received (a Kafka message value with its frame, or the record or block of a file); null when there were none (a tombstone) or the reader does not expose them. */
  raw: Buffer | null;
  /** The event as decoded, as JSON text, when it decoded but was not acceptable; null when it did not decode. */
  decoded: string | null;
}

/** Where an input came from, precisely enough to find it again. */
export interface InputPosition {
  /** What the input was read from: a Kafka topic, an events file, or a producer in the same process. */
  kind: InputKind;
  /** The Kafka topic; null unless kind is KAFKA. */
  topic: string | null;
  /** The Kafka partition; null unless kind is KAFKA. */
  partition: number | null;
  /** The Kafka offset (a 64-bit number as decimal text); null unless kind is KAFKA. */
  offset: string | null;
  /** The path of the events file; null unless kind is FILE. */
  path: string | null;
  /** The block of the events file, from 0; null unless kind is FILE. */
  block: number | null;
  /** The in-process producer; null unless kind is IN_PROCESS. */
  producer: string | null;
  /** The record within the file block (from 0) or the producer's count (from 0); null for a whole damaged block or a Kafka message. */
  index: number | null;
}

/** What an input was read from. UNKNOWN (the default) is what a reader reads for a symbol added after its own version of this schema; ingest refuses an event that holds it, so that it is never judged as something it is not. */
export type InputKind = 'KAFKA' | 'FILE' | 'IN_PROCESS' | 'UNKNOWN';

/** What replay derived for one round, for analytics and the API to read instead of folding the round again: its place and time, its rule set, its totals expected and declared, one line per bet, and the findings and interpretations it gave rise to. */
export interface RoundDerived {
  /** The round. */
  roundId: string;
  /** The table. */
  tableId: string;
  /** The casino the table is in. */
  casino: string;
  /** The gaming concessionaire that operates the casino. */
  concessionaire: string;
  /** The game played. */
  game: Game;
  /** The id of the rule set the round was judged by (e.g. f3cp-2025a); null when none governs its date (then status is NOT_DERIVED). */
  ruleSetId: string | null;
  /** The round's Macau local date (UTC+8), YYYY-MM-DD: what chooses the rule set. */
  macauDate: string;
  /** The event time of the round's RoundStarted, UTC milliseconds since the Unix epoch. */
  roundStartTime: number;
  /** The staff id of the dealer of the round; null when the table did not say. */
  dealerId: string | null;
  /** SETTLED: derived and compared; VOIDED: the round was voided (statusReason says why); NOT_DERIVED: replay could not derive it (statusReason says why, e.g. no rule set, the round never closed). */
  status: DerivationStatus;
  /** The void reason for VOIDED, why the round could not be derived for NOT_DERIVED; null for SETTLED. */
  statusReason: string | null;
  /** Every stake of the round, in avos (1/100 MOP, 100 avos = 1 pataca; the minor unit of the table's currency), a whole number, never a float. */
  totalStakedAvos: number;
  /** Every winning the rules owe the players (stakes returned not counted), in avos (1/100 MOP, 100 avos = 1 pataca; the minor unit of the table's currency), a whole number, never a float. */
  expectedPaidAvos: number;
  /** Every winning the table declared paid (PayoutMade and JackpotPaid), in avos (1/100 MOP, 100 avos = 1 pataca; the minor unit of the table's currency), a whole number, never a float. */
  declaredPaidAvos: number;
  /** The house's gain on the round as declared (stakes collected minus winnings paid; negative when the house lost), in avos (1/100 MOP, 100 avos = 1 pataca; the minor unit of the table's currency), a whole number, never a float. */
  houseResultAvos: number;
  /** One line per bet (and per Ante bonus), in seat then bet order. */
  lines: BetLine[];
  /** The ids of the findings raised on the round. */
  findingIds: string[];
  /** The ids of the interpretations of the register the derivation depends on, sorted. */
  interpretationIds: string[];
  /** The table's state as the round began (its fold's state just before the first event, in stored order, whose header names the round), in its game's own versioned JSON form: the API derives the round again from it and the round's own events instead of folding the table from its start. Null when the replay did not record it (a record written before this field, a game that cannot resume there, a round whose first event is not its own). A reader checks it (packages/rules: GameModule.resumeTable) and folds the table from its start when it cannot use it. */
  startState?: string | null;
  /** Written with startState: the ids of every finding the replay reported with the round when it closed, in that order, when they are not exactly findingIds: besides the round's own, findings about an earlier round judged as this one closed (a late event) and the table's own (collusion over the session), which the round's replay shows with it and which a fold resumed from startState cannot give. Null: the same as findingIds. */
  reportedFindingIds?: string[] | null;
}

/** How a round ended, as far as replay could tell. UNKNOWN (the default) is what a reader reads for a symbol added after its own version of this schema; ingest refuses an event that holds it, so that it is never judged as something it is not. */
export type DerivationStatus = 'SETTLED' | 'VOIDED' | 'NOT_DERIVED' | 'UNKNOWN';

/** One bet: what the rules say and what the table declared. */
export interface BetLine {
  /** The seat number, from 1 (the seat immediately left of the banker) counting to the right of the hand the bet is on. */
  seat: number;
  /** The bet, as the game names it (for F3CP: ANTE, PLAY, ANTE_BONUS, PAIR_PLUS, SIX_CARD_BONUS, PROGRESSIVE). */
  betType: string;
  /** The betId of the BetPlaced; null when the table gives no bet ids. */
  betId: string | null;
  /** The stake, in avos (1/100 MOP, 100 avos = 1 pataca; the minor unit of the table's currency), a whole number, never a float. */
  stakeAvos: number;
  /** What the rules say happens to the bet. */
  expectedOutcome: LineOutcome;
  /** The winnings the rules owe on the bet (0 unless it wins), in avos (1/100 MOP, 100 avos = 1 pataca; the minor unit of the table's currency), a whole number, never a float. */
  expectedPayoutAvos: number;
  /** The player's gain (positive) or loss (negative) on the bet under the rules, in avos (1/100 MOP, 100 avos = 1 pataca; the minor unit of the table's currency), a whole number, never a float. */
  expectedNetAvos: number;
  /** The winnings the table declared paid on the bet, in avos (1/100 MOP, 100 avos = 1 pataca; the minor unit of the table's currency), a whole number, never a float; null when the table declared nothing for it. */
  declaredPayoutAvos: number | null;
  /** The player's gain or loss on the bet as the table settled it, in avos (1/100 MOP, 100 avos = 1 pataca; the minor unit of the table's currency), a whole number, never a float; null when the table declared nothing for it. */
  declaredNetAvos: number | null;
  /** Declared net minus expected net (positive: the player got more than the rules give), in avos (1/100 MOP, 100 avos = 1 pataca; the minor unit of the table's currency), a whole number, never a float; null when the table declared nothing for the bet. */
  differenceAvos: number | null;
}

/** What happens to a bet. UNKNOWN (the default) is what a reader reads for a symbol added after its own version of this schema; ingest refuses an event that holds it, so that it is never judged as something it is not. */
export type LineOutcome = 'WIN' | 'LOSE' | 'PUSH' | 'VOID' | 'CARRIED_OVER' | 'UNKNOWN';

/** The top-level event records of ta.common, by name. */
export interface CommonRecords {
  DealingSwitchedToShoe: DealingSwitchedToShoe;
  EventCorrected: EventCorrected;
  RoundSettled: RoundSettled;
  RoundStarted: RoundStarted;
  RoundVoided: RoundVoided;
  SeatOccupied: SeatOccupied;
  SeatVacated: SeatVacated;
  ShuffleCompleted: ShuffleCompleted;
  ShuffleStarted: ShuffleStarted;
  ShufflerMalfunction: ShufflerMalfunction;
  ShufflerReplaced: ShufflerReplaced;
  SurveillanceObservation: SurveillanceObservation;
  TableClosed: TableClosed;
  TableOpened: TableOpened;
}

/** The top-level event records of ta.f3cp, by name. */
export interface F3cpRecords {
  BetCollected: BetCollected;
  BetPlaced: BetPlaced;
  BetReturned: BetReturned;
  BetWithdrawn: BetWithdrawn;
  CardDealt: CardDealt;
  CardExposed: CardExposed;
  CommunityCardsRevealed: CommunityCardsRevealed;
  JackpotPaid: JackpotPaid;
  JackpotPoolChanged: JackpotPoolChanged;
  OutcomeDeclared: OutcomeDeclared;
  PayoutMade: PayoutMade;
  PlayDecision: PlayDecision;
}

/** The top-level event records of ta.craps, by name. */
export interface CrapsRecords {
  CrapsBetPlaced: CrapsBetPlaced;
  CrapsBetResolved: CrapsBetResolved;
  DiceThrown: DiceThrown;
  DieChecked: DieChecked;
  DieLeftTable: DieLeftTable;
  ShooterChanged: ShooterChanged;
}

/** The top-level event records of ta.thirteen, by name. */
export interface ThirteenRecords {
  ArrangeSignalGiven: ArrangeSignalGiven;
  BankerArranged: BankerArranged;
  DealCancelled: DealCancelled;
  DeckCut: DeckCut;
  DiceShaken: DiceShaken;
  PlaceArranged: PlaceArranged;
  PlaceCardsTaken: PlaceCardsTaken;
  ThirteenBetChanged: ThirteenBetChanged;
  ThirteenBetPlaced: ThirteenBetPlaced;
  ThirteenBetSettled: ThirteenBetSettled;
  ThirteenCardDealt: ThirteenCardDealt;
  ThirteenConductObserved: ThirteenConductObserved;
}

/** The top-level event records of ta.mahjong, by name. */
export interface MahjongRecords {
  MahjongDiceThrown: MahjongDiceThrown;
  MahjongTilesCounted: MahjongTilesCounted;
  MahjongTilesDrawn: MahjongTilesDrawn;
}

/** The top-level records of ta.audit, by name. */
export interface AuditRecords {
  AccessRecorded: AccessRecorded;
  AlertAcknowledged: AlertAcknowledged;
  AlertAssigned: AlertAssigned;
  AlertCommented: AlertCommented;
  AlertReopened: AlertReopened;
  AlertResolved: AlertResolved;
  FindingRaised: FindingRaised;
  InputRejected: InputRejected;
  RoundDerived: RoundDerived;
}

/** The Avro full name of every top-level record. */
export const RECORD_FULL_NAMES = {
  DealingSwitchedToShoe: 'ta.common.DealingSwitchedToShoe',
  EventCorrected: 'ta.common.EventCorrected',
  RoundSettled: 'ta.common.RoundSettled',
  RoundStarted: 'ta.common.RoundStarted',
  RoundVoided: 'ta.common.RoundVoided',
  SeatOccupied: 'ta.common.SeatOccupied',
  SeatVacated: 'ta.common.SeatVacated',
  ShuffleCompleted: 'ta.common.ShuffleCompleted',
  ShuffleStarted: 'ta.common.ShuffleStarted',
  ShufflerMalfunction: 'ta.common.ShufflerMalfunction',
  ShufflerReplaced: 'ta.common.ShufflerReplaced',
  SurveillanceObservation: 'ta.common.SurveillanceObservation',
  TableClosed: 'ta.common.TableClosed',
  TableOpened: 'ta.common.TableOpened',
  BetCollected: 'ta.f3cp.BetCollected',
  BetPlaced: 'ta.f3cp.BetPlaced',
  BetReturned: 'ta.f3cp.BetReturned',
  BetWithdrawn: 'ta.f3cp.BetWithdrawn',
  CardDealt: 'ta.f3cp.CardDealt',
  CardExposed: 'ta.f3cp.CardExposed',
  CommunityCardsRevealed: 'ta.f3cp.CommunityCardsRevealed',
  JackpotPaid: 'ta.f3cp.JackpotPaid',
  JackpotPoolChanged: 'ta.f3cp.JackpotPoolChanged',
  OutcomeDeclared: 'ta.f3cp.OutcomeDeclared',
  PayoutMade: 'ta.f3cp.PayoutMade',
  PlayDecision: 'ta.f3cp.PlayDecision',
  CrapsBetPlaced: 'ta.craps.CrapsBetPlaced',
  CrapsBetResolved: 'ta.craps.CrapsBetResolved',
  DiceThrown: 'ta.craps.DiceThrown',
  DieChecked: 'ta.craps.DieChecked',
  DieLeftTable: 'ta.craps.DieLeftTable',
  ShooterChanged: 'ta.craps.ShooterChanged',
  ArrangeSignalGiven: 'ta.thirteen.ArrangeSignalGiven',
  BankerArranged: 'ta.thirteen.BankerArranged',
  DealCancelled: 'ta.thirteen.DealCancelled',
  DeckCut: 'ta.thirteen.DeckCut',
  DiceShaken: 'ta.thirteen.DiceShaken',
  PlaceArranged: 'ta.thirteen.PlaceArranged',
  PlaceCardsTaken: 'ta.thirteen.PlaceCardsTaken',
  ThirteenBetChanged: 'ta.thirteen.ThirteenBetChanged',
  ThirteenBetPlaced: 'ta.thirteen.ThirteenBetPlaced',
  ThirteenBetSettled: 'ta.thirteen.ThirteenBetSettled',
  ThirteenCardDealt: 'ta.thirteen.ThirteenCardDealt',
  ThirteenConductObserved: 'ta.thirteen.ThirteenConductObserved',
  MahjongDiceThrown: 'ta.mahjong.MahjongDiceThrown',
  MahjongTilesCounted: 'ta.mahjong.MahjongTilesCounted',
  MahjongTilesDrawn: 'ta.mahjong.MahjongTilesDrawn',
  AccessRecorded: 'ta.audit.AccessRecorded',
  AlertAcknowledged: 'ta.audit.AlertAcknowledged',
  AlertAssigned: 'ta.audit.AlertAssigned',
  AlertCommented: 'ta.audit.AlertCommented',
  AlertReopened: 'ta.audit.AlertReopened',
  AlertResolved: 'ta.audit.AlertResolved',
  FindingRaised: 'ta.audit.FindingRaised',
  InputRejected: 'ta.audit.InputRejected',
  RoundDerived: 'ta.audit.RoundDerived',
} as const;

/** Full names records had before (their Avro aliases): data written under them reads as the record named. */
export const FORMER_FULL_NAMES = {
  'ta.f3cp.DealingSwitchedToShoe': 'DealingSwitchedToShoe',
  'ta.f3cp.RoundSettled': 'RoundSettled',
  'ta.f3cp.RoundStarted': 'RoundStarted',
  'ta.f3cp.RoundVoided': 'RoundVoided',
  'ta.f3cp.SeatOccupied': 'SeatOccupied',
  'ta.f3cp.SeatVacated': 'SeatVacated',
  'ta.f3cp.ShuffleCompleted': 'ShuffleCompleted',
  'ta.f3cp.ShuffleStarted': 'ShuffleStarted',
  'ta.f3cp.ShufflerMalfunction': 'ShufflerMalfunction',
  'ta.f3cp.ShufflerReplaced': 'ShufflerReplaced',
  'ta.f3cp.SurveillanceObservation': 'SurveillanceObservation',
  'ta.f3cp.TableClosed': 'TableClosed',
  'ta.f3cp.TableOpened': 'TableOpened',
} as const;
