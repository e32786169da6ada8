import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseMacauDate } from '../src/dates.ts';
import { ruleSetFor } from '../src/registry.ts';

describe('parseMacauDate: only real calendar days', () => {
  it('accepts real days, leap days included', () => {
    for (const d of ['2025-11-20', '2024-02-29', '2000-02-29', '2025-12-31', '2025-01-01'])
      assert.equal(parseMacauDate(d, 'test'), d);
  });

  it('refuses impossible days, naming the input, where it came from and why', () => {
    assert.throws(
      () => parseMacauDate('2025-13-45', '--date'),
      /^DateError: --date: "2025-13-45" has month 13; months run 01 to 12/,
    );
    assert.throws(
      () => parseMacauDate('2025-02-30', 'x'),
      /"2025-02-30" has day 30; 2025-02 has days 01 to 28/,
    );
    assert.throws(() => parseMacauDate('2025-02-29', 'x'), /2025-02 has days 01 to 28/);
    assert.throws(() => parseMacauDate('1900-02-29', 'x'), /1900-02 has days 01 to 28/);
    assert.throws(() => parseMacauDate('2025-04-31', 'x'), /2025-04 has days 01 to 30/);
    assert.throws(() => parseMacauDate('2025-11-00', 'x'), /has day 00/);
    assert.throws(() => parseMacauDate('0000-01-01', 'x'), /year 0000/);
  });

  it('refuses other shapes, and says a timestamp is not a date', () => {
    assert.throws(() => parseMacauDate('18/11/2025', 'f.json round 2'), /f\.json round 2: .* YYYY-MM-DD/);
    assert.throws(() => parseMacauDate('2025-11-20T10:00:00Z', 'r'), /is a timestamp, not a date/);
    assert.throws(() => parseMacauDate(20251120, 'r'), /r: 20251120 is not a date string/);
    assert.throws(() => parseMacauDate(undefined, 'r'), /r: undefined is not a date string/);
  });

  it('is what the rule-set registry checks a date with', () => {
    assert.throws(() => ruleSetFor('f3cp', '2025-13-45'), /month 13/);
    assert.throws(() => ruleSetFor('f3cp', '2025-02-30'), /has day 30/);
  });
});
