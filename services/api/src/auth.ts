/**
 * Who is calling: a signed JWT (EdDSA with an Ed25519 key, verified with `jose`) for people, or an API key for
 * machines. Either gives a Principal; everything the API does is then checked against its role and scope.
 */
import { createHash, createPublicKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Role } from '@table-audit/schemas/events';

export const TOKEN_ISSUER = 'table-audit';
export const TOKEN_AUDIENCE = 'table-audit-api';

/** The roles a caller can hold (UNKNOWN is only what an old reader reads for a newer symbol). */
export const ROLES = ['inspector', 'compliance_officer', 'auditor', 'machine'] as const;
export type CallerRole = Exclude<Role, 'UNKNOWN'>;

export interface Principal {
  /** the token's sub, or the API key's name */
  readonly subject: string;
  readonly role: CallerRole;
  /** the only concessionaire whose casinos a compliance officer (or a scoped API key) sees; null: every casino */
  readonly concessionaire: string | null;
}

/** An API key as configured: its name, the SHA-256 of the key (the key itself is never kept), role and scope. */
export interface ApiKey {
  readonly name: string;
  /** hex SHA-256 of the key's text */
  readonly sha256: string;
  readonly role: CallerRole;
  readonly concessionaire: string | null;
}

export interface AuthOptions {
  /** the Ed25519 public key that verifies tokens (a private key's public half is used) */
  readonly tokenKey: KeyObject;
  readonly apiKeys?: readonly ApiKey[];
  /** seconds of clock skew tolerated on exp/nbf; default 30 */
  readonly clockToleranceSeconds?: number;
  /**
   * tokens kept verified (default 10,000; 0: none): a token whose signature and claims were checked once is not
   * checked again while it has not expired — its expiry is still checked on every request
   */
  readonly verifiedTokens?: number;
  /** the clock, UTC ms (tests) */
  readonly now?: () => number;
}

/** The caller could not be identified: 401, with why (never which part of a key matched). */
export class Unauthenticated extends Error {
  override readonly name = 'Unauthenticated';
}

const isRole = (x: unknown): x is CallerRole =>
  typeof x === 'string' && (ROLES as readonly string[]).includes(x);

