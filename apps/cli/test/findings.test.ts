import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  AnalyticsProjector,
  DASHBOARD_QUERIES,
  discrepancyAvos,
  migrate,
  openAnalytics,
  type AnalyticsClient,
  type FindingListRow,
} from '@table-audit/analytics';
import { runProcessor, type RecordedEvent } from '@table-audit/eventstore';
import type { Finding } from '@table-audit/rules';
import type { RoundDerived } from '@table-audit/schemas';
import { expectedCounts, type ExpectedCounts } from '../../../services/analytics/test/expected.ts';
import { simulatedStore, type SimulatedStore } from '../../../services/analytics/test/fixture.ts';
import { redirectOutput } from '../src/commands/command.ts';
import { findingsCommand, scopeNoteLines, withScopeNotes } from '../src/commands/findings.ts';

// libchdb binds one data directory per process: this file's tests share one
const dir = mkdtempSync(join(tmpdir(), 'ta-findings-'));
const chdb = join(dir, 'analytics');
let sim: SimulatedStore;
let analytics: AnalyticsClient;
let expected: ExpectedCounts;
const findings: Finding[] = [];
const dealers = new Map<string, string | null>();

async function count(table: string, final: boolean): Promise<number> {
  const r = await analytics.client.query({
    query: `SELECT count() AS n FROM ${table}${final ? ' FINAL' : ''}`,
    format: 'JSONEachRow',
  });
  return Number((await r.json<{ n: string }>())[0]!.n);
}

async function run(args: string[]): Promise<{ code: number; text: string }> {
  const writes: string[] = [];
  const was = redirectOutput((t) => writes.push(t));
  try {
    const code = await findingsCommand.run([...args, '--analytics', chdb]);
    return { code, text: writes.join('') };
  } finally {
    redirectOutput(was);
  }
}

before(async () => {
  sim = await simulatedStore(dir, { tables: 6, rounds: 30 });
  expected = await expectedCounts(sim.store);
  for await (const e of sim.store.readAll()) {
    if (e.type === 'FindingRaised') findings.push(e.data as Finding);
    if (e.type === 'RoundStarted') {
      const d = e.data as { header: { roundId: string }; dealerId: string | null };
      dealers.set(d.header.roundId, d.dealerId);
    }
  }
  analytics = await openAnalytics({ path: chdb });
  await migrate(analytics.client);
  await runProcessor(sim.store, new AnalyticsProjector(analytics.client), { batchSize: 700 });
});
after(async () => {
  await analytics.close();
  await sim.store.close();
});

describe('the analytics projection', () => {
  it('holds every finding, health event, reject, round start and table of the store once', async () => {
    for (const [table, n] of Object.entries(expected)) assert.equal(await count(table, true), n, table);
  });

  it('gives each finding its round dealer, its game and its citations', async () => {
    const rows = await (
      await analytics.client.query({
        query: 'SELECT finding_id, round_id, dealer_id, game, citation_keys FROM findings FINAL',
        format: 'JSONEachRow',
      })
    ).json<{
      finding_id: string;
      round_id: string | null;
      dealer_id: string | null;
      game: string;
      citation_keys: string[];
    }>();
    const byId = new Map(findings.map((f) => [f.findingId, f]));
    for (const r of rows) {
      const f = byId.get(r.finding_id)!;
      assert.equal(r.game, 'F3CP');
      assert.equal(r.dealer_id, r.round_id === null ? null : (dealers.get(r.round_id) ?? null), r.finding_id);
      assert.deepEqual(
        r.citation_keys,
        f.citations.map((c) => c.key),
      );
    }
  });

  it('holds each derived round with its totals, and each bet with its difference in avos', async () => {
    let staked = 0;
    let difference = 0;
    const latest = new Map<string, RoundDerived>();
    for await (const e of sim.store.readAll())
      if (e.type === 'RoundDerived') latest.set((e.data as RoundDerived).roundId, e.data as RoundDerived);
    for (const r of latest.values()) {
      staked += r.totalStakedAvos;
      for (const l of r.lines) difference += l.differenceAvos ?? 0;
    }
    assert.ok(latest.size > 0, 'the replay derived rounds');
    const [sums] = await (
      await analytics.client.query({
        query: `SELECT (SELECT sum(total_staked_avos) FROM rounds FINAL) AS staked,
          (SELECT sum(ifNull(difference_avos, 0)) FROM bets FINAL) AS difference,
          (SELECT countIf(dealer_id IS NULL) FROM rounds FINAL) AS without_dealer`,
        format: 'JSONEachRow',
        clickhouse_settings: { output_format_json_quote_64bit_integers: 0 },
      })
    ).json<{ staked: number; difference: number; without_dealer: number }>();
    assert.deepEqual(sums, { staked, difference, without_dealer: 0 });
    assert.notEqual(difference, 0, 'the session has payout discrepancies');
  });

  it('answers every dashboard-style aggregate', async () => {
    for (const [name, query] of Object.entries(DASHBOARD_QUERIES)) {
      const rows = await (
        await analytics.client.query({
          query,
          query_params: { from: '2025-01-01', to: '2026-12-31' },
          format: 'JSONEachRow',
        })
      ).json();
      assert.ok(rows.length > 0, name);
    }
  });

  it('keeps the rejects by code and source', async () => {
    const rows = await (
      await analytics.client.query({
        query: 'SELECT code, source_kind, source FROM ingest_rejects FINAL ORDER BY code',
        format: 'JSONEachRow',
      })
    ).json();
    assert.deepEqual(rows, [
      { code: 'CORRUPT_BLOCK', source_kind: 'FILE', source: 'data/broken.avro' },
      { code: 'TRUNCATED_PAYLOAD', source_kind: 'KAFKA', source: 'ta.table-events' },
    ]);
  });

  it('shows no duplicate when the same events are projected again (FINAL)', async () => {
    const all: RecordedEvent[] = [];
    for await (const e of sim.store.readAll()) all.push(e);
    const again = new AnalyticsProjector(analytics.client, { name: 'analytics-again' });
    await again.handle(all.filter((e) => again.filter(e)));
    assert.ok((await count('findings', false)) >= expected.findings);
    for (const [table, n] of Object.entries(expected)) assert.equal(await count(table, true), n, table);
  });

  it('measures a settlement finding in avos, declared minus expected', () => {
    assert.equal(discrepancyAvos({ payout: 10_000, collected: 0 }, { payout: 12_500, collected: 0 }), 2_500);
    assert.equal(discrepancyAvos({ payout: 0, collected: 5_000 }, { payout: 0, collected: 0 }), 5_000);
    assert.equal(discrepancyAvos('one settlement per bet', { amount: 700, repeats: 'e1' }), 700);
    assert.equal(discrepancyAvos({ minimum: 1 }, { amount: 3 }), null);
  });
});

