/**
 * Replay sharded by table. Tables are independent (every check judges one table: collusion is among the players
 * of one table), so each table belongs to one shard, by a stable hash of its id, and each shard folds, derives,
 * checks and writes its tables' findings and round records under its own checkpoint (`replay/shard-0-of-4`).
 * Here the shards are worker threads (parallel.ts); in production they are processes: Kafka partitions keyed by
 * table id, or one event-store subscription per shard.
 *
 * What a shard reads: the event-store port offers the global log (readAll, subscribeToAll) and single streams, but
 * no list of streams nor a read of a set of them, so a shard reads the global log and its handler receives only
 * its tables' events (the others advance its checkpoint). A port operation that reads a shard's streams in global
 * order (SQLite: an index on a shard column; EventStoreDB: a per-shard projection or category) would let each
 * shard read only its own events.
 *
 * A finding across tables (none exists today) would break the independence: it needs its tables in one shard
 * (shard by the group, e.g. a pit or a casino, instead of by table) or a second stage that reads the shards'
 * findings and round records (rounds-<table>) and judges across them, with its own checkpoint.
 */
import { tableStream } from './streams.ts';

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
