/**
 * The event vocabulary as TypeScript types. Every record, enum and nested type is generated from the Avro schemas
 * of schemas/avro (src/generated.ts, re-exported here); this file adds only what a schema cannot say: the
 * discriminated unions of decoded events and records, and the ordered lists of their type names.
 *
 * Conventions (also in the schemas' docs): amounts are minor units of the table's currency (avos, 1/100 MOP),
 * Avro long, never floats; times are UTC milliseconds (long, timestamp-millis); a card is two characters, rank
 * 2-9, T, J, Q, K, A, then suit c, d, h, s ("Th", "As"); seats are numbered from 1, the seat immediately left of
 * the banker, to the right.
 */
import type {
  AuditRecords,
  CommonRecords,
  CrapsRecords,
  F3cpRecords,
  MahjongRecords,
  ThirteenRecords,
} from './generated.ts';

export * from './generated.ts';

/** Every event a Fortune 3 Card Poker table emits: the table events every game shares (ta.common) and F3CP's own (ta.f3cp). */
export interface F3cpEvents extends CommonRecords, F3cpRecords {}

export type F3cpEventType = keyof F3cpEvents;

/** A decoded event: its type name and its data. */
export type F3cpEvent = { [K in F3cpEventType]: { type: K; data: F3cpEvents[K] } }[F3cpEventType];

/**
 * The event types in the order of the branches of an events file's union. Existing branches keep their place; a
 * new event type goes at the end.
 */
export const F3CP_EVENT_TYPES = [
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
  'EventCorrected',
] as const satisfies readonly F3cpEventType[];

/** Every event a CRAPS table emits (Despacho 53/2010): the common table events it uses and CRAPS's own (ta.craps). */
export interface CrapsEvents extends CommonRecords, CrapsRecords {}
export type CrapsEventType = keyof CrapsEvents;
export type CrapsEvent = { [K in CrapsEventType]: { type: K; data: CrapsEvents[K] } }[CrapsEventType];

/** CRAPS's own event types (ta.craps), in the order their branches follow F3CP's in an events file's union. */
export const CRAPS_OWN_EVENT_TYPES = [
  'ShooterChanged',
  'DiceThrown',
  'DieLeftTable',
  'DieChecked',
  'CrapsBetPlaced',
  'CrapsBetResolved',
] as const satisfies readonly (keyof CrapsRecords)[];

/** The common events a CRAPS table emits, then its own. */
export const CRAPS_EVENT_TYPES = [
  'TableOpened',
  'TableClosed',
  'SeatOccupied',
  'SeatVacated',
  'SurveillanceObservation',
  'EventCorrected',
  ...CRAPS_OWN_EVENT_TYPES,
] as const satisfies readonly CrapsEventType[];

/** Every event a 13 Cards table emits (Portaria 51/89/M): the common table events it uses and its own (ta.thirteen). */
export interface ThirteenEvents extends CommonRecords, ThirteenRecords {}
export type ThirteenEventType = keyof ThirteenEvents;
export type ThirteenEvent = {
  [K in ThirteenEventType]: { type: K; data: ThirteenEvents[K] };
}[ThirteenEventType];

/** 13 Cards' own event types (ta.thirteen), in the order their branches follow CRAPS's in an events file's union. */
export const THIRTEEN_OWN_EVENT_TYPES = [
  'ThirteenBetPlaced',
  'ThirteenBetChanged',
  'DeckCut',
  'DiceShaken',
  'ThirteenCardDealt',
  'DealCancelled',
  'BankerArranged',
  'PlaceCardsTaken',
  'PlaceArranged',
  'ArrangeSignalGiven',
  'ThirteenConductObserved',
  'ThirteenBetSettled',
] as const satisfies readonly (keyof ThirteenRecords)[];

/**
 * The common events of a table dealt in rounds that the engine does not settle by F3CP's events (13 Cards, the
 * Mah-Jong deal): the table, its rounds, its seats, surveillance and corrections.
 */
