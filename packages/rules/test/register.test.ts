import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { allProvisions, diplomas, provisionText } from '../src/citations/index.ts';
import { cite, citationKey, formatCitation } from '../src/citations/citation.ts';
import { INTERPRETATIONS, interpretationsMarkdown } from '../src/interpretations.ts';

describe('citations: the PT and ZH text of the provisions', () => {
  it('holds every article of the 89/2025 rules, 1.º to 18.º, in both languages', () => {
    for (let article = 1; article <= 18; article++) {
      const p = provisionText(cite('89/2025', article));
      assert.ok(p, `art. ${article}.º`);
      assert.ok(p.pt.length > 20 && p.zh.length > 5, `art. ${article}.º has PT and ZH text`);
    }
    assert.deepEqual(
      diplomas.map((d) => d.id),
      ['89/2025', '94/2025', '78/2008', '97/2008', '53/2010', 'Portaria 51/89/M', 'Portaria 52/89/M'],
    );
  });

  it('holds every article of the 78/2008 rules, 1.º to 11.º, in PT (no ZH text is stored for 78/2008: left empty, never translated)', () => {
    for (let article = 1; article <= 11; article++) {
      const p = provisionText(cite('78/2008', article));
      assert.ok(p && p.pt.length > 20, `art. ${article}.º`);
      assert.equal(p.zh, '');
    }
    // 97/2008's wording of art. 9.º: PT only for alínea 1), the official ZH for 1)-6)
    const a3 = provisionText(cite('78/2008', 9, { alinea: 3, wording: '97/2008' }))!;
    assert.match(a3.zh, /必須加注/);
    assert.equal(provisionText(cite('78/2008', 9, { alinea: 7, wording: '97/2008' })), undefined);
  });

  it('has one entry per key, and each key says what its fields say', () => {
    const keys = allProvisions().map((p) => p.key);
    assert.equal(new Set(keys).size, keys.length);
    for (const p of allProvisions()) {
      const c = {
        diploma: p.diploma,
        article: p.article,
        ...(p.numero === null ? {} : { numero: p.numero }),
        ...(p.alinea === null ? {} : { alinea: p.alinea }),
        ...(p.subalinea === null ? {} : { subalinea: p.subalinea }),
        ...(p.wording === p.diploma ? {} : { wording: p.wording }),
      };
      assert.equal(citationKey(c), p.key);
    }
  });

  it('quotes the amended art. 7.º n.º 1 with Three of a Kind second', () => {
    const amended = provisionText(cite('89/2025', 7, { numero: 1, alinea: 2, wording: '94/2025' }));
    assert.match(amended!.pt, /Trio/);
    assert.match(provisionText(cite('89/2025', 7, { numero: 1, alinea: 2 }))!.pt, /Sequência/);
  });

  it('formats a citation the Portuguese legal way', () => {
    assert.equal(
      formatCitation(cite('89/2025', 13, { alinea: 4, subalinea: 1 })),
      'Despacho n.º 89/2025, art. 13.º, alínea 4), (1)',
    );
    assert.equal(
      formatCitation(cite('89/2025', 7, { numero: 1, wording: '94/2025' })),
      'Despacho n.º 89/2025, art. 7.º, n.º 1 (redacção do Despacho n.º 94/2025)',
    );
  });
});

describe('interpretation register', () => {
  it('has unique ids, the digest ids J1-J4, and articles that exist in the citation files', () => {
    const ids = INTERPRETATIONS.map((i) => i.id);
    assert.equal(new Set(ids).size, ids.length);
    for (const id of ['J1', 'J2', 'J3', 'J4']) assert.ok(ids.includes(id));
    const known = new Set(allProvisions().map((p) => p.key));
    for (const i of INTERPRETATIONS)
      for (const a of i.articles) assert.ok(known.has(a), `${i.id} cites ${a}`);
  });

  it('docs/interpretations.md is the generated register (regenerate: pnpm exec table-audit interpretations --markdown > docs/interpretations.md)', () => {
    const doc = readFileSync(new URL('../../../docs/interpretations.md', import.meta.url), 'utf8');
    assert.equal(doc.trimEnd(), interpretationsMarkdown().trimEnd());
  });
});
