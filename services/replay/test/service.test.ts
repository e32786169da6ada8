import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { canonicalJson, verify, type EventStore } from '@table-audit/eventstore';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { IngestPipeline } from '@table-audit/ingest';
import type { TableEvent } from '@table-audit/schemas/events';
import { simulateSession } from '@table-audit/simulator';
import type { Explanation, RoundRecord } from '@table-audit/rules';
import { explainRound, RoundNotFound } from '../src/explain.ts';
import { replayEvents } from '../src/replay-events.ts';
import { ReplayService } from '../src/service.ts';
import { TableFolds, toTableEvent } from '../src/tables.ts';
import { FINDING_EVENT_TYPE, ROUND_EVENT_TYPE, roundStream } from '../src/streams.ts';

const session = simulateSession({
  seed: 77,
  tables: 30,
  roundsPerTable: 40,
  faultRate: 0.15,
  handledRate: 0.05,
  bettingSystemTables: 1,
});
const pure = replayEvents(session.events);
const expectedIds = new Set(pure.findings.map((f) => f.findingId));
/** every round's record, as the pure replay derives it (canonical JSON, as the store keeps it) */
const expectedRecords = pure.rounds.flatMap((r) => (r.record ? [canonicalJson(r.record)] : []));
const cli = fileURLToPath(new URL('../../../apps/cli/bin/table-audit.js', import.meta.url));

async function storeWithSession(
  events: readonly TableEvent[] = session.events,
): Promise<{ store: SqliteEventStore; path: string }> {
  const path = join(mkdtempSync(join(tmpdir(), 'ta-replay-')), 'events.sqlite');
  const store = new SqliteEventStore(path);
  const pipeline = new IngestPipeline(store, () => 0);
  for (let i = 0; i < events.length; i += 2_000) {
    await pipeline.submit(
      events.slice(i, i + 2_000).map((event, k) => ({
        source: { kind: 'in-process' as const, producer: 'test', index: i + k },
        event,
      })),
    );
  }
  return { store, path };
}

async function storedFindings(store: EventStore): Promise<string[]> {
  const ids: string[] = [];
  for await (const e of store.readAll()) if (e.type === FINDING_EVENT_TYPE) ids.push(e.eventId);
  return ids;
}

/**
 * The RoundDerived records stored, as JSON, each checked to be in its table's rounds stream, without the start state
 * and the reported findings the replay writes with it (the pure replay takes no start states): the derivation.
 */
async function storedRecords(store: EventStore): Promise<string[]> {
  const records: string[] = [];
  for await (const e of store.readAll())
    if (e.type === ROUND_EVENT_TYPE) {
      assert.equal(e.stream, roundStream((e.data as { tableId: string }).tableId));
      const { startState: _, reportedFindingIds: __, ...derived } = e.data as RoundRecord;
      records.push(canonicalJson(derived));
    }
  return records;
}

/** How many stored records carry a start state. */
async function recordsWithStartState(store: EventStore): Promise<number> {
  let n = 0;
  for await (const e of store.readAll())
    if (e.type === ROUND_EVENT_TYPE && typeof (e.data as RoundRecord).startState === 'string') n++;
  return n;
}

/**
 * What a replay has derived once it has handled every stored event up to `position` (and not finished): the round
 * records and the findings of the rounds those events completed, recomputed here from the stored events.
 */
async function derivedUpTo(
  store: EventStore,
  position: bigint,
): Promise<{ records: string[]; findings: string[] }> {
  const folds = new TableFolds();
  const records: string[] = [];
  const findings: string[] = [];
  for await (const stored of store.readAll()) {
    if (stored.position > position) break;
    const e = toTableEvent(stored);
    if (!e) continue;
    for (const unit of folds.apply(e) ?? []) {
      if (unit.record) records.push(canonicalJson(unit.record));
      findings.push(...unit.findings.map((f) => f.findingId));
    }
  }
  return { records: records.sort(), findings: findings.sort() };
}