const ROUND_TABLE_EVENT_TYPES = [
  'TableOpened',
  'TableClosed',
  'RoundStarted',
  'RoundSettled',
  'RoundVoided',
  'SeatOccupied',
  'SeatVacated',
  'SurveillanceObservation',
  'EventCorrected',
] as const satisfies readonly (keyof CommonRecords)[];

/** The common events a 13 Cards table emits, then its own. */
export const THIRTEEN_EVENT_TYPES = [
  ...ROUND_TABLE_EVENT_TYPES,
  ...THIRTEEN_OWN_EVENT_TYPES,
] as const satisfies readonly ThirteenEventType[];

/** Every event a Mah-Jong table emits for its deal (Portaria 52/89/M art. 1.º–2.º): common events and its own. */
export interface MahjongEvents extends CommonRecords, MahjongRecords {}
export type MahjongEventType = keyof MahjongEvents;
export type MahjongEvent = { [K in MahjongEventType]: { type: K; data: MahjongEvents[K] } }[MahjongEventType];

/** Mah-Jong's own event types (ta.mahjong), in the order their branches follow 13 Cards' in an events file's union. */
export const MAHJONG_OWN_EVENT_TYPES = [
  'MahjongTilesCounted',
  'MahjongDiceThrown',
  'MahjongTilesDrawn',
] as const satisfies readonly (keyof MahjongRecords)[];

/** The common events a Mah-Jong table emits, then its own. */
export const MAHJONG_EVENT_TYPES = [
  ...ROUND_TABLE_EVENT_TYPES,
  ...MAHJONG_OWN_EVENT_TYPES,
] as const satisfies readonly MahjongEventType[];

/**
 * A table event of any game: what ingest validates and stores in a table's stream, and what the replay folds
 * with the module of the table's game. A union of every game's events.
 */
export type TableEvent = F3cpEvent | CrapsEvent | ThirteenEvent | MahjongEvent;
export type TableEventType = TableEvent['type'];
/**
 * Every table event type of every game, in the order of the branches of an events file's union: F3CP's (with the
 * common ones) first, then each later game's own at the end, so that existing branches keep their place.
 */
export const TABLE_EVENT_TYPE_LIST = [
  ...F3CP_EVENT_TYPES,
  ...CRAPS_OWN_EVENT_TYPES,
  ...THIRTEEN_OWN_EVENT_TYPES,
  ...MAHJONG_OWN_EVENT_TYPES,
] as const;
/** Every table event type of every game. */
export const TABLE_EVENT_TYPES: ReadonlySet<string> = new Set<TableEventType>(TABLE_EVENT_TYPE_LIST);

export type AuditRecordType = keyof AuditRecords;

/** A record the pipeline writes (findings, rejects, derivations; the API's alert workflow and access log): its type name and its data. */
export type AuditRecord = { [K in AuditRecordType]: { type: K; data: AuditRecords[K] } }[AuditRecordType];

export const AUDIT_RECORD_TYPES = [
  'FindingRaised',
  'InputRejected',
  'RoundDerived',
  'AlertAcknowledged',
  'AlertAssigned',
  'AlertCommented',
  'AlertResolved',
  'AlertReopened',
  'AccessRecorded',
] as const satisfies readonly AuditRecordType[];

/** Every top-level record of the contract, events and audit records, by name. */
export interface ContractRecords
  extends F3cpEvents, CrapsEvents, ThirteenEvents, MahjongEvents, AuditRecords {}
export type ContractRecordType = keyof ContractRecords;

// A schema added without its name here fails to compile on these lines (the lists above must be complete).
type Unlisted<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : Exclude<All, Listed>;
const _everyEventListed: Unlisted<TableEventType, (typeof TABLE_EVENT_TYPE_LIST)[number]> = true;
const _everyAuditRecordListed: Unlisted<AuditRecordType, (typeof AUDIT_RECORD_TYPES)[number]> = true;
