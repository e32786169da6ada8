/**
 * The signed anchors cover the checkpoints of a parallel replay's shards (`replay/shard-i-of-n`): the real command
 * line simulates, ingests and replays with two workers into anchors, then a shard checkpoint is moved behind the
 * replay's back with SQLite, and `verify --anchors` names it. Later anchors (ingest's too) keep covering it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';

const bin = fileURLToPath(new URL('../bin/table-audit.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'ta-replay-anchors-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[]) => {
  const r = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    cwd: dir,
    env: { ...process.env, TABLE_AUDIT_STORE: '', TABLE_AUDIT_ANCHORS: '', TABLE_AUDIT_SIGNING_KEY: '' },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status, out: `${r.stdout}\n${r.stderr}` };
};

/** The checkpoints the last line of anchors.jsonl signed. */
const lastAnchorCheckpoints = (anchors: string): Record<string, string | null> => {
  const lines = readFileSync(join(anchors, 'anchors.jsonl'), 'utf8').trim().split('\n');
  return (JSON.parse(lines.at(-1)!) as { checkpoints: Record<string, string | null> }).checkpoints;
};

describe('anchors over a parallel replay', () => {
  it(
    'sign every shard checkpoint, and verify --anchors reports one moved',
    { timeout: 120_000 },
    async () => {
      const store = join(dir, 'events.sqlite');
      const anchors = join(dir, 'anchors');
      const key = join(dir, 'key.pem');
      writeFileSync(
        key,
        generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
      );
      const sign = ['--anchors', anchors, '--signing-key', key];
      const first = join(dir, 'first.avro');
      const simulated = run(['simulate', '--out', first, '--tables', '6', '--rounds', '8', '--seed', '5']);
      assert.equal(simulated.code, 0, simulated.out);
      const ingested = run(['ingest', first, '--store', store, ...sign]);
      assert.equal(ingested.code, 0, ingested.out);

      const replayed = run(['replay', '--store', store, '--workers', '2', ...sign]);
      assert.ok(replayed.code === 0 || replayed.code === 1, replayed.out);
      const signed = lastAnchorCheckpoints(anchors);
      const shards = ['replay/shard-0-of-2', 'replay/shard-1-of-2'];
      for (const name of shards)
        assert.ok(
          signed[name] !== null && signed[name] !== undefined,
          `${name} signed: ${JSON.stringify(signed)}`,
        );
      const clean = run(['verify', '--store', store, '--anchors', anchors]);
      assert.equal(clean.code, 0, clean.out);

      // an ingest after it (the same file again: nothing new) signs an anchor that carries the shard checkpoints over
      const more = run(['ingest', first, '--store', store, ...sign]);
      assert.equal(more.code, 0, more.out);
      assert.deepEqual(
        shards.map((n) => lastAnchorCheckpoints(anchors)[n]),
        shards.map((n) => signed[n]),
      );
      assert.equal(run(['verify', '--store', store, '--anchors', anchors]).code, 0);

      // a shard checkpoint moved to the end of the log behind the replay's back: the shard would skip the new events
      const writer = new SqliteEventStore(store, { mustExist: true });
      let end = 0n;
      for await (const e of writer.readAll()) end = e.position;
      await writer.saveCheckpoint(shards[1]!, end);
      await writer.close();
      const moved = run(['verify', '--store', store, '--anchors', anchors]);
      assert.equal(moved.code, 1, moved.out);
      assert.match(
        moved.out,
        new RegExp(
          `checkpoint "replay/shard-1-of-2" is at position ${end} in the store, but the last anchor .* signed position ${signed[shards[1]!]}`,
        ),
      );
      assert.doesNotMatch(moved.out, /checkpoint "replay\/shard-0-of-2"/);

      // the shard resumes from its signed checkpoint, not the moved one
      const resumed = run(['replay', '--store', store, '--workers', '2', ...sign]);
      assert.ok(resumed.code === 0 || resumed.code === 1, resumed.out);
      assert.match(resumed.out, /is not the signed one: resumed from/);
    },
  );
});
