import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ALL_F3CP_CHECK_IDS, F3CP_CHECKS } from '../../src/f3cp/checks/index.ts';

// Read statically from the test files, so it does not depend on the order the files run in; each marker is
// itself an assertion on its test's findings (spec.ts), so a marker cannot stand for a test that proves nothing.
const here = dirname(fileURLToPath(import.meta.url));
const texts = readdirSync(here)
  .filter((f) => f.endsWith('.test.ts') && f !== 'coverage.test.ts')
  .map((f) => readFileSync(join(here, f), 'utf8'));
const marked = (kind: 'positive' | 'negative') =>
  new Set(
    texts.flatMap((t) =>
      [...t.matchAll(new RegExp(`\\.${kind}\\('(F3CP\\.[A-Z_.]+)'\\)`, 'g'))].map((m) => m[1]!),
    ),
  );

describe('every check of F3CP_CHECKS has a Given/When/Then test, positive and negative', () => {
  it('the catalogue has its 40 check ids, each once', () => {
    assert.equal(ALL_F3CP_CHECK_IDS.length, 40);
    assert.equal(new Set(ALL_F3CP_CHECK_IDS).size, 40);
    assert.equal(Object.keys(F3CP_CHECKS).length, 40);
  });

  for (const kind of ['positive', 'negative'] as const)
    it(`each check id has a ${kind} test`, () => {
      const found = marked(kind);
      assert.deepEqual(
        ALL_F3CP_CHECK_IDS.filter((id) => !found.has(id)),
        [],
        `check ids without a ${kind} test`,
      );
      assert.deepEqual(
        [...found].filter((id) => !ALL_F3CP_CHECK_IDS.includes(id)),
        [],
        'markers naming no check of F3CP_CHECKS',
      );
    });
});
