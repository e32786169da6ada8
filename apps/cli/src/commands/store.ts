import { existsSync, mkdirSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { migrateStore } from '@table-audit/eventstore/sqlite-migrate';
import { out, UsageError, type Command } from './command.ts';

// better-sqlite3 reads this once, when its addon loads at the first open: with it, a "file:" name is an SQLite URI,
// which is how verify opens a store immutable (openStoreReadOnly). No other store path starts with "file:".
process.env.SQLITE_USE_URI = '1';

/** The embedded default store of every command, run included: a SQLite file (ARCHITECTURE.md). */
export const DEFAULT_STORE = 'data/events.sqlite';

/** --store wins over TABLE_AUDIT_STORE (an empty variable counts as unset), which wins over the default. */
export function storePath(flag: string | undefined): string {
  if (flag === '') throw new UsageError('--store needs a path, e.g. --store data/events.sqlite');
  return flag ?? (process.env.TABLE_AUDIT_STORE || DEFAULT_STORE);
}

const why = (e: unknown): string => {
  const x = e as NodeJS.ErrnoException;
  return x.code ? `${x.code} ${x.message.replace(/^\w+: /, '').replace(/, \w+ '.*'$/, '')}` : x.message;
};

/** Why SQLite could not open `path`, in terms of the file system (SQLite itself only says "unable to open"). */
function diagnose(path: string, reading = false): string {
  const dir = dirname(resolve(path));
  if (!existsSync(dir)) return `the directory ${dir} does not exist`;
  if (existsSync(path) && statSync(path).isDirectory()) return `${path} is a directory, not a store file`;
  if (reading) return `check that ${path} can be read`;
  return `check that ${existsSync(path) ? `${path} and ${dir}` : dir} can be written to (permissions, a read-only file system, free space)`;
}

/**
 * mkdir -p, one directory at a time, naming the one that cannot be made. Returns the outermost directory it made.
 * (Node's recursive mkdirSync never returns when a parent answers ENOENT, as /proc does, and names no directory.)
 */
export function makeDirectories(dir: string, forWhat: string): string | undefined {
  const missing: string[] = [];
  for (let d = resolve(dir); !existsSync(d); d = dirname(d)) missing.unshift(d);
  for (const d of missing) {
    try {
      mkdirSync(d);
    } catch (e) {
      throw new Error(`cannot create the directory ${d} for ${forWhat}: ${why(e)}`);
    }
  }
  return missing[0];
}

/** A store a command opened for writing, and what it created to do so (removed again if the command fails). */
export interface OpenedStore {
  readonly store: SqliteEventStore;
  readonly path: string;
  /**
   * Closes the store. After a failed command, a store file this command created and into which nothing was
   * appended is removed, with the directories created for it: a failure leaves nothing half-made behind.
   */
  close(failed: boolean): Promise<void>;
}

export function openStore(path: string, options: { mustExist?: boolean } = {}): OpenedStore {
  if (options.mustExist && !existsSync(path))
    throw new Error(
      `no event store at ${resolve(path)} (give --store PATH or set TABLE_AUDIT_STORE; table-audit ingest or run creates one)`,
    );
  const created = !existsSync(path);
  const firstDir = created ? makeDirectories(dirname(path), `the event store ${path}`) : undefined;
  let store: SqliteEventStore;
  try {
    store = new SqliteEventStore(path, options.mustExist ? { mustExist: true } : {});
  } catch (e) {
    removeCreated(path, created, firstDir);
    const message = (e as Error).message;
    throw new Error(
      /unable to open|readonly|read-only|permission|busy|locked/i.test(message)
        ? `cannot open the event store ${path}: ${message}; ${diagnose(path)}`
        : `cannot open the event store ${path}: ${message}`,
    );
  }
  return {
    store,
    path,
    async close(failed) {
      let empty = false;
      if (failed && created) {
        empty = true;
        for await (const _ of store.readAll()) {
          empty = false;
          break;
        }
      }
      await store.close();
      if (empty) removeCreated(path, true, firstDir);
    },
  };
}

/** Removes a store file this process created (and SQLite's companions), then the directories made for it. */
function removeCreated(path: string, created: boolean, firstDir: string | undefined): void {
  if (!created) return;
  for (const f of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) rmSync(f, { force: true });
  if (firstDir === undefined) return;
  // mkdirSync returned the outermost directory it made: remove from the store's directory up to that one,
  // and only while empty (rmdirSync refuses a directory with anything in it)
  const top = resolve(firstDir);
  for (let dir = dirname(resolve(path)); ; dir = dirname(dir)) {
    try {
      rmdirSync(dir);
    } catch {
      return;
    }
    if (dir === top || dirname(dir) === dir) return;
  }
}

/**
 * Opens a store for reading without writing anything next to it. SQLite opens a WAL-mode file read-only only by
 * creating its -wal and -shm files, which fails on read-only media and leaves files behind elsewhere. When there
 * is no -wal file, no writer is active and the file is the whole store, so it is opened immutable (nothing
 * created, no locks). With a -wal file a writer is (or was) active: that file holds committed events, so the store
 * is opened read-only through it. `immutable` tells the caller to check afterwards that no writer started.
 */
export function openStoreReadOnly(path: string): { store: SqliteEventStore; immutable: boolean } {
  if (!existsSync(path))
    throw new Error(`no event store at ${resolve(path)} (give --store PATH or set TABLE_AUDIT_STORE)`);
  if (statSync(path).isDirectory()) throw new Error(`${path} is a directory, not an event store file`);
  const immutable = !existsSync(`${path}-wal`);
  const name = immutable ? `${pathToFileURL(resolve(path)).href}?mode=ro&immutable=1` : path;
  try {
    return { store: new SqliteEventStore(name, { readOnly: true }), immutable };
  } catch (e) {
    throw new Error(
      `cannot open the event store ${path} read-only: ${(e as Error).message.replaceAll(name, path)}; ${diagnose(path, true)}`,
    );
  }
}

/** A one-line progress report on stderr (a terminal sees it update in place). */
export function progress(text: string): void {
  if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K${text}`);
}
export const progressDone = (): void => void (process.stderr.isTTY && process.stderr.write('\n'));

const storeUsage = `Usage: table-audit store migrate OLD.sqlite NEW.sqlite

Converts an event store of an earlier schema version (2: hashes kept as hex text; 3: data kept as JSON text; 4: the
chain over canonical JSON) into a NEW file of this version (5: the chain over the stored bytes), which this code
reads. The old hash chains are checked first, link by link: a store with a broken link is not converted (the first
broken event is named; re-chaining it would hide the break). Every event is then copied with its position, content
and recorded time, chained anew, the checkpoints with it; the copy's content is checked against the old hashes and
its new chains are verified. The old store's stream heads and Merkle root (what anchors over it signed) are recorded
in NEW beside the new ones. OLD is only read; NEW must not exist. Exit 0 when converted, 1 when the conversion was
refused or failed (nothing is left at NEW), 2 for a usage error.`;

export const storeCommand: Command = {
  name: 'store',
  summary:
    'convert an event store of schema version 2, 3 or 4 into a new file of this version (6; 5 is read as it is)',
  usage: storeUsage,
  async run(args) {
    const [sub, from, to, ...rest] = args;
    if (sub !== 'migrate' || from === undefined || to === undefined || rest.length > 0)
      throw new UsageError(`expected: table-audit store migrate OLD.sqlite NEW.sqlite\n\n${storeUsage}`);
    const report = await migrateStore(from, to);
    const b = report.verify.firstBroken;
    out(
      `${from} (schema ${report.fromVersion}) → ${to} (schema ${report.toVersion}): ${report.events} events and ` +
        `${report.checkpoints} checkpoints copied; the old chains checked and the copy's content matched against ` +
        `them; old Merkle root ${report.merkleRoot} (recorded in ${to}), new Merkle root ${report.newMerkleRoot} ` +
        `(${report.verify.streams} streams, every chain intact)`,
    );
    return b ? 1 : 0;
  },
};
