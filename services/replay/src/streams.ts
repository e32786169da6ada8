/** Stream names shared by ingest, replay and the API. */
export const tableStream = (tableId: string): string => `table-${tableId}`;
export const findingStream = (tableId: string): string => `findings-${tableId}`;
export const isTableStream = (stream: string): boolean => stream.startsWith('table-');
export const FINDING_EVENT_TYPE = 'FindingRaised';