describe('table-audit findings', () => {
  it('lists the findings as JSON, filtered by check and severity', async () => {
    const check = findings[0]!.checkId;
    const { code, text } = await run(['--check', check, '--format', 'json', '--limit', '100000']);
    assert.equal(code, 0);
    const rows = JSON.parse(text) as FindingListRow[];
    assert.equal(
      rows.length,
      new Set(findings.filter((f) => f.checkId === check).map((f) => f.findingId)).size,
    );
    assert.ok(rows.every((r) => r.check_id === check));
    const sev = findings[0]!.severity;
    const bySeverity = JSON.parse(
      (await run(['--severity', sev, '--format', 'json', '--limit', '100000'])).text,
    ) as FindingListRow[];
    assert.equal(
      bySeverity.length,
      new Set(findings.filter((f) => f.severity === sev).map((f) => f.findingId)).size,
    );
  });

  it('filters by table, dealer and Macau date range', async () => {
    const f = findings.find((x) => x.roundId !== null && dealers.get(x.roundId))!;
    const dealer = dealers.get(f.roundId!)!;
    const rows = JSON.parse(
      (await run(['--table', f.tableId, '--dealer', dealer, '--format', 'json', '--limit', '100000'])).text,
    ) as FindingListRow[];
    assert.ok(rows.some((r) => r.finding_id === f.findingId));
    assert.ok(rows.every((r) => r.table_id === f.tableId && r.dealer_id === dealer));
    const none = JSON.parse(
      (await run(['--from', '2001-01-01', '--to', '2001-01-31', '--format', 'json'])).text,
    );
    assert.deepEqual(none, []);
    // the game, and a Macau date range around the finding's own day
    const [own] = rows.filter((r) => r.finding_id === f.findingId);
    const byGame = JSON.parse(
      (
        await run([
          '--game',
          own!.game,
          '--from',
          own!.macau_date,
          '--to',
          own!.macau_date,
          '--format',
          'json',
          '--limit',
          '100000',
        ])
      ).text,
    ) as FindingListRow[];
    assert.ok(byGame.some((r) => r.finding_id === f.findingId));
    assert.ok(byGame.every((r) => r.game === own!.game && r.macau_date === own!.macau_date));
    assert.deepEqual(JSON.parse((await run(['--game', 'NO_SUCH_GAME', '--format', 'json'])).text), []);
  });

  it('prints a table in MOP and Macau time, and CSV with a header', async () => {
    const table = (await run(['--limit', '5'])).text;
    assert.match(table, /^Macau time \(UTC\+8\)/);
    assert.match(table, /from chDB \(in-process ClickHouse\)/);
    const csv = (await run(['--format', 'csv', '--limit', '3'])).text.trim().split('\n');
    assert.equal(csv.length, 4);
    assert.match(csv[0]!, /^finding_id,event_time_ms,macau_date,casino/);
  });

  it('gives a Mah-Jong finding the scope note (outcomes out of scope), and no other game’s', () => {
    const row = (game: string) => ({ ...({} as FindingListRow), finding_id: `f-${game}`, game });
    const rows = [row('F3CP'), row('MAHJONG')];
    const json = withScopeNotes(rows) as { game: string; scope?: { code: string } }[];
    assert.equal(json[0]!.scope, undefined);
    assert.equal(json[1]!.scope?.code, 'outcomes-out-of-scope');
    assert.deepEqual(scopeNoteLines([row('F3CP')]), []);
    assert.match(scopeNoteLines(rows).join('\n'), /^Mah-Jong: Outcomes are out of scope/);
  });

  it('refuses bad filter values naming the option', async () => {
    await assert.rejects(
      run(['--severity', 'urgent']),
      /--severity takes one of critical, high, medium, low/,
    );
    await assert.rejects(run(['--from', '2025-02-30']), /--from "2025-02-30"/);
    await assert.rejects(
      run(['--from', '2025-03-02', '--to', '2025-03-01']),
      /--from 2025-03-02 is after --to/,
    );
    await assert.rejects(run(['--casino', '']), /--casino needs a value/);
    await assert.rejects(run(['--limit', '0']), /--limit takes a whole number/);
    await assert.rejects(run(['--format', 'xml']), /--format takes table, json or csv/);
  });

  it('names the missing directory rather than creating it', async () => {
    const missing = join(dir, 'nothing-here');
    await assert.rejects(
      findingsCommand.run(['--analytics', missing]),
      new RegExp(`no analytics data in ${missing.replace(/[/.]/g, '\\$&')}`),
    );
  });
});
