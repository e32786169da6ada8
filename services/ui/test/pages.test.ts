/**
 * The UI without a browser: its pure parts (escaping, cookies, forms to API bodies, charts' data, cards, which
 * actions a page offers), and its routes through app.inject over a simulated session (login, sessions, tenancy,
 * refusals, escaping of what users wrote).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AlertState } from '@table-audit/api';
import { bearer, fixture, type Fixture } from '../../api/test/fixture.ts';
import { macauLabel, seriesChart, tickStep, type ChartJson } from '../src/charts.ts';
import { html, query } from '../src/html.ts';
import { uiPlugin } from '../src/index.ts';
import { possibleCommands } from '../src/pages/alert.ts';
import { filtersOf } from '../src/pages/findings.ts';
import { whatIfPage, type RunJson } from '../src/pages/what-if.ts';
import { card, declaredNet } from '../src/pages/round.ts';
import { commandBody, cookieValue, SESSION_COOKIE } from '../src/plugin.ts';

/** Markup with its layout whitespace taken out (prettier lays out the html templates; browsers collapse it). */
const squash = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    .replace(/\s*>\s*/g, '>')
    .replace(/\s*<\s*/g, '<');

describe('UI parts', () => {
  it('escapes every interpolated value unless it is markup the UI made', () => {
    const comment = `<script>alert("x")</script>&'`;
    assert.equal(
      html`<p title="${comment}">${comment}</p>`.text,
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</p>',
    );
    assert.equal(
      squash(
        html`<ul>
          ${['a<', html`<li>b</li>`]}
        </ul>`.text,
      ),
      '<ul>a&lt;<li>b</li></ul>',
    );
    assert.equal(html`${null}${undefined}${false}${0}`.text, '0');
    assert.equal(query({ a: 'x y', b: '', c: null, d: 2 }), '?a=x+y&d=2');
    assert.equal(query({}), '');
  });

  it('reads its session cookie among others, and nothing from a header too long or without it', () => {
    assert.equal(cookieValue(`a=1; ${SESSION_COOKIE}=abc.def; b=2`, SESSION_COOKIE), 'abc.def');
    assert.equal(cookieValue('a=1', SESSION_COOKIE), null);
    assert.equal(cookieValue(`${SESSION_COOKIE}=%E0%A4%A`, SESSION_COOKIE), null);
    assert.equal(cookieValue(undefined, SESSION_COOKIE), null);
    assert.equal(cookieValue(`${SESSION_COOKIE}=${'x'.repeat(20_000)}`, SESSION_COOKIE), null);
  });

  it('turns each workflow form into the API body, leaving empty optional fields out', () => {
    assert.deepEqual(commandBody('acknowledge', { note: '  ' }), {});
    assert.deepEqual(commandBody('acknowledge', { note: ' seen ' }), { note: 'seen' });
    assert.deepEqual(commandBody('assign', { assignee: '' }), { assignee: null });
    assert.deepEqual(commandBody('assign', { assignee: 'officer-b' }), { assignee: 'officer-b' });
    assert.deepEqual(commandBody('resolve', { disposition: 'referred', comment: 'to DICJ' }), {
      disposition: 'referred',
      comment: 'to DICJ',
    });
    assert.deepEqual(commandBody('reopen', { reason: 'again' }), { reason: 'again' });
    assert.equal(commandBody('delete', {}), null);
  });

  it('passes on only the filters the API knows, trimmed and bounded', () => {
    assert.deepEqual(
      filtersOf({ severity: ' high ', casino: '', limit: '5', x: 'y', tableId: 'T'.repeat(300) }),
      {
        severity: 'high',
        tableId: 'T'.repeat(200),
      },
    );
  });

  it('passes the workflow filters on to the alert list only', () => {
    const q = { status: 'resolved', assignee: ' officer-c ', disposition: 'referred', severity: 'low' };
    assert.deepEqual(filtersOf(q, true), {
      severity: 'low',
      status: 'resolved',
      assignee: 'officer-c',
      disposition: 'referred',
    });
    assert.deepEqual(filtersOf(q), { severity: 'low' });
  });

  it('labels chart buckets in Macau time (UTC+8): 16:00 UTC is the next Macau day', () => {
    assert.equal(macauLabel(Date.parse('2025-11-20T16:00:00Z'), 86_400), '11-21');
    assert.equal(macauLabel(Date.parse('2025-11-20T00:00:00Z'), 86_400), '11-20 08:00');
    assert.equal(macauLabel(Date.parse('2025-12-01T04:00:00Z'), 3_600), '12-01 12:00');
  });

  it('stacks each series per bucket, and gives the same numbers as a table', () => {
    const hour = Date.parse('2025-12-01T04:00:00Z');
    const chart: ChartJson = {
      chart: 'payout-discrepancies',
      panel: { id: 'p', title: 'Payout discrepancies', description: '' },
      unit: 'avos',
      from: hour,
      to: hour + 7_200_000,
      fromMacau: '',
      toMacau: '',
      intervalSeconds: 3_600,
      source: 'test',
      series: [
        { name: 'overpaid', points: [{ time: hour, value: 10_000 }] },
        {
          name: 'underpaid',
          points: [
            { time: hour, value: 2_500 },
            { time: hour + 3_600_000, value: 500 },
          ],
        },
      ],
    };
    const text = seriesChart(chart, 'Discrepancies', 'chart-x', (v) => `MOP ${(v / 100).toFixed(2)}`).text;
    assert.equal((text.match(/<rect\s/g) ?? []).length, 3, 'one bar part per non-zero value');
    assert.match(text, /<title>12-01 12:00: overpaid MOP 100\.00<\/title>/);
    assert.match(
      text,
      /<th scope="row">12-01 13:00<\/th>\s*<td class="num">MOP 0\.00<\/td>\s*<td class="num">MOP 5\.00<\/td>/,
    );
    assert.match(seriesChart({ ...chart, series: [] }, 'Empty', 'e', String).text, /Nothing in this range/);
  });

  it('chooses chart ticks of 1, 2 or 5 × 10^k', () => {
    assert.deepEqual([0, 3, 5, 7, 54, 230, 9_999].map(tickStep), [1, 1, 1, 2, 20, 50, 2_000]);
  });

  it('draws cards with their names for screen readers, and anything else as given', () => {
    assert.equal(
      squash(card('Th').text),
      '<span class="card red" role="img" aria-label="ten of hearts">10♥</span>',
    );
    assert.match(squash(card('As').text), /aria-label="ace of spades">A♠/);
    assert.equal(squash(card('<b>').text), '<span class="card unknown">&lt;b&gt;</span>');
    assert.equal(squash(card('1s').text), '<span class="card unknown">1s</span>');
  });

  it('counts a declared payout and collection as the change to the player', () => {
    assert.equal(declaredNet({ payout: 0, collected: 10_000 }), -10_000);
    assert.equal(declaredNet({ payout: 110_000, collected: 0 }), 110_000);
  });

  it('offers the actions the API’s decider allows the role in the state', () => {
    const open: AlertState = {
      status: 'open',
      assignee: null,
      disposition: null,
      reopened: 0,
      lastChangedAt: null,
      lastChangedBy: null,
    };
    const officer = { subject: 'o', role: 'compliance_officer' as const, concessionaire: 'SJM Resorts' };
    assert.deepEqual(possibleCommands(open, officer, 'A'), ['acknowledge', 'assign', 'comment', 'resolve']);
    assert.deepEqual(
      possibleCommands({ ...open, status: 'resolved', disposition: 'confirmed' }, officer, 'A'),
      ['comment', 'reopen'],
    );
    assert.deepEqual(possibleCommands({ ...open, status: 'acknowledged', assignee: 'o' }, officer, 'A'), [
      'assign',
      'comment',
      'resolve',
    ]);
    const inspector = { subject: 'i', role: 'inspector' as const, concessionaire: null };
    assert.deepEqual(possibleCommands(open, inspector, 'A'), ['comment']);
    assert.deepEqual(possibleCommands(open, { ...inspector, role: 'auditor' }, 'A'), []);
  });
});

