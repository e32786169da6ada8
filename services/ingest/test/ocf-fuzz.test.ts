// Fuzzing events files through file ingest: a few thousand seeded mutations of valid files (bit flips,
// truncations, inserted bytes, huge declared counts and lengths). Nothing may throw or hang; every event is either
// handed to the store unchanged or the input has a reject that keeps the bytes (or a reference) with a reason.
// A longer run that prints the counts: pnpm bench ocf-fuzz.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { simulateSession } from '@table-audit/simulator';
import { fuzzEventsFiles } from './ocf-fuzz.ts';

test('2,000 mutated events files: no crash, no hang, every event stored or its input rejected', async () => {
  const events = simulateSession({ seed: 3, tables: 1, roundsPerTable: 3, faultRate: 0 }).events.slice(0, 60);
  const report = await fuzzEventsFiles({
    seed: 20250601,
    inputs: 2000,
    codecs: ['snappy', 'null', 'deflate'],
    events,
    blockSize: 1024,
  });
  assert.deepEqual(report.problems.slice(0, 5), []);
  // hang detectors, not speed targets (the benchmark prints speed): generous, since CI machines are shared
  assert.ok(report.slowestMs < 30_000, `the slowest input took ${Math.round(report.slowestMs)} ms`);
  assert.ok(report.totalMs < 180_000, `${Math.round(report.totalMs)} ms in all`);
  // snappy's CRC32 catches every change made to its blocks
  const snappyChanged = [...report.counts]
    .filter(([key]) => key.startsWith('snappy '))
    .reduce((n, [, c]) => n + c.silentlyChangedInBlocks, 0);
  assert.equal(snappyChanged, 0, 'a mutation of a snappy block changed an event without a reject');
  const inputs = [...report.counts.values()].reduce((n, c) => n + c.inputs, 0);
  assert.equal(inputs, 2000);
});
