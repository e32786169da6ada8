import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { macauDate, RULE_SETS, ruleSetFor } from '../src/registry.ts';

const idOn = (when: string | number) => {
  const r = ruleSetFor('f3cp', when);
  return r.status === 'no-rules' ? 'none' : `${r.entry.id}:${r.status}`;
};

describe('rule-set registry (game, Macau local date)', () => {
  it('switches from the 2008 rules to 89/2025 between 2025-11-10 and 2025-11-11', () => {
    assert.equal(idOn('2025-11-10'), 'f3cp-2008a:implemented');
    assert.equal(idOn('2025-11-11'), 'f3cp-2025:implemented');
  });

  it('switches to 89/2025 as amended by 94/2025 between 2025-11-17 and 2025-11-18', () => {
    assert.equal(idOn('2025-11-17'), 'f3cp-2025:implemented');
    assert.equal(idOn('2025-11-18'), 'f3cp-2025a:implemented');
    assert.equal(idOn('2026-11-21'), 'f3cp-2025a:implemented');
  });

  it('dates a round by Macau time (UTC+8): 2025-11-17T16:30Z is already the 18th', () => {
    assert.equal(macauDate(Date.parse('2025-11-17T16:30:00Z')), '2025-11-18');
    assert.equal(idOn(Date.parse('2025-11-17T16:30:00Z')), 'f3cp-2025a:implemented');
    assert.equal(idOn(Date.parse('2025-11-17T15:59:59.999Z')), 'f3cp-2025:implemented');
    assert.equal(idOn(Date.parse('2025-11-10T16:00:00Z')), 'f3cp-2025:implemented');
    assert.equal(idOn(Date.parse('2025-11-10T15:59:59.999Z')), 'f3cp-2008a:implemented');
  });

  it('never gives the 2025 rules to an older round: a 2019 round is judged by the 2008 rules (78/2008 + 97/2008)', () => {
    const r = ruleSetFor('f3cp', '2019-06-01');
    assert.equal(r.status, 'implemented');
    assert.equal(r.status === 'implemented' ? r.rules.era : '', '2008');
    assert.deepEqual(r.status === 'implemented' ? r.entry.diplomas : [], ['78/2008', '97/2008']);
    assert.equal(idOn('2008-12-15'), 'f3cp-2008:implemented');
    assert.equal(idOn('2008-12-16'), 'f3cp-2008a:implemented');
    assert.equal(idOn('2008-08-11'), 'none');
  });

  it('has no gaps or overlaps between the F3CP rule sets', () => {
    const f3cp = RULE_SETS.filter((e) => e.game === 'f3cp');
    for (let i = 1; i < f3cp.length; i++) {
      const next = new Date(`${f3cp[i - 1]!.to}T00:00:00Z`);
      next.setUTCDate(next.getUTCDate() + 1);
      assert.equal(f3cp[i]!.from, next.toISOString().slice(0, 10));
    }
  });

  it('macauDate keeps the last day without changing an answer: day edges and fractions of a millisecond, in any order', () => {
    // the answer as Date gives it, with nothing remembered
    const direct = (u: number): string => {
      const local = new Date(u + 8 * 3_600_000);
      if (!Number.isFinite(u) || Number.isNaN(local.getTime())) return 'error';
      return local.toISOString().slice(0, 10);
    };
    const answer = (u: number): string => {
      try {
        return macauDate(u);
      } catch {
        return 'error';
      }
    };
    const instants: number[] = [
      Number.NaN,
      Infinity,
      -Infinity,
      8.64e15,
      8.64e15 + 1,
      -8.64e15 - 8 * 3_600_000,
    ];
    for (let day = -2; day <= 2; day++)
      for (const off of [-1, -0.5, -1e-4, 0, 1e-4, 0.5, 1])
        instants.push(
          day * 86_400_000 - 8 * 3_600_000 + off,
          Date.parse('2025-11-17T16:00:00Z') + day * 86_400_000 + off,
        );
    // each instant after each other one: whatever day was kept before, the answer is the direct one
    for (const before of instants)
      for (const u of instants) {
        answer(before);
        assert.equal(answer(u), direct(u), `${u} after ${before}`);
      }
    assert.equal(direct(-86_400_000 - 8 * 3_600_000 - 0.5), '1969-12-31'); // the fraction goes toward zero, as Date does
  });

  it('the rule-set lookup keeps its last answer per game: two games on the same day each get their own', () => {
    const when = Date.parse('2025-11-20T04:00:00Z');
    const f3cp = ruleSetFor('f3cp', when);
    const craps = ruleSetFor('craps', when);
    assert.equal(f3cp.status === 'implemented' ? f3cp.entry.game : '', 'f3cp');
    assert.equal(craps.status === 'implemented' ? craps.entry.game : '', 'craps');
    assert.equal(ruleSetFor('f3cp', when), f3cp);
    assert.equal(idOn(Date.parse('2025-11-10T15:59:59.999Z')), 'f3cp-2008a:implemented');
    assert.equal(idOn(Date.parse('2025-11-10T16:00:00Z')), 'f3cp-2025:implemented');
  });

  it('rejects a date it cannot read', () => {
    assert.throws(() => ruleSetFor('f3cp', '18/11/2025'), /YYYY-MM-DD/);
    assert.throws(() => macauDate(Number.NaN), /not a time/);
  });
});