describe('the what-if run page', () => {
  const me = { subject: 'inspector-1', role: 'inspector' as const, concessionaire: null };
  const run = (over: Partial<RunJson>): RunJson => ({
    id: 'b3f2c1d0-0000-4000-8000-000000000001',
    status: 'running',
    readings: [{ key: 'J3:2', label: 'J3=ALT2' }],
    scope: { from: '2025-12-01', to: '2025-12-31', tableId: 'MAC-F3CP-001' },
    progress: { eventsRead: 1_234_567, eventsTotal: 70_000_000, fraction: 0.017 },
    queuePosition: null,
    queuedAt: Date.UTC(2025, 11, 1, 4, 0, 0),
    startedAt: Date.UTC(2025, 11, 1, 4, 0, 1),
    finishedAt: null,
    error: null,
    report: null,
    ...over,
  });
  const pageOf = (r: RunJson) =>
    squash(
      whatIfPage(
        me,
        [],
        { provision: 'J3', reading: 'ALT2', from: r.scope.from, to: r.scope.to, table: 'MAC-F3CP-001' },
        r,
        null,
      ).text,
    );

  it('a running run: how far it has read, a progress bar, when it started (Macau time), a cancel button', () => {
    const text = pageOf(run({}));
    assert.match(text, /data-status="running"/);
    assert.match(text, /1,234,567 of 70,000,000 events of the store read \(1\.7%\)/);
    assert.match(text, /<progress data-testid="what-if-progress" max="1" value="0\.017">/);
    assert.match(text, /started at 2025-12-01 12:00:01\.000/);
    assert.match(
      text,
      /<form method="post" action="\/ui\/what-if\/runs\/b3f2c1d0-0000-4000-8000-000000000001\/cancel"/,
    );
    assert.doesNotMatch(text, /what-if-report/);
  });

  it('a queued run says where it waits; a failed one says why; neither shows a report', () => {
    const queued = pageOf(run({ status: 'queued', queuePosition: 3, startedAt: null }));
    assert.match(queued, /number 3 in the queue/);
    assert.match(queued, /Cancel this comparison/);
    const failed = pageOf(
      run({ status: 'failed', error: 'the store file is gone', finishedAt: Date.UTC(2025, 11, 1, 4, 0, 2) }),
    );
    assert.match(failed, /The comparison failed: the store file is gone/);
    assert.doesNotMatch(failed, /Cancel this comparison|what-if-report/);
  });

  it('an interrupted run (the API stopped while it went on) says why, and that it can be started again', () => {
    const at = Date.UTC(2025, 11, 1, 4, 0, 3);
    const text = pageOf(
      run({
        status: 'interrupted',
        finishedAt: at,
        interrupted: { at, reason: 'the API was stopped while this run was running' },
      }),
    );
    assert.match(text, /data-status="interrupted"/);
    assert.match(text, /This comparison was interrupted: the API was stopped while this run was running/);
    assert.match(text, /ended at 2025-12-01 12:00:03\.000/);
    assert.doesNotMatch(text, /Cancel this comparison|what-if-report/);
  });
});

