// Every panel's SQL, expanded as Grafana's ClickHouse data source expands it, run on chDB over the analytics tables
// (services/analytics migrations) filled from a simulated session: simulate → ingest → replay → project. Each must
// return the columns and types its panel expects, and rows: the session has something for every panel to show.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AnalyticsClient } from '@table-audit/analytics';
import { dashboards, panels } from '../src/dashboards.ts';
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

  const scoped = dashboards.flatMap((d) => d.panels.filter((p) => p.variables.includes('casino')));

  it('a casino chosen in the variables narrows every scoped panel to that casino', async () => {
    const listed = expandMacros(variableSql('casino'), {
      ...sim.range,
      intervalMs: 60_000,
      variables: everything(),
    });
    const casinos = (await runner.run(listed)).rows.map((r) => String(r[0]));
    assert.ok(casinos.length >= 2, 'the session has several casinos');
    let shown = 0;
    for (const panel of scoped) {
      const column = panel.columns.findIndex((c) => c.name === 'casino');
      const all = await run(panel, everything());
      let sum = 0;
      for (const casino of casinos) {
        const one = await run(panel, { ...everything(), casino: { values: [casino] } });
        if (column >= 0)
          assert.ok(
            one.rows.every((r) => r[column] === casino),
            `${panel.id}: rows of other casinos with casino=${casino}`,
          );
        assert.ok(one.rows.length <= all.rows.length, panel.id);
        sum += one.rows.length;
        if (casino === casinos[0]) shown += one.rows.length;
      }
      // a panel with one row per casino-keyed group: its rows split exactly between the casinos
      if (column >= 0 && !/\bLIMIT\b/.test(panel.sql))
        assert.equal(sum, all.rows.length, `${panel.id}: the casinos' rows add up to All`);
    }
    assert.ok(shown > 0, `no panel showed anything for casino ${casinos[0]}`);
  });

  it('every scoped panel honours each scope variable: a value no row has leaves it empty', async () => {
    assert.ok(scoped.length >= 15, `${scoped.length} scoped panels`);
    for (const panel of scoped) {
      assert.deepEqual([...panel.variables].sort(), [...SCOPE_VARIABLES].sort(), panel.id);
      for (const v of SCOPE_VARIABLES) {
        const result = await run(panel, { ...everything(), [v]: { values: ['no-such-value'] } });
        assert.deepEqual(result.rows, [], `${panel.id}: rows with ${v}=no-such-value`);
      }
    }
  });

  it('the alert panels read the workflow projected from the Alert* events', async () => {
    const byId = (id: string) => [...panels.values()].find((p) => p.id.endsWith(id))!;
    const times = await run(byId('.time-to-acknowledge-resolve'), everything());
    const [ackP50, resolveP50] = ['ack_p50_s', 'resolve_p50_s'].map((c) =>
      times.columns.findIndex((x) => x.name === c),
    );
    const value = (c: number) =>
      times.rows.map((r) => r[c]).filter((x) => x !== null && Number.isFinite(Number(x)));
    assert.ok(value(ackP50!).length > 0, 'a time to acknowledge');
    assert.ok(value(resolveP50!).length > 0, 'a time to resolve');
    const alerts = times.rows.reduce((n, r) => n + Number(r[1]), 0);
    assert.equal(alerts, 3, 'the three worked alerts');

    const queue = await run(byId('.alert-queue'), everything());
    const state = new Map(queue.rows.map((r) => [String(r[0]), String(r[1])]));
    assert.equal(state.get(sim.worked.acknowledged.findingId), 'acknowledged');
    assert.equal(state.get(sim.worked.reopened.findingId), 'open');
    assert.equal(state.has(sim.worked.resolved.findingId), false, 'a resolved alert leaves the queue');
    const assignee = queue.columns.findIndex((c) => c.name === 'assignee');
    assert.ok(
      queue.rows.every((r) => r[assignee] === null),
      'only the resolved alert was assigned',
    );

    const ages = await run(byId('.open-alerts-by-age'), everything());
    const open = ages.rows.reduce((n, r) => n + Number(r[1]), 0);
    const acknowledged = ages.rows.reduce((n, r) => n + Number(r[2]), 0);
    assert.equal(acknowledged, 1);
    const { rows } = await runner.run('SELECT count() FROM findings FINAL WHERE NOT handled');
    assert.equal(open, Number(rows[0]![0]) - 1, 'every unhandled finding but the resolved one is open');

    // the concessionaire of the acknowledged alert sees it; another concessionaire does not
    const own = sim.worked.acknowledged.concessionaire;
    const mine = await run(byId('.alert-queue'), { ...everything(), concessionaire: { values: [own] } });
    assert.ok(mine.rows.some((r) => r[0] === sim.worked.acknowledged.findingId));
    const concessionaires = (
      await runner.run(`SELECT DISTINCT concessionaire FROM tables FINAL WHERE concessionaire != '${own}'`)
    ).rows.map((r) => String(r[0]));
    for (const other of concessionaires) {
      const theirs = await run(byId('.alert-queue'), {
        ...everything(),
        concessionaire: { values: [other] },
      });
      assert.ok(!theirs.rows.some((r) => r[0] === sim.worked.acknowledged.findingId), other);
    }
  });

  it('the round drill-down, found through round_index, shows what a search by round id finds', async () => {
    const byId = (id: string) => [...panels.values()].find((p) => p.id === id)!;
    const { rows: ids } = await runner.run(
      `SELECT round_id FROM (SELECT DISTINCT round_id FROM findings FINAL WHERE round_id IS NOT NULL
        ORDER BY round_id LIMIT 4)
      UNION ALL SELECT '${sim.disputedRound.replace(/'/g, '')}'`,
    );
    assert.ok(ids.length >= 2);
    let seen = 0;
    for (const [id] of ids) {
      const round = { ...everything(), round: { values: [String(id)] } };
      for (const [panel, table] of [
        ['ta-round.round', 'rounds'],
        ['ta-round.bets', 'bets'],
        ['ta-round.findings', 'findings'],
      ] as const) {
        const p = byId(panel);
        const got = await run(p, round);
        // the same SQL with the round looked up by id alone
        const plain = expandMacros(
          p.sql.replace(
            /\(([^()]+)\) IN \(SELECT \1 FROM round_index WHERE [^)]*\)/g,
            'round_id = ${round:singlequote}',
          ),
          { ...sim.range, intervalMs: 3_600_000, variables: round },
        );
        assert.doesNotMatch(plain, /round_index/, `${panel}: the lookup was replaced`);
        assert.match(plain, new RegExp(`FROM ${table} FINAL`));
        const want = await runner.run(plain);
        assert.deepEqual(got.rows, want.rows, `${panel} for ${String(id)}`);
        seen += got.rows.length;
      }
    }
    assert.ok(seen > 0);
  });

  it('the discrepancy panels add up to the rounds’ over- and under-payments', async () => {
    const byId = (id: string) => [...panels.values()].find((p) => p.id === id)!;
    const { rows } = await runner.run(
      `SELECT sum(overpaid_avos) / 100, sum(underpaid_avos) / 100 FROM rounds FINAL
      WHERE round_start >= fromUnixTimestamp64Milli(${sim.range.from}) AND round_start <= fromUnixTimestamp64Milli(${sim.range.to})`,
    );
    const [over, under] = rows[0]!.map(Number) as [number, number];
    assert.ok(over + under > 0, 'the session has payout discrepancies');
    for (const id of [
      'ta-dicj-overview.payout-discrepancies-over-time',
      'ta-casino-compliance.discrepancies-per-shift',
    ]) {
      const result = await run(byId(id), everything());
      const col = (name: string) => result.columns.findIndex((c) => c.name === name);
      const sum = (c: number) => result.rows.reduce((n, r) => n + Number(r[c]), 0);
      assert.deepEqual([sum(col('overpaid_mop')), sum(col('underpaid_mop'))], [over, under], id);
    }
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
