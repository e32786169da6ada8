// Kafka ingest fed by a producer the project did not write — Debian's kcat (librdkafka) — against the
// Kafka-protocol mock broker (infra/kafka-mock): good messages, duplicates, malformed bytes, a tombstone, a
// source's events out of order; schema evolution (a version registered after the messages were written); and the
// command's exit status.
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import {
  COMMITTED_REGISTRY_PATH,
  encodeEvent,
  eventSchema,
  FileSchemaRegistry,
  type TableEvent,
  type JsonObject,
} from '@table-audit/schemas';
import { kafkajsTestSettings } from '@table-audit/infra/kafka-mock';
import { simulateSession } from '@table-audit/simulator';
import { REJECT_CODES } from '../src/index.ts';
import { assertExactlyOnce, readAllEvents, rejectsIn, waitFor } from './helpers.ts';
import { cluster, registry, startIngest, TOPIC, waitForCommits, waitForTableEvents } from './kafka.ts';

const KCAT = spawnSync('kcat', ['-V']).status === 0 ? 'kcat' : null;
const skip = KCAT ? false : 'kcat is not installed (apt-get install kcat; .ci/run installs it)';

const dir = mkdtempSync(join(tmpdir(), 'ta-ingest-kcat-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

const session = simulateSession({ seed: 9, tables: 3, roundsPerTable: 5, faultRate: 0, handledRate: 0 });
const events = session.events;
const byTable = (list: readonly TableEvent[]) => {
  const m = new Map<string, TableEvent[]>();
  for (const e of list) m.set(e.data.header.tableId, [...(m.get(e.data.header.tableId) ?? []), e]);
  return m;
};

/**
 * Produces each value as one message with kcat, keyed `key`, in order (one file a message: Avro bytes are binary;
 * -Z makes an empty file a null value, a tombstone).
 */
function kcat(brokers: string[], key: string, values: readonly (Buffer | null)[]): void {
  const common = ['-P', '-b', brokers.join(','), '-t', TOPIC, '-X', 'acks=all'];
  let run: Buffer[] = [];
  const flush = () => {
    if (!run.length) return;
    const paths = run.map((v) => {
      const path = join(dir, `m-${++files}.bin`);
      writeFileSync(path, v);
      return path;
    });
    execFileSync(KCAT!, [...common, '-k', key, ...paths], {
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 30_000,
    });
    run = [];
  };
  for (const v of values) {
    if (v !== null) {
      run.push(v);
      continue;
    }
    flush();
    // a tombstone: "key:" on stdin, -K: splits the key off, -Z sends the empty value as null
    execFileSync(KCAT!, [...common, '-K:', '-Z'], {
      input: `${key}:\n`,
      stdio: ['pipe', 'ignore', 'pipe'],
      timeout: 30_000,
    });
  }
  flush();
}

const encodeAll = (list: readonly TableEvent[]) =>
  Promise.all(list.map((e) => encodeEvent(registry, e.type, e.data)));

test(
  'kcat produces a session, duplicates, malformed messages and a tombstone: every event once, every bad message kept',
  { skip },
  async (t) => {
    const c = await cluster(t, 1); // one partition: every partition has messages, so every one gets committed
    const store = new SqliteEventStore(join(dir, 'kcat.sqlite'));
    const tables = byTable(events);
    for (const [tableId, list] of tables) kcat(c.mock.bootstrapServers, tableId, await encodeAll(list));
    const [firstTable, firstEvents] = [...tables][0]!;
    kcat(c.mock.bootstrapServers, firstTable, await encodeAll(firstEvents.slice(0, 40))); // duplicates
    const good = await encodeEvent(registry, firstEvents[5]!.type, firstEvents[5]!.data);
    const wrongMagic = Buffer.from(good);
    wrongMagic[0] = 7;
    const bad: { value: Buffer | null; code: string; reason: RegExp }[] = [
      { value: Buffer.from('{"not":"avro"}'), code: 'WRONG_MAGIC_BYTE', reason: /^WRONG_MAGIC_BYTE: .*0x7b/ },
      { value: good.subarray(0, good.length - 3), code: 'TRUNCATED_PAYLOAD', reason: /^TRUNCATED_PAYLOAD: / },
      { value: wrongMagic, code: 'WRONG_MAGIC_BYTE', reason: /^WRONG_MAGIC_BYTE: .*0x07/ },
      { value: null, code: REJECT_CODES.emptyMessage, reason: /^empty message/ },
    ];
    kcat(
      c.mock.bootstrapServers,
      firstTable,
      bad.map((b) => b.value),
    );

    const run = await startIngest(t, c, store, 'ingest-kcat');
    await waitForTableEvents(store, events.length);
    await waitFor('every reject', async () => (await rejectsIn(store)).length >= bad.length).catch(
      async (e: Error) => {
        throw new Error(`${e.message}: ${JSON.stringify((await rejectsIn(store)).map((r) => r.data.code))}`);
      },
    );
    await waitForCommits(c.admin, 'ingest-kcat');
    await run.stop();
    t.after(() => store.close()); // after the ingest has stopped
    await assertExactlyOnce(store, events);
    const rejects = await rejectsIn(store);
    assert.equal(rejects.length, bad.length);
    for (const b of bad) {
      const r = rejects.find(
        (x) => x.data.rawBase64 === (b.value === null ? null : b.value.toString('base64')),
      );
      assert.ok(r, `a reject for ${b.code}`);
      assert.equal(r.data.code, b.code);
      assert.match(r.data.reason, b.reason);
      assert.equal(r.data.source.kind, 'kafka');
    }
    assert.equal(run.pipeline.totals.alreadyStored, 40);
    const s = run.pipeline.totals.sequence;
    assert.deepEqual([s.gaps, s.repeats, s.backwards], [0, 0, 0], 'duplicates are not sequence repeats');
  },
);

test(
  'kcat produces a table’s events with two of a source swapped: stored as they came, the step backwards counted',
  { skip },
  async (t) => {
    const c = await cluster(t, 1); // one partition: every partition has messages, so every one gets committed
    const store = new SqliteEventStore(join(dir, 'swapped.sqlite'));
    t.after(() => store.close());
    const [tableId, list] = [...byTable(events)][1]!;
    const swapped = [...list];
    const i = swapped.findIndex((e, k) => k > 10 && e.type === 'CardDealt');
    [swapped[i], swapped[i + 1]] = [swapped[i + 1]!, swapped[i]!];
    kcat(c.mock.bootstrapServers, tableId, await encodeAll(swapped));
    const run = await startIngest(t, c, store, 'ingest-swapped');
    await waitForTableEvents(store, list.length);
    await waitForCommits(c.admin, 'ingest-swapped');
    await run.stop();
    await assertExactlyOnce(store, list);
    const s = run.pipeline.totals.sequence;
    // n, n+1 stored as n+1, n: a gap (n missing), the step backwards to n, a gap (n+1 seen, not before n+2)
    assert.deepEqual([s.gaps, s.repeats, s.backwards], [2, 0, 1], `${JSON.stringify(s.first)}`);
    const back = s.first.find((x) => x.kind === 'backwards')!;
    assert.equal(back.eventId, swapped[i + 1]!.data.header.eventId);
    assert.match(back.where, new RegExp(`^kafka ${TOPIC}\\[\\d\\]@\\d+$`));
  },
);

test('a version of BetPlaced registered after the messages were written: re-reading them stores nothing twice, rejects nothing', async (t) => {
  const c = await cluster(t, 1); // one partition: every partition has messages, so every one gets committed
  const store = new SqliteEventStore(join(dir, 'evolution.sqlite'));
  t.after(() => store.close());
  const path = join(dir, 'registry.json');
  copyFileSync(COMMITTED_REGISTRY_PATH, path);
  const writable = await FileSchemaRegistry.open(path);
  await c.publish(events);
  const first = await startIngest(t, c, store, 'ingest-before', writable);
  await waitForTableEvents(store, events.length);
  await waitForCommits(c.admin, 'ingest-before');
  await first.stop();

  // the README's procedure: an optional field at the end, with a default, registered
  const v2 = structuredClone(eventSchema('BetPlaced'));
  (v2['fields'] as JsonObject[]).push({
    name: 'chipColour',
    type: ['null', 'string'],
    default: null,
    doc: 'x',
  });
  const v2Id = await writable.register(v2);
  assert.equal(await writable.latestIdFor('ta.f3cp.BetPlaced'), v2Id);
  // and a producer already writing with it
  const bet = events.find((e) => e.type === 'BetPlaced')!;
  const newBet = { ...bet.data, header: { ...bet.data.header, eventId: 'bet-v2-1' }, chipColour: 'red' };
  const producer = c.kafka.producer();
  await producer.connect();
  t.after(() => producer.disconnect());
  await producer.send({
    topic: TOPIC,
    acks: -1,
    messages: [
      {
        key: bet.data.header.tableId,
        value: await encodeEvent(writable, 'BetPlaced', newBet as typeof bet.data, { schemaId: v2Id }),
      },
    ],
  });

  // a new consumer group reads every message again, v1 and v2, from the beginning
  const again = await startIngest(t, c, store, 'ingest-after', writable);
  await waitFor(
    'every message read again',
    () => again.pipeline.totals.alreadyStored + again.pipeline.totals.accepted >= events.length + 1,
  );
  await waitForCommits(c.admin, 'ingest-after');
  await again.stop();
  assert.deepEqual(await rejectsIn(store), [], 'no EVENT_ID_CONFLICT: v1 messages decode to what was stored');
  assert.equal(again.pipeline.totals.alreadyStored, events.length);
  assert.equal(again.pipeline.totals.accepted, 1);
  const stored = (await readAllEvents(store)).find((e) => e.eventId === 'bet-v2-1')!;
  assert.ok(
    !('chipColour' in (stored.data as object)),
    'read as the pipeline reads BetPlaced: a field it does not know is skipped',
  );
  assert.equal(stored.metadata?.['writerSchemaId'], v2Id);
});

const cli = fileURLToPath(new URL('../../../apps/cli/bin/table-audit.js', import.meta.url));

/** `table-audit ingest --kafka` to idle exit; its status, stdout and stderr. */
function ingestCommand(brokers: string[], storePath: string, group: string) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const p = spawn(
      process.execPath,
      [
        cli,
        'ingest',
        '--kafka',
        brokers.join(','),
        '--group',
        group,
        '--store',
        storePath,
        '--idle-exit',
        '3000',
      ],
      {
        env: {
          ...process.env,
          TABLE_AUDIT_KAFKA_SESSION_TIMEOUT_MS: String(kafkajsTestSettings.consumer.sessionTimeout ?? 3000),
          TABLE_AUDIT_KAFKA_HEARTBEAT_INTERVAL_MS: '1000',
          TABLE_AUDIT_KAFKA_MAX_WAIT_MS: '100',
          TABLE_AUDIT_KAFKA_RETRY_INITIAL_MS: '100',
        },
      },
    );
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('error', reject);
    p.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

test(
  '`ingest --kafka` exits 1 when it kept rejects and 0 when it did not, like file ingest',
  { skip },
  async (t) => {
    const c = await cluster(t, 1); // one partition: every partition has messages, so every one gets committed
    const [tableId, list] = [...byTable(events)][2]!;
    kcat(c.mock.bootstrapServers, tableId, await encodeAll(list));
    const clean = await ingestCommand(c.mock.bootstrapServers, join(dir, 'cli-clean.sqlite'), 'cli-clean');
    assert.equal(clean.status, 0, clean.stderr);
    assert.match(clean.stdout, new RegExp(`accepted ${list.length}, already stored 0, rejected 0`));

    kcat(c.mock.bootstrapServers, tableId, [Buffer.from('garbage')]);
    const dirty = await ingestCommand(c.mock.bootstrapServers, join(dir, 'cli-dirty.sqlite'), 'cli-dirty');
    assert.equal(dirty.status, 1, dirty.stderr);
    assert.match(dirty.stdout, new RegExp(`accepted ${list.length}, already stored 0, rejected 1`));
  },
);
