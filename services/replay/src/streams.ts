/** Stream names shared by ingest, replay and the API: defined once, in the contract package. */
export {
  findingStream,
  isTableStream,
  roundStream,
  tableOfStream,
  tableStream,
} from '@table-audit/schemas/streams';
export const FINDING_EVENT_TYPE = 'FindingRaised';
/** ta.audit.RoundDerived, as JSON */
export const ROUND_EVENT_TYPE = 'RoundDerived';
