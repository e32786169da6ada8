/**
 * The store index kept in a file of its own (index-db.ts): across a restart it reads only what was stored since and
 * answers as an index built from scratch; an index of another store is rebuilt; a file that is not an index of ours
 * is refused and left as it is.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import type { ReadAllOptions, RecordedEvent } from '@table-audit/eventstore';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { COUNT_DIMENSIONS, type FindingView } from '../src/findings-query.ts';
import { INDEX_FORMAT, INDEX_MARKER, IndexFileRefused } from '../src/index-db.ts';
import { StoreIndex } from '../src/store-index.ts';
import { findingsQueryConformance } from './findings-conformance.ts';
import { simulatedStore } from './fixture.ts';

const dir = mkdtempSync(join(tmpdir(), 'ta-api-index-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const newPath = (name: string) => join(dir, `${++files}-${name}`);

/** A simulated store's events in stored order (tables, round records, findings), read once per seed. */
const sources = new Map<number, Promise<RecordedEvent[]>>();
function eventsOf(seed: number): Promise<RecordedEvent[]> {
  let got = sources.get(seed);
  if (!got)
    sources.set(
      seed,
      (got = (async () => {
        const { store } = await simulatedStore({ tables: 4, roundsPerTable: 8, seed });
        const all: RecordedEvent[] = [];
        for await (const e of store.readAll()) all.push(e);
        await store.close();
        return all;
      })()),
    );
  return got;
}

/** Appends events as stored elsewhere (same streams, ids, types, data), one stream run at a time, in order. */
async function copy(store: SqliteEventStore, events: readonly RecordedEvent[]): Promise<void> {
  for (let i = 0; i < events.length;) {
    let j = i + 1;
    while (j < events.length && events[j]!.stream === events[i]!.stream) j++;
    await store.append(
      events[i]!.stream,
      events.slice(i, j).map((e) => ({
        eventId: e.eventId,
        type: e.type,
        data: e.data,
        ...(e.metadata ? { metadata: e.metadata } : {}),
      })),
    );
    i = j;
  }
}

/** Workflow actions on an alert (the alert stream of a finding), as the alert routes append them. */
async function workAlert(store: SqliteEventStore, findingId: string, step: number): Promise<void> {
  const base = {
    time: 1_767_225_600_000 + step,
    actorSubject: `officer-${step}`,
    actorRole: 'compliance_officer',
  };
  await store.append(`alert-${findingId}`, [
    { eventId: `ack-${findingId}-${step}`, type: 'AlertAcknowledged', data: { ...base, note: null } },
    {
      eventId: `assign-${findingId}-${step}`,
      type: 'AlertAssigned',
      data: { ...base, assignee: `a-${step}` },
    },
  ]);
}

/** A store whose readAll calls count the events they yield and note where each began. */
function counting(store: SqliteEventStore) {
  const counted = Object.create(store) as SqliteEventStore & { read: number; starts: (bigint | null)[] };
  counted.read = 0;
  counted.starts = [];
  counted.readAll = (options?: ReadAllOptions) => {
    counted.starts.push(options?.fromPosition ?? null);
    const inner = store.readAll(options);
    return {
      async *[Symbol.asyncIterator]() {
        for await (const e of inner) {
          counted.read++;
          yield e;
        }
      },
    };
  };
  counted.readStream = (stream, options) => store.readStream(stream, options);
  counted.headPosition = () => store.headPosition();
  return counted;
}