/** Checks that a role and scope go together: a compliance officer needs a concessionaire. */
export function principalProblem(role: CallerRole, concessionaire: string | null): string | null {
  if (role === 'compliance_officer' && (concessionaire === null || concessionaire === ''))
    return 'a compliance_officer must name the concessionaire they work for';
  if (role === 'inspector' && concessionaire !== null)
    return 'an inspector sees every casino: give no concessionaire';
  return null;
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

export class Authenticator {
  readonly #keys: { key: ApiKey; digest: Buffer }[];
  readonly #publicKey: KeyObject;
  /**
   * Tokens verified, by their whole text (the signature covers every byte before it, so the same text is the same
   * verified claims under this API's one key), with their expiry, seconds since 1970. Least recently used dropped
   * first. Only a token that passed every check is kept; a refused one is checked again each time.
   */
  readonly #verified = new Map<string, { principal: Principal; exp: number }>();
  readonly #maxVerified: number;
  readonly #now: () => number;

  constructor(private readonly o: AuthOptions) {
    if (o.tokenKey.asymmetricKeyType !== 'ed25519')
      throw new Error(`the token key is ${o.tokenKey.asymmetricKeyType ?? 'not asymmetric'}, not Ed25519`);
    this.#publicKey = o.tokenKey.type === 'private' ? createPublicKey(o.tokenKey) : o.tokenKey;
    this.#keys = (o.apiKeys ?? []).map((key) => {
      if (!/^[0-9a-f]{64}$/.test(key.sha256))
        throw new Error(`API key "${key.name}": sha256 must be 64 lowercase hex digits`);
      const problem = principalProblem(key.role, key.concessionaire);
      if (problem) throw new Error(`API key "${key.name}": ${problem}`);
      return { key, digest: Buffer.from(key.sha256, 'hex') };
    });
    this.#maxVerified = o.verifiedTokens ?? 10_000;
    this.#now = o.now ?? Date.now;
  }

  /** how many verified tokens are kept (tests of the bound) */
  get verifiedCount(): number {
    return this.#verified.size;
  }

  /** The principal of a request's Authorization / X-API-Key headers. */
  async authenticate(headers: {
    authorization?: string;
    'x-api-key'?: string | string[];
  }): Promise<Principal> {
    const apiKey = headers['x-api-key'];
    if (apiKey !== undefined) {
      if (Array.isArray(apiKey)) throw new Unauthenticated('give one X-API-Key header');
      return this.#byApiKey(apiKey);
    }
    const auth = headers.authorization;
    if (auth === undefined)
      throw new Unauthenticated('no credentials: send "Authorization: Bearer <token>" or "X-API-Key: <key>"');
    const match = /^Bearer ([A-Za-z0-9_.-]{1,8192})$/.exec(auth);
    if (!match) throw new Unauthenticated('the Authorization header must be "Bearer <token>"');
    return this.#byToken(match[1]!);
  }

  #byApiKey(text: string): Principal {
    const digest = createHash('sha256').update(text, 'utf8').digest();
    // compare every configured digest in constant time, so the time taken says nothing about which came close
    let found: ApiKey | null = null;
    for (const k of this.#keys) if (timingSafeEqual(k.digest, digest)) found = k.key;
    if (!found) throw new Unauthenticated('unknown API key');
    return { subject: found.name, role: found.role, concessionaire: found.concessionaire };
  }

  async #byToken(token: string): Promise<Principal> {
    const tolerance = this.o.clockToleranceSeconds ?? 30;
    const kept = this.#verified.get(token);
    if (kept) {
      this.#verified.delete(token);
      // as jose checks it: expired once exp <= now - tolerance (whole seconds)
      if (kept.exp <= Math.floor(this.#now() / 1000) - tolerance)
        throw new Unauthenticated('the token has expired');
      this.#verified.set(token, kept); // most recently used last
      return kept.principal;
    }
    const principal = await this.#verify(token, tolerance);
    if (this.#maxVerified > 0) {
      this.#verified.set(token, principal);
      if (this.#verified.size > this.#maxVerified) this.#verified.delete(this.#verified.keys().next().value!);
    }
    return principal.principal;
  }

  async #verify(token: string, tolerance: number): Promise<{ principal: Principal; exp: number }> {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, this.#publicKey, {
        algorithms: ['EdDSA'],
        issuer: TOKEN_ISSUER,
        audience: TOKEN_AUDIENCE,
        requiredClaims: ['sub', 'exp', 'role'],
        clockTolerance: tolerance,
        currentDate: new Date(this.#now()),
      }));
    } catch (e) {
      if (e instanceof joseErrors.JWTExpired) throw new Unauthenticated('the token has expired');
      if (e instanceof joseErrors.JWTClaimValidationFailed)
        throw new Unauthenticated(`the token's "${e.claim}" claim is not acceptable: ${e.reason}`);
      if (e instanceof joseErrors.JWSSignatureVerificationFailed)
        throw new Unauthenticated('the token is not signed by this API’s key');
      if (e instanceof joseErrors.JOSEAlgNotAllowed)
        throw new Unauthenticated('the token must be signed with EdDSA');
      throw new Unauthenticated(`the token cannot be read: ${(e as Error).message}`);
    }
    const role = payload['role'];
    if (!isRole(role))
      throw new Unauthenticated(`the token's "role" claim must be one of ${ROLES.join(', ')}`);
    const c = payload['concessionaire'];
    if (c !== undefined && c !== null && typeof c !== 'string')
      throw new Unauthenticated('the token\'s "concessionaire" claim must be a string');
    const concessionaire = typeof c === 'string' ? c : null;
    const problem = principalProblem(role, concessionaire);
    if (problem) throw new Unauthenticated(`the token's claims do not go together: ${problem}`);
    if (!payload.sub || payload.sub.length > 200)
      throw new Unauthenticated('the token\'s "sub" claim must name the caller (1 to 200 characters)');
    return { principal: { subject: payload.sub, role, concessionaire }, exp: payload.exp! };
  }
}

/** Signs a token for a principal (the `table-audit token` command and tests). */
export async function issueToken(
  privateKey: KeyObject,
  principal: Principal,
  options: { expiresInSeconds?: number; now?: number } = {},
): Promise<string> {
  const problem = principalProblem(principal.role, principal.concessionaire);
  if (problem) throw new Error(problem);
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  return new SignJWT({
    role: principal.role,
    ...(principal.concessionaire === null ? {} : { concessionaire: principal.concessionaire }),
  })
    .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' })
    .setSubject(principal.subject)
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + (options.expiresInSeconds ?? 8 * 3600))
    .sign(privateKey);
}
