// Shared by the ingest tests (not a test file itself).
import assert from 'node:assert/strict';
import type { EventStore, RecordedEvent } from '@table-audit/eventstore';
import type { TableEvent } from '@table-audit/schemas/events';
import { REJECTS_STREAM, type RejectData } from '../src/index.ts';

export async function readAllEvents(store: EventStore): Promise<RecordedEvent[]> {
  const all: RecordedEvent[] = [];
  for await (const e of store.readAll()) all.push(e);
  return all;
}

export async function rejectsIn(store: EventStore): Promise<(RecordedEvent & { data: RejectData })[]> {
  const out: (RecordedEvent & { data: RejectData })[] = [];
  for await (const e of store.readStream(REJECTS_STREAM)) out.push(e as RecordedEvent & { data: RejectData });
  return out;
}

/** How many table events the store holds (every stream named table-…). */
export async function tableEventCount(store: EventStore): Promise<number> {
  let n = 0;
  for await (const e of store.readAll()) if (e.stream.startsWith('table-')) n++;
  return n;
}

/**
 * "Exactly once": for every event produced, exactly one stored event with its id, in its table's stream, with
 * its data; and no other table events.
 */
export async function assertExactlyOnce(store: EventStore, produced: readonly TableEvent[]): Promise<void> {
  const expected = new Map(produced.map((e) => [e.data.header.eventId, e]));
  assert.equal(expected.size, produced.length, 'the produced events have distinct ids');
  const seen = new Map<string, number>();
  const misplaced: string[] = [];
  const unexpected: string[] = [];
  const different: string[] = [];
  for (const r of await readAllEvents(store)) {
    if (!r.stream.startsWith('table-')) continue;
    seen.set(r.eventId, (seen.get(r.eventId) ?? 0) + 1);
    const e = expected.get(r.eventId);
    if (!e) unexpected.push(`${r.stream}/${r.eventId}`);
    else if (r.stream !== `table-${e.data.header.tableId}`) misplaced.push(`${r.eventId} in ${r.stream}`);
    else if (r.type !== e.type || JSON.stringify(sorted(r.data)) !== JSON.stringify(sorted(e.data)))
      different.push(r.eventId);
  }
  const missing = [...expected.keys()].filter((id) => !seen.has(id));
  const twice = [...seen].filter(([, n]) => n > 1).map(([id, n]) => `${id} ×${n}`);
  const sample = (xs: string[]) => `${xs.length}${xs.length ? ` (e.g. ${xs.slice(0, 5).join(', ')})` : ''}`;
  assert.ok(
    missing.length + twice.length + unexpected.length + misplaced.length + different.length === 0,
    `of ${expected.size} events: missing ${sample(missing)}, stored more than once ${sample(twice)}, ` +
      `unexpected ${sample(unexpected)}, in the wrong stream ${sample(misplaced)}, with other data ${sample(different)}`,
  );
}

function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
  );
}

export async function waitFor(
  what: string,
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 30_000,
  everyMs = 100,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
