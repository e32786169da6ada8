import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { latencySummary, median, percentile, runPart } from './measure.ts';
import { RAW_ROW_BYTES, rawSqliteLimits } from './raw-sqlite.ts';

const dir = mkdtempSync(join(tmpdir(), 'ta-bench-lib-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('bench/lib measurement helpers', () => {
  it('percentile takes the nearest rank below, and is NaN for nothing', () => {
    const xs = Array.from({ length: 100 }, (_, i) => i + 1);
    assert.equal(percentile(xs, 0.5), 51);
    assert.equal(percentile(xs, 0.99), 100);
    assert.equal(percentile(xs, 1), 100);
    assert.ok(Number.isNaN(percentile([], 0.5)));
  });

  it('median of odd and even counts, unsorted input left as it was', () => {
    const xs = [5, 1, 3];
    assert.equal(median(xs), 3);
    assert.deepEqual(xs, [5, 1, 3]);
    assert.equal(median([4, 1, 3, 2]), 2.5);
  });

  it('latencySummary gives count, p50, p99 (the slowest 1%) and max', () => {
    const ms = Array.from({ length: 200 }, (_, i) => (i >= 198 ? 1000 : 1));
    assert.deepEqual(latencySummary(ms), { count: 200, p50: 1, p99: 1000, max: 1000 });
  });

  it('the raw SQLite baseline inserts and reads back every row', () => {
    const r = rawSqliteLimits(dir, 2_000);
    assert.equal(r.rows, 2_000);
    assert.ok(r.insertRowsPerSecond > 0 && r.readRowsPerSecond > 0);
    assert.ok(
      r.bytesPerRow >= RAW_ROW_BYTES,
      `a 300-byte row takes at least 300 bytes, not ${r.bytesPerRow}`,
    );
  });

  it('a part runs in a child process of its own and reports its peak RSS', () => {
    const r = runPart('raw-sqlite', { rows: 500, dir });
    assert.equal(r.rows, 500);
    assert.ok(r.peakRssMiB > 0 && r.wallSeconds > 0);
  });

  it('a part that fails is an error naming it, not a result', () => {
    assert.throws(() => runPart('no-such-part'), /bench part no-such-part .*unknown part no-such-part/s);
    assert.throws(() => runPart('raw-sqlite', { rows: 'many' }), /argument rows must be a number/);
  });

  it('simulate → file ingest → replay through the parts stores and replays every event', () => {
    const file = join(dir, 'tiny.avro');
    const store = join(dir, 'tiny.sqlite');
    const input = runPart('generate', { seed: 3, tables: 1, rounds: 5, out: file });
    const ingest = runPart('ingest-file', { file, store });
    const replay = runPart('replay', { store });
    assert.ok(Number(input.events) > 0);
    assert.equal(ingest.accepted, input.events);
    assert.equal(ingest.rejected, 0);
    assert.ok(Number(ingest.storeBytesPerEvent) > 0);
    assert.equal(replay.events, input.events);
    assert.equal(replay.rounds, input.rounds);
  });
});
