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
import type { AuditRecords, CommonRecords, F3cpRecords } from './generated.ts';

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

/**
 * A table event of any game: what ingest validates and stores in a table's stream, and what the replay folds
 * with the module of the table's game. A union of every game's events (only Fortune 3 Card Poker so far).
 */
export type TableEvent = F3cpEvent;
export type TableEventType = TableEvent['type'];
/** Every table event type of every game. */
export const TABLE_EVENT_TYPES: ReadonlySet<string> = new Set<TableEventType>(F3CP_EVENT_TYPES);

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
export interface ContractRecords extends F3cpEvents, AuditRecords {}
export type ContractRecordType = keyof ContractRecords;

// A schema added without its name here fails to compile on these lines (the lists above must be complete).
type Unlisted<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : Exclude<All, Listed>;
const _everyEventListed: Unlisted<F3cpEventType, (typeof F3CP_EVENT_TYPES)[number]> = true;
const _everyAuditRecordListed: Unlisted<AuditRecordType, (typeof AUDIT_RECORD_TYPES)[number]> = true;
