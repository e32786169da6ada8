import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allScope, listPanels, panelSql } from '../src/catalog.ts';

const range = { from: Date.UTC(2026, 0, 1), to: Date.UTC(2026, 0, 2), intervalMs: 3_600_000 };

describe('the panel catalog for other parts', () => {
  it('lists every panel by a unique id', () => {
    const ids = listPanels().map((p) => p.id);
    assert.ok(ids.includes('ta-dicj-overview.findings-over-time'));
    assert.equal(new Set(ids).size, ids.length);
  });
  it('expands a panel for a selection: All drops the condition, a value is quoted', () => {
    const all = panelSql('ta-dicj-overview.findings-over-time', { ...range, variables: allScope() });
    assert.doesNotMatch(all, /\$/);
    assert.doesNotMatch(all, /casino IN/);
    const one = panelSql('ta-dicj-overview.findings-over-time', {
      ...range,
      variables: allScope({ casino: ["Casino O'Hara"] }),
    });
    assert.match(one, /casino IN \('Casino O\\'Hara'\)/);
  });
  it('refuses an unknown panel, naming the known ones', () => {
    assert.throws(
      () => panelSql('no-such-panel', { ...range, variables: allScope() }),
      /no dashboard panel "no-such-panel"; the panels are: ta-dicj-overview/,
    );
  });
});
