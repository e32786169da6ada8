import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';

/** The embedded default store: a SQLite file (ARCHITECTURE.md). --store wins over TABLE_AUDIT_STORE. */
export const DEFAULT_STORE = 'data/events.sqlite';
export const storePath = (flag: string | undefined): string =>
  flag ?? process.env.TABLE_AUDIT_STORE ?? DEFAULT_STORE;

export function openStore(path: string, options: { mustExist?: boolean } = {}): SqliteEventStore {
  if (!options.mustExist) mkdirSync(dirname(path), { recursive: true });
  return new SqliteEventStore(path, options.mustExist ? { mustExist: true } : {});
}

/** A one-line progress report on stderr (a terminal sees it update in place). */
export function progress(text: string): void {
  if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K${text}`);
}
export const progressDone = (): void => void (process.stderr.isTTY && process.stderr.write('\n'));
