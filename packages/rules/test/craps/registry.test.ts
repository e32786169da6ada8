import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ruleSetFor } from '../../src/index.ts';
import { CrapsScript, given } from './spec.ts';

describe('craps-2010 in the registry: Despacho 53/2010 in force from 2010-03-09 (despacho n.º 3)', () => {
  it('governs a throw of 2010-03-09 (Macau time) and after; nothing governs 2010-03-08', () => {
    assert.equal(ruleSetFor('craps', '2010-03-09').status, 'implemented');
    assert.equal(ruleSetFor('craps', '2025-12-01').status, 'implemented');
    assert.equal(ruleSetFor('craps', '2010-03-08').status, 'no-rules');
  });

  it('a throw at 23:59 on 2010-03-08 in Macau is not judged (no rule set), one a minute later is', () => {
    const before = new CrapsScript('LP-CRAPS-02', { start: '2010-03-08T23:58:00+08:00' }).open();
    before.bet('P1', 'PASS_LINE', 5_000);
    before.throw([3, 4]).settle('B-1', 'WIN', 1).close(); // a wrong payout, but no law to judge it by
    const r = given(before).then([]);
    assert.equal(r.units[0]!.notDerived?.code, 'no-rules');
    assert.equal(r.units[0]!.record!.status, 'NOT_DERIVED');
    const after = new CrapsScript('LP-CRAPS-02', { start: '2010-03-09T00:00:00+08:00' }).open();
    after.bet('P1', 'PASS_LINE', 5_000);
    after.throw([3, 4]).settle('B-1', 'WIN', 1).close();
    assert.equal(given(after).then(['CRAPS.PAYOUT.MISMATCH']).units[0]!.ruleSet, 'craps-2010');
  });
});
