import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import type { KeyObject } from 'node:crypto';
import type { CallerRole } from '@table-audit/api';
import { generateSigningKey, loadSigningKey } from '@table-audit/eventstore';
import { out, UsageError, type Command } from './command.ts';
import { makeDirectories } from './store.ts';

/** The embedded default key that signs and verifies the API's tokens (Ed25519, PEM). */
export const DEFAULT_TOKEN_KEY = 'data/api-token-key.pem';

/** --token-key wins over TABLE_AUDIT_TOKEN_KEY, which wins over the default. */
export const tokenKeyPath = (flag: string | undefined): string =>
  flag === '' || flag === undefined ? process.env.TABLE_AUDIT_TOKEN_KEY || DEFAULT_TOKEN_KEY : flag;

/**
 * The token key at `path`; the default one is made once when missing, saying so on stderr (an existing key is
 * never overwritten: generateSigningKey refuses any file that is there). A key given explicitly must exist.
 */
export function tokenKey(path: string): KeyObject {
  if (existsSync(path)) return loadSigningKey(path);
  if (path !== DEFAULT_TOKEN_KEY)
    throw new Error(`no token key at ${path} (give an Ed25519 private key in PEM, or leave the default)`);
  makeDirectories(dirname(path), 'the API token key');
  const key = generateSigningKey(path);
  process.stderr.write(
    `made the development token key ${path} (Ed25519; it signs and verifies API tokens; keep it, it is never replaced)\n`,
  );
  return key;
}

const usage = `Usage: table-audit token --role ROLE [--concessionaire C] [--subject S] [--expires-in SECONDS] [--token-key PEM]

Prints a development token for the API (a JWT signed with EdDSA). ROLE is inspector (DICJ: every casino, reads and
comments), compliance_officer (only --concessionaire's casinos; works their alerts), auditor (reads only) or machine.
The key is ${DEFAULT_TOKEN_KEY} (or $TABLE_AUDIT_TOKEN_KEY), made once if missing; table-audit serve verifies with it.

  --subject S          who the token names (default: the role)
  --expires-in SECONDS default 28800 (8 hours), at most 2592000 (30 days)`;

export const tokenCommand: Command = {
  name: 'token',
  summary: 'issue a development token for the API',
  usage,
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        role: { type: 'string' },
        concessionaire: { type: 'string' },
        subject: { type: 'string' },
        'expires-in': { type: 'string' },
        'token-key': { type: 'string' },
      },
    });
    const { issueToken, principalProblem, ROLES } = await import('@table-audit/api');
    const role = values.role;
    if (role === undefined || !(ROLES as readonly string[]).includes(role))
      throw new UsageError(
        `--role must be one of ${ROLES.join(', ')}${role === undefined ? '' : `, got "${role}"`}`,
      );
    const concessionaire = values.concessionaire ?? null;
    const problem = principalProblem(role as CallerRole, concessionaire);
    if (problem) throw new UsageError(problem);
    let expiresInSeconds = 8 * 3600;
    if (values['expires-in'] !== undefined) {
      expiresInSeconds = Number(values['expires-in']);
      if (!Number.isSafeInteger(expiresInSeconds) || expiresInSeconds < 1 || expiresInSeconds > 2_592_000)
        throw new UsageError(
          `--expires-in takes whole seconds from 1 to 2592000, got "${values['expires-in']}"`,
        );
    }
    const key = tokenKey(tokenKeyPath(values['token-key']));
    out(
      await issueToken(
        key,
        { subject: values.subject ?? role, role: role as CallerRole, concessionaire },
        { expiresInSeconds },
      ),
    );
    return 0;
  },
};
