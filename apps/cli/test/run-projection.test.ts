// The projection step of `table-audit run` (projectForRun): what it prints — where the ClickHouse data and the
// dashboards are, and the top findings by amount (table, round, check, amount in MOP) rather than counts only.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { discrepancyAvos } from '@table-audit/analytics';
import { formatMop, type Finding } from '@table-audit/rules';
import { simulatedStore } from '../../../services/analytics/test/fixture.ts';
import { projectForRun } from '../src/commands/findings.ts';

delete process.env.CLICKHOUSE_URL;
const dir = mkdtempSync(join(tmpdir(), 'ta-run-projection-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('table-audit run: the projection step', () => {
  it('prints where the data and dashboards are and the top findings by amount', async () => {
    const { store, path } = await simulatedStore(dir, { tables: 4, rounds: 30 });
    const analyticsDir = join(dir, 'analytics');
    process.env.TABLE_AUDIT_ANALYTICS = analyticsDir;
    try {
      const lines = await projectForRun(store, path);
      const text = lines.join('\n');
      assert.match(
        text,
        new RegExp(`rows projected into chDB \\(in-process ClickHouse\\) in ${analyticsDir}`),
      );
      assert.match(text, new RegExp(`table-audit findings --analytics ${analyticsDir} lists them`));
      assert.match(text, /dashboards: Grafana dashboards and provisioning in infra\/grafana/);
      assert.match(text, /top findings \(by amount; amounts in MOP, times in Macau time, UTC\+8\)/);
      // the largest amount among the findings not handled at the table comes first, with its table, round, check
      const open: Finding[] = [];
      for await (const e of store.readAll())
        if (e.type === 'FindingRaised' && !(e.data as Finding).handled) open.push(e.data as Finding);
      const amount = (f: Finding) => Math.abs(discrepancyAvos(f.expected, f.declared) ?? 0);
      const largest = Math.max(...open.map(amount));
      assert.ok(largest > 0, 'the session has a finding with an amount');
      const first = lines.find((l) => /^ {5}\S/.test(l))!;
      const top = open.filter((f) => amount(f) === largest);
      assert.ok(
        top.some(
          (f) =>
            first.includes(f.tableId) &&
            first.includes(`round ${f.roundId}`) &&
            first.includes(f.checkId) &&
            first.includes(formatMop(discrepancyAvos(f.expected, f.declared)!)),
        ),
        `first top finding: ${first}`,
      );
      assert.equal(lines.filter((l) => /^ {5}\S/.test(l)).length, Math.min(5, open.length));
    } finally {
      delete process.env.TABLE_AUDIT_ANALYTICS;
      await store.close();
    }
  });
});
