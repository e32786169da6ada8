/** Stream names shared by ingest, replay and the API: defined once, in the contract package. */
export { findingStream, isTableStream, tableStream } from '@table-audit/schemas/streams';
export const FINDING_EVENT_TYPE = 'FindingRaised';
