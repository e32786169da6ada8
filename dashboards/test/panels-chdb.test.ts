// Every panel's SQL, expanded as Grafana's ClickHouse data source expands it, run on chDB over the analytics tables
// (services/analytics migrations) filled from a simulated session: simulate → ingest → replay → project. Each must
// return the columns and types its panel expects, and rows: the session has something for every panel to show.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AnalyticsClient } from '@table-audit/analytics';
import { dashboards } from '../src/dashboards.ts';
import { expandMacros, type VariableSelection } from '../src/macros.ts';
import type { PanelQuery } from '../src/panel.ts';
import { clickhouseRunner, macauDayRange, runPanel, type QueryResult, type SqlRunner } from '../src/run.ts';
import { SCOPE_VARIABLES } from '../src/scope.ts';
import { variableSql } from '../src/variables.ts';
import { simulatedAnalytics, type SimulatedAnalytics } from './simulated-analytics.ts';

// the report reads CLICKHOUSE_URL before --analytics: these tests are about the chDB directory
delete process.env.CLICKHOUSE_URL;
const dir = mkdtempSync(join(tmpdir(), 'ta-dashboards-chdb-'));
let sim: SimulatedAnalytics;
let analytics: AnalyticsClient;
let runner: SqlRunner;

before(async () => {
  sim = await simulatedAnalytics(dir);
  analytics = sim.analytics;
  runner = clickhouseRunner(analytics.client);
});
after(async () => {
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

const ALL: VariableSelection = { values: [], all: true };
const everything = () => Object.fromEntries(SCOPE_VARIABLES.map((v) => [v, ALL]));

const run = (panel: PanelQuery, variables: Record<string, VariableSelection>, range = sim.range) =>
  runPanel(runner, panel, { ...range, intervalMs: 3_600_000, variables });

const assertShape = (panel: PanelQuery, result: QueryResult): void => {
  const got = result.columns.map((c) => `${c.name} ${c.type}`);
  assert.deepEqual(
    result.columns.map((c) => c.name),
    panel.columns.map((c) => c.name),
    `${panel.id}: columns\n${got.join('\n')}`,
  );
  for (const [i, expected] of panel.columns.entries())
    assert.match(result.columns[i]!.type, expected.type, `${panel.id}: type of ${expected.name}`);
};

describe('every dashboard panel on chDB, over a simulated session', () => {
  for (const d of dashboards)
    for (const panel of d.panels)
      it(`${panel.id}: the columns and types it expects, and rows`, async () => {
        const variables: Record<string, VariableSelection> = everything();
        if (panel.variables.includes('round')) variables.round = { values: [sim.disputedRound] };
        const result = await run(panel, variables);
        assertShape(panel, result);
        assert.ok(result.rows.length > 0, `${panel.id}: no rows from the simulated session`);
      });

  it('a casino chosen in the variables narrows every scoped panel to that casino', async () => {
    const listed = expandMacros(variableSql('casino'), {
      ...sim.range,
      intervalMs: 60_000,
      variables: everything(),
    });
    const casinos = await runner.run(listed);
    assert.ok(casinos.rows.length >= 2, 'the session has several casinos');
    const casino = String(casinos.rows[0]![0]);
    let rows = 0;
    const byCasino = dashboards.flatMap((d) =>
      d.panels.filter((p) => p.variables.includes('casino') && p.columns[1]?.name === 'casino'),
    );
    for (const panel of byCasino) {
      const all = await run(panel, everything());
      const one = await run(panel, { ...everything(), casino: { values: [casino] } });
      assert.ok(
        one.rows.every((r) => r[1] === casino),
        `${panel.id}: rows of other casinos with casino=${casino}`,
      );
      assert.ok(one.rows.length <= all.rows.length, panel.id);
      rows += one.rows.length;
    }
    assert.ok(rows > 0, `no panel showed anything for casino ${casino}`);
  });

  it('the variables list the simulated concessionaires, casinos, game and tables', async () => {
    for (const v of SCOPE_VARIABLES) {
      const sql = expandMacros(variableSql(v), { ...sim.range, intervalMs: 60_000, variables: everything() });
      const values = (await runner.run(sql)).rows.map((r) => String(r[0]));
      assert.ok(values.length > 0, `${v}: no values`);
    }
  });

  it('a day with no play returns no rows, not an error', async () => {
    const quiet = macauDayRange('2020-01-01');
    for (const d of dashboards)
      for (const panel of d.panels.filter((p) => p.sql.includes('$__timeFilter'))) {
        const result = await run(panel, everything(), quiet);
        assertShape(panel, result);
      }
  });
});

describe('table-audit report, over the same data', () => {
  it('writes the morning report with the charts and their data, and refuses to overwrite it', async () => {
    const { reportCommand } = await import('../../apps/cli/src/commands/report.ts');
    const out = join(dir, 'morning.html');
    const args = ['--date', sim.date, '--out', out, '--analytics', sim.analyticsDir];
    assert.equal(await reportCommand.run(args), 0);
    const html = readFileSync(out, 'utf8');
    assert.match(html, new RegExp(`morning report — ${sim.date}`));
    assert.match(html, /Macau time \(UTC\+8\)/);
    assert.ok((html.match(/<svg /g) ?? []).length >= 4, 'charts drawn');
    // the data of the charts: a check id, a table id and an amount in MOP from the projected session
    assert.match(html, new RegExp(sim.topCheckId.replace(/\./g, '\\.')));
    assert.match(html, /MOP \d/);
    assert.doesNotMatch(html, /<script|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    const before = readFileSync(out);
    await assert.rejects(reportCommand.run(args), /exists; the report never overwrites a file/);
    assert.deepEqual(readFileSync(out), before);
    assert.ok(existsSync(out));
  });
});
