/** Tokens kept verified: the expiry still holds on every request, a refused token is never kept, and bounds hold. */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { Authenticator, issueToken, TOKEN_AUDIENCE, TOKEN_ISSUER } from '../src/auth.ts';

const T0 = Date.parse('2026-01-05T02:00:00Z');

describe('Authenticator: tokens kept verified', () => {
  it('refuses a kept token once it has expired (the expiry is checked on every request, not only the first)', async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    let now = T0;
    const auth = new Authenticator({ tokenKey: privateKey, now: () => now });
    const token = await issueToken(
      privateKey,
      { subject: 'officer', role: 'compliance_officer', concessionaire: 'SJM Resorts' },
      { expiresInSeconds: 60, now: T0 },
    );
    const bearer = { authorization: `Bearer ${token}` };
    const first = await auth.authenticate(bearer);
    assert.deepEqual(first, {
      subject: 'officer',
      role: 'compliance_officer',
      concessionaire: 'SJM Resorts',
    });
    now = T0 + 60_000 + 29_000; // past exp but within the 30 s tolerance: still accepted, as jose accepts it
    assert.deepEqual(await auth.authenticate(bearer), first);
    now = T0 + 60_000 + 30_000; // exp <= now - tolerance: expired
    await assert.rejects(auth.authenticate(bearer), /expired/);
    await assert.rejects(auth.authenticate(bearer), /expired/, 'and again, now from a fresh verification');
    // a fresh authenticator (nothing kept) says the same at that time
    const fresh = new Authenticator({ tokenKey: privateKey, now: () => now, verifiedTokens: 0 });
    await assert.rejects(fresh.authenticate(bearer), /expired/);
  });

  it('never keeps a refused token, and a token of another key or with one byte changed is checked in full', async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const other = generateKeyPairSync('ed25519').privateKey;
    const auth = new Authenticator({ tokenKey: privateKey, now: () => T0 });
    const good = await issueToken(
      privateKey,
      { subject: 'i', role: 'inspector', concessionaire: null },
      { now: T0 },
    );
    await auth.authenticate({ authorization: `Bearer ${good}` });
    // the same claims signed by another key
    const foreign = await issueToken(
      other,
      { subject: 'i', role: 'inspector', concessionaire: null },
      { now: T0 },
    );
    await assert.rejects(auth.authenticate({ authorization: `Bearer ${foreign}` }), /not signed by this API/);
    await assert.rejects(auth.authenticate({ authorization: `Bearer ${foreign}` }), /not signed by this API/);
    // the kept token with its payload changed (a compliance officer's scope widened): refused
    const [h, , sig] = good.split('.');
    const payload = Buffer.from(
      JSON.stringify({
        role: 'compliance_officer',
        concessionaire: 'Galaxy Casino',
        sub: 'i',
        iss: TOKEN_ISSUER,
        aud: TOKEN_AUDIENCE,
        iat: T0 / 1000,
        exp: T0 / 1000 + 3600,
      }),
    ).toString('base64url');
    await assert.rejects(auth.authenticate({ authorization: `Bearer ${h}.${payload}.${sig}` }), /not signed/);
    // a token not yet valid (nbf in the future) is refused, and still refused when asked again
    const early = await new SignJWT({ role: 'auditor' })
      .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' })
      .setSubject('a')
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setNotBefore(T0 / 1000 + 3600)
      .setExpirationTime(T0 / 1000 + 7200)
      .sign(privateKey);
    await assert.rejects(auth.authenticate({ authorization: `Bearer ${early}` }), /nbf/);
    await assert.rejects(auth.authenticate({ authorization: `Bearer ${early}` }), /nbf/);
  });

  it('keeps at most verifiedTokens tokens, each answering with its own principal', async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const auth = new Authenticator({ tokenKey: privateKey, now: () => T0, verifiedTokens: 2 });
    const tokens = await Promise.all(
      ['SJM Resorts', 'Galaxy Casino', 'Wynn Resorts'].map((c) =>
        issueToken(privateKey, { subject: c, role: 'compliance_officer', concessionaire: c }, { now: T0 }),
      ),
    );
    for (let round = 0; round < 2; round++)
      for (const [i, c] of ['SJM Resorts', 'Galaxy Casino', 'Wynn Resorts'].entries())
        assert.equal((await auth.authenticate({ authorization: `Bearer ${tokens[i]!}` })).concessionaire, c);
    assert.ok(auth.verifiedCount <= 2, `${auth.verifiedCount} kept`);
  });
});
