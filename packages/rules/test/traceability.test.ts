import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { cite, citationKey, type Citation } from '../src/citations/citation.ts';
import { allProvisions } from '../src/citations/index.ts';
import { parseCard, type Card } from '../src/cards.ts';
import type { F3cpRoundFacts, F3cpSeatFacts, F3cpVoidReason } from '../src/f3cp/facts.ts';
import { F3CP_RULE_SETS, type F3cpRuleSet } from '../src/f3cp/rule-set.ts';
import { settleF3cpRound } from '../src/f3cp/settle/index.ts';
import { RULE_SETS } from '../src/registry.ts';
import {
  citationProblems,
  TRACEABILITY,
  traceabilityMarkdown,
  traceabilityMatrix,
  traceabilityText,
  traceRowFor,
  type CitationUse,
} from '../src/traceability/index.ts';
import { CRAPS_CHECKS } from '../src/craps/checks/index.ts';
import { F3CP_CHECKS } from '../src/f3cp/checks/index.ts';
import { F3CP08 } from '../src/f3cp/checks/f3cp08-index.ts';
import { F3CP_2008_DIPLOMA, F3CP_2025_DIPLOMA } from '../src/f3cp/rule-set.ts';
import { MAHJONG_CHECKS } from '../src/mahjong/checks.ts';
import { MAHJONG_1989_DIPLOMA } from '../src/mahjong/tiles.ts';
import { THIRTEEN_CARDS_1989_DIPLOMA } from '../src/thirteen/rule-set.ts';
import { THIRTEEN_CHECKS } from '../src/thirteen/checks/index.ts';

const DIPLOMA_CONSTANTS: Record<string, string> = {
  F3CP_2025_DIPLOMA,
  F3CP_2008_DIPLOMA,
  THIRTEEN_CARDS_1989_DIPLOMA,
  MAHJONG_1989_DIPLOMA,
};

const root = fileURLToPath(new URL('../../../', import.meta.url));
const rows = TRACEABILITY.flatMap((d) => d.rows);
const checks = [
  ...Object.values(F3CP_CHECKS),
  ...Object.values(F3CP08),
  ...Object.values(CRAPS_CHECKS),
  ...Object.values(THIRTEEN_CHECKS),
  ...Object.values(MAHJONG_CHECKS),
];

/** A small seeded generator, so the sample of settled rounds is the same on every run. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const JACKPOT: NonNullable<F3cpRoundFacts['jackpot']> = {
  config: {
    fixed: {
      'royal-flush': 5_000_000,
      'straight-flush': 500_000,
      'four-of-a-kind': 100_000,
      'full-house': 30_000,
      flush: 10_000,
    },
    resetAmount: 10_000_000,
    rounding: { unit: 100, mode: 'down' },
  },
  poolBefore: 20_000_000,
};

function randomRound(next: () => number, voided?: F3cpVoidReason): F3cpRoundFacts {
  const deck = Array.from({ length: 52 }, (_, i) => i);
  for (let i = deck.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [deck[i], deck[j]] = [deck[j]!, deck[i]!];
  }
  const take = (n: number): Card[] => deck.splice(0, n);
  const seats: F3cpSeatFacts[] = [];
  let anyProgressive = false;
  for (let seat = 1; seat <= 7; seat++) {
    if (next() < 0.3) continue;
    const bet = (p: number) => (next() < p ? 1000 * (1 + Math.floor(next() * 5)) : 0);
    const ante = bet(0.8);
    const bets = { ante, pairPlus: bet(0.5), sixCardBonus: bet(0.4), progressive: bet(0.5) };
    if (bets.progressive) anyProgressive = true;
    const decision = ante ? (next() < 0.75 ? 'play' : 'fold') : undefined;
    seats.push({
      seat,
      cards: take(3),
      bets: { ...bets, ...(decision === 'play' ? { play: ante } : {}) },
      ...(decision ? { decision } : {}),
    });
  }
  return {
    seats,
    banker: take(3),
    ...(anyProgressive || next() < 0.5 ? { community: take(2), jackpot: JACKPOT } : {}),
    ...(voided ? { voided } : {}),
  };
}

const cards = (text: string) => text.split(' ').map(parseCard);

/** Every citation the rule sets and the settlement carry, with where it came from. */
function engineCitations(): CitationUse[] {
  const uses: CitationUse[] = [];
  const add = (from: string, list: readonly Citation[]) =>
    list.forEach((citation) => uses.push({ citation, from }));
  for (const rules of F3CP_RULE_SETS) {
    add(`${rules.id} handOrderCitation`, [rules.handOrderCitation]);
    add(`${rules.id} classCitation`, Object.values(rules.classCitation));
    for (const table of ['anteBonus', 'pairPlus', 'sixCardBonus', 'jackpotHands'] as const)
      for (const [hand, p] of Object.entries(rules[table])) add(`${rules.id} ${table}.${hand}`, p!.citations);
  }
  const settle = (facts: F3cpRoundFacts, rules: F3cpRuleSet, what: string) => {
    const s = settleF3cpRound(facts, rules);
    add(`${rules.id} banker (${what})`, s.banker.citations);
    for (const l of s.lines) add(`${rules.id} ${l.bet} line (${what})`, l.citations);
    if (s.jackpot) {
      add(`${rules.id} jackpot (${what})`, s.jackpot.citations);
      for (const p of s.jackpot.payments) add(`${rules.id} jackpot payment (${what})`, p.citations);
    }
  };
  const next = rng(89_2025);
  const reasons: F3cpVoidReason[] = [
    'dealing-rules-broken',
    'banker-card-exposed',
    'player-cards-exposed',
    'shuffler-malfunction',
  ];
  for (const rules of F3CP_RULE_SETS) {
    for (let i = 0; i < 3000; i++) settle(randomRound(next), rules, 'sampled round');
    for (const reason of reasons) settle(randomRound(next, reason), rules, `voided: ${reason}`);
    // a Royal and a Straight Flush in one round: the payment order of art. 15.º n.º 5 (too rare to sample)
    settle(
      {
        seats: [
          { seat: 1, cards: cards('9h 8h 7h'), bets: { pairPlus: 1000, progressive: 1000 } },
          { seat: 2, cards: cards('Ah Kh Qh'), bets: { pairPlus: 1000, progressive: 1000 } },
        ],
        banker: cards('4c 5c 7s'),
        community: cards('Jh Th'),
        jackpot: JACKPOT,
      },
      rules,
      'royal and straight flush',
    );
  }
  return uses;
}

