/**
 * The package's main entry is the port (and what is shared with it): importing it must not load SQLite or gRPC.
 * Each import runs in a fresh node, which then lists the CommonJS modules it loaded (both adapters' dependencies
 * are CommonJS, so they land in require.cache); the subpaths are the control that the check sees them.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const loader = fileURLToPath(new URL('../../../apps/cli/bin/register-ts.mjs', import.meta.url));

/** The adapter dependencies loaded by importing `specifier` (by package name, as a user would). */
function adapterModulesLoadedBy(specifier: string): string[] {
  const script = `
    import { createRequire } from 'node:module';
    const entry = await import(${JSON.stringify(specifier)});
    if (Object.keys(entry).length === 0) throw new Error('nothing exported by ${specifier}');
    const loaded = Object.keys(createRequire(process.cwd() + '/').cache);
    process.stdout.write(JSON.stringify(loaded));
  `;
  const r = spawnSync(process.execPath, ['--import', loader, '--input-type=module', '-e', script], {
    cwd: packageDir, // the package resolves its own name from here
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  const loaded = JSON.parse(r.stdout) as string[];
  return loaded.filter((path) => /[\\/](better-sqlite3|@eventstore[\\/]db-client|@grpc)[\\/]/.test(path));
}

describe("the package's entry points", () => {
  it("'@table-audit/eventstore' loads neither better-sqlite3 nor @eventstore/db-client", () => {
    assert.deepEqual(adapterModulesLoadedBy('@table-audit/eventstore'), []);
  });

  it('each adapter subpath loads its own driver', () => {
    const sqlite = adapterModulesLoadedBy('@table-audit/eventstore/sqlite');
    assert.ok(
      sqlite.some((p) => p.includes('better-sqlite3')),
      'sqlite loads better-sqlite3',
    );
    assert.ok(!sqlite.some((p) => p.includes('db-client')), 'and not the gRPC client');
    const esdb = adapterModulesLoadedBy('@table-audit/eventstore/eventstoredb');
    assert.ok(
      esdb.some((p) => p.includes('db-client')),
      'eventstoredb loads @eventstore/db-client',
    );
    assert.ok(!esdb.some((p) => p.includes('better-sqlite3')), 'and not SQLite');
  });
});
