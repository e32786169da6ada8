import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  allProvisions,
  citationKey,
  formatCitation,
  parseCitation,
  type Citation,
} from '../src/citations/index.ts';

// the provision a key names, as a Citation (the files give the original diploma as `wording` when not amended)
const citationOf = (p: ReturnType<typeof allProvisions>[number]): Citation => ({
  diploma: p.diploma,
  article: p.article,
  ...(p.numero === null ? {} : { numero: p.numero }),
  ...(p.alinea === null ? {} : { alinea: p.alinea }),
  ...(p.subalinea === null ? {} : { subalinea: p.subalinea }),
  ...(p.wording === p.diploma ? {} : { wording: p.wording }),
});

describe('parseCitation: printed citations can be pasted back', () => {
  const provisions = allProvisions();

  it('round-trips every citation of the f3cp-2025 file: format → parse → same key', () => {
    assert.ok(provisions.length > 100, `only ${provisions.length} provisions loaded`);
    for (const p of provisions) {
      const c = citationOf(p);
      assert.equal(citationKey(c), p.key, 'the test builds the citation the key names');
      const printed = formatCitation(c);
      assert.equal(citationKey(parseCitation(printed)), p.key, printed);
      assert.equal(citationKey(parseCitation(p.key)), p.key, p.key);
    }
  });

  it('reads the printed forms people will paste', () => {
    assert.equal(
      citationKey(parseCitation('Despacho n.º 89/2025, art. 13.º, alínea 4), (1)')),
      '89/2025 art.13 al.4 sub.1',
    );
    assert.equal(citationKey(parseCitation('Despacho n.º 89/2025, despacho, n.º 2')), '89/2025 art.0 n.2');
    assert.equal(
      citationKey(
        parseCitation('Despacho n.º 89/2025, art. 7.º, n.º 1, alínea 2) (redacção do Despacho n.º 94/2025)'),
      ),
      '89/2025 art.7 n.1 al.2 [94/2025]',
    );
    assert.equal(citationKey(parseCitation('  89/2025 art. 15.º n.º 5 ')), '89/2025 art.15 n.5');
  });

  it('names what it cannot read', () => {
    assert.throws(() => parseCitation('art.15 n.5'), /"art\.15 n\.5": it does not start with a diploma/);
    assert.throws(
      () => parseCitation('89/2025 art.15 paragraph 5'),
      /"paragraph 5" is not an article, número/,
    );
    assert.throws(() => parseCitation('89/2025 n.5'), /names no article/);
    assert.throws(
      () => parseCitation('89/2025 art.15 al.1 n.5'),
      /"n\.5" comes after a part that should follow it/,
    );
  });
});