/**
 * Literal cite(D, n, {...}) calls in the sources, D read from the file's `const D = '...'` or from an import of a
 * rule set's diploma constant (`F3CP_2025_DIPLOMA as D`).
 */
function sourceCitations(): CitationUse[] {
  const uses: CitationUse[] = [];
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      if (name === 'node_modules' || name === 'test') return [];
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : path.endsWith('.ts') ? [path] : [];
    });
  const dirs = ['packages', 'services', 'apps'].map((d) => join(root, d)).filter(existsSync);
  for (const file of dirs.flatMap(walk)) {
    const text = readFileSync(file, 'utf8');
    const imported = /\b(\w+_DIPLOMA) as D\b/.exec(text)?.[1];
    const diploma =
      /const D = '([^']+)'/.exec(text)?.[1] ?? (imported ? DIPLOMA_CONSTANTS[imported] : undefined);
    for (const m of text.matchAll(/\bcite\(\s*D\s*,\s*(\d+)\s*(?:,\s*\{([^}]*)\})?\s*\)/g)) {
      assert.ok(diploma, `${file} calls cite(D, …) without a const D`);
      const at: Record<string, number | string> = {};
      for (const f of (m[2] ?? '').matchAll(/(numero|alinea|subalinea|wording)\s*:\s*(\d+|'[^']*')/g))
        at[f[1]!] = f[2]!.startsWith("'") ? f[2]!.slice(1, -1) : Number(f[2]);
      uses.push({ citation: cite(diploma, Number(m[1]), at), from: file.slice(root.length) });
    }
  }
  return uses;
}

