/**
 * Issue 10 §3: every route × every role × own and foreign objects (no cross-tenant read, by id, by filter or
 * through paging), token tampering, a wrong key, expiry and missing claims, injection through every filter.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SignJWT, UnsecuredJWT } from 'jose';
import { verify } from '@table-audit/eventstore';
import { issueToken, TOKEN_AUDIENCE, TOKEN_ISSUER } from '../src/index.ts';
import { bearer, fixture, type Fixture } from './fixture.ts';

let f: Fixture;
/** an alert (a finding to work, with a round) of concessionaire A and one of B */
let own: { alertId: string; roundId: string };
let foreign: { alertId: string; roundId: string };

before(async () => {
  f = await fixture();
  const all = await f.app.inject({ url: '/v1/alerts?limit=200', headers: bearer(f.tokens.inspector) });
  const items = all.json().items as {
    finding: { findingId: string; roundId: string | null; concessionaire: string };
  }[];
  const pick = (c: string) => {
    const x = items.find((i) => i.finding.concessionaire === c && i.finding.roundId !== null);
    assert.ok(x, `the simulated session has an alert of ${c}`);
    return { alertId: x.finding.findingId, roundId: x.finding.roundId! };
  };
  own = pick(f.concessionaireA);
  foreign = pick(f.concessionaireB);
});
after(() => f.close());

type Caller = 'inspector' | 'officerA' | 'auditor' | 'machine';
const headersOf = (c: Caller) => (c === 'machine' ? { 'x-api-key': f.machineKey } : bearer(f.tokens[c]));

/** every route that reads one object, for an object of a concessionaire */
const readRoutes = (o: { alertId: string; roundId: string }) => [
  `/v1/findings/${o.alertId}`,
  `/v1/alerts/${o.alertId}`,
  `/v1/rounds/${encodeURIComponent(o.roundId)}/replay`,
  `/v1/rounds/${encodeURIComponent(o.roundId)}/evidence`,
  `/v1/rounds/${encodeURIComponent(o.roundId)}/evidence?format=pdf`,
  `/v1/alerts/${o.alertId}/evidence`,
  `/v1/alerts/${o.alertId}/evidence?format=pdf`,
];

describe('role × route × tenant', () => {
  it('lets every role read every object in its scope, and answers 404 for any other concessionaire’s', async () => {
    for (const caller of ['inspector', 'officerA', 'auditor', 'machine'] as const)
      for (const [whose, o] of [
        ['own', own],
        ['foreign', foreign],
      ] as const)
        for (const url of readRoutes(o)) {
          const r = await f.app.inject({ url, headers: headersOf(caller) });
          const expected = caller === 'officerA' && whose === 'foreign' ? 404 : 200;
          assert.equal(r.statusCode, expected, `${caller} GET ${url} (${whose}): ${r.body.slice(0, 200)}`);
          if (expected === 404)
            assert.doesNotMatch(r.body, new RegExp(f.concessionaireB), 'a 404 says nothing of it');
        }
  });

  it('gives a compliance officer only their concessionaire’s findings and alerts, on every page and by every filter', async () => {
    for (const list of ['/v1/findings', '/v1/alerts']) {
      let cursor: string | null = null;
      let seen = 0;
      do {
        const url: string = `${list}?limit=7${cursor ? `&cursor=${cursor}` : ''}`;
        const r = await f.app.inject({ url, headers: bearer(f.tokens.officerA) });
        assert.equal(r.statusCode, 200, r.body);
        const body = r.json();
        for (const item of body.items) {
          const finding = list === '/v1/alerts' ? item.finding : item;
          assert.equal(
            finding.concessionaire,
            f.concessionaireA,
            `${url} gave another concessionaire's finding`,
          );
          seen++;
        }
        cursor = body.nextCursor;
      } while (cursor);
      assert.ok(seen > 0, `${list}: officer A sees their own`);
      // filters naming another concessionaire's objects find nothing of theirs
      const byConcessionaire = await f.app.inject({
        url: `${list}?concessionaire=${encodeURIComponent(f.concessionaireB)}`,
        headers: bearer(f.tokens.officerA),
      });
      assert.equal(byConcessionaire.statusCode, 404);
      const foreignFinding = (
        await f.app.inject({ url: `/v1/findings/${foreign.alertId}`, headers: bearer(f.tokens.inspector) })
      ).json();
      for (const q of [
        `casino=${encodeURIComponent(foreignFinding.casino)}`,
        `tableId=${encodeURIComponent(foreignFinding.tableId)}`,
        `roundId=${encodeURIComponent(foreign.roundId)}`,
      ]) {
        const r = await f.app.inject({ url: `${list}?${q}`, headers: bearer(f.tokens.officerA) });
        assert.equal(r.statusCode, 200);
        assert.equal(r.json().total, 0, `${list}?${q}`);
        const inspector = await f.app.inject({ url: `${list}?${q}`, headers: bearer(f.tokens.inspector) });
        assert.ok(inspector.json().total > 0, `${list}?${q}: the inspector sees it`);
      }
    }
  });

  it('lets each role do only its workflow actions, and a foreign alert is not found', async () => {
    const act = (caller: Caller, alertId: string, kind: string, body: object) =>
      f.app.inject({
        method: 'POST',
        url: `/v1/alerts/${alertId}/${kind}`,
        headers: headersOf(caller),
        payload: body,
      });
    const bodies: Record<string, object> = {
      acknowledge: {},
      assign: { assignee: 'someone' },
      comment: { comment: 'seen' },
      resolve: { disposition: 'confirmed', comment: 'checked' },
      reopen: { reason: 'again' },
    };
    for (const [kind, body] of Object.entries(bodies)) {
      for (const caller of ['auditor', 'machine'] as const)
        assert.equal((await act(caller, own.alertId, kind, body)).statusCode, 403, `${caller} ${kind}`);
      assert.equal(
        (await act('officerA', foreign.alertId, kind, body)).statusCode,
        404,
        `officerA ${kind} foreign`,
      );
      if (kind !== 'comment')
        assert.equal((await act('inspector', own.alertId, kind, body)).statusCode, 403, `inspector ${kind}`);
    }
    assert.equal((await act('inspector', foreign.alertId, 'comment', bodies.comment!)).statusCode, 200);
    assert.equal((await act('officerA', own.alertId, 'acknowledge', {})).statusCode, 200);
  });
});

