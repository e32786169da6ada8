/**
 * Replay sharded by table. Tables are independent (every check judges one table: collusion is among the players
 * of one table), so each table belongs to one shard, by a stable hash of its id, and each shard folds, derives,
 * checks and writes its tables' findings and round records under its own checkpoint (`replay/shard-0-of-4`).
 * Here the shards are worker threads (parallel.ts); in production they are processes: Kafka partitions keyed by
 * table id, or one event-store subscription per shard.
 *
 * What a shard reads: one call, readForShard(store, shard), gives the store as the shard sees it: the global log
 * holding only its tables' streams, in global order. It passes the port's stream predicate (ReadAllOptions.streams),
 * which the SQLite store pushes down to SQL: a shard's rows are picked inside SQLite as it scans the log in position
 * order, and only they become events (the EventStoreDB adapter still filters as events arrive). The single-threaded
 * replay reads through it too, as the one shard of all tables: it never reads back its own findings and records.
 *
 * A finding across tables (none exists today) would break the independence: it needs its tables in one shard
 * (shard by the group, e.g. a pit or a casino, instead of by table) or a second stage that reads the shards'
 * findings and round records (rounds-<table>) and judges across them, with its own checkpoint.
 */
import type { EventStore, ReadAllOptions } from '@table-audit/eventstore';
import { isTableStream, tableStream } from './streams.ts';

export interface Shard {
  /** from 0 */
  readonly index: number;
  readonly count: number;
}

/** FNV-1a (32-bit) of the table id's UTF-16 code units: stable across processes, runs and machines. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The shard (0 … count − 1) a table belongs to. */
export function shardOf(tableId: string, count: number): number {
  if (!Number.isSafeInteger(count) || count < 1)
    throw new RangeError(`a shard count is a whole number ≥ 1, got ${count}`);
  return fnv1a(tableId) % count;
}

const TABLE_PREFIX = tableStream('').length;

/** Whether a table stream (`table-<id>`) belongs to the shard. */
export const inShard = (stream: string, shard: Shard): boolean =>
  shard.count === 1 || shardOf(stream.slice(TABLE_PREFIX), shard.count) === shard.index;

/** The checkpoint name of a shard: `replay/shard-0-of-4`. */
export const shardCheckpoint = (shard: Shard): string => `replay/shard-${shard.index}-of-${shard.count}`;

/** Whether a stored event is one the shard replays: an event of one of its tables' streams. */
export const isShardEvent = (stream: string, shard: Shard): boolean =>
  isTableStream(stream) && inShard(stream, shard);

/**
 * The store as a shard reads it: readAll and subscribeToAll yield only the events of the shard's table streams
 * (maxCount counts those), in global order; every other operation (appendMany with its checkpoint included) is the
 * store's own. The one place a shard's read is filtered (see the note at the top).
 */
export function readForShard(store: EventStore, shard: Shard): EventStore {
  const streams = (stream: string) => isShardEvent(stream, shard);
  return {
    get atomicAcrossStreams() {
      return store.atomicAcrossStreams;
    },
    append: (stream, events, options) => store.append(stream, events, options),
    ...(store.appendMany ? { appendMany: (appends, options) => store.appendMany!(appends, options) } : {}),
    readStream: (stream, options) => store.readStream(stream, options),
    readAll: (options: ReadAllOptions = {}) => store.readAll({ ...options, streams }),
    subscribeToAll: (options = {}) => store.subscribeToAll({ ...options, streams }),
    saveCheckpoint: (name, position) => store.saveCheckpoint(name, position),
    loadCheckpoint: (name) => store.loadCheckpoint(name),
    close: () => store.close(),
  } satisfies EventStore;
}