describe('traceability matrix', () => {
  it('lists every provision of the 89/2025 citation file (the whole-article entries of divided articles aside)', () => {
    const divided = new Set(
      rows
        .filter((r) => r.citation.numero !== undefined && r.citation.article > 0)
        .map(
          (r) =>
            `${r.citation.diploma} art.${r.citation.article}${r.citation.wording ? ` [${r.citation.wording}]` : ''}`,
        ),
    );
    const missing = allProvisions()
      .map((p) => p.key)
      .filter((key) => !traceRowFor(key) && !divided.has(key));
    assert.deepEqual(missing, []);
  });

  it('has the seven seed diplomas, every diploma of the registry, and every article of each text', () => {
    const ids = TRACEABILITY.map((d) => d.id);
    assert.deepEqual(ids, [
      '89/2025',
      '94/2025',
      '78/2008',
      '97/2008',
      '53/2010',
      'Portaria 51/89/M',
      'Portaria 52/89/M',
    ]);
    for (const e of RULE_SETS) for (const d of e.diplomas) assert.ok(ids.includes(d), `${e.id}: ${d}`);
    // articles 1..N with no gap, as the texts number them
    const articles: Record<string, number> = {
      '89/2025': 18,
      '78/2008': 11,
      '53/2010': 7,
      'Portaria 51/89/M': 11,
      'Portaria 52/89/M': 2,
    };
    for (const [id, last] of Object.entries(articles)) {
      const seen = new Set(
        rows
          .filter((r) => r.citation.diploma === id && r.citation.article > 0)
          .map((r) => r.citation.article),
      );
      assert.deepEqual(
        [...seen].sort((a, b) => a - b),
        Array.from({ length: last }, (_, i) => i + 1),
        id,
      );
    }
    for (const d of TRACEABILITY)
      assert.ok(d.rows.length > 0 && d.rows.every((r) => r.firstWords.length > 3), d.id);
  });

  it('names, for every rule not built, a rule set of the registry that governs its diploma', () => {
    for (const d of TRACEABILITY)
      for (const r of d.rows)
        if (r.status === 'not-implemented')
          for (const id of r.ruleSets) {
            const e = RULE_SETS.find((x) => x.id === id);
            assert.ok(e, `${r.key}: unknown rule set ${id}`);
            assert.equal(e.rules, null, `${r.key}: ${id} is implemented, the row says not`);
            assert.ok(
              e.diplomas.includes(d.id) || e.diplomas.includes(r.citation.diploma),
              `${r.key}: ${id}`,
            );
          }
  });

  it('names files and symbols that exist, tests that exist, and checks of the catalogue', () => {
    const ids = new Set(checks.map((c) => c.id));
    const problems: string[] = [];
    for (const r of rows) {
      if (r.status !== 'implemented') continue;
      if (!r.code.length || !r.tests.length) problems.push(`${r.key}: implemented without code or tests`);
      for (const c of r.code) {
        if (!existsSync(join(root, c.file))) {
          problems.push(`${r.key}: no file ${c.file}`);
          continue;
        }
        const text = readFileSync(join(root, c.file), 'utf8');
        for (const s of c.symbols)
          if (!new RegExp(`\\b${s}\\b`).test(text)) problems.push(`${r.key}: no ${s} in ${c.file}`);
      }
      for (const t of r.tests)
        if (!existsSync(join(root, t)) || !t.endsWith('.test.ts'))
          problems.push(`${r.key}: no test file ${t}`);
      for (const id of r.checks) if (!ids.has(id)) problems.push(`${r.key}: no check ${id}`);
    }
    assert.deepEqual(problems, []);
  });

  it('lists every provision a check cites as implemented, with that check among its checks', () => {
    const uses = checks.flatMap((c) => c.citations.map((citation) => ({ citation, from: `check ${c.id}` })));
    assert.deepEqual(citationProblems(uses), []);
    const missing: string[] = [];
    for (const c of checks)
      for (const citation of c.citations) {
        const row = traceRowFor(citationKey(citation));
        if (row?.status === 'implemented' && !row.checks.includes(c.id))
          missing.push(`${row.key} lacks ${c.id}`);
      }
    assert.deepEqual(missing, []);
    // and no check is left without a row that names it
    const named = new Set(rows.flatMap((r) => (r.status === 'implemented' ? r.checks : [])));
    assert.deepEqual(
      checks.map((c) => c.id).filter((id) => !named.has(id)),
      [],
    );
  });

  it('lists every provision the rule sets and the settlement cite as implemented', () => {
    const uses = engineCitations();
    assert.ok(
      uses.some((u) => citationKey(u.citation as Citation) === '89/2025 art.15 n.5'),
      'the Royal + Straight Flush round was settled',
    );
    assert.deepEqual(citationProblems(uses), []);
  });

  it('lists every provision the sources cite with cite(D, …) as implemented', () => {
    const uses = sourceCitations();
    assert.ok(uses.length > 60, `${uses.length} cite() calls found`);
    assert.deepEqual(citationProblems(uses), []);
  });

  it('names a citation of a provision that does not exist, and one the matrix does not list as implemented', () => {
    assert.deepEqual(
      citationProblems([
        { citation: cite('89/2025', 19), from: 'a test' },
        { citation: cite('89/2025', 13, { alinea: 9 }), from: 'a test' },
        { citation: cite('12/2099', 1), from: 'a test' },
        { citation: cite('89/2025', 5, { numero: 3 }), from: 'a test' },
        { citation: cite('89/2025', 13, { alinea: 4 }), from: 'a test' },
      ]),
      [
        'a test cites 89/2025 art.19: diploma 89/2025 has no such provision',
        'a test cites 89/2025 art.13 al.9: diploma 89/2025 has no such provision',
        'a test cites 12/2099 art.1: 12/2099 is not a seed diploma of the traceability matrix',
        'a test cites 89/2025 art.5 n.3, which the traceability matrix lists as no-code-needed',
      ],
    );
  });

  it('filters by diploma and status for table-audit cite --matrix, and names what it does not know', () => {
    const only = traceabilityMatrix({ diploma: '53/2010', status: 'no-code-needed' });
    assert.deepEqual(
      only.map((d) => d.id),
      ['53/2010'],
    );
    assert.ok(only[0]!.rows.length > 0 && only[0]!.rows.every((r) => r.status === 'no-code-needed'));
    assert.ok(
      traceabilityMatrix({ status: 'implemented' }).every((d) =>
        d.rows.every((r) => r.status === 'implemented'),
      ),
    );
    assert.throws(
      () => traceabilityMatrix({ diploma: '53/2011' }),
      /no seed diploma "53\/2011"; known: 89\/2025, /,
    );
    assert.throws(
      () => traceabilityMatrix({ status: 'done' }),
      /no status "done"; known: implemented, no-code-needed/,
    );
    assert.match(traceabilityText(only), /53\/2010 art\.7 n\.2 +no-code-needed/);
  });

  it('docs/traceability.md is the generated matrix (regenerate: node --import ./apps/cli/bin/register-ts.mjs scripts/generate-traceability.ts)', () => {
    const doc = readFileSync(join(root, 'docs/traceability.md'), 'utf8');
    assert.equal(doc, traceabilityMarkdown());
  });
});
