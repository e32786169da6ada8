/**
 * `table-audit status` and `table-audit analytics project|reproject` on a small simulated session, in-process, on
 * chDB: status counts what the store holds (events, rejects by reason, findings by check and severity, each
 * checkpoint's lag) and the ClickHouse rows; a projection damaged behind the projector's back is not repaired by
 * projecting again (its checkpoint is at the head), and is by reproject, which builds into a new database and
 * switches the readers only when complete, keeping the replaced tables and leaving alone a table it did not make.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openAnalytics } from '@table-audit/analytics';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { IngestPipeline } from '@table-audit/ingest';
import { FINDING_EVENT_TYPE, ReplayService } from '@table-audit/replay';
import type { Finding } from '@table-audit/rules';
import { simulateSession } from '@table-audit/simulator';
import { analyticsCommand, reproject } from '../src/commands/analytics.ts';
import { redirectOutput } from '../src/commands/command.ts';
import { statusCommand, type StatusReport } from '../src/commands/status.ts';

const dir = mkdtempSync(join(tmpdir(), 'ta-status-'));
const storeFile = join(dir, 'events.sqlite');
const chdb = join(dir, 'analytics');
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a command in this process; returns its exit code and what it printed. */
async function run(command: { run(args: string[]): Promise<number> }, args: string[]) {
  let text = '';
  const before = redirectOutput((t) => void (text += t));
  try {
    return { code: await command.run(args), text };
  } finally {
    redirectOutput(before);
  }
}

const status = async (...extra: string[]): Promise<StatusReport> => {
  const r = await run(statusCommand, ['--store', storeFile, '--json', ...extra]);
  assert.equal(r.code, 0);
  return JSON.parse(r.text) as StatusReport;
};

const query = async <T>(sql: string): Promise<T[]> => {
  const a = await openAnalytics({ path: chdb });
  try {
    return await (await a.client.query({ query: sql, format: 'JSONEachRow' })).json<T>();
  } finally {
    await a.close();
  }
};
const command = async (sql: string): Promise<void> => {
  const a = await openAnalytics({ path: chdb });
  try {
    await a.client.command({ query: sql });
  } finally {
    await a.close();
  }
};

let expected: { findings: number; byCheck: Map<string, number> };

before(async () => {
  const session = simulateSession({
    seed: 11,
    tables: 4,
    roundsPerTable: 10,
    faultRate: 0.25,
    handledRate: 0.05,
  });
  const store = new SqliteEventStore(storeFile);
  try {
    const pipeline = new IngestPipeline(store, () => Date.UTC(2025, 11, 1, 5));
    await pipeline.submit([
      ...session.events.map((event, index) => ({
        source: { kind: 'in-process' as const, producer: 't', index },
        event,
      })),
      {
        source: { kind: 'in-process' as const, producer: 't', index: session.events.length },
        error: 'not an event',
        code: 'UNDECODABLE',
        raw: Buffer.from('x'),
      },
    ]);
    const replay = new ReplayService({ store });
    await replay.catchUp();
    await replay.finish();
    const byCheck = new Map<string, number>();
    let findings = 0;
    for await (const e of store.readAll())
      if (e.type === FINDING_EVENT_TYPE) {
        const f = e.data as Finding;
        byCheck.set(`${f.checkId} ${f.severity}`, (byCheck.get(`${f.checkId} ${f.severity}`) ?? 0) + 1);
        findings++;
      }
    assert.ok(findings > 0, 'the session has findings');
    expected = { findings, byCheck };
  } finally {
    await store.close();
  }
});

