/**
 * The what-if page in a real browser (Debian's Chromium driven by playwright-core) over the API on loopback: an
 * inspector picks a provision, a reading and a period, the comparison runs in the API (a what-if run) while its
 * page reloads itself, then the diff is shown as a table and a chart, with export links; a compliance officer's
 * diff holds only their concessionaire's tables and another's run is not found; a cancelled run says so; from a
 * changed round, the readings it hinges on. Without
 * Chromium the test is skipped, saying so, except under CI=true, where it fails.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { prepareReadings } from '../../replay/src/index.ts';
import { macauDate } from '@table-audit/rules';
import { fixture, type Fixture } from '../../api/test/fixture.ts';
import { uiPlugin } from '../src/index.ts';
import { ARTIFACTS, launchChromium, skip } from './chromium.ts';

describe('the what-if page in Chromium', { skip, timeout: 90_000 }, () => {
  let f: Fixture;
  let base: string;
  let browser: Browser;
  let day: string;

  before(async () => {
    f = await fixture({ ui: uiPlugin(), tables: 6, roundsPerTable: 8 });
    for await (const e of f.store.readAll()) {
      const h = (e.data as { header?: { eventTime: number } }).header;
      if (e.stream.startsWith('table-') && h) {
        day = macauDate(h.eventTime);
        break;
      }
    }
    base = `${await f.app.listen({ port: 0, host: '127.0.0.1' })}/ui`;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await f?.close();
  });

  async function logIn(token: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.route(
      (url) => url.hostname !== '127.0.0.1',
      (route) => route.abort(),
    );
    const page = await context.newPage();
    await page.goto(`${base}/login`);
    await page.getByLabel('Your API token').fill(token);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${base}/alerts`);
    return page;
  }

  /** Submits the form; the run's page reloads itself until the report is there. The statuses its loads showed. */
  async function compare(page: Page, provision: string): Promise<string[]> {
    await page.getByRole('link', { name: 'What-if' }).click();
    await page.waitForURL(`${base}/what-if`);
    await page.getByLabel('Provision (interpretation)').selectOption(provision);
    await page.getByLabel('Reading').selectOption('ALT');
    await page.getByLabel('From (Macau date)').fill(day);
    await page.getByLabel('to', { exact: true }).fill(day);
    const loads: string[] = [];
    page.on('response', (r) => {
      if (/\/ui\/what-if\/runs\/[^/]+$/.test(new URL(r.url()).pathname))
        loads.push(r.headers()['refresh'] ? 'reloading' : 'final');
    });
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.getByTestId('what-if-report').waitFor();
    assert.match(new URL(page.url()).pathname, /^\/ui\/what-if\/runs\/[0-9a-f-]{36}$/);
    return loads;
  }

  it('an inspector picks J11, its alternative and a day, and sees the diff as a table and a chart', async () => {
    const page = await logIn(f.tokens.inspector);
    const loads = await compare(page, 'J11');
    assert.equal(loads.at(-1), 'final', "a done run's page does not reload");
    assert.ok(loads.slice(0, -1).every((l) => l === 'reloading'));
    assert.match(
      await page.getByTestId('what-if-summary').innerText(),
      /rounds re-derived under both readings; \d+ changed/,
    );
    assert.match(await page.getByTestId('what-if-report').innerText(), /Literal ZH/);
    const chart = page.getByTestId('what-if-chart');
    assert.equal((await chart.locator('svg rect').count()) > 0, true, 'a bar per bet type that changed');
    assert.match(await page.getByTestId('what-if-money').innerText(), /ANTE/);
    assert.ok((await page.getByTestId('what-if-findings').locator('tbody tr').count()) > 0);
    const pdf = await page.getByTestId('export-pdf').getAttribute('href');
    const res = await page.request.get(new URL(pdf!, base).href);
    assert.equal(res.headers()['content-type'], 'application/pdf');
    await page.screenshot({ path: new URL('what-if.png', ARTIFACTS).pathname, fullPage: true });
    await page.context().close();
  });

  it('from a changed round, the readings it hinges on: J11 among them, with its bets and both texts', async () => {
    const page = await logIn(f.tokens.inspector);
    await compare(page, 'J11');
    await page.getByTestId('what-if-rounds').locator('li a').first().click();
    await page.getByTestId('round-readings').click();
    await page.getByTestId('readings-summary').waitFor();
    assert.match(new URL(page.url()).pathname, /^\/ui\/rounds\/[^/]+\/readings$/);
    assert.match(
      await page.getByTestId('readings-summary').innerText(),
      /\d+ of \d+ readings change this round/,
    );
    const j11 = page.getByTestId('reading-J11');
    assert.match(await j11.innerText(), /Literal ZH/);
    assert.ok((await j11.locator('tbody tr').count()) > 0, 'the bets settled differently');
    assert.match(await page.getByTestId('readings-same').innerText(), /No change under: .*J2=ALT/);
    await page.screenshot({ path: new URL('round-readings.png', ARTIFACTS).pathname, fullPage: true });
    await page.context().close();
  });

  it("a compliance officer's diff lists only their concessionaire's rounds", async () => {
    const page = await logIn(f.tokens.officerA);
    await compare(page, 'J11');
    const mine = page.url();
    const rounds = await page.getByTestId('what-if-rounds').locator('li').allInnerTexts();
    const api = await f.app.inject({
      url: `/v1/what-if?readings=J11=ALT&from=${day}&to=${day}`,
      headers: { authorization: `Bearer ${f.tokens.officerB}` },
    });
    const theirs = new Set(api.json().changed.map((c: { roundId: string }) => c.roundId));
    assert.ok(theirs.size > 0);
    assert.ok(rounds.every((text) => ![...theirs].some((id) => text.includes(id as string))));
    await page.context().close();
    // another concessionaire's officer is told there is no such run
    const other = await logIn(f.tokens.officerB);
    const res = await other.goto(mine);
    assert.equal(res?.status(), 404);
    assert.match(await other.locator('body').innerText(), /no what-if run/);
    await other.context().close();
  });

  it('a cancelled run says so, and has no report', async () => {
    const auth = { authorization: `Bearer ${f.tokens.inspector}` };
    const made = await f.app.inject({
      method: 'POST',
      url: '/v1/what-if/runs',
      headers: auth,
      payload: { readings: 'J2=ALT', from: day, to: day },
    });
    assert.equal(made.statusCode, 202);
    const id = made.json().id as string;
    const cancelled = await f.app.inject({ method: 'DELETE', url: `/v1/what-if/runs/${id}`, headers: auth });
    assert.equal(cancelled.json().status, 'cancelled');
    const page = await logIn(f.tokens.inspector);
    await page.goto(`${base}/what-if/runs/${id}`);
    const run = page.getByTestId('what-if-run');
    assert.equal(await run.getAttribute('data-status'), 'cancelled');
    assert.match(await run.innerText(), /cancelled before it was done: there is no report/);
    assert.equal(await page.getByTestId('what-if-report').count(), 0);
    await page.context().close();
  });
  // last: from here on the store has readings kept ready beside it
  it('with the readings kept ready, the same diff says it was answered from them, and when they were derived', async () => {
    await prepareReadings({ storePath: f.path, workers: 1 });
    const page = await logIn(f.tokens.inspector);
    await compare(page, 'J11');
    const summary = await page.getByTestId('what-if-summary').innerText();
    assert.match(
      summary,
      /rounds compared under both readings, from the readings kept ready \(tables derived \d{4}-\d{2}-\d{2} [\d:.]+.* Macau time; every table still at the event it was derived to\); \d+ changed/,
    );
    await page.context().close();
  });
});
