/**
 * `replay --live --shard K/N`: N processes, one per shard, each following the store under its own checkpoint,
 * write exactly the findings and round records of one `replay --live` process; and the shard's health and
 * metrics endpoint answers while it follows.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { canonicalJson } from '@table-audit/eventstore';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { IngestPipeline } from '@table-audit/ingest';
import { FINDING_EVENT_TYPE, ROUND_EVENT_TYPE } from '@table-audit/replay';
import { simulateSession } from '@table-audit/simulator';
import { UsageError } from '../src/commands/command.ts';
import { parseShard } from '../src/commands/replay.ts';

const bin = fileURLToPath(new URL('../bin/table-audit.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'ta-replay-shards-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Starts `table-audit replay --live …`, resolves once it logs that it caught up; stop() ends it with SIGTERM. */
function follow(
  args: string[],
): Promise<{ stop(): Promise<{ code: number | null; err: string }>; err(): string }> {
  const child = spawn(process.execPath, [bin, 'replay', '--live', ...args], {
    cwd: dir,
    env: {
      ...process.env,
      TABLE_AUDIT_STORE: '',
      TABLE_AUDIT_ANCHORS: '',
      TABLE_AUDIT_SIGNING_KEY: '',
      LOG_LEVEL: '',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      if (err.includes('"msg":"caught up; following new events"'))
        resolve({
          err: () => err,
          async stop() {
            child.kill('SIGTERM');
            return { code: await exited, err };
          },
        });
    });
    void exited.then((code) =>
      reject(new Error(`replay ${args.join(' ')} exited ${code} before catching up:\n${err}`)),
    );
  });
}

async function written(path: string): Promise<string[]> {
  const store = new SqliteEventStore(path, { mustExist: true });
  try {
    const out: string[] = [];
    for await (const e of store.readAll())
      if (e.type === FINDING_EVENT_TYPE || e.type === ROUND_EVENT_TYPE)
        out.push(`${e.stream} ${e.eventId} ${canonicalJson(e.data)}`);
    return out.sort();
  } finally {
    await store.close();
  }
}

describe('replay --live --shard K/N', () => {
  it('parses K/N and refuses what is not a shard of N', () => {
    assert.deepEqual(parseShard('0/4'), { index: 0, count: 4 });
    assert.deepEqual(parseShard('3/4'), { index: 3, count: 4 });
    for (const bad of ['4/4', '1/0', '-1/2', '1', 'a/b', '1/2/3', '0/1025', ''])
      assert.throws(
        () => parseShard(bad),
        (e: unknown) => e instanceof UsageError && /--shard takes K\/N/.test((e as Error).message),
      );
  });

  it(
    "2 processes, one per shard, write exactly one process's findings and round records",
    { timeout: 120_000 },
    async () => {
      const session = simulateSession({
        seed: 99,
        tables: 9,
        roundsPerTable: 12,
        faultRate: 0.2,
        handledRate: 0.05,
      });
      const one = join(dir, 'one.sqlite');
      const sharded = join(dir, 'sharded.sqlite');
      const store = new SqliteEventStore(one);
      const pipeline = new IngestPipeline(store, () => 0);
      await pipeline.submit(
        session.events.map((event, index) => ({
          source: { kind: 'in-process' as const, producer: 'test', index },
          event,
        })),
      );
      await store.close();
      copyFileSync(one, sharded);

      const processes = await Promise.all([
        follow(['--store', one]),
        ...[0, 1].map((k) =>
          follow(['--store', sharded, '--shard', `${k}/2`, ...(k === 0 ? ['--metrics-port', '0'] : [])]),
        ),
      ]);
      // the first shard's endpoint, while it follows
      const port = /"port":(\d+)/.exec(processes[1]!.err())?.[1];
      assert.ok(port, 'the shard logged the port it serves metrics on');
      const ready = await fetch(`http://127.0.0.1:${port}/health/ready`);
      assert.equal(ready.status, 200);
      assert.equal(
        ((await ready.json()) as { details: { checkpoint: string } }).details.checkpoint,
        'replay/shard-0-of-2',
      );
      const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      assert.match(
        metrics,
        /table_audit_replay_caught_up\{checkpoint="replay\/shard-0-of-2",service="replay"\} 1/,
      );
      assert.match(
        metrics,
        /table_audit_replay_lag_events\{checkpoint="replay\/shard-0-of-2",service="replay"\} 0/,
      );
      for (const p of processes) {
        const { code, err } = await p.stop();
        assert.equal(code, 0, err);
      }

      const expected = await written(one);
      assert.ok(
        expected.some((line) => line.startsWith('findings-')),
        'the session has findings',
      );
      assert.deepEqual(await written(sharded), expected);
      const checkpoints = new SqliteEventStore(sharded, { mustExist: true });
      try {
        for (const k of [0, 1])
          assert.notEqual(await checkpoints.loadCheckpoint(`replay/shard-${k}-of-2`), null);
        assert.equal(
          await checkpoints.loadCheckpoint('replay'),
          null,
          'the shards never wrote the unsharded checkpoint',
        );
      } finally {
        await checkpoints.close();
      }
    },
  );
});
