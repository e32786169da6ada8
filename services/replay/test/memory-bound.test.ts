/**
 * The bulk replay's memory bound (memory.ts) changes when V8 collects, never what is derived: shard workers asked to
 * bound their heap write exactly the findings and round records that workers with V8's default write, and a
 * what-if with bounded workers reports what one without reports.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { canonicalJson } from '@table-audit/eventstore';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { macauDate } from '@table-audit/rules';
import { simulateSession } from '@table-audit/simulator';
import { BOUND_HEAP_BY_DEFAULT } from '../src/memory.ts';
import { replayInParallel } from '../src/parallel.ts';
import { runWhatIf } from '../src/what-if.ts';
import { storeEvents } from './stored-session.ts';

const dir = mkdtempSync(join(tmpdir(), 'ta-memory-bound-'));
after(() => rmSync(dir, { recursive: true, force: true }));

it('workers with a bounded heap derive and write what workers with the default write', async () => {
  assert.equal(BOUND_HEAP_BY_DEFAULT, false, 'off unless asked (docs/scaling.md: it costs CPU)');
  const session = simulateSession({ seed: 91, tables: 5, roundsPerTable: 10, faultRate: 0.2 });
  const base = await storeEvents(join(dir, 'base.sqlite'), session.events);

  const written: string[][] = [];
  for (const boundHeap of [false, true]) {
    const path = join(dir, `${boundHeap}.sqlite`);
    copyFileSync(base, path);
    const r = await replayInParallel({ storePath: path, workers: 2, boundHeap });
    assert.ok(r.stats.findingsAppended > 0 && r.stats.roundRecordsAppended > 0);
    const s = new SqliteEventStore(path, { mustExist: true });
    const out: string[] = [];
    for await (const e of s.readAll())
      if (!e.stream.startsWith('table-')) out.push(`${e.stream} ${e.eventId} ${canonicalJson(e.data)}`);
    await s.close();
    written.push(out.sort());
  }
  assert.deepEqual(written[1], written[0]);

  const day = macauDate(session.events[0]!.data.header.eventTime);
  const scope = { from: day, to: day };
  const report = (boundHeap: boolean) =>
    runWhatIf({ storePath: base, alternatives: ['J11', 'J2'], scope, workers: 2, boundHeap });
  const [plain, bounded] = [await report(false), await report(true)];
  assert.ok(plain.roundsCompared > 0);
  assert.deepEqual({ ...bounded, elapsedMs: 0 }, { ...plain, elapsedMs: 0 });
});
