/**
 * What a bulk replay (a shard worker, a what-if worker) sets for its memory, so that its peak stays near what it
 * keeps as the input grows (issue 8 §3; docs/scaling.md, replay, fifth pass, has the figures):
 *
 * - SQLite's page cache of the replay's connection: READ_CACHE_MIB (a what-if reads with the same). The replay
 *   reads the log once, in position order, and writes a round record and a few findings per ~56 events; a 64 MiB
 *   cache (the store's default for a connection that writes) fills with pages that are never read again.
 * - V8's heap growth (when asked: BOUND_HEAP_BY_DEFAULT is off): every event read makes short-lived objects (its row, its event, its decoded payload), and
 *   the open rounds keep some of them past the young generation, so they die in the old one. By default V8 lets
 *   the old generation grow well past what is alive before it collects it; HEAP_GROWING_PERCENT makes it collect
 *   sooner. It is a heuristic, not a limit: a replay that keeps more (many players at a table) still gets the heap
 *   it needs.
 */
import { setFlagsFromString } from 'node:v8';

/** SQLite's page cache of a bulk replay's connection, MiB. */
export const READ_CACHE_MIB = 8;

/** V8's old generation grows by at most this per cent over what is alive after a full collection. */
export const HEAP_GROWING_PERCENT = 50;

/**
 * Whether bulk replays bound V8's heap growth unless told (ParallelReplayOptions.boundHeap, WhatIfOptions.boundHeap).
 * Off: it made the one-thread catch-up's peak flat (×1.43 from 1× to 100× the tables, against ×2.68) but cost
 * about 8 % more CPU in turns with V8's default (docs/scaling.md, replay, fifth pass); turn it on where memory
 * matters more than that.
 */
export const BOUND_HEAP_BY_DEFAULT = false;

let bounded = false;

/**
 * Sets V8's heap growth for a bulk replay (HEAP_GROWING_PERCENT). V8's flags belong to the process: this is for a
 * process or worker that does the bulk replay, not for a server that runs it beside other work.
 */
export function boundHeapGrowth(): void {
  if (bounded) return;
  bounded = true;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