describe('replay service over the event store', () => {
  it('appends exactly the findings of the pure replay, and a re-run appends nothing new', async (t) => {
    const { store } = await storeWithSession();
    t.after(() => store.close());
    const first = new ReplayService({ store });
    await first.catchUp();
    await first.finish();
    const ids = await storedFindings(store);
    assert.equal(ids.length, expectedIds.size);
    assert.deepEqual(new Set(ids), expectedIds);
    // one record per round, the pure replay's, in the table's order
    assert.equal(expectedRecords.length, pure.rounds.length, 'every simulated round has a record');
    assert.deepEqual((await storedRecords(store)).sort(), [...expectedRecords].sort());
    assert.equal(first.stats.roundRecordsAppended, expectedRecords.length);
    // each with the table's state as the round began (ReplayService's default), for the API to resume from
    const withState = await recordsWithStartState(store);
    assert.ok(
      withState >= expectedRecords.length * 0.95,
      `${withState} of ${expectedRecords.length} records`,
    );
    // verify (and the anchors, made from the same heads) cover the rounds streams as every other stream
    const checked = await verify(store, { heads: true });
    assert.ok(checked.ok);
    const tables = new Set(session.events.map((e) => e.data.header.tableId));
    assert.deepEqual(
      new Set(checked.heads!.filter((h) => h.stream.startsWith('rounds-')).map((h) => h.stream)),
      new Set([...tables].map(roundStream)),
    );
    // the same service name resumes from its checkpoint: nothing to do
    const again = new ReplayService({ store });
    await again.catchUp();
    assert.equal(again.stats.findingsAppended, 0);
    assert.equal(again.stats.roundRecordsAppended, 0);
    // a new replay from the start finds the same findings and records, all already stored
    const fresh = new ReplayService({ store, checkpoint: 'replay-from-scratch' });
    await fresh.catchUp();
    await fresh.finish();
    assert.equal(fresh.stats.findingsAppended, 0);
    assert.equal(fresh.stats.findingsAlreadyStored, expectedIds.size);
    assert.equal(fresh.stats.roundRecordsAppended, 0);
    assert.equal(fresh.stats.roundRecordsAlreadyStored, expectedRecords.length);
    assert.equal((await storedFindings(store)).length, expectedIds.size);
    assert.equal((await storedRecords(store)).length, expectedRecords.length);
  });

  it('loses and duplicates nothing when it crashes mid-stream and restarts from its checkpoint', async (t) => {
    const { store } = await storeWithSession();
    t.after(() => store.close());
    // a store that fails the first append of findings after three checkpoints, as a crash mid-flush would
    let checkpoints = 0;
    const failing: EventStore = {
      append: async (stream, events, options) => {
        if (stream.startsWith('findings-') && checkpoints >= 3) throw new Error('crash');
        return store.append(stream, events, options);
      },
      readStream: (stream, options) => store.readStream(stream, options),
      readAll: (options) => store.readAll(options),
      subscribeToAll: (options) => store.subscribeToAll(options),
      saveCheckpoint: (name, position) => {
        checkpoints++;
        return store.saveCheckpoint(name, position);
      },
      loadCheckpoint: (name) => store.loadCheckpoint(name),
      close: () => store.close(),
    };
    // no appendMany: the writes go stream by stream, then the checkpoint (as on EventStoreDB, atomicAcrossStreams
    // false), so the crash falls between two writes of one batch
    const crashing = new ReplayService({ store: failing, checkpointEvery: 3_000 });
    await assert.rejects(crashing.catchUp(), /crash/);
    const checkpoint = await store.loadCheckpoint('replay');
    assert.ok(checkpoint !== null && checkpoint > 0n, 'some progress was checkpointed before the crash');
    const upTo = await derivedUpTo(store, checkpoint);
    assert.ok(
      (await storedRecords(store)).length > upTo.records.length,
      'the crash fell between writes: some records of the unfinished batch were stored past the checkpoint',
    );
    const restarted = new ReplayService({ store, checkpointEvery: 3_000 });
    await restarted.catchUp();
    await restarted.finish();
    const ids = await storedFindings(store);
    assert.equal(ids.length, expectedIds.size, 'no duplicates');
    assert.deepEqual(new Set(ids), expectedIds, 'nothing lost');
    assert.deepEqual(
      (await storedRecords(store)).sort(),
      [...expectedRecords].sort(),
      'records: none lost, none twice',
    );
  });

  it('survives a real kill -9 of the replay process', async (t) => {
    const big = simulateSession({ seed: 78, tables: 60, roundsPerTable: 50, faultRate: 0.1 });
    const bigIds = new Set(replayEvents(big.events).findings.map((f) => f.findingId));
    const { store, path } = await storeWithSession(big.events);
    await store.close();
    // one thread, under the checkpoint "replay" that the restart below resumes from (the default is one per core)
    const child = spawn(process.execPath, [cli, 'replay', '--workers', '1', '--store', path], {
      stdio: 'ignore',
    });
    const watcher = new SqliteEventStore(path, { readOnly: true });
    const started = Date.now();
    let progressSeen = false;
    while (Date.now() - started < 60_000) {
      const c = await watcher.loadCheckpoint('replay');
      if (c !== null && c > 0n) {
        progressSeen = true;
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    t.after(() => child.kill('SIGKILL'));
    child.kill('SIGKILL');
    if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once('exit', r));
    await watcher.close();
    assert.ok(progressSeen, 'the replay had checkpointed some progress before it was killed');
    const reopened = new SqliteEventStore(path);
    t.after(() => reopened.close());
    const before = await storedFindings(reopened);
    assert.ok(
      before.length < bigIds.size,
      `killed mid-stream (${before.length} of ${bigIds.size} findings stored)`,
    );
    // SQLite writes a batch's findings, round records and checkpoint in one transaction: what is stored is exactly
    // what the events up to the saved checkpoint derive, nothing of a batch whose checkpoint was not saved
    const checkpoint = await reopened.loadCheckpoint('replay');
    assert.ok(checkpoint !== null);
    const upTo = await derivedUpTo(reopened, checkpoint);
    assert.deepEqual(
      (await storedRecords(reopened)).sort(),
      upTo.records,
      'records: exactly those up to the checkpoint',
    );
    assert.deepEqual([...before].sort(), upTo.findings, 'findings: exactly those up to the checkpoint');
    const restarted = new ReplayService({ store: reopened });
    await restarted.catchUp();
    await restarted.finish();
    const ids = await storedFindings(reopened);
    assert.equal(ids.length, bigIds.size, 'no finding twice');
    assert.deepEqual(new Set(ids), bigIds, 'no finding lost');
  });

  it('follows new events live and reports findings once they are durable', async (t) => {
    const half = Math.floor(session.events.length / 2);
    const { store } = await storeWithSession(session.events.slice(0, half));
    t.after(() => store.close());
    const seen: string[] = [];
    const service = new ReplayService({ store, onFinding: (f) => seen.push(f.findingId) });
    const abort = new AbortController();
    const running = service.live(abort.signal, 20);
    const pipeline = new IngestPipeline(store, () => 0);
    await pipeline.submit(
      session.events.slice(half).map((event, k) => ({
        source: { kind: 'in-process' as const, producer: 'test', index: half + k },
        event,
      })),
    );
    const deadline = Date.now() + 20_000;
    while (service.stats.tableEvents < session.events.length && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    abort.abort();
    await running;
    await service.finish();
    const stored = new Set(await storedFindings(store));
    const missing = [...expectedIds].filter((id) => !stored.has(id));
    const extra = [...stored].filter((id) => !expectedIds.has(id));
    assert.deepEqual(
      { missing, extra, events: service.stats.events },
      { missing: [], extra: [], events: service.stats.events },
    );
    assert.ok(seen.length >= expectedIds.size - 5, `${seen.length} findings reported live`);
  });

  it('refuses to run again after a failed run, whose tables may be ahead of its checkpoint', async (t) => {
    const { store } = await storeWithSession(session.events.slice(0, 4_000));
    t.after(() => store.close());
    let diskFull = true;
    const flaky: EventStore = {
      append: (stream, events, options) => store.append(stream, events, options),
      readStream: (stream, options) => store.readStream(stream, options),
      readAll: (options) => store.readAll(options),
      subscribeToAll: (options) => store.subscribeToAll(options),
      saveCheckpoint: async (name, position) => {
        if (diskFull) throw new Error('disk full');
        return store.saveCheckpoint(name, position);
      },
      loadCheckpoint: (name) => store.loadCheckpoint(name),
      close: () => store.close(),
    };
    const service = new ReplayService({ store: flaky, checkpointEvery: 4_000 });
    await assert.rejects(service.catchUp(), /disk full/);
    // stream by stream, then the checkpoint (no appendMany here): the findings went in before the checkpoint failed
    const storedByFailedRun = (await storedFindings(store)).length;
    diskFull = false;
    // its tables hold the batch whose checkpoint failed: replaying it again in them would be wrong
    await assert.rejects(service.catchUp(), /failed during an earlier run.*start a new ReplayService/);
    const fresh = new ReplayService({ store: flaky, checkpointEvery: 4_000 });
    await fresh.catchUp();
    assert.equal(
      fresh.stats.tableEvents,
      4_000,
      'a new service resumes from the checkpoint: here, the start',
    );
    assert.ok(storedByFailedRun > 0, 'the failed run stored its first batch’s findings');
    assert.equal(fresh.stats.findingsAlreadyStored, storedByFailedRun, 'and they are not stored twice');
    assert.equal((await storedFindings(store)).length, storedByFailedRun + fresh.stats.findingsAppended);
  });

  it('resumes from the signed checkpoint when the stored one was moved forward past unreplayed events', async (t) => {
    const { store } = await storeWithSession(session.events.slice(0, 2_000));
    t.after(() => store.close());
    const first = new ReplayService({ store });
    await first.catchUp();
    const signed = await store.loadCheckpoint('replay');
    assert.ok(signed !== null);
    const pipeline = new IngestPipeline(store, () => 0);
    await pipeline.submit(
      session.events.slice(2_000, 3_000).map((event, k) => ({
        source: { kind: 'in-process' as const, producer: 'test', index: 2_000 + k },
        event,
      })),
    );
    // moved to the end behind the replay's back: trusting it, the 1,000 new events would never be replayed
    let end = 0n;
    for await (const e of store.readAll({ fromPosition: signed })) end = e.position;
    await store.saveCheckpoint('replay', end);
    const resumed = new ReplayService({ store, signedCheckpoint: async () => signed });
    await resumed.catchUp();
    assert.deepEqual(resumed.stats.checkpointDistrusted, { saved: end, resumedFrom: signed });
    assert.equal(resumed.stats.tableEvents, 1_000);
    // a checkpoint behind the signed one is the earlier of the two: kept, nothing skipped
    await store.saveCheckpoint('replay', signed);
    const behind = new ReplayService({ store, signedCheckpoint: async () => end });
    await behind.catchUp();
    assert.equal(behind.stats.checkpointDistrusted, null);
    assert.equal(behind.stats.tableEvents, 1_000);
  });

  it('explains a disputed hand from the store alone, as JSON and as text', async (t) => {
    const { store } = await storeWithSession();
    t.after(() => store.close());
    const wrong = session.truth.find((x) => x.fault === 'payout-wrong')!;
    const explained = await explainRound(store, wrong.roundId!);
    const x = explained.json as Explanation;
    assert.equal(x.roundId, wrong.roundId);
    assert.equal(x.ruleSet?.id, 'f3cp-2025a');
    assert.ok(x.steps.length > 10 && x.steps[0]!.type === 'RoundStarted');
    assert.ok(x.lines.length > 0 && x.lines.every((l) => l.citations.length > 0));
    assert.ok(
      x.lines.some(
        (l) => l.declared && l.expected.outcome === 'win' && l.declared.payout !== l.expected.payout,
      ) || x.lines.some((l) => l.expected.outcome === 'lose' && (l.declared?.payout ?? 0) > 0),
    );
    assert.deepEqual(
      x.findings.map((f) => f.checkId),
      ['F3CP.PAYOUT.MISMATCH'],
    );
    const text = explained.text;
    assert.match(text, /Settlement, expected \| declared:/);
    assert.match(text, /Despacho n\.º 89\/2025, art\. 1[36]\.º/);
    assert.match(text, /\[high\] F3CP\.PAYOUT\.MISMATCH/);
    JSON.parse(JSON.stringify(x));
    await assert.rejects(explainRound(store, 'NO-SUCH-ROUND'), RoundNotFound);
  });
});
