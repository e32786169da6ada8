import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { RULE_SETS } from '../../src/registry.ts';
import { MAHJONG_SCOPE } from '../../src/mahjong/index.ts';

const docs = new URL('../../../../docs/games/', import.meta.url);

/**
 * Every rule set points at the project's own page on it (docs/games/), and the Mah-Jong entry at the page of the
 * deal, which says that outcomes are out of scope until the rest of the regulation is available.
 */
describe('the registry’s pages', () => {
  it('names a page under docs/games/ for every rule set', () => {
    for (const r of RULE_SETS) assert.ok(existsSync(new URL(r.spec, docs)), `${r.id}: docs/games/${r.spec}`);
  });

  it('points the Mah-Jong deal at its own page, the one its scope note names, which says what is out of scope', () => {
    const entry = RULE_SETS.find((r) => r.id === 'mahjong-1989-deal')!;
    assert.equal(`docs/games/${entry.spec}`, MAHJONG_SCOPE.doc);
    const page = readFileSync(new URL(entry.spec, docs), 'utf8');
    assert.match(page, /Portaria 52\/89\/M/);
    assert.match(page, /out of scope until the rest of the regulation is available/);
  });
});
