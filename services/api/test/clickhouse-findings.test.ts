/** The same conformance suite over ClickHouse (chDB, in this test's own process), projected by services/analytics. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runProcessor } from '@table-audit/eventstore';
import type { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { AnalyticsProjector, migrate, openAnalytics, type AnalyticsClient } from '@table-audit/analytics';
import { generateKeyPairSync } from 'node:crypto';
import { ClickHouseFindings } from '../src/clickhouse-findings.ts';
import { ClickHouseCharts } from '../src/charts.ts';
import { buildApp } from '../src/app.ts';
import { issueToken } from '../src/auth.ts';
import { simulatedStore } from './fixture.ts';
import { findingsQueryConformance } from './findings-conformance.ts';

describe('FindingsQuery conformance: ClickHouse (chDB)', () => {
  let store: SqliteEventStore;
  let analytics: AnalyticsClient;
  let adapter: ClickHouseFindings;
  before(async () => {
    ({ store } = await simulatedStore({ tables: 12, roundsPerTable: 15 }));
    analytics = await openAnalytics({ path: join(mkdtempSync(join(tmpdir(), 'ta-api-chdb-')), 'analytics') });
    await migrate(analytics.client);
    await runProcessor(store, new AnalyticsProjector(analytics.client), { batchSize: 2_000 });
    adapter = new ClickHouseFindings(analytics.client, analytics.description);
  });
  after(async () => {
    await analytics.close();
    await store.close();
  });
  findingsQueryConformance(() => ({ adapter, store }));

  // after the suite (which holds the table to the store): answers kept until the table changes
  it('keeps an answer while the findings table is unchanged, and answers anew once a finding is inserted', async () => {
    let now = 0;
    const kept = new ClickHouseFindings(analytics.client, analytics.description, { now: () => now });
    const first = await kept.list({ scope: null }, { limit: 5, after: null });
    const queries = kept.stats.queries;
    assert.deepEqual(await kept.list({ scope: null }, { limit: 5, after: null }), first);
    assert.equal(kept.stats.queries, queries, 'the same page again: no query');
    assert.equal(kept.stats.kept, 1);
    // another caller's scope is another answer, never the one kept for all
    const scoped = await kept.list({ scope: first.items[0]!.concessionaire }, { limit: 5, after: null });
    assert.ok(scoped.total < first.total && scoped.total > 0);
    // a finding inserted (a copy with another id and a later time): once the version is read again, it shows
    await analytics.client.command({
      query: `INSERT INTO findings SELECT * REPLACE (concat(finding_id, '-copy') AS finding_id,
        event_time + INTERVAL 1 SECOND AS event_time, position + 1000000000 AS position)
        FROM findings FINAL ORDER BY event_time DESC LIMIT 1`,
    });
    assert.deepEqual(
      await kept.list({ scope: null }, { limit: 5, after: null }),
      first,
      'within 250 ms: kept',
    );
    now += 250;
    const after = await kept.list({ scope: null }, { limit: 5, after: null });
    assert.equal(after.total, first.total + 1);
    assert.equal(after.items[0]!.findingId, `${first.items[0]!.findingId}-copy`);
    // bounded by the findings the kept pages hold: a second page of 5 pushes the first out of a 6-row budget
    const small = new ClickHouseFindings(analytics.client, analytics.description, {
      rows: 6,
      now: () => now,
    });
    await small.list({ scope: null }, { limit: 5, after: null });
    await small.list({ scope: null, severity: 'high' }, { limit: 5, after: null });
    const made = small.stats.queries;
    await small.list({ scope: null, severity: 'high' }, { limit: 5, after: null });
    assert.equal(small.stats.queries, made, 'the newer page is kept');
    await small.list({ scope: null }, { limit: 5, after: null });
    assert.equal(small.stats.queries, made + 1, 'the older page was dropped');
    const counts = await kept.count({ scope: null }, 'severity');
    assert.equal(
      counts.reduce((n, c) => n + c.count, 0),
      first.total + 1,
    );
  });

  it('scopes the list, the counts and the charts served from ClickHouse to a compliance officer’s concessionaire', async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const app = await buildApp({
      store,
      auth: { tokenKey: privateKey },
      findings: new ClickHouseFindings(analytics.client, analytics.description),
      charts: new ClickHouseCharts(analytics.client, analytics.description),
    });
    try {
      const mine = 'SJM Resorts';
      const officer = await issueToken(privateKey, {
        subject: 'officer',
        role: 'compliance_officer',
        concessionaire: mine,
      });
      const inspector = await issueToken(privateKey, {
        subject: 'i',
        role: 'inspector',
        concessionaire: null,
      });
      const get = (url: string, token: string) =>
        app.inject({ url, headers: { authorization: `Bearer ${token}` } });
      // every page of the list
      let cursor: string | null = null;
      let seen = 0;
      do {
        const r = await get(`/v1/findings?limit=9${cursor ? `&cursor=${cursor}` : ''}`, officer);
        assert.equal(r.statusCode, 200, r.body);
        for (const item of r.json().items) assert.equal(item.concessionaire, mine);
        seen += r.json().items.length;
        cursor = r.json().nextCursor;
      } while (cursor);
      assert.ok(seen > 0);
      // the counts: only theirs, and the same number
      const counts = (await get('/v1/findings/counts?by=concessionaire', officer)).json();
      assert.deepEqual(
        counts.counts.map((c: { value: string }) => c.value),
        [mine],
      );
      assert.equal(counts.total, seen);
      // the charts: only their casinos' series, summing to their findings in the range; the inspector's to all
      const range = 'from=2025-11-01&to=2026-01-31';
      const chart = (token: string) => get(`/v1/charts/findings-over-time?${range}`, token);
      const sum = (body: { series: { name: string; points: { value: number }[] }[] }) =>
        body.series.reduce((n, x) => n + x.points.reduce((m, p) => m + p.value, 0), 0);
      const theirs = await chart(officer);
      assert.equal(theirs.statusCode, 200, theirs.body);
      assert.deepEqual(
        theirs.json().series.map((x: { name: string }) => x.name),
        ['Casino Lisboa'],
      );
      const inRange = async (token: string) =>
        (await get(`/v1/findings?limit=1&${range}`, token)).json().total as number;
      assert.equal(sum(theirs.json()), await inRange(officer));
      const all = await chart(inspector);
      assert.ok(all.json().series.length > 1);
      assert.equal(sum(all.json()), await inRange(inspector));
      // naming another concessionaire is not found
      assert.equal((await get('/v1/findings?concessionaire=Galaxy%20Casino', officer)).statusCode, 404);
      // injection through every filter reaches ClickHouse only as a query parameter: a 400 naming the parameter,
      // or nothing found; never another's findings, and the table is still whole afterwards
      const before = (await get('/v1/findings?limit=1', inspector)).json().total as number;
      const attempts = [
        "' OR '1'='1",
        "x') OR 1=1 --",
        '{scope:String}',
        '1; DROP TABLE findings',
        '\\',
        '%',
      ];
      for (const list of ['/v1/findings', '/v1/alerts', '/v1/findings/counts'])
        for (const name of [
          'casino',
          'tableId',
          'game',
          'checkId',
          'severity',
          'from',
          'to',
          'dealerId',
          'playerId',
          'roundId',
          'cursor',
        ])
          for (const value of attempts) {
            if (list.endsWith('counts') && name === 'cursor') continue;
            const url = `${list}?${list.endsWith('counts') ? 'by=casino&' : ''}${name}=${encodeURIComponent(value)}`;
            const r = await get(url, officer);
            assert.ok([200, 400].includes(r.statusCode), `${url}: ${r.statusCode} ${r.body.slice(0, 200)}`);
            if (r.statusCode === 400) assert.match(r.json().message, new RegExp(name), url);
            else assert.equal(r.json().total, 0, `${url} found something`);
          }
      assert.equal((await get('/v1/findings?limit=1', inspector)).json().total, before, 'the table is whole');
    } finally {
      await app.close();
    }
  });
});