/** Everything the index answers about a store, to compare two indexes of it. */
async function answers(index: StoreIndex, store: SqliteEventStore) {
  const rounds = new Set<string>();
  const alerts = new Set<string>();
  for await (const e of store.readAll()) {
    const id = (e.data as { header?: { roundId?: unknown } } | null)?.header?.roundId;
    if (typeof id === 'string') rounds.add(id);
    if (e.stream.startsWith('alert-')) alerts.add(e.stream.slice('alert-'.length));
  }
  const listed: FindingView[] = [];
  let total = -1;
  for (let after = null as { eventTime: number; findingId: string } | null; ;) {
    const page = await index.list({ scope: null }, { limit: 17, after });
    total = page.total;
    listed.push(...page.items);
    if (page.next === null) break;
    after = page.next;
  }
  const counts: Record<string, unknown> = {};
  for (const by of COUNT_DIMENSIONS) counts[by] = await index.count({ scope: null }, by);
  return {
    rounds: await Promise.all(
      [...rounds].sort().map(async (id) => ({
        id,
        place: await index.round(id, null),
        resume: index.resumeOf(id),
      })),
    ),
    total,
    listed,
    got: await Promise.all(listed.map((f) => index.get(f.findingId, f.concessionaire))),
    counts,
    alerts: [...alerts].sort().map((id) => ({ id, state: index.alertState(id) })),
  };
}

describe('StoreIndex in a file: a restart', () => {
  it('given an index of a store, when more is stored (tables, records, findings, alert actions) and it is opened again, then it reads only that and answers as an index built from scratch', async () => {
    const events = await eventsOf(2026);
    // a cut inside a round: both sides hold events of the same round, the second its record
    const cut = Math.floor(events.length * 0.55);
    const store = new SqliteEventStore(newPath('events.sqlite'));
    const indexPath = newPath('events.index.sqlite');
    const logs: string[] = [];
    try {
      await copy(store, events.slice(0, cut));
      const findings = events.filter((e) => e.type === 'FindingRaised').map((e) => e.eventId);
      const firstFinding = (events.find((e) => e.type === 'FindingRaised')!.data as { findingId: string })
        .findingId;
      await workAlert(store, firstFinding, 1);
      const first = new StoreIndex(store, { path: indexPath, log: (m) => logs.push(m), batchEvents: 97 });
      await first.refresh();
      const roundId = events
        .map((e) => (e.data as { header?: { roundId?: unknown } }).header?.roundId)
        .find((id): id is string => typeof id === 'string' && id !== '');
      assert.ok(roundId && (await first.round(roundId, null)));
      await first.close();
      assert.ok(findings.length > 0);

      // more: the rest of the tables' events (new rounds, new tables' too), records, findings, more alert work
      const before = await store.headPosition();
      await copy(store, events.slice(cut));
      await workAlert(store, firstFinding, 2);
      const lastFinding = (
        [...events].reverse().find((e) => e.type === 'FindingRaised')!.data as { findingId: string }
      ).findingId;
      await workAlert(store, lastFinding, 3);
      let added = 0;
      for await (const e of store.readAll({ fromPosition: before })) added += e.position > before ? 1 : 0;

      const counted = counting(store);
      logs.length = 0;
      const reopened = new StoreIndex(counted, { path: indexPath, log: (m) => logs.push(m) });
      await reopened.refresh();
      assert.equal(counted.read, added, 'only the events stored since it closed');
      assert.deepEqual(counted.starts, [before]);
      assert.match(logs.join('\n'), new RegExp(`reads the store after position ${before}`));

      const scratch = new StoreIndex(store);
      const want = await answers(scratch, store);
      assert.ok(want.total > 0 && want.alerts.length === 2 && want.rounds.length > 20);
      assert.ok(
        want.rounds.some((r) => r.resume?.record !== null && r.resume?.settled),
        'rounds with records, settled',
      );
      assert.deepEqual(await answers(reopened, store), want);
      assert.deepEqual(
        reopened.alertState(firstFinding),
        want.alerts.find((a) => a.id === firstFinding)!.state,
      );
      assert.equal(reopened.alertState(firstFinding).assignee, 'a-2');
      await scratch.close();
      await reopened.close();

      // nothing new: a restart reads nothing (the access records a request appends are passed too)
      await store.append('api-access', [{ eventId: 'access-1', type: 'AccessRecorded', data: { n: 1 } }]);
      const again = counting(store);
      const third = new StoreIndex(again, { path: indexPath });
      await third.refresh();
      assert.equal(again.read, 1, 'the access record only');
      await third.refresh();
      assert.equal(again.read, 1, 'then nothing');
      await third.close();
    } finally {
      await store.close();
    }
  });

  it('answers as an index built from scratch when built in small batches, and after a failed write is read again', async () => {
    const events = await eventsOf(2026);
    const store = new SqliteEventStore(newPath('events.sqlite'));
    try {
      await copy(store, events);
      const small = new StoreIndex(store, { path: newPath('index.sqlite'), batchEvents: 5 });
      const scratch = new StoreIndex(store, { batchEvents: 100_000 });
      assert.deepEqual(await answers(small, store), await answers(scratch, store));
      await small.close();
      await scratch.close();
    } finally {
      await store.close();
    }
  });
});

