import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expandMacros, MacroError, type MacroContext } from '../src/macros.ts';

// 2025-11-14T00:00:00Z .. 2025-11-15T00:00:00Z
const ctx = (variables: MacroContext['variables'] = {}, intervalMs = 300_000): MacroContext => ({
  from: 1_763_078_400_000,
  to: 1_763_164_800_000,
  intervalMs,
  variables,
});

describe('expandMacros: the ClickHouse data source macros', () => {
  it('$__timeFilter(col) compares with toDateTime of Unix seconds', () => {
    assert.equal(
      expandMacros('WHERE $__timeFilter(at)', ctx()),
      'WHERE at >= toDateTime(1763078400) AND at <= toDateTime(1763164800)',
    );
  });
  it('$__fromTime / $__toTime, with or without (), and the _ms forms', () => {
    assert.equal(
      expandMacros('$__fromTime, $__toTime(), $__fromTime_ms, $__toTime_ms', ctx()),
      'toDateTime(1763078400), toDateTime(1763164800), fromUnixTimestamp64Milli(1763078400000), ' +
        'fromUnixTimestamp64Milli(1763164800000)',
    );
  });
  it('$__timeInterval(col) buckets by the panel interval in whole seconds, never below 1', () => {
    assert.equal(
      expandMacros('$__timeInterval(at)', ctx()),
      'toStartOfInterval(toDateTime(at), INTERVAL 300 second)',
    );
    assert.equal(
      expandMacros('$__timeInterval(at), $__interval_s', ctx({}, 20)),
      'toStartOfInterval(toDateTime(at), INTERVAL 1 second), 1',
    );
  });
  it('$__dateFilter(col) compares with UTC dates, as the plugin formats them', () => {
    assert.equal(
      expandMacros('$__dateFilter(d)', ctx()),
      "d >= toDate('2025-11-14') AND d <= toDate('2025-11-15')",
    );
  });
  it('a macro argument may hold parentheses and commas of its own', () => {
    assert.equal(
      expandMacros('$__timeFilter(toDateTime(at, 3))', ctx()),
      'toDateTime(at, 3) >= toDateTime(1763078400) AND toDateTime(at, 3) <= toDateTime(1763164800)',
    );
  });
});

describe('expandMacros: template variables', () => {
  it('${v:singlequote} quotes and escapes each value; a bare $v uses the plugin format', () => {
    const vars = { casino: { values: ["Sands'", 'Wynn'] }, table: { values: ['T01'] } };
    assert.equal(
      expandMacros('casino IN (${casino:singlequote}) AND c IN ($casino) AND t = $table', ctx(vars)),
      "casino IN ('Sands\\'','Wynn') AND c IN ('Sands'','Wynn') AND t = T01",
    );
  });
  it('$__conditionalAll gives 1=1 when the variable is All, the condition otherwise', () => {
    const sql = 'WHERE $__conditionalAll(casino IN (${casino:singlequote}), $casino) AND x';
    assert.equal(expandMacros(sql, ctx({ casino: { values: ['A', 'B'], all: true } })), 'WHERE 1=1 AND x');
    assert.equal(expandMacros(sql, ctx({ casino: { values: ['A'] } })), "WHERE casino IN ('A') AND x");
  });
  it('refuses an unknown macro, a variable without a value and an unclosed macro, naming them', () => {
    assert.throws(() => expandMacros('$__timeFiltre(at)', ctx()), /\$__timeFiltre is not a macro/);
    assert.throws(() => expandMacros('t IN (${tabel:singlequote})', ctx()), /variable "tabel"/);
    assert.throws(() => expandMacros('$__timeFilter(at', ctx()), MacroError);
    assert.throws(() => expandMacros('$__timeFilter(a, b)', ctx()), /takes 1 argument/);
  });
});
