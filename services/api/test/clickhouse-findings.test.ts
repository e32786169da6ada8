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
import type { Cursor, FindingsPage } from '../src/findings-query.ts';
import { ClickHouseCharts } from '../src/charts.ts';
import { buildApp } from '../src/app.ts';
import { issueToken } from '../src/auth.ts';
import { simulatedStore } from './fixture.ts';
import { findingsQueryConformance } from './findings-conformance.ts';

describe('FindingsQuery conformance: ClickHouse (chDB)', () => {
  let store: SqliteEventStore;
  let analytics: AnalyticsClient;
  let adapter: ClickHouseFindings;
  let fromKeys: ClickHouseFindings;
  before(async () => {
    ({ store } = await simulatedStore({ tables: 12, roundsPerTable: 15 }));
    analytics = await openAnalytics({ path: join(mkdtempSync(join(tmpdir(), 'ta-api-chdb-')), 'analytics') });
    await migrate(analytics.client);
    await runProcessor(store, new AnalyticsProjector(analytics.client), { batchSize: 2_000 });
    // the pages made by query (keys: 0), and below the same suite over the pages made from the keys in memory
    adapter = new ClickHouseFindings(analytics.client, analytics.description, { keys: 0 });
    fromKeys = new ClickHouseFindings(analytics.client, analytics.description, {
      answers: 0,
      waitForKeys: true,
    });
  });
  after(async () => {
    await analytics.close();
    await store.close();
  });
  findingsQueryConformance(() => ({ adapter, store }));
  describe('pages made from the keys in memory', () => {
    findingsQueryConformance(() => ({ adapter: fromKeys, store }));
    it('made those pages from the keys, loaded once, without a query for a page’s keys', () => {
      assert.ok(fromKeys.stats.keyPages > 20, `${fromKeys.stats.keyPages} pages from the keys`);
      assert.equal(fromKeys.stats.keyLoads, 1, 'one load: the table did not change');
      assert.equal(fromKeys.stats.keyLoadFailures, 0);
    });
  });

  // after the suite (which holds the table to the store): answers kept until the table changes
  it('keeps an answer while the findings table is unchanged, and answers anew once a finding is inserted', async () => {
    let now = 0;
    // the query path (keys: 0): the keys in memory have their own tests below
    const kept = new ClickHouseFindings(analytics.client, analytics.description, { keys: 0, now: () => now });
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
      keys: 0,
      now: () => now,
    });
    await small.list({ scope: null }, { limit: 5, after: null });
    await small.list({ scope: null, severity: 'high' }, { limit: 5, after: null });
    const made = small.stats.queries;
    await small.list({ scope: null, severity: 'high' }, { limit: 5, after: null });
    assert.equal(small.stats.queries, made, 'the newer page is kept');
    assert.equal(small.stats.kept, 1);
    await small.list({ scope: null }, { limit: 5, after: null });
    assert.ok(small.stats.queries > made, 'the older page was dropped');
    assert.equal(small.stats.kept, 1);
    assert.ok(small.kept.rows <= 6, `${small.kept.rows} rows kept over a budget of 6`);
    const counts = await kept.count({ scope: null }, 'severity');
    assert.equal(
      counts.reduce((n, c) => n + c.count, 0),
      first.total + 1,
    );
  });

  it('serves a finding replaced by a newer version (same id, later position) as the newer one, never the kept row', async () => {
    let now = 0;
    const q = new ClickHouseFindings(analytics.client, analytics.description, { keys: 0, now: () => now });
    const before = await q.list({ scope: null }, { limit: 20, after: null });
    const target = before.items[3]!;
    // a page of another filter reads the same rows again from what was kept: no query for them
    const queries = q.stats.queries;
    // (findings at or after the 11th's time: all among the 20 of the first page)
    const since = { scope: null, from: before.items[10]!.eventTime };
    const other = await q.list(since, { limit: 20, after: null });
    assert.ok(other.items.some((f) => f.findingId === target.findingId));
    assert.ok(other.items.every((f) => before.items.some((b) => b.findingId === f.findingId)));
    assert.equal(q.stats.queries, queries + 1, 'one query: the keys, the rows came from those kept');
    await analytics.client.command({
      query: `INSERT INTO findings SELECT * REPLACE ('replaced in the test' AS summary, position + 2000000000 AS position)
        FROM findings FINAL WHERE finding_id = {id:String}`,
      query_params: { id: target.findingId },
    });
    now += 250;
    const after = await q.list({ scope: null }, { limit: 20, after: null });
    assert.equal(after.total, before.total, 'a replaced finding is still one finding');
    const replaced = after.items.find((f) => f.findingId === target.findingId);
    assert.equal(replaced?.summary, 'replaced in the test');
    const again = await q.list(since, { limit: 20, after: null });
    assert.equal(again.items.find((f) => f.findingId === target.findingId)?.summary, 'replaced in the test');
    assert.deepEqual(
      after.items.filter((f) => f.findingId !== target.findingId),
      before.items.filter((f) => f.findingId !== target.findingId),
    );
  });

  it('makes a page again in one query when a row of its keys is merged away before the rows are read', async () => {
    const real = analytics.client;
    let merge = true;
    let target = '';
    // a client that, right after the first page's keys query, replaces the newest finding and merges the old
    // version away — what a concurrent projection and a background merge could do between the two queries
    const racing = {
      ...real,
      query: async (p: Parameters<typeof real.query>[0]) => {
        const r = await real.query(p);
        if (merge && p.query.includes('count() OVER ()')) {
          merge = false;
          const [row] = (await r.json()) as [string, string, string][];
          target = row![0];
          await real.command({
            query: `INSERT INTO findings SELECT * REPLACE ('raced' AS summary, position + 3000000000 AS position)
              FROM findings FINAL WHERE finding_id = {id:String}`,
            query_params: { id: target },
          });
          await real.command({ query: 'OPTIMIZE TABLE findings FINAL' });
          return real.query(p); // the keys as read before the race
        }
        return r;
      },
    } as typeof real;
    const keysBefore = await (
      await real.query({
        query: `SELECT finding_id, toString(position) FROM findings FINAL ORDER BY event_time DESC, finding_id DESC LIMIT 3`,
        format: 'JSONCompactEachRow',
      })
    ).json();
    assert.equal((keysBefore as unknown[]).length, 3);
    const q = new ClickHouseFindings(racing, analytics.description, { rows: 0, keys: 0 });
    const page = await q.list({ scope: null }, { limit: 3, after: null });
    assert.ok(target !== '');
    // the raced row: the re-made page shows the version that is there now
    const raced = page.items.find((f) => f.findingId === target);
    assert.ok(raced, 'the raced finding is on the page');
    assert.equal(raced.summary, 'raced');
    assert.equal(page.items.length, 3);
  });

  it('keeps charts by scope and range until a table they read changes, within its bounds', async () => {
    let now = 0;
    const charts = new ClickHouseCharts(analytics.client, analytics.description, {
      answers: 2,
      now: () => now,
    });
    const range = { from: Date.parse('2025-11-01T00:00:00Z'), to: Date.parse('2026-01-31T00:00:00Z') };
    const sum = (s: { series: { points: { value: number }[] }[] }) =>
      s.series.reduce((n, x) => n + x.points.reduce((m, p) => m + p.value, 0), 0);
    const all = await charts.series('findings-over-time', { scope: null, ...range });
    const queries = charts.stats.queries;
    assert.equal(await charts.series('findings-over-time', { scope: null, ...range }), all, 'kept');
    assert.equal(charts.stats.queries, queries);
    // a compliance officer's chart is never the one kept for all
    const mine = await charts.series('findings-over-time', { scope: 'SJM Resorts', ...range });
    assert.notEqual(mine, all);
    assert.deepEqual(
      mine.series.map((x) => x.name),
      ['Casino Lisboa'],
    );
    assert.ok(sum(mine) < sum(all));
    assert.equal(charts.stats.queries, queries + 1);
    // bounded: a third answer pushes the least recently used (all's) out
    await charts.series('payout-discrepancies', { scope: null, ...range });
    assert.equal(charts.kept.answers, 2);
    await charts.series('findings-over-time', { scope: null, ...range });
    assert.equal(charts.stats.queries, queries + 3, 'the dropped answer was made again');
    // a finding inserted into the table the chart reads: once the version is read again, the chart shows it
    const kept = await charts.series('findings-over-time', { scope: null, ...range });
    await analytics.client.command({
      query: `INSERT INTO findings SELECT * REPLACE (concat(finding_id, '-chart') AS finding_id,
        position + 4000000000 AS position) FROM findings FINAL
        WHERE event_time >= '2025-12-01 00:00:00' AND event_time < '2026-01-01 00:00:00'
        ORDER BY event_time DESC LIMIT 1`,
    });
    assert.equal(await charts.series('findings-over-time', { scope: null, ...range }), kept, 'within 250 ms');
    now += 250;
    const changed = await charts.series('findings-over-time', { scope: null, ...range });
    assert.equal(sum(changed), sum(kept) + 1);
    // and the other table a chart reads (round_discrepancies) is part of the version too
    const payouts = await charts.series('payout-discrepancies', { scope: null, ...range });
    await analytics.client.command({
      query: `INSERT INTO round_discrepancies SELECT * FROM round_discrepancies FINAL LIMIT 0`,
    });
    await analytics.client.command({ query: 'OPTIMIZE TABLE round_discrepancies FINAL' });
    now += 250;
    const made = charts.stats.queries;
    const payoutsAgain = await charts.series('payout-discrepancies', { scope: null, ...range });
    assert.deepEqual(payoutsAgain, payouts, 'the same data');
    assert.equal(charts.stats.queries, made + 1, 'made again: its table changed');
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
      // the inspector first, so that their pages, counts and chart are kept answers when the officer asks the same
      // URLs: the officer must still get only theirs
      let inspectorCursor: string | null = null;
      let others = 0;
      do {
        const r = await get(
          `/v1/findings?limit=9${inspectorCursor ? `&cursor=${inspectorCursor}` : ''}`,
          inspector,
        );
        others += (r.json().items as { concessionaire: string }[]).filter(
          (i) => i.concessionaire !== mine,
        ).length;
        inspectorCursor = r.json().nextCursor;
      } while (inspectorCursor);
      assert.ok(others > 0, "the inspector's pages hold other concessionaires' findings");
      await get('/v1/findings/counts?by=concessionaire', inspector);
      await get('/v1/charts/findings-over-time?from=2025-11-01&to=2026-01-31', inspector);
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

  // after the tests above changed the table (copies, a replaced version, a merge): the keys against the queries
  it('answers from the keys in memory exactly as by query, for every scope, filter and page', async () => {
    const byQuery = new ClickHouseFindings(analytics.client, analytics.description, { keys: 0, answers: 0 });
    const byKeys = new ClickHouseFindings(analytics.client, analytics.description, {
      answers: 0,
      waitForKeys: true,
    });
    const all = await byQuery.list({ scope: null }, { limit: 1_000, after: null });
    const concessionaires = [...new Set(all.items.map((f) => f.concessionaire))];
    assert.ok(concessionaires.length > 1);
    const newest = all.items[0]!;
    const middle = all.items[Math.floor(all.items.length / 2)]!;
    const filters = [
      { scope: null },
      ...concessionaires.map((c) => ({ scope: c })),
      ...concessionaires.map((c) => ({ scope: c, casino: newest.casino })), // another's casino: nothing
      { scope: null, from: middle.eventTime },
      { scope: null, to: middle.eventTime },
      { scope: null, from: middle.eventTime - 3_600_000, to: middle.eventTime + 1 },
      { scope: null, checkId: middle.checkId, alertsOnly: true },
      { scope: middle.concessionaire, tableId: middle.tableId },
      { scope: null, dealerId: middle.dealerId ?? 'none' },
      { scope: null, playerId: middle.players[0] ?? 'none' },
      { scope: null, roundId: middle.roundId ?? 'none' },
      { scope: null, severity: middle.severity, game: middle.game ?? 'F3CP' },
    ];
    for (const filter of filters) {
      let after: Cursor | null = null;
      for (let pages = 0; pages < 50; pages++) {
        const q: FindingsPage = await byQuery.list(filter, { limit: 7, after });
        const k = await byKeys.list(filter, { limit: 7, after });
        assert.deepEqual(k, q, `${JSON.stringify(filter)} after ${JSON.stringify(after)}`);
        if (filter.scope !== null) for (const f of k.items) assert.equal(f.concessionaire, filter.scope);
        if (q.next === null) break;
        after = q.next;
      }
    }
    assert.ok(byKeys.stats.keyPages >= filters.length);
  });

  it('loads the keys again once the findings table changes, and a page made from them shows the change', async () => {
    let now = 0;
    const q = new ClickHouseFindings(analytics.client, analytics.description, {
      answers: 0,
      waitForKeys: true,
      now: () => now,
    });
    const before = await q.list({ scope: null }, { limit: 5, after: null });
    assert.equal(q.stats.keyLoads, 1);
    const pages = q.stats.keyPages;
    assert.ok(pages >= 1);
    await analytics.client.command({
      query: `INSERT INTO findings SELECT * REPLACE (concat(finding_id, '-keys') AS finding_id,
        event_time + INTERVAL 2 SECOND AS event_time, position + 5000000000 AS position)
        FROM findings FINAL ORDER BY event_time DESC, finding_id DESC LIMIT 1`,
    });
    now += 250; // the version is read again
    const after = await q.list({ scope: null }, { limit: 5, after: null });
    assert.equal(q.stats.keyLoads, 2, 'loaded again for the new version');
    assert.equal(q.stats.keyPages, pages + 1, 'and the page made from the new keys');
    assert.equal(after.total, before.total + 1);
    assert.equal(after.items[0]!.findingId, `${before.items[0]!.findingId}-keys`);
    // a scope that does not hold the new finding does not see it, from the same keys
    const other = (await q.list({ scope: null }, { limit: 1_000, after: null })).items.find(
      (f) => f.concessionaire !== before.items[0]!.concessionaire,
    )!;
    const theirs = await q.list({ scope: other.concessionaire }, { limit: 1_000, after: null });
    assert.ok(
      theirs.items.every((f) => f.concessionaire === other.concessionaire && !f.findingId.endsWith('-keys')),
    );
    // without waiting, a page asked while the keys of a new version load is made by query meanwhile
    const eager = new ClickHouseFindings(analytics.client, analytics.description, { answers: 0 });
    const first = await eager.list({ scope: null }, { limit: 5, after: null });
    assert.equal(eager.stats.keyPages, 0, 'the first page: by query');
    await eager.keysLoaded();
    assert.deepEqual(await eager.list({ scope: null }, { limit: 5, after: null }), first);
    assert.equal(eager.stats.keyPages, 1, 'once loaded: from the keys');
  });

  it('keeps no keys for a table of more findings than its bound, and answers by query', async () => {
    const total = (await adapter.list({ scope: null }, { limit: 1, after: null })).total;
    const bounded = new ClickHouseFindings(analytics.client, analytics.description, {
      answers: 0,
      waitForKeys: true,
      keys: total - 1,
    });
    const page = await bounded.list({ scope: null }, { limit: 5, after: null });
    assert.equal(page.total, total);
    assert.equal(bounded.stats.keyPages, 0);
    assert.equal(bounded.stats.keyLoads, 0, 'not even loaded: the table holds more rows than the bound');
    const none = new ClickHouseFindings(analytics.client, analytics.description, { answers: 0, keys: 0 });
    await none.list({ scope: null }, { limit: 5, after: null });
    assert.equal(none.stats.keyLoads + none.stats.keyPages, 0, 'keys: 0 keeps none');
  });
});