describe('StoreIndex in a file: not the index of this store', () => {
  it('given an index of one store, when it is opened over another, then it is rebuilt (said in the log) and answers for the other', async () => {
    const [a, b] = await Promise.all([eventsOf(2026), eventsOf(7)]);
    const storeA = new SqliteEventStore(newPath('a.sqlite'));
    const storeB = new SqliteEventStore(newPath('b.sqlite'));
    const indexPath = newPath('index.sqlite');
    try {
      await copy(storeA, a);
      await copy(storeB, b);
      const overA = new StoreIndex(storeA, { path: indexPath });
      await overA.refresh();
      await overA.close();
      const logs: string[] = [];
      const overB = new StoreIndex(storeB, { path: indexPath, log: (m) => logs.push(m) });
      await overB.refresh();
      assert.match(logs.join('\n'), /is not the index of this store: rebuilt from the start/);
      const scratch = new StoreIndex(storeB);
      assert.deepEqual(await answers(overB, storeB), await answers(scratch, storeB));
      await overB.close();
      await scratch.close();
    } finally {
      await storeA.close();
      await storeB.close();
    }
  });

  it('given an index of a store, when the store is replaced by a copy of its start with other events after, then it is rebuilt', async () => {
    const a = await eventsOf(2026);
    const cut = Math.floor(a.length / 3);
    const firstPath = newPath('first.sqlite');
    const start = new SqliteEventStore(firstPath);
    await copy(start, a.slice(0, cut));
    await start.close();
    const copyPath = newPath('copy.sqlite');
    copyFileSync(firstPath, copyPath);
    const first = new SqliteEventStore(firstPath);
    const replaced = new SqliteEventStore(copyPath);
    const indexPath = newPath('index.sqlite');
    try {
      await copy(first, a.slice(cut));
      // the same first events (the same bytes), then the same streams with events of other ids
      await copy(
        replaced,
        a.slice(cut).map((e) => ({ ...e, eventId: `other-${e.eventId}` })),
      );
      const index = new StoreIndex(first, { path: indexPath });
      await index.refresh();
      await index.close();
      const logs: string[] = [];
      const over = new StoreIndex(replaced, { path: indexPath, log: (m) => logs.push(m) });
      await over.refresh();
      assert.match(
        logs.join('\n'),
        /the last event it indexed \(.*\) is another in the store \(other-.*: rebuilt from the start/,
      );
      const scratch = new StoreIndex(replaced);
      assert.deepEqual(await answers(over, replaced), await answers(scratch, replaced));
      await over.close();
      await scratch.close();
    } finally {
      await first.close();
      await replaced.close();
    }
  });

  it('given an index of a store, when another store was made from the same events (other hashes), then it is rebuilt', async () => {
    const a = await eventsOf(2026);
    const first = new SqliteEventStore(newPath('first.sqlite'));
    const again = new SqliteEventStore(newPath('again.sqlite'));
    const indexPath = newPath('index.sqlite');
    try {
      await copy(first, a);
      const index = new StoreIndex(first, { path: indexPath });
      await index.refresh();
      await index.close();
      await new Promise((resolve) => setTimeout(resolve, 2)); // another recordedAt: another hash
      await copy(again, a);
      const logs: string[] = [];
      const over = new StoreIndex(again, { path: indexPath, log: (m) => logs.push(m) });
      await over.refresh();
      assert.match(logs.join('\n'), /the first event it indexed \(.*\) has another hash in the store/);
      await over.close();
    } finally {
      await first.close();
      await again.close();
    }
  });

  it('refuses a file that is not an index of ours, naming it, and leaves it byte for byte as it was', async () => {
    const store = new SqliteEventStore(newPath('events.sqlite'));
    try {
      await copy(store, (await eventsOf(2026)).slice(0, 50));
      const text = newPath('notes.txt');
      writeFileSync(text, 'the inspector’s notes, not a database\n'.repeat(200));
      const empty = newPath('empty.sqlite');
      writeFileSync(empty, '');
      // another SQLite database: the event store's own file
      await store.close();
      const storeFile = store.path;
      for (const path of [text, empty, storeFile]) {
        const bytes = readFileSync(path);
        assert.throws(
          () => new StoreIndex(store, { path }),
          (e: unknown) =>
            e instanceof IndexFileRefused &&
            e.message.startsWith(`${path} exists and is not a table-audit API index`) &&
            e.message.includes('leaves it as it is'),
        );
        assert.deepEqual(readFileSync(path), bytes, path);
      }
    } finally {
      await store.close();
    }
  });
});

describe('StoreIndex in a file: its format', () => {
  it('rebuilds an index of ours in an older format, and refuses one in a newer format (left as it was)', async () => {
    const store = new SqliteEventStore(newPath('events.sqlite'));
    try {
      await copy(store, await eventsOf(2026));
      const path = newPath('index.sqlite');
      const index = new StoreIndex(store, { path });
      await index.refresh();
      await index.close();
      const setFormat = (format: number) => {
        const db = new Database(path);
        db.prepare(`UPDATE ${INDEX_MARKER} SET format = ?`).run(format);
        db.close();
      };
      setFormat(INDEX_FORMAT + 1);
      const bytes = readFileSync(path);
      assert.throws(
        () => new StoreIndex(store, { path }),
        new RegExp(
          `is a table-audit API index in format ${INDEX_FORMAT + 1}; this code knows format ${INDEX_FORMAT}`,
        ),
      );
      assert.deepEqual(readFileSync(path), bytes);
      setFormat(INDEX_FORMAT - 1);
      const logs: string[] = [];
      const counted = counting(store);
      const rebuilt = new StoreIndex(counted, { path, log: (m) => logs.push(m) });
      assert.match(
        logs.join('\n'),
        new RegExp(`format ${INDEX_FORMAT - 1} is older than ${INDEX_FORMAT}; rebuilt`),
      );
      await rebuilt.refresh();
      assert.deepEqual(counted.starts, [null], 'read from the start');
      const scratch = new StoreIndex(store);
      assert.deepEqual(await answers(rebuilt, store), await answers(scratch, store));
      await rebuilt.close();
      await scratch.close();
    } finally {
      await store.close();
    }
  });
});

describe('FindingsQuery conformance: the store index in a file, opened again after more was stored', () => {
  let store: SqliteEventStore;
  let adapter: StoreIndex;
  before(async () => {
    ({ store } = await simulatedStore({ tables: 12, roundsPerTable: 15 }));
    const all: RecordedEvent[] = [];
    for await (const e of store.readAll()) all.push(e);
    await store.close();
    const half = new SqliteEventStore(newPath('events.sqlite'));
    await copy(half, all.slice(0, all.length >> 1));
    const indexPath = newPath('index.sqlite');
    const first = new StoreIndex(half, { path: indexPath });
    await first.refresh();
    await first.close();
    await copy(half, all.slice(all.length >> 1));
    store = half;
    adapter = new StoreIndex(store, { path: indexPath });
  });
  after(async () => {
    await adapter.close();
    await store.close();
  });
  findingsQueryConformance(() => ({ adapter, store }));
});
