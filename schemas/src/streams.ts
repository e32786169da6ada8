/**
 * Stream names in the event store: part of the contract between ingest (writes table events and rejects), the
 * replay (reads table events, writes findings) and whoever reads findings.
 */
export const tableStream = (tableId: string): string => `table-${tableId}`;
export const isTableStream = (stream: string): boolean => stream.startsWith('table-');
export const findingStream = (tableId: string): string => `findings-${tableId}`;
export const REJECTS_STREAM = 'ingest-rejects';
