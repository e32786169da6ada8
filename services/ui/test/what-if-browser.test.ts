/**
 * The what-if page in a real browser (Debian's Chromium driven by playwright-core) over the API on loopback: an
 * inspector picks a provision, a reading and a period and sees the diff as a table and a chart, with export links;
 * a compliance officer's diff holds only their concessionaire's tables. Without Chromium the test is skipped,
 * saying so, except under CI=true, where it fails.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
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

  async function compare(page: Page, provision: string) {
    await page.getByRole('link', { name: 'What-if' }).click();
    await page.waitForURL(`${base}/what-if`);
    await page.getByLabel('Provision (interpretation)').selectOption(provision);
    await page.getByLabel('Reading').selectOption('ALT');
    await page.getByLabel('From (Macau date)').fill(day);
    await page.getByLabel('to', { exact: true }).fill(day);
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.getByTestId('what-if-report').waitFor();
  }

  it('an inspector picks J11, its alternative and a day, and sees the diff as a table and a chart', async () => {
    const page = await logIn(f.tokens.inspector);
    await compare(page, 'J11');
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

  it("a compliance officer's diff lists only their concessionaire's rounds", async () => {
    const page = await logIn(f.tokens.officerA);
    await compare(page, 'J11');
    const rounds = await page.getByTestId('what-if-rounds').locator('li').allInnerTexts();
    const api = await f.app.inject({
      url: `/v1/what-if?readings=J11=ALT&from=${day}&to=${day}`,
      headers: { authorization: `Bearer ${f.tokens.officerB}` },
    });
    const theirs = new Set(api.json().changed.map((c: { roundId: string }) => c.roundId));
    assert.ok(theirs.size > 0);
    assert.ok(rounds.every((text) => ![...theirs].some((id) => text.includes(id as string))));
    await page.context().close();
  });
});