describe('status and re-projection', { timeout: 60_000 }, () => {
  it('status: the store, rejects by reason, findings by check and severity, the replay caught up', async () => {
    const s = await status('--no-analytics');
    assert.ok(s.store.events > 0 && s.store.head !== null);
    assert.equal(String(s.store.events), s.store.head!.position, 'one position per event on SQLite');
    assert.deepEqual(s.rejects, { total: 1, byReason: { UNDECODABLE: 1 }, capped: false });
    assert.equal(s.findings.total, expected.findings);
    assert.deepEqual(
      new Map(s.findings.byCheck.map((f) => [`${f.checkId} ${f.severity}`, f.count])),
      expected.byCheck,
    );
    const replay = s.checkpoints.find((c) => c.name === 'replay');
    assert.equal(replay?.lagEvents, 0, "the replay's own findings after its checkpoint are not lag");
    assert.equal(s.analytics, null);
    assert.equal(s.anchors, null);
    const text = await run(statusCommand, ['--store', storeFile, '--no-analytics']);
    assert.match(text.text, /findings {6}\d+/);
    assert.match(text.text, /Macau time \(UTC\+8\)/);
  });

  it('analytics project, then status reports the rows per table and the projection caught up', async () => {
    const r = await run(analyticsCommand, ['project', '--store', storeFile, '--analytics', chdb]);
    assert.equal(r.code, 0, r.text);
    const s = await status('--analytics', chdb);
    assert.ok(s.analytics && 'rows' in s.analytics, JSON.stringify(s.analytics));
    assert.equal(s.analytics.rows.findings, expected.findings);
    assert.equal(s.analytics.rows.ingest_rejects, 1);
    assert.equal(s.analytics.lagEvents, 0);
    // projecting again adds nothing
    await run(analyticsCommand, ['project', '--store', storeFile, '--analytics', chdb]);
    const again = await status('--analytics', chdb);
    assert.deepEqual(again.analytics, s.analytics);
  });

  it('reproject rebuilds a damaged projection beside it, switches the readers, drops nothing', async () => {
    await command('CREATE TABLE operator_notes (note String) ENGINE = MergeTree ORDER BY note');
    await command("INSERT INTO operator_notes VALUES ('kept')");
    await command('TRUNCATE TABLE findings');
    // projecting again does not repair it: the checkpoint is at the head
    await run(analyticsCommand, ['project', '--store', storeFile, '--analytics', chdb]);
    const damaged = await status('--analytics', chdb);
    assert.ok(damaged.analytics && 'rows' in damaged.analytics);
    assert.equal(damaged.analytics.rows.findings, 0);

    const store = new SqliteEventStore(storeFile, { mustExist: true });
    let report;
    const restore = redirectOutput(() => undefined);
    try {
      report = await reproject(store, { path: chdb }, undefined, Date.UTC(2025, 11, 1, 4, 30));
      // a database it did not make is refused, and nothing changes
      await assert.rejects(reproject(store, { path: chdb }, report.built), /exists already/);
    } finally {
      redirectOutput(restore);
      await store.close();
    }
    assert.equal(report.built, 'default_reproject_20251201T043000Z');
    assert.equal(report.switched, true);
    assert.deepEqual(report.rows.findings, { before: 0, after: expected.findings });

    const s = await status('--analytics', chdb);
    assert.ok(s.analytics && 'rows' in s.analytics);
    assert.equal(s.analytics.rows.findings, expected.findings, 'the readers see the rebuilt findings');
    assert.equal(s.analytics.rows.bets, damaged.analytics.rows.bets, 'the other tables as before');
    const kept = await query<{ n: string }>(`SELECT count() AS n FROM ${report.built}.findings`);
    assert.equal(Number(kept[0]!.n), 0, 'the replaced (damaged) table is kept, not dropped');
    const notes = await query<{ note: string }>('SELECT note FROM operator_notes');
    assert.deepEqual(notes, [{ note: 'kept' }], 'a table the projection does not make is left alone');
    assert.ok(
      s.checkpoints.some((c) => c.name === `analytics/reproject-${report.built}` && c.lagEvents === 0),
    );
  });

  it('status reports the last signed anchor (not verifying it), and says when the last line is not one', async () => {
    const anchors = join(dir, 'anchors');
    mkdirSync(anchors);
    const line = (sequence: number, time: number) =>
      JSON.stringify({
        format: 'x',
        sequence,
        time,
        position: String(100 + sequence),
        keyId: 'ed25519:abcd',
        checkpoints: { replay: '7' },
      });
    writeFileSync(
      join(anchors, 'anchors.jsonl'),
      `${line(0, Date.UTC(2025, 11, 1, 4))}\n${line(1, Date.UTC(2025, 11, 1, 5))}\n`,
    );
    const s = await status('--no-analytics', '--anchors', anchors);
    assert.deepEqual(s.anchors, {
      dir: anchors,
      sequence: 1,
      time: Date.UTC(2025, 11, 1, 5),
      position: '101',
      keyId: 'ed25519:abcd',
      checkpoints: { replay: '7' },
    });
    const text = await run(statusCommand, ['--store', storeFile, '--no-analytics', '--anchors', anchors]);
    assert.match(
      text.text,
      /last signed 2025-12-01 13:00:00\.000 Macau time \(UTC\+8\) \(anchor 1, position 101.*not verified here/,
    );
    writeFileSync(join(anchors, 'anchors.jsonl'), '{"not":"an anchor"}\n');
    const bad = await status('--no-analytics', '--anchors', anchors);
    assert.match((bad.anchors as { error: string }).error, /is not an anchor/);
  });

  it('refuses what it should: an unknown subcommand, a bad database name, flags of the other subcommand', async () => {
    await assert.rejects(
      run(analyticsCommand, ['rebuild']),
      /expected "analytics project" or "analytics reproject"/,
    );
    await assert.rejects(
      run(analyticsCommand, ['reproject', '--database', 'x;DROP']),
      /--database takes a name/,
    );
    await assert.rejects(
      run(analyticsCommand, ['reproject', '--follow']),
      /--follow is for "analytics project"/,
    );
    await assert.rejects(
      run(analyticsCommand, ['project', '--metrics-port', '0']),
      /--metrics-port is for the long-running --follow/,
    );
  });
});
