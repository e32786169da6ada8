import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { panels } from '../src/dashboards.ts';
import { renderReport, type ReportSection } from '../src/report/html.ts';
import { barChart, niceMax } from '../src/report/svg.ts';
import { macauDayRange } from '../src/run.ts';

const range = macauDayRange('2025-11-14');
const section = (id: string, columns: [string, string][], rows: unknown[][]): ReportSection => ({
  dashboard: 'DICJ overview',
  panel: panels.get(id)!,
  result: { columns: columns.map(([name, type]) => ({ name, type })), rows },
});

describe('the morning report HTML', () => {
  it('a Macau day is 16:00Z the day before to 15:59:59Z', () => {
    assert.equal(new Date(range.from).toISOString(), '2025-11-13T16:00:00.000Z');
    assert.equal(new Date(range.to).toISOString(), '2025-11-14T15:59:59.000Z');
  });

  it('shows money in MOP from the *_mop columns, times in Macau time, and escapes what it prints', () => {
    const html = renderReport({
      date: '2025-11-14',
      range,
      intervalMs: 3_600_000,
      generatedAt: Date.parse('2025-11-14T23:30:00Z'),
      source: 'chDB at data/analytics',
      sections: [
        section(
          'ta-dicj-overview.payout-discrepancies-over-time',
          [
            ['time', "DateTime('UTC')"],
            ['overpaid_mop', 'Float64'],
            ['underpaid_mop', 'Float64'],
          ],
          [['2025-11-14T01:00:00Z', 1234.5, 0.05]],
        ),
        section(
          'ta-dicj-overview.top-tables',
          [
            ['table_id', 'String'],
            ['casino', 'LowCardinality(String)'],
            ['findings', 'UInt64'],
            ['critical_or_high', 'UInt64'],
            ['overpaid_mop', 'Float64'],
            ['underpaid_mop', 'Float64'],
          ],
          [['<T1>', 'Casino & Co', '12', '3', 10, 0]],
        ),
      ],
    });
    assert.match(html, /Macau time \(UTC\+8\)/);
    assert.match(html, /2025-11-15 07:30:00\.000 Macau time/); // generatedAt
    assert.match(html, /MOP 1,234\.50/);
    assert.match(html, /MOP 0\.05/);
    assert.match(html, /2025-11-14 09:00/); // 01:00Z in Macau time
    assert.match(html, /&lt;T1&gt;/);
    assert.match(html, /Casino &amp; Co/);
    assert.doesNotMatch(html, /<T1>/);
    assert.match(html, /<svg [^>]*role="img"/);
    assert.doesNotMatch(html, /https?:\/\/(?!www\.w3\.org\/2000\/svg)/, 'no network reference');
  });

  it('an empty result says there is nothing to show rather than drawing an empty chart', () => {
    const html = renderReport({
      date: '2025-11-14',
      range,
      intervalMs: 3_600_000,
      generatedAt: range.to,
      source: 'x',
      sections: [
        section(
          'ta-dicj-overview.open-alerts-by-age',
          [
            ['age_band', 'String'],
            ['open_alerts', 'UInt64'],
          ],
          [],
        ),
      ],
    });
    assert.match(html, /Nothing to show for this day/);
    assert.doesNotMatch(html, /<svg/);
  });
});

describe('svg charts', () => {
  it('axes end at 1, 2 or 5 × 10^k', () => {
    assert.deepEqual([0, 0.3, 1, 7, 12, 4_999, 5_001].map(niceMax), [1, 0.5, 1, 10, 20, 5_000, 10_000]);
  });
  it('bars are as long as their values, scaled to the largest', () => {
    const svg = barChart(['a', 'b'], [{ name: 'n', values: [5, 10] }], String, 't');
    const widths = [...svg.matchAll(/<rect x="250.0" y="[\d.]+" width="([\d.]+)"/g)].map((m) => Number(m[1]));
    assert.equal(widths.length, 2);
    assert.ok(Math.abs(widths[1]! - 2 * widths[0]!) < 0.2, String(widths));
  });
});
