/**
 * The UI in a real browser (Debian's Chromium driven by playwright-core) over the API on loopback, over a
 * simulated session (simulate → ingest → replay; findings from the store index): each role logs in by pasting its
 * token, a compliance officer works an alert through every state and opens its disputed round, the language switch
 * shows the Chinese text, and another concessionaire's round and alert are not found for them by URL.
 * Screenshots go to services/ui/test-artifacts/ui/ (git-ignored). Without Chromium the test is skipped, saying
 * so, except under CI=true, where it fails.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnalyticsProjector, migrate, openAnalytics, type AnalyticsClient } from '@table-audit/analytics';
import { runProcessor } from '@table-audit/eventstore';
import { ClickHouseCharts } from '@table-audit/api';
import { bearer, fixture, simulatedStore, type Fixture } from '../../api/test/fixture.ts';
import { uiPlugin } from '../src/index.ts';
import { ARTIFACTS, launchChromium, skip } from './chromium.ts';

interface AlertItem {
  alertId: string;
  finding: { roundId: string | null; concessionaire: string; checkId: string };
}

describe('the web UI in Chromium', { skip, timeout: 90_000 }, () => {
  let f: Fixture;
  let base: string;
  let browser: Browser;
  let alertA: AlertItem;
  let alertB: AlertItem;
  let analytics: AnalyticsClient;

  before(async () => {
    // the charts come from the dashboards' SQL on chDB, projected from the same simulated session
    const { store } = await simulatedStore({ tables: 12, roundsPerTable: 15 });
    analytics = await openAnalytics({ path: join(mkdtempSync(join(tmpdir(), 'ta-ui-chdb-')), 'analytics') });
    await migrate(analytics.client);
    await runProcessor(store, new AnalyticsProjector(analytics.client), { batchSize: 2_000 });
    await store.close();
    f = await fixture({
      ui: uiPlugin(),
      tables: 12,
      roundsPerTable: 15,
      charts: new ClickHouseCharts(analytics.client, analytics.description),
    });
    const address = await f.app.listen({ port: 0, host: '127.0.0.1' });
    base = `${address}/ui`;
    const alerts = async (token: string) =>
      (await f.app.inject({ url: '/v1/alerts?limit=200', headers: bearer(token) })).json()
        .items as AlertItem[];
    // an alert about a round of each officer's concessionaire (the round's findings are why it is disputed)
    const withRound = (items: AlertItem[]) => {
      const found = items.find((a) => a.finding.roundId !== null && a.finding.checkId.includes('PAYOUT'));
      return found ?? items.find((a) => a.finding.roundId !== null)!;
    };
    alertA = withRound(await alerts(f.tokens.officerA));
    alertB = withRound(await alerts(f.tokens.officerB));
    assert.ok(
      alertA && alertB,
      'the simulated session must give both concessionaires an alert about a round',
    );
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close(); // closes every session's context
    await f?.close();
    await analytics?.close();
  });

  const shot = (page: Page, name: string) =>
    page.screenshot({ path: new URL(`${name}.png`, ARTIFACTS).pathname, fullPage: true });

  /** A browser session per token, logged in once by pasting it on the login page. */
  const sessions = new Map<string, Promise<Page>>();
  const logIn = (token: string): Promise<Page> => {
    if (!sessions.has(token)) sessions.set(token, newSession(token));
    return sessions.get(token)!;
  };
  async function newSession(token: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // nothing may leave loopback: no CDN, no font service
    await context.route(
      (url) => url.hostname !== '127.0.0.1',
      (route) => route.abort(),
    );
    const page = await context.newPage();
    const loginPage = await page.goto(`${base}/`);
    assert.equal(new URL(loginPage!.url()).pathname, '/ui/login');
    await page.getByLabel('Your API token').fill(token);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${base}/alerts`);
    return page;
  }

  it('refuses a bad token on the login page, saying why', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${base}/login`);
    await page.getByLabel('Your API token').fill('not-a-token');
    await page.getByRole('button', { name: 'Log in' }).click();
    assert.match(await page.getByTestId('error-message').innerText(), /The API refused this token/);
    await page.goto(`${base}/alerts`);
    assert.equal(new URL(page.url()).pathname, '/ui/login', 'no session: back to the login page');
    await page.context().close();
  });

  it('logs each role in and shows it its inbox (a compliance officer sees only their concessionaire)', async () => {
    for (const [role, token, expect] of [
      ['inspector', f.tokens.inspector, 'inspector-1 · DICJ inspector · every concessionaire'],
      ['officer', f.tokens.officerA, `officer-a · compliance officer · ${f.concessionaireA}`],
      ['auditor', f.tokens.auditor, 'auditor-1 · auditor · every concessionaire'],
    ] as const) {
      const page = await logIn(token);
      await page.goto(`${base}/alerts`);
      assert.equal(await page.getByTestId('who').innerText(), expect);
      // the inbox lists exactly the alert ids the API gives this caller: an officer's are their concessionaire's
      const listed = await page
        .getByTestId('alerts')
        .locator('tbody tr td:nth-child(5) a')
        .evaluateAll((links) => links.map((a) => (a as { href: string }).href.split('/').pop()));
      const api = (await f.app.inject({ url: '/v1/alerts?limit=50', headers: bearer(token) })).json();
      assert.ok(listed.length > 0, `${role}: the inbox lists alerts`);
      assert.deepEqual(
        listed,
        api.items.map((a: AlertItem) => a.alertId),
      );
      if (role === 'officer')
        assert.ok(api.items.every((a: AlertItem) => a.finding.concessionaire === f.concessionaireA));
      await shot(page, `inbox-${role}`);
    }
  });

  it('works an alert through acknowledge, assign, comment, resolve and reopen', async () => {
    const page = await logIn(f.tokens.officerA);
    await page.goto(`${base}/alerts/${alertA.alertId}`);
    const status = () => page.getByTestId('status').first().innerText();
    assert.equal(await status(), 'open');
    await page.getByLabel('Note (optional)').fill('seen at the pit');
    await page.getByRole('button', { name: 'Acknowledge' }).click();
    await page.waitForLoadState();
    assert.equal(await status(), 'acknowledged');
    await page.getByLabel(/Assignee/).fill('officer-a2');
    await page.getByRole('button', { name: 'Assign' }).click();
    await page.waitForLoadState();
    assert.equal(await page.getByTestId('assignee').innerText(), 'officer-a2');
    await page.getByLabel('Comment', { exact: true }).fill('surveillance footage requested');
    await page.getByRole('button', { name: 'Add comment' }).click();
    await page.waitForLoadState();
    await page.getByLabel('Disposition').selectOption('confirmed');
    await page.getByLabel('Why it is resolved so').fill('payout error confirmed by the pit boss');
    await page.getByRole('button', { name: 'Resolve' }).click();
    await page.waitForLoadState();
    assert.equal(await status(), 'resolved');
    await shot(page, 'alert-resolved');
    await page.getByLabel('Why it is reopened').fill('DICJ asks again');
    await page.getByRole('button', { name: 'Reopen' }).click();
    await page.waitForLoadState();
    assert.equal(await status(), 'open');
    const history = await page.getByTestId('history').locator('tbody tr td:nth-child(3)').allInnerTexts();
    assert.deepEqual(history, ['Acknowledged', 'Assigned', 'Commented', 'Resolved', 'Reopened']);
    assert.match(await page.getByTestId('history').innerText(), /payout error confirmed by the pit boss/);
    await shot(page, 'alert-history');
    // the same history is what the API holds
    const api = (
      await f.app.inject({ url: `/v1/alerts/${alertA.alertId}`, headers: bearer(f.tokens.inspector) })
    ).json();
    assert.equal(api.state.status, 'open');
    assert.equal(api.state.reopened, 1);
  });

  it('shows a refused action with the API’s reason, and an auditor no action at all', async () => {
    const officer = await logIn(f.tokens.officerA);
    await officer.goto(`${base}/alerts/${alertA.alertId}`);
    await officer.getByLabel('Comment', { exact: true }).fill(' ');
    // an empty comment after trimming: the browser lets it through (not empty), the API refuses it
    await officer.getByRole('button', { name: 'Add comment' }).click();
    await officer.waitForLoadState();
    assert.match(await officer.getByTestId('error-message').innerText(), /Not done: .*comment/);
    const auditor = await logIn(f.tokens.auditor);
    await auditor.goto(`${base}/alerts/${alertA.alertId}`);
    assert.equal(await auditor.locator('form.action').count(), 0);
    assert.match(await auditor.locator('main').innerText(), /may only read it/);
  });

  it('draws the disputed round: table, timeline in Macau time, derivation beside declared, PT/ZH article text', async () => {
    const page = await logIn(f.tokens.officerA);
    await page.goto(`${base}/alerts/${alertA.alertId}`);
    await page.getByTestId('round-link').click();
    await page.waitForURL(`${base}/rounds/${alertA.finding.roundId}`);
    assert.equal(
      await page.getByRole('heading', { level: 1 }).innerText(),
      `Round ${alertA.finding.roundId}`,
    );
    assert.ok(
      (await page.getByTestId('banker').locator('.card').count()) >= 1,
      'the banker’s cards are drawn',
    );
    assert.ok((await page.getByTestId('table').locator('li.seat').count()) >= 1, 'the seats are drawn');
    // the community cards of the round (dealt when someone bets the Progressive), from the rules' explanation
    const toCommunity = await page
      .getByTestId('timeline')
      .locator('tr', { hasText: / to community/ })
      .count();
    assert.equal(
      await page.locator('[data-testid="community"] .card').count(),
      toCommunity,
      'every community card dealt is drawn',
    );
    assert.match(await page.getByRole('heading', { name: /Timeline/ }).innerText(), /Macau time, UTC\+8/);
    assert.match(await page.getByTestId('settlement').innerText(), /MOP \d/);
    assert.ok((await page.getByTestId('finding').count()) >= 1);
    const pt = page.locator('blockquote.law[lang="pt"]').first();
    const zh = page.locator('blockquote.law[lang="zh-Hant"]').first();
    assert.ok(await pt.isVisible());
    assert.ok(!(await zh.isVisible()));
    await shot(page, 'round-pt');
    await page.getByLabel('中文').check();
    assert.ok(await zh.isVisible(), 'the Chinese text is shown at once');
    assert.ok(!(await pt.isVisible()));
    assert.match(await zh.innerText(), /[\u4e00-\u9fff]/);
    assert.equal(new URL(page.url()).searchParams.get('lang'), 'zh');
    await page
      .getByTestId('finding')
      .first()
      .screenshot({ path: new URL('round-zh.png', ARTIFACTS).pathname });
  });

  it('answers a compliance officer "not found" for another concessionaire’s round and alert, by URL', async () => {
    const page = await logIn(f.tokens.officerA);
    for (const url of [`${base}/rounds/${alertB.finding.roundId}`, `${base}/alerts/${alertB.alertId}`]) {
      const res = await page.goto(url);
      assert.equal(res!.status(), 404, url);
      assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Not found');
      assert.match(await page.getByTestId('error-message').innerText(), /^no (round|alert) /);
      assert.doesNotMatch(await page.locator('main').innerText(), new RegExp(alertB.finding.concessionaire));
    }
    await shot(page, 'other-concessionaire-404');
    // the inspector reaches the same round
    const inspector = await logIn(f.tokens.inspector);
    const res = await inspector.goto(`${base}/rounds/${alertB.finding.roundId}`);
    assert.equal(res!.status(), 200);
  });

  it('searches incidents and draws the charts from the same findings', async () => {
    const page = await logIn(f.tokens.inspector);
    await page.goto(`${base}/incidents`);
    const total = Number(
      /\((\d+)\)/.exec(await page.getByTestId('findings').locator('caption').innerText())![1],
    );
    assert.ok(total > 0);
    // the dashboards' two panels, drawn: findings over time by casino, and payout discrepancies
    assert.equal(await page.getByTestId('chart-over-time').locator('svg[role="img"]').count(), 1);
    assert.ok((await page.getByTestId('chart-over-time').locator('svg rect').count()) > 0, 'bars drawn');
    assert.equal(await page.getByTestId('chart-discrepancies').locator('svg[role="img"]').count(), 1);
    await shot(page, 'incidents');
    await page.getByLabel('Severity').selectOption('high');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/severity=high/);
    const severities = await page.getByTestId('findings').locator('tbody tr td:nth-child(2)').allInnerTexts();
    assert.ok(severities.length > 0 && severities.every((s) => s === 'high'), severities.join());
  });
});
