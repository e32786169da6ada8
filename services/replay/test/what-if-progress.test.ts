/**
 * A what-if tells how far it has read and can be aborted, without changing what it reports: progress from its
 * workers (and from one thread), abort terminating its workers.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { macauDate } from '@table-audit/rules';
import { simulateSession } from '@table-audit/simulator';
import { runWhatIf, WhatIfAborted, type WhatIfProgress, type WhatIfScope } from '../src/what-if.ts';
import { storeEvents } from './stored-session.ts';

describe('what-if progress and abort', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ta-what-if-progress-'));
  let path: string;
  let scope: WhatIfScope;
  let head: number;
  before(async () => {
    const s = simulateSession({ seed: 21, tables: 4, roundsPerTable: 12, faultRate: 0.1 });
    path = await storeEvents(join(dir, 'events.sqlite'), s.events);
    const day = macauDate(s.events[0]!.data.header.eventTime);
    scope = { from: day, to: day };
    const store = new SqliteEventStore(path, { readOnly: true });
    head = Number(await store.headPosition());
    await store.close();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const strip = (x: Awaited<ReturnType<typeof runWhatIf>>) => ({ ...x, elapsedMs: 0, workers: 0 });

  for (const [workers, inWorkers] of [
    [1, false],
    [1, true],
    [2, true],
  ] as const)
    it(`${workers} worker(s)${inWorkers ? ' in threads' : ' in this thread'}: progress grows against the head and the report is unchanged`, async () => {
      const plain = await runWhatIf({ storePath: path, alternatives: ['J11'], scope, workers: 1 });
      const seen: WhatIfProgress[] = [];
      const r = await runWhatIf({
        storePath: path,
        alternatives: ['J11'],
        scope,
        workers,
        inWorkers,
        progressEvery: 200,
        onProgress: (p) => seen.push(p),
      });
      assert.deepEqual(strip(r), strip(plain), 'progress changes nothing the report says');
      assert.deepEqual(
        seen[0],
        { eventsRead: 0, eventsTotal: head },
        'told at once, before anything is read',
      );
      assert.ok(seen.length > 3, `progress told as it reads (${seen.length} times)`);
      for (let i = 1; i < seen.length; i++) {
        assert.equal(seen[i]!.eventsTotal, head);
        assert.ok(seen[i]!.eventsRead >= seen[i - 1]!.eventsRead, 'never goes back');
        assert.ok(seen[i]!.eventsRead <= head);
      }
      assert.ok(seen.at(-1)!.eventsRead > 0);
    });

  it('aborted as it reads: its workers are terminated and it rejects with WhatIfAborted, not a report', async () => {
    const abort = new AbortController();
    let told = 0;
    const run = runWhatIf({
      storePath: path,
      alternatives: ['J11'],
      scope,
      workers: 2,
      progressEvery: 100,
      signal: abort.signal,
      onProgress: (p) => {
        told++;
        if (p.eventsRead > 0) abort.abort(); // the first progress from a worker: it is reading
      },
    });
    await assert.rejects(run, WhatIfAborted);
    assert.ok(told >= 2);
  });

  it('aborted before it starts: rejects at once', async () => {
    const abort = new AbortController();
    abort.abort();
    await assert.rejects(
      runWhatIf({ storePath: path, alternatives: ['J11'], scope, workers: 1, signal: abort.signal }),
      WhatIfAborted,
    );
  });
});
