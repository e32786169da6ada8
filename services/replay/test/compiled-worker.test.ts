import { createHash } from 'node:crypto';
/**
 * The shard workers start from the compiled worker (compiled-worker.ts) by default: it is made from the sources and
 * kept with a manifest of what it was made from, the workers it starts need none of the caller's module hooks, and
 * they write exactly what workers started from the TypeScript sources write.
 */
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { canonicalJson, type EventStore } from '@table-audit/eventstore';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { macauDate } from '@table-audit/rules';
import { simulateSession } from '@table-audit/simulator';
import { COMPILED_WORKER_DIR, compiledShardWorker, compiledWorker } from '../src/compiled-worker.ts';
import { replayInParallel, withoutModuleHooks } from '../src/parallel.ts';
import { runWhatIf } from '../src/what-if.ts';
import { storeEvents } from './stored-session.ts';

const dir = mkdtempSync(join(tmpdir(), 'ta-compiled-worker-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function written(store: EventStore): Promise<string[]> {
  const out: string[] = [];
  for await (const e of store.readAll())
    if (!e.stream.startsWith('table-')) out.push(`${e.stream} ${e.eventId} ${canonicalJson(e.data)}`);
  return out.sort();
}

describe('the compiled shard worker', () => {
  it('leaves out the flags that load modules first, and keeps the others', () => {
    assert.deepEqual(
      withoutModuleHooks([
        '--import',
        './register-ts.mjs',
        '--cpu-prof',
        '--import=./other.mjs',
        '-r',
        'x.cjs',
        '--max-old-space-size=512',
        '--experimental-loader',
        'l.mjs',
      ]),
      ['--cpu-prof', '--max-old-space-size=512'],
    );
  });

  it('is made from the shard worker and what it imports, and kept with a manifest of them', async () => {
    const first = await compiledShardWorker();
    assert.ok(first.url !== null, first.url === null ? first.why : '');
    const path = fileURLToPath(first.url);
    assert.ok(existsSync(path));
    const manifest = JSON.parse(readFileSync(join(COMPILED_WORKER_DIR, 'shard-worker.json'), 'utf8')) as {
      node: string;
      inputs: Record<string, unknown>;
    };
    assert.equal(manifest.node, process.version);
    for (const source of [
      'services/replay/src/shard-worker.ts',
      'services/replay/src/service.ts',
      'packages/eventstore/src/sqlite-event-store.ts',
    ])
      assert.ok(source in manifest.inputs, `${source} is listed`);
    const again = await compiledShardWorker();
    assert.deepEqual(again, { url: first.url, made: false, sha256: first.sha256 }, 'kept, not made again');
    assert.equal(
      first.sha256,
      createHash('sha256').update(readFileSync(first.url!)).digest('hex'),
      "the bundle's digest",
    );
  });

  it('writes what workers started from the sources write', async () => {
    const session = simulateSession({ seed: 77, tables: 6, roundsPerTable: 12, faultRate: 0.2 });
    const base = await storeEvents(join(dir, 'base.sqlite'), session.events);
    const out: string[][] = [];
    for (const compiledWorker of [true, false]) {
      const path = join(dir, `${compiledWorker}.sqlite`);
      copyFileSync(base, path);
      const r = await replayInParallel({ storePath: path, workers: 2, compiledWorker });
      assert.equal(r.workerCode.compiled, compiledWorker);
      assert.equal(r.startUpMs.length, 2);
      assert.ok(r.stats.findingsAppended > 0 && r.stats.roundRecordsAppended > 0);
      const s = new SqliteEventStore(path, { mustExist: true });
      out.push(await written(s));
      await s.close();
    }
    assert.deepEqual(out[0], out[1]);
  });

  it('what-if workers started from their compiled worker report what workers started from the sources report', async () => {
    const made = await compiledWorker(new URL('../src/what-if-worker.ts', import.meta.url), 'what-if-worker');
    assert.ok(made.url !== null, made.url === null ? made.why : '');
    assert.ok(fileURLToPath(made.url).endsWith('what-if-worker.mjs'));
    const session = simulateSession({ seed: 78, tables: 4, roundsPerTable: 10, faultRate: 0.1 });
    const path = await storeEvents(join(dir, 'what-if.sqlite'), session.events);
    const day = macauDate(session.events[0]!.data.header.eventTime);
    const scope = { from: day, to: day };
    const run = (compiled: boolean) =>
      runWhatIf({
        storePath: path,
        alternatives: ['J11', 'J2'],
        scope,
        workers: 2,
        compiledWorker: compiled,
      });
    const [compiled, sources] = [await run(true), await run(false)];
    assert.ok(compiled.roundsCompared > 0 && compiled.roundsChanged > 0);
    assert.deepEqual({ ...compiled, elapsedMs: 0 }, { ...sources, elapsedMs: 0 });
  });
});