describe('UI routes (inject)', () => {
  let f: Fixture;
  let alertA: { alertId: string; finding: { roundId: string } };
  let roundB: string;
  before(async () => {
    f = await fixture({ ui: uiPlugin(), tables: 12, roundsPerTable: 15 });
    const alerts = async (token: string) =>
      (await f.app.inject({ url: '/v1/alerts?limit=200', headers: bearer(token) }))
        .json()
        .items.filter((a: { finding: { roundId: string | null } }) => a.finding.roundId !== null);
    alertA = (await alerts(f.tokens.officerA))[0];
    roundB = (await alerts(f.tokens.officerB))[0].finding.roundId;
  });
  after(() => f.close());

  const login = async (token: string) => {
    const res = await f.app.inject({
      method: 'POST',
      url: '/ui/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'localhost' },
      payload: new URLSearchParams({ token }).toString(),
    });
    return res;
  };
  const cookieOf = async (token: string) => {
    const res = await login(token);
    assert.equal(res.statusCode, 303);
    return String(res.headers['set-cookie']).split(';')[0]!;
  };

  it('sends a caller without a session to the login page, and logs in with a token', async () => {
    const res = await f.app.inject({ url: '/ui/alerts' });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/ui/login');
    const ok = await login(f.tokens.officerA);
    assert.equal(ok.headers.location, '/ui/alerts');
    const cookie = String(ok.headers['set-cookie']);
    assert.match(cookie, new RegExp(`^${SESSION_COOKIE}=`));
    for (const attribute of ['HttpOnly', 'SameSite=Strict', 'Path=/ui'])
      assert.ok(cookie.includes(attribute), cookie);
    const inbox = await f.app.inject({ url: '/ui/alerts', headers: { cookie: cookie.split(';')[0]! } });
    assert.equal(inbox.statusCode, 200);
    assert.match(inbox.headers['content-type'] as string, /^text\/html/);
    assert.match(inbox.headers['content-security-policy'] as string, /default-src 'none'/);
    assert.match(squash(inbox.body), /officer-a · compliance officer · SJM Resorts/);
  });

  it('refuses a bad token with the API’s reason, and ends a session whose token no longer passes', async () => {
    const bad = await login('eyJhbGciOiJFZERTQSJ9.e30.c2ln');
    assert.equal(bad.statusCode, 401);
    assert.match(bad.body, /The API refused this token: the token/);
    const res = await f.app.inject({
      url: '/ui/incidents',
      headers: { cookie: `${SESSION_COOKIE}=garbage` },
    });
    assert.equal(res.statusCode, 303);
    assert.match(res.headers.location as string, /^\/ui\/login\?problem=/);
    assert.match(String(res.headers['set-cookie']), /Max-Age=0/);
  });

  it('starts a what-if run from the form, and shows it until done (reloading while it goes on)', async () => {
    const cookie = await cookieOf(f.tokens.inspector);
    const form = (from: string, origin?: string) =>
      f.app.inject({
        method: 'POST',
        url: '/ui/what-if/runs',
        headers: {
          cookie,
          host: 'localhost',
          'content-type': 'application/x-www-form-urlencoded',
          ...(origin ? { origin } : {}),
        },
        payload: new URLSearchParams({ provision: 'J11', reading: 'ALT', from, to: '2025-12-01' }).toString(),
      });
    assert.equal((await form('2025-12-01', 'https://evil.example')).statusCode, 403);
    const missing = await form('');
    assert.equal(missing.statusCode, 400);
    assert.match(missing.body, /Choose the first date/);
    const long = await form('2025-01-01');
    assert.equal(long.statusCode, 400);
    assert.match(long.body, /at most 31/);
    const made = await form('2025-12-01');
    assert.equal(made.statusCode, 303);
    const at = String(made.headers.location);
    assert.match(at, /^\/ui\/what-if\/runs\/[0-9a-f-]{36}$/);
    for (;;) {
      const res = await f.app.inject({ url: at, headers: { cookie } });
      assert.equal(res.statusCode, 200);
      if (res.headers.refresh === undefined) {
        assert.match(res.body, /data-testid="what-if-report"/);
        assert.match(res.body, /\/export\?format=pdf/);
        break;
      }
      assert.equal(res.headers.refresh, '2');
      assert.match(res.body, /data-status="(queued|running)"/);
      await new Promise((r) => setTimeout(r, 20));
    }
    const json = await f.app.inject({ url: `${at}/export?format=json`, headers: { cookie } });
    assert.equal(json.statusCode, 200);
    assert.ok(json.json().roundsCompared > 0);
    // cancelling a run that is done: back to its page, which still shows the report
    const cancel = await f.app.inject({
      method: 'POST',
      url: `${at}/cancel`,
      headers: { cookie, host: 'localhost', 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    assert.equal(cancel.statusCode, 303);
    assert.equal(cancel.headers.location, at);
    // another concessionaire's officer: no such run
    const other = await cookieOf(f.tokens.officerB);
    assert.equal((await f.app.inject({ url: at, headers: { cookie: other } })).statusCode, 404);
  });

  it('refuses forms posted from another origin', async () => {
    const cookie = await cookieOf(f.tokens.officerA);
    const res = await f.app.inject({
      method: 'POST',
      url: `/ui/alerts/${alertA.alertId}/comment`,
      headers: {
        cookie,
        host: 'localhost',
        origin: 'https://evil.example',
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'comment=hello',
    });
    assert.equal(res.statusCode, 403);
    const api = await f.app.inject({
      url: `/v1/alerts/${alertA.alertId}`,
      headers: bearer(f.tokens.officerA),
    });
    assert.equal(api.json().history.length, 0, 'nothing was appended');
  });

  it('shows what users wrote escaped, and a refused action with its status and reason', async () => {
    const cookie = await cookieOf(f.tokens.officerA);
    const post = (action: string, payload: string) =>
      f.app.inject({
        method: 'POST',
        url: `/ui/alerts/${alertA.alertId}/${action}`,
        headers: { cookie, host: 'localhost', 'content-type': 'application/x-www-form-urlencoded' },
        payload,
      });
    const done = await post(
      'comment',
      new URLSearchParams({ comment: '<img src=x onerror=alert(1)>' }).toString(),
    );
    assert.equal(done.statusCode, 303);
    const page = await f.app.inject({ url: `/ui/alerts/${alertA.alertId}`, headers: { cookie } });
    assert.ok(page.body.includes('&lt;img src=x onerror=alert(1)&gt;'));
    assert.ok(!page.body.includes('<img src=x'));
    const refused = await post('reopen', 'reason=not+resolved+yet');
    assert.equal(refused.statusCode, 409);
    assert.match(refused.body, /Not done: cannot reopen alert .*: it is open/);
    const unknown = await post('delete', '');
    assert.equal(unknown.statusCode, 404);
  });

  it('filters the inbox on the workflow state', async () => {
    const cookie = await cookieOf(f.tokens.officerA);
    const acked = await f.app.inject({
      method: 'POST',
      url: `/ui/alerts/${alertA.alertId}/acknowledge`,
      headers: { cookie, host: 'localhost', 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    assert.equal(acked.statusCode, 303, acked.body);
    const page = await f.app.inject({ url: '/ui/alerts?status=acknowledged', headers: { cookie } });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Alerts \(1\)/);
    assert.ok(page.body.includes(`/ui/alerts/${alertA.alertId}"`));
    assert.match(page.body, /<option selected>acknowledged<\/option>/);
    const bad = await f.app.inject({ url: '/ui/alerts?status=closed', headers: { cookie } });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.body, /querystring\/status/);
  });

  it('answers another concessionaire’s round as not found, as an HTML page', async () => {
    const cookie = await cookieOf(f.tokens.officerA);
    const res = await f.app.inject({ url: `/ui/rounds/${roundB}`, headers: { cookie } });
    assert.equal(res.statusCode, 404);
    assert.match(res.body, /<h1>Not found<\/h1>/);
    assert.match(res.body, new RegExp(`no round ${roundB}`));
    const own = await f.app.inject({ url: `/ui/rounds/${alertA.finding.roundId}`, headers: { cookie } });
    assert.equal(own.statusCode, 200);
    assert.match(own.body, /Timeline \(Macau time, UTC\+8\)/);
  });

  it('passes evidence exports through from the API, within the caller’s scope', async () => {
    const cookie = await cookieOf(f.tokens.officerA);
    const json = await f.app.inject({
      url: `/ui/rounds/${alertA.finding.roundId}/evidence?format=json`,
      headers: { cookie },
    });
    assert.equal(json.statusCode, 200);
    assert.match(json.headers['content-disposition'] as string, /^attachment; filename=".+\.json"$/);
    assert.equal(json.json().subject.id, alertA.finding.roundId);
    const pdf = await f.app.inject({
      url: `/ui/alerts/${alertA.alertId}/evidence?format=pdf`,
      headers: { cookie },
    });
    assert.equal(pdf.statusCode, 200);
    assert.equal(pdf.headers['content-type'], 'application/pdf');
    assert.equal(pdf.rawPayload.subarray(0, 5).toString('latin1'), '%PDF-');
    const other = await f.app.inject({
      url: `/ui/rounds/${roundB}/evidence?format=json`,
      headers: { cookie },
    });
    assert.equal(other.statusCode, 404);
    assert.match(other.body, /<h1>Not found<\/h1>/);
  });

  it('serves its assets and a 404 page for anything else under /ui', async () => {
    const js = await f.app.inject({ url: '/ui/assets/ui.js' });
    assert.equal(js.statusCode, 200);
    assert.match(js.headers['content-type'] as string, /^text\/javascript/);
    assert.equal((await f.app.inject({ url: '/ui/assets/../../etc/passwd' })).statusCode, 404);
    const missing = await f.app.inject({ url: '/ui/nowhere' });
    assert.equal(missing.statusCode, 404);
    assert.match(missing.body, /no page \/ui\/nowhere/);
  });
});