describe('tokens', () => {
  const claims = { role: 'inspector' };
  const sign = (key = f.key, payload: Record<string, unknown> = claims, exp: number | string = '1h') =>
    new SignJWT(payload)
      .setProtectedHeader({ alg: 'EdDSA' })
      .setSubject('someone')
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setExpirationTime(exp)
      .sign(key);
  const status = async (headers: Record<string, string>) =>
    (await f.app.inject({ url: '/v1/me', headers })).statusCode;

  it('accepts a well-made token and says who the caller is', async () => {
    const r = await f.app.inject({ url: '/v1/me', headers: bearer(await sign()) });
    assert.equal(r.statusCode, 200);
    assert.deepEqual(r.json(), { subject: 'someone', role: 'inspector', concessionaire: null });
  });

  it('refuses a tampered payload, a wrong key, an expired token, missing claims and unsigned tokens with 401', async () => {
    const good = f.tokens.officerA;
    const [h, p, s] = good.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...payload, concessionaire: f.concessionaireB })).toString(
      'base64url',
    );
    const other = generateKeyPairSync('ed25519').privateKey;
    const cases: [string, string, RegExp][] = [
      ['payload changed', `${h}.${forged}.${s}`, /not signed by this API/],
      ['signature changed', `${h}.${p}.${s!.slice(0, -4)}AAAA`, /not signed|cannot be read/],
      ['another key', await sign(other), /not signed by this API/],
      ['expired', await sign(f.key, claims, Math.floor(Date.now() / 1000) - 3600), /expired/],
      ['no role', await sign(f.key, {}), /role/],
      ['unknown role', await sign(f.key, { role: 'admin' }), /role/],
      ['officer without concessionaire', await sign(f.key, { role: 'compliance_officer' }), /concessionaire/],
      [
        'unsigned (alg none)',
        new UnsecuredJWT(claims)
          .setSubject('x')
          .setIssuer(TOKEN_ISSUER)
          .setAudience(TOKEN_AUDIENCE)
          .setExpirationTime('1h')
          .encode(),
        /EdDSA|cannot be read/,
      ],
      ['garbage', 'not.a.token', /cannot be read/],
    ];
    for (const [what, token, message] of cases) {
      const r = await f.app.inject({ url: '/v1/findings', headers: bearer(token) });
      assert.equal(r.statusCode, 401, what);
      assert.match(r.json().message, message, what);
    }
    const noExp = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'EdDSA' })
      .setSubject('x')
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .sign(f.key);
    assert.equal(await status(bearer(noExp)), 401, 'no exp');
    assert.equal(await status({}), 401, 'no credentials');
    assert.equal(await status({ authorization: 'Basic abc' }), 401, 'not Bearer');
    assert.equal(await status({ 'x-api-key': 'wrong' }), 401, 'unknown API key');
    assert.equal(await status({ 'x-api-key': f.machineKey }), 200, 'the API key');
    assert.equal(
      await status(
        bearer(
          await issueToken(
            f.key,
            { subject: 'x', role: 'auditor', concessionaire: null },
            { expiresInSeconds: 60 },
          ),
        ),
      ),
      200,
    );
  });
});

describe('injection through every filter', () => {
  const attempts = [
    "' OR '1'='1",
    '1; DROP TABLE events; --',
    "SJM Resorts' OR concessionaire != '",
    '{"$ne":null}',
    '../../../../etc/passwd',
    '%00',
    '\u0000',
    'x'.repeat(5000),
    '*',
    '%',
  ];
  const filters = [
    'concessionaire',
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
    'limit',
  ];

  it('answers each attempt with a 400 naming the parameter, or an empty result, never another tenant’s data', async () => {
    for (const list of ['/v1/findings', '/v1/alerts'])
      for (const name of filters)
        for (const value of attempts) {
          const url = `${list}?${name}=${encodeURIComponent(value)}`;
          const r = await f.app.inject({ url, headers: bearer(f.tokens.officerA) });
          assert.ok([200, 400, 404].includes(r.statusCode), `${url}: ${r.statusCode}`);
          if (r.statusCode === 400) assert.match(r.json().message, new RegExp(name), `${url}: names ${name}`);
          if (r.statusCode === 404) assert.equal(name, 'concessionaire');
          if (r.statusCode === 200) assert.equal(r.json().total, 0, `${url} matched something`);
        }
    const report = await verify(f.store);
    assert.equal(report.ok, true, 'the store is intact');
  });

  it('refuses unknown parameters, naming them', async () => {
    const r = await f.app.inject({ url: '/v1/findings?where=1%3D1', headers: bearer(f.tokens.inspector) });
    assert.equal(r.statusCode, 400);
    assert.match(r.json().message, /additional properties|where/);
  });
});
