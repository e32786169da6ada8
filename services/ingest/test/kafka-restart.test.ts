// The ingest process (the command line, `table-audit ingest --kafka …`) killed with SIGKILL while events are
// flowing, and started again: every event stored exactly once. Against the mock cluster (infra/kafka-mock).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { simulateSession } from '@table-audit/simulator';
import { assertExactlyOnce, rejectsIn, tableEventCount, waitFor } from './helpers.ts';
import { cluster, TOPIC, waitForCommits } from './kafka.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'ta-ingest-restart-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface IngestProcess {
  child: ChildProcess;
  stdout: () => string;
  exited: Promise<void>;
}

function ingestProcess(brokers: string[], groupId: string, store: string): IngestProcess {
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'apps/cli/bin/table-audit.js'),
      'ingest',
      '--kafka',
      brokers.join(','),
      '--topic',
      TOPIC,
      '--group',
      groupId,
      '--store',
      store,
    ],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        // what kafkajsTestSettings gives the in-process tests: a killed member's session ends in 3 s
        TABLE_AUDIT_KAFKA_SESSION_TIMEOUT_MS: '3000',
        TABLE_AUDIT_KAFKA_HEARTBEAT_INTERVAL_MS: '300',
        TABLE_AUDIT_KAFKA_MAX_WAIT_MS: '100',
        TABLE_AUDIT_KAFKA_RETRY_INITIAL_MS: '100',
        TABLE_AUDIT_KAFKA_CONNECTION_TIMEOUT_MS: '1000',
      },
    },
  );
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  after(() => void child.kill('SIGKILL'));
  return { child, stdout: () => out + err, exited };
}

/**
 * Table events in the store the ingest process writes (read-only, from this process); 0 while that process has
 * not yet created it (the file can exist a moment before its tables do).
 */
async function storedIn(path: string): Promise<number> {
  if (!existsSync(path)) return 0;
  let store: SqliteEventStore;
  try {
    store = new SqliteEventStore(path, { readOnly: true });
  } catch {
    return 0;
  }
  try {
    return await tableEventCount(store);
  } catch {
    return 0; // (busy while the other process sets the store up)
  } finally {
    await store.close();
  }
}

test('the ingest process killed (SIGKILL) twice mid-stream and restarted: every event exactly once', async (t) => {
  const session = simulateSession({
    seed: 9,
    tables: 8,
    roundsPerTable: 12,
    faultRate: 0.1,
    handledRate: 0.05,
  });
  const events = session.events;
  const c = await cluster(t);
  const groupId = 'ingest-cli';
  const path = join(dir, 'events.sqlite');
  const log: string[] = [];
  const t0 = Date.now();
  const note = (what: string) => log.push(`${((Date.now() - t0) / 1000).toFixed(1)} s: ${what}`);

  // a producer that keeps publishing while the ingest processes come and go
  let published = 0;
  const producing = (async () => {
    for (; published < events.length;) {
      const n = await c.publish(events.slice(published, published + 150), 150);
      published += n;
      await new Promise((r) => setTimeout(r, 200));
    }
    note('everything published');
  })();
  producing.catch(() => undefined); // awaited below; not an unhandled rejection if the test fails before

  for (const target of [0.2, 0.55]) {
    const p = ingestProcess(c.mock.bootstrapServers, groupId, path);
    note(`ingest process ${p.child.pid} started`);
    // kill it just after an append: the commit of that batch has most likely not been made yet
    let last = await storedIn(path);
    await waitFor(
      `${target * 100}% of the events stored`,
      async () => {
        const now = await storedIn(path);
        const grew = now > last;
        last = now;
        return grew && now >= target * events.length;
      },
      30_000,
      15,
    );
    p.child.kill('SIGKILL');
    await p.exited;
    note(`killed (SIGKILL) with ${last} of ${events.length} stored, ${published} published`);
  }

  const final = ingestProcess(c.mock.bootstrapServers, groupId, path);
  note(`ingest process ${final.child.pid} started`);
  await producing;
  await waitFor('every event stored', async () => (await storedIn(path)) >= events.length, 45_000, 200);
  await waitForCommits(c.admin, groupId, 30_000);
  note('everything stored and committed');
  final.child.kill('SIGTERM'); // a clean stop: it leaves the group and prints what it did
  await waitFor('the totals', () => /accepted \d+/.test(final.stdout()), 15_000);
  final.child.kill('SIGKILL'); // (the command may not exit by itself after --idle-exit or a signal: see report)

  const store = new SqliteEventStore(path, { readOnly: true });
  t.after(() => store.close());
  await assertExactlyOnce(store, events);
  assert.deepEqual(await rejectsIn(store), []);
  t.diagnostic(`${log.join('; ')}; last process: ${final.stdout().trim().split('\n').at(-1)}`);
});
