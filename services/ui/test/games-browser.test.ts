/**
 * Every game's round page in a real browser (Debian's Chromium driven by playwright-core) over the API on
 * loopback, over one store with CRAPS, 13 Cards and Mah-Jong tables beside F3CP (simulated with labelled faults,
 * ingested, replayed): a CRAPS throw shows the dice, the point before and after and the bets on the layout; a
 * 13 Cards round each place's tiers as played beside the solver's best and the banker's, points per tier; a
 * Mah-Jong deal the walls, the dice, the break and who received which tiles, under the scope notice, which the
 * incident search shows too when it lists Mah-Jong. Each page's timeline is in Macau time and its findings cite
 * articles with their text. Screenshots go to services/ui/test-artifacts/ui/ (git-ignored). Without Chromium the
 * test is skipped, saying so, except under CI=true, where it fails.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { bearer, everyOtherGame, fixture, type Fixture } from '../../api/test/fixture.ts';
import { uiPlugin } from '../src/index.ts';
import { ARTIFACTS, launchChromium, skip } from './chromium.ts';

describe('every game’s round page in Chromium', { skip, timeout: 90_000 }, () => {
  let f: Fixture;
  let base: string;
  let browser: Browser;
  let page: Page;

  before(async () => {
    f = await fixture({
      ui: uiPlugin(),
      tables: 1,
      roundsPerTable: 3,
      otherGames: everyOtherGame(1),
    });
    base = `${await f.app.listen({ port: 0, host: '127.0.0.1' })}/ui`;
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // nothing may leave loopback
    await context.route(
      (url) => url.hostname !== '127.0.0.1',
      (route) => route.abort(),
    );
    page = await context.newPage();
    await page.goto(`${base}/login`);
    await page.getByLabel('Your API token').fill(f.tokens.inspector);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${base}/alerts`);
  });
  after(async () => {
    await browser?.close();
    await f?.close();
  });

  const shot = (name: string) =>
    page.screenshot({ path: new URL(`${name}.png`, ARTIFACTS).pathname, fullPage: true });

  /** The rounds of a game that have a finding, and the first whose replay `accept`s, opened in the browser. */
  async function openDisputed(game: string, accept: (derivation: Record<string, unknown>) => boolean) {
    const items = (
      await f.app.inject({ url: `/v1/findings?game=${game}&limit=200`, headers: bearer(f.tokens.inspector) })
    ).json().items as { roundId: string | null }[];
    for (const roundId of new Set(items.map((x) => x.roundId))) {
      if (roundId === null) continue;
      const r = await f.app.inject({
        url: `/v1/rounds/${encodeURIComponent(roundId)}/replay`,
        headers: bearer(f.tokens.inspector),
      });
      if (r.statusCode !== 200 || !accept(r.json().derivation)) continue;
      const res = await page.goto(`${base}/rounds/${encodeURIComponent(roundId)}`);
      assert.equal(res!.status(), 200);
      return { roundId, body: r.json() };
    }
    throw new Error(`no ${game} round with a finding to open`);
  }

  /** What every game's page shows: the timeline in Macau time, findings citing articles with their PT text. */
  async function assertCommon(steps: number) {
    assert.match(await page.getByRole('heading', { name: /Timeline/ }).innerText(), /Macau time, UTC\+8/);
    assert.equal(await page.getByTestId('timeline').locator('tbody tr').count(), steps, 'one row per event');
    assert.match(
      await page.getByTestId('timeline').locator('tbody tr').first().innerText(),
      /\d{2}:\d{2}:\d{2}/,
    );
    assert.ok((await page.getByTestId('finding').count()) >= 1, 'the findings');
    const pt = page.getByTestId('finding').first().locator('blockquote.law[lang="pt"]').first();
    assert.ok(await pt.isVisible(), 'the Portuguese text of an article cited');
    assert.ok((await pt.innerText()).length > 20);
  }

  it('draws a CRAPS throw: the dice, the point before and after, the bets on the layout and their resolution', async () => {
    const { body } = await openDisputed(
      'CRAPS',
      (d) => Array.isArray(d['lines']) && (d['lines'] as unknown[]).length > 0,
    );
    const d = body.derivation;
    assert.match(await page.getByTestId('game').innerText(), /CRAPS/);
    assert.equal(await page.getByTestId('dice').locator('.die').count(), 2);
    assert.equal(
      await page.getByTestId('point-before').innerText(),
      d.pointBefore === null ? 'OFF' : `ON ${d.pointBefore}`,
    );
    assert.equal(
      await page.getByTestId('point-after').innerText(),
      d.pointAfter === null ? 'OFF' : `ON ${d.pointAfter}`,
    );
    assert.equal(
      await page.getByTestId('layout').locator('.chip').count(),
      d.lines.length,
      'every bet on the layout',
    );
    assert.equal(await page.getByTestId('settlement').locator('tbody tr').count(), d.lines.length);
    assert.match(await page.getByTestId('settlement').innerText(), /MOP \d/);
    await assertCommon(d.steps.length);
    await shot('round-craps');
  });

  it('draws a 13 Cards round: the places’ tiers as played, the solver’s best, the banker’s, points per tier', async () => {
    const { body } = await openDisputed(
      'THIRTEEN_CARDS',
      (d) => d['banker'] !== undefined && d['banker'] !== null,
    );
    const d = body.derivation;
    assert.match(await page.getByTestId('game').innerText(), /13 Cards/);
    assert.equal(
      await page.getByTestId('banker-tiers').locator('.card').count(),
      13,
      'the banker’s 13 cards',
    );
    for (const p of d.places as {
      place: number;
      tiers: unknown;
      best: unknown;
      result: { reason: string } | null;
    }[]) {
      const place = page.getByTestId(`place-${p.place}`);
      if (p.tiers) assert.equal(await place.getByTestId(`played-${p.place}`).locator('.card').count(), 13);
      if (p.best) assert.equal(await place.getByTestId(`best-tiers-${p.place}`).locator('.card').count(), 13);
      if (p.result?.reason === 'points')
        assert.equal(
          await place.getByTestId(`played-${p.place}`).locator('td.points').count(),
          3,
          'points per tier',
        );
    }
    assert.match(await page.getByTestId('dice').innerText(), /first card to/);
    assert.match(await page.locator('main').innerText(), /interpretations T1/);
    await assertCommon(d.steps.length);
    await shot('round-thirteen');
  });

  it('draws a Mah-Jong deal under the scope notice: walls, dice, break, who received which tiles', async () => {
    const { body } = await openDisputed('MAHJONG', (d) => d['deal'] !== null);
    const d = body.derivation;
    const notice = page.getByTestId('scope-notice');
    assert.ok(await notice.isVisible(), 'the scope notice is shown');
    assert.match(await notice.innerText(), /out of scope until the rest of the regulation is available/);
    assert.equal(await page.getByTestId('walls').locator('li.stack').count(), 68, 'four walls of 17 stacks');
    assert.equal(
      await page
        .getByTestId('dice')
        .innerText()
        .then((t) => t.includes(`= ${d.deal.dice.sum}`)),
      true,
    );
    assert.match(await page.getByTestId('break').innerText(), /stack/);
    assert.equal(await page.getByTestId('turns').locator('tbody tr').count(), d.deal.turns.length);
    for (const h of d.deal.hands as { seat: string; count: number }[])
      assert.equal(await page.getByTestId(`hand-${h.seat}`).locator('.tile').count(), h.count, h.seat);
    await assertCommon(d.steps.length);
    await shot('round-mahjong');
    // the incident search, filtered to Mah-Jong, says the same
    await page.goto(`${base}/incidents?game=MAHJONG`);
    assert.ok(await page.getByTestId('scope-notice').isVisible(), 'the notice on the Mah-Jong filter');
    await shot('incidents-mahjong');
    await page.goto(`${base}/incidents?game=CRAPS`);
    assert.equal(await page.getByTestId('scope-notice').count(), 0, 'no notice for another game');
  });
});
