import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { formatMacauTime, formatMop } from '../src/present.ts';

describe('formatMop: integer avos shown as MOP', () => {
  it('shows patacas with thousands separators and two decimals of avos', () => {
    assert.equal(formatMop(0), 'MOP 0.00');
    assert.equal(formatMop(5), 'MOP 0.05');
    assert.equal(formatMop(50), 'MOP 0.50');
    assert.equal(formatMop(100), 'MOP 1.00');
    assert.equal(formatMop(123450), 'MOP 1,234.50');
    assert.equal(formatMop(100000000), 'MOP 1,000,000.00');
  });

  it('puts a minus before negative amounts', () => {
    assert.equal(formatMop(-5), '-MOP 0.05');
    assert.equal(formatMop(-123450), '-MOP 1,234.50');
    assert.equal(formatMop(-0), 'MOP 0.00');
  });

  it('is exact on the largest amounts (no float division, no rounding)', () => {
    assert.equal(formatMop(Number.MAX_SAFE_INTEGER), 'MOP 90,071,992,547,409.91');
    assert.equal(formatMop(-Number.MAX_SAFE_INTEGER), '-MOP 90,071,992,547,409.91');
    assert.equal(formatMop(9007199254740899), 'MOP 90,071,992,547,408.99');
    assert.equal(formatMop(999999999999999), 'MOP 9,999,999,999,999.99');
  });

  it('round-trips every safe integer: digits without separators are the avos', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (avos) => {
        const shown = formatMop(avos);
        assert.match(shown, /^-?MOP \d{1,3}(,\d{3})*\.\d{2}$/);
        assert.equal(BigInt(shown.replace(/[^\d-]/g, '')), BigInt(avos));
      }),
    );
  });

  it('refuses what is not a whole number of avos, naming the value', () => {
    assert.throws(() => formatMop(12.5), /whole number of avos .* got 12\.5/);
    assert.throws(() => formatMop(Number.NaN), /got NaN/);
    assert.throws(() => formatMop(2 ** 60), /whole number of avos/);
  });
});

describe('formatMacauTime: UTC milliseconds shown in Macau time', () => {
  it('adds eight hours and says so', () => {
    assert.equal(
      formatMacauTime(Date.parse('2025-11-20T06:03:07.250Z')),
      '2025-11-20 14:03:07.250 Macau time (UTC+8)',
    );
  });

  it('moves to the next Macau day at 16:00 UTC', () => {
    assert.equal(
      formatMacauTime(Date.parse('2025-11-17T16:00:00.000Z')),
      '2025-11-18 00:00:00.000 Macau time (UTC+8)',
    );
    assert.equal(
      formatMacauTime(Date.parse('2025-11-17T15:59:59.999Z')),
      '2025-11-17 23:59:59.999 Macau time (UTC+8)',
    );
  });

  it('refuses what is not a time in whole milliseconds', () => {
    assert.throws(() => formatMacauTime(Number.NaN), /UTC milliseconds since 1970; got NaN/);
    assert.throws(() => formatMacauTime(1.5), /got 1\.5/);
    assert.throws(() => formatMacauTime(9e15), /got 9000000000000000/);
  });
});
