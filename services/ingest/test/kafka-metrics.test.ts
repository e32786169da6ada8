// `table-audit ingest --kafka … --metrics-port 0` against the mock cluster (infra/kafka-mock): while it consumes, it
// answers /health/ready and /metrics, and the metrics count every event of a session published over 3 partitions,
// with the consumer lag of each partition that carried events at 0 once everything is stored (the lag comes from each batch's high watermark).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { simulateSession } from '@table-audit/simulator';
import { tableEventCount, waitFor } from './helpers.ts';
import { cluster, TOPIC } from './kafka.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'ta-ingest-metrics-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function storedIn(path: string): Promise<number> {
  if (!existsSync(path)) return 0;
  try {
    const store = new SqliteEventStore(path, { readOnly: true });
    try {
      return await tableEventCount(store);
    } finally {
      await store.close();
    }
  } catch {
    return 0; // not set up yet by the other process
  }
}

test('ingest --kafka serves its health and metrics: events by outcome, lag per partition', async (t) => {
  const c = await cluster(t);
  const events = simulateSession({
    seed: 21,
    tables: 4,
    roundsPerTable: 4,
    faultRate: 0,
    handledRate: 0,
  }).events;
  assert.equal(await c.publish(events), events.length);
  const store = join(dir, 'events.sqlite');
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'apps/cli/bin/table-audit.js'),
      'ingest',
      '--kafka',
      c.mock.bootstrapServers.join(','),
      '--topic',
      TOPIC,
      '--group',
      'ingest-metrics',
      '--store',
      store,
      '--metrics-port',
      '0',
    ],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        LOG_LEVEL: 'info',
        TABLE_AUDIT_KAFKA_SESSION_TIMEOUT_MS: '3000',
        TABLE_AUDIT_KAFKA_HEARTBEAT_INTERVAL_MS: '300',
        TABLE_AUDIT_KAFKA_MAX_WAIT_MS: '100',
        TABLE_AUDIT_KAFKA_RETRY_INITIAL_MS: '100',
        TABLE_AUDIT_KAFKA_CONNECTION_TIMEOUT_MS: '1000',
      },
    },
  );
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  t.after(() => void child.kill('SIGKILL'));
  await waitFor('every event stored', async () => (await storedIn(store)) === events.length, 60_000);
  const port = /"port":(\d+)/.exec(err)?.[1];
  assert.ok(port, `the port is logged:\n${err}`);
  const base = `http://127.0.0.1:${port}`;
  assert.equal((await fetch(`${base}/health/ready`)).status, 200);
  const value = (text: string, line: string): number => {
    const found = text.split('\n').find((l) => l.startsWith(`${line} `));
    assert.ok(found, `${line} in\n${text}`);
    return Number(found.slice(line.length + 1));
  };
  // the last batch's metrics are recorded just after its append: wait for them
  let text = '';
  await waitFor('the metrics count every event', async () => {
    text = await (await fetch(`${base}/metrics`)).text();
    return text.includes(
      `table_audit_ingest_events_total{outcome="accepted",service="ingest"} ${events.length}`,
    );
  });
  assert.equal(value(text, 'table_audit_ingest_messages_total{service="ingest"}'), events.length);
  // every partition that carried tables has a lag, 0 now that everything is stored
  const lags = [
    ...text.matchAll(
      /^table_audit_ingest_consumer_lag_messages\{topic="([^"]+)",partition="(\d)",service="ingest"\} (\d+)$/gm,
    ),
  ];
  assert.ok(lags.length >= 1, text);
  for (const m of lags) assert.deepEqual([m[1], m[3]], [TOPIC, '0'], m[0]);
  assert.ok(value(text, 'table_audit_ingest_append_seconds_count{service="ingest"}') >= 1);
  child.kill('SIGTERM');
  assert.equal(await exited, 0, err);
  assert.match(err, /"msg":"ingest stopped"/);
});
