/**
 * Stream names in the event store: part of the contract between ingest (writes table events and rejects), the
 * replay (reads table events, writes findings and round records) and whoever reads them.
 */
export const tableStream = (tableId: string): string => `table-${tableId}`;
export const isTableStream = (stream: string): boolean => stream.startsWith('table-');
/** The table a table stream is of (the inverse of tableStream). */
export const tableOfStream = (stream: string): string => stream.slice('table-'.length);
export const findingStream = (tableId: string): string => `findings-${tableId}`;
/** What the replay derived for each round of the table: RoundDerived records (ta.audit). */
export const roundStream = (tableId: string): string => `rounds-${tableId}`;
export const REJECTS_STREAM = 'ingest-rejects';
