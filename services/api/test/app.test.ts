/** The app's plumbing and reads: health, OpenAPI, metrics, limits, filters and paging, the disputed hand. */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../src/app.ts';
import { parseMacauTime } from '../src/time.ts';
import { bearer, fixture, type Fixture } from './fixture.ts';

let f: Fixture;
before(async () => {
  f = await fixture();
});
after(() => f.close());

const get = (url: string, token = f.tokens.inspector) => f.app.inject({ url, headers: bearer(token) });

interface Item {
  findingId: string;
  eventTime: number;
  casino: string;
  dealerId: string | null;
  players: string[];
  severity: string;
  roundId: string | null;
}

async function allPages(query: string, limit: number): Promise<{ items: Item[]; total: number }> {
  const items: Item[] = [];
  let cursor: string | null = null;
  let total = -1;
  do {
    const r = await get(`/v1/findings?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    assert.equal(r.statusCode, 200, r.body);
    const body = r.json();
    if (total >= 0) assert.equal(body.total, total, 'the count is the same on every page');
    total = body.total;
    items.push(...body.items);
    cursor = body.nextCursor;
  } while (cursor);
  return { items, total };
}

describe('Macau time', () => {
  it('reads dates and times as Macau time unless they give a zone, and refuses impossible ones', () => {
    assert.equal(parseMacauTime('2025-11-20'), Date.UTC(2025, 10, 19, 16));
    assert.equal(parseMacauTime('2025-11-20T14:03'), Date.UTC(2025, 10, 20, 6, 3));
    assert.equal(parseMacauTime('2025-11-20T14:03:07.25'), Date.UTC(2025, 10, 20, 6, 3, 7, 250));
    assert.equal(parseMacauTime('2025-11-20T14:03Z'), Date.UTC(2025, 10, 20, 14, 3));
    assert.equal(parseMacauTime('2025-11-20T14:03-01:30'), Date.UTC(2025, 10, 20, 15, 33));
    for (const bad of ['2025-02-30', '2025-11-20T24:00', '2025-11-20T12:60', '20251120', '2025-11-20 14:03'])
      assert.equal(parseMacauTime(bad), null, bad);
  });
});

describe('health, documentation and metrics', () => {
  it('is live and ready, and says what is not ready (503)', async () => {
    assert.equal((await f.app.inject({ url: '/health/live' })).statusCode, 200);
    const ready = await f.app.inject({ url: '/health/ready' });
    assert.equal(ready.statusCode, 200);
    const failing = await buildApp({
      store: f.store,
      auth: { tokenKey: f.key },
      readiness: [{ name: 'clickhouse', ping: () => Promise.reject(new Error('connection refused')) }],
    });
    try {
      const r = await failing.inject({ url: '/health/ready' });
      assert.equal(r.statusCode, 503);
      assert.deepEqual(
        r.json().checks.find((c: { name: string }) => c.name === 'clickhouse'),
        { name: 'clickhouse', ok: false, error: 'connection refused' },
      );
    } finally {
      await failing.close();
    }
  });

  it('serves an OpenAPI 3 document of every route and a browsable page with no CDN', async () => {
    const doc = (await f.app.inject({ url: '/openapi.json' })).json();
    assert.match(doc.openapi, /^3\./);
    for (const path of ['/v1/findings', '/v1/alerts/{alertId}/resolve', '/v1/rounds/{roundId}/replay'])
      assert.ok(doc.paths[path], path);
    assert.ok(doc.paths['/v1/findings'].get.parameters.some((p: { name: string }) => p.name === 'dealerId'));
    const page = await f.app.inject({ url: '/docs/' });
    assert.equal(page.statusCode, 200);
    assert.doesNotMatch(
      page.body,
      /https?:\/\/(?!localhost)[^"']*\.(js|css)/,
      'assets come from this server',
    );
    assert.equal((await f.app.inject({ url: '/docs/static/swagger-ui-bundle.js' })).statusCode, 200);
  });

  it('counts requests in Prometheus metrics and gives each response its request id', async () => {
    const r = await get('/v1/findings?limit=1');
    assert.match(String(r.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    const metrics = (await f.app.inject({ url: '/metrics' })).body;
    assert.match(
      metrics,
      /table_audit_api_request_duration_seconds_count\{method="GET",route="\/v1\/findings",status_code="200"\} [1-9]/,
    );
    assert.match(metrics, /process_cpu_user_seconds_total/);
  });
});

describe('structured logs', () => {
  it('logs each request as JSON (pino) with the request id the response carries', async () => {
    const lines: string[] = [];
    const stream = { write: (line: string) => void lines.push(line) };
    const logged = await buildApp({
      store: f.store,
      auth: { tokenKey: f.key },
      logger: { level: 'info', stream },
    });
    try {
      const r = await logged.inject({ url: '/v1/findings?limit=1', headers: bearer(f.tokens.auditor) });
      assert.equal(r.statusCode, 200);
      const id = String(r.headers['x-request-id']);
      const mine = lines.map((l) => JSON.parse(l) as { reqId?: string; msg?: string; res?: unknown });
      const ofRequest = mine.filter((l) => l.reqId === id);
      assert.ok(
        ofRequest.some((l) => l.msg === 'incoming request'),
        JSON.stringify(mine),
      );
      assert.ok(ofRequest.some((l) => l.msg === 'request completed' && l.res !== undefined));
      // a caller cannot choose its request id
      const chosen = await logged.inject({ url: '/health/live', headers: { 'request-id': 'mine' } });
      assert.notEqual(chosen.headers['x-request-id'], 'mine');
    } finally {
      await logged.close();
    }
  });
});

describe('bad input', () => {
  it('names the parameter that is wrong (400)', async () => {
    for (const [query, name] of [
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
      ['limit=ten', 'limit'],
      ['severity=urgent', 'severity'],
      ['from=2025-02-30', 'from'],
      ['from=yesterday', 'from'],
      ['from=2025-11-20&to=2025-11-19', 'to'],
      ['from=2025-01-01&to=2025-12-31', 'from..to'],
      ['cursor=bm90LWEtY3Vyc29y', 'cursor'],
      ['game=f3cp;', 'game'],
    ]) {
      const r = await get(`/v1/findings?${query}`);
      assert.equal(r.statusCode, 400, query);
      assert.match(r.json().message, new RegExp(name!.replace('.', '\\.')), `${query}: ${r.json().message}`);
    }
  });

  it('refuses a body over the limit (413), malformed JSON (400) and other media types (415)', async () => {
    const url = '/v1/alerts/x/comment';
    const headers = { ...bearer(f.tokens.officerA), 'content-type': 'application/json' };
    const big = await f.app.inject({
      method: 'POST',
      url,
      headers,
      payload: JSON.stringify({ comment: 'x'.repeat(70_000) }),
    });
    assert.equal(big.statusCode, 413);
    const malformed = await f.app.inject({ method: 'POST', url, headers, payload: '{"comment": ' });
    assert.equal(malformed.statusCode, 400);
    assert.match(malformed.json().message, /JSON/);
    const xml = await f.app.inject({
      method: 'POST',
      url,
      headers: { ...bearer(f.tokens.officerA), 'content-type': 'application/xml' },
      payload: '<comment/>',
    });
    assert.equal(xml.statusCode, 415);
  });

  it('limits the rate per caller (429), each caller on its own', async () => {
    const limited = await buildApp({ store: f.store, auth: { tokenKey: f.key }, rateLimitPerMinute: 3 });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 4; i++)
        codes.push((await limited.inject({ url: '/v1/me', headers: bearer(f.tokens.auditor) })).statusCode);
      assert.deepEqual(codes, [200, 200, 200, 429]);
      assert.equal(
        (await limited.inject({ url: '/v1/me', headers: bearer(f.tokens.inspector) })).statusCode,
        200,
      );
    } finally {
      await limited.close();
    }
  });
});

describe('findings', () => {
  it('pages with stable cursors: every finding once, newest first, the same count on every page', async () => {
    const whole = await allPages('', 200);
    const paged = await allPages('', 7);
    assert.ok(whole.total > 14);
    assert.equal(paged.items.length, whole.total);
    assert.deepEqual(
      paged.items.map((x) => x.findingId),
      whole.items.map((x) => x.findingId),
    );
    assert.equal(new Set(paged.items.map((x) => x.findingId)).size, whole.total);
    for (let i = 1; i < whole.items.length; i++)
      assert.ok(whole.items[i - 1]!.eventTime >= whole.items[i]!.eventTime, 'newest first');
  });

  it('filters by casino, severity, dealer, player and Macau time', async () => {
    const { items } = await allPages('', 200);
    const sample = items.find((x) => x.players.length > 0 && x.dealerId !== null)!;
    assert.ok(sample, 'a finding with a player and a dealer');
    for (const [query, keep] of [
      [`casino=${encodeURIComponent(sample.casino)}`, (x: Item) => x.casino === sample.casino],
      [`severity=${sample.severity}`, (x: Item) => x.severity === sample.severity],
      [`dealerId=${encodeURIComponent(sample.dealerId!)}`, (x: Item) => x.dealerId === sample.dealerId],
      [
        `playerId=${encodeURIComponent(sample.players[0]!)}`,
        (x: Item) => x.players.includes(sample.players[0]!),
      ],
    ] as const) {
      const got = await allPages(query, 200);
      assert.deepEqual(
        got.items.map((x) => x.findingId),
        items.filter(keep).map((x) => x.findingId),
        query,
      );
    }
    // a Macau-time window around the sample: "2025-11-20T14:03" means 14:03 in Macau (06:03 UTC)
    const macau = new Date(sample.eventTime + 8 * 3600_000).toISOString().slice(0, 16);
    const from = parseMacauTime(macau)!;
    assert.equal(from, Math.floor(sample.eventTime / 60_000) * 60_000);
    const window = await allPages(
      `from=${macau}&to=${encodeURIComponent(new Date(from + 60_000).toISOString())}`,
      200,
    );
    assert.deepEqual(
      window.items.map((x) => x.findingId),
      items.filter((x) => x.eventTime >= from && x.eventTime < from + 60_000).map((x) => x.findingId),
    );
    assert.ok(window.items.some((x) => x.findingId === sample.findingId));
  });
});

describe('counts', () => {
  it('counts findings by a dimension, within the filter and the caller’s scope', async () => {
    const { items, total } = await allPages('', 200);
    const r = await get('/v1/findings/counts?by=severity');
    assert.equal(r.statusCode, 200, r.body);
    assert.equal(r.json().total, total);
    for (const { value, count } of r.json().counts)
      assert.equal(count, items.filter((x) => x.severity === value).length, String(value));
    const own = await get('/v1/findings/counts?by=concessionaire', f.tokens.officerA);
    assert.deepEqual(
      own.json().counts.map((c: { value: string }) => c.value),
      [f.concessionaireA],
    );
    assert.equal((await get('/v1/findings/counts?by=password')).statusCode, 400);
    assert.equal((await get('/v1/findings/counts')).statusCode, 400);
  });
});

describe('the web UI slot', () => {
  it('serves the UI’s files under /ui/', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ta-api-ui-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>table-audit</title>');
    const withUi = await buildApp({ store: f.store, auth: { tokenKey: f.key }, ui: { root: dir } });
    try {
      const r = await withUi.inject({ url: '/ui/' });
      assert.equal(r.statusCode, 200);
      assert.match(r.body, /<title>table-audit<\/title>/);
      assert.equal((await withUi.inject({ url: '/ui/../../etc/passwd' })).statusCode, 404);
    } finally {
      await withUi.close();
    }
  });
});

describe('disputed hand', () => {
  it('gives the derivation step by step with the PT and ZH text of every cited article and the interpretations', async () => {
    const { items } = await allPages('', 200);
    const roundId = items.find((x) => x.roundId !== null)!.roundId!;
    const r = await get(`/v1/rounds/${encodeURIComponent(roundId)}/replay`, f.tokens.auditor);
    assert.equal(r.statusCode, 200, r.body);
    const body = r.json();
    assert.equal(body.derivation.roundId, roundId);
    assert.ok(body.derivation.steps.length > 3);
    // the community cards, as dealt (CardDealt to COMMUNITY, only in rounds where someone bet the Progressive)
    const community = (d: { steps: { type: string; text: string }[] }) =>
      d.steps
        .filter((s) => s.type === 'CardDealt' && / to community/.test(s.text))
        .map((s) => /: (\S+) to community/.exec(s.text)![1]);
    assert.deepEqual(body.derivation.community, community(body.derivation));
    let withCommunity = 0;
    for (const id of [...new Set(items.map((x) => x.roundId).filter((x) => x !== null))].slice(0, 30)) {
      const d = (await get(`/v1/rounds/${encodeURIComponent(id)}/replay`, f.tokens.auditor)).json()
        .derivation;
      assert.deepEqual(d.community, community(d), id);
      if (d.community.length) withCommunity++;
    }
    assert.ok(withCommunity > 0, 'some rounds deal community cards');
    assert.match(body.text, /Macau time|UTC/);
    assert.ok(body.provisions.length > 0);
    for (const p of body.provisions) {
      assert.ok(p.pt && p.zh, `${p.key} has its PT and ZH text`);
      assert.match(p.reference, /Despacho|Regulamento|Lei/);
    }
    for (const i of body.interpretations) assert.ok(i.reading, `${i.id} is in the register`);
    assert.equal((await get('/v1/rounds/NO-SUCH-ROUND/replay')).statusCode, 404);
    assert.deepEqual(body.alternatives, [], 'the chosen readings');
  });

  it('reads an interpretation the alternative way when asked, says so, and refuses one it cannot (400)', async () => {
    const { items } = await allPages('', 200);
    const roundId = items.find((x) => x.roundId !== null)!.roundId!;
    const url = `/v1/rounds/${encodeURIComponent(roundId)}/replay`;
    const h1 = await get(`${url}?alternative=H1`, f.tokens.auditor);
    assert.equal(h1.statusCode, 200, h1.body);
    assert.deepEqual(
      h1.json().alternatives.map((a: { id: string }) => a.id),
      ['H1'],
    );
    assert.match(h1.json().alternatives[0].reading, /\S/);
    for (const bad of ['J99', "H1' OR 1=1", 'H1&alternative=H1']) {
      const r = await get(`${url}?alternative=${encodeURIComponent(bad)}`, f.tokens.auditor);
      assert.equal(r.statusCode, 400, bad);
      assert.match(r.json().message, /alternative/, bad);
    }
    assert.equal((await get(`${url}?alternative=H1&alternative=H1`, f.tokens.auditor)).statusCode, 400);
  });
});
