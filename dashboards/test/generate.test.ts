import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type * as sdk from '@grafana/grafana-foundation-sdk/dashboard';
import { buildDashboard } from '../src/build.ts';
import { dashboards } from '../src/dashboards.ts';
import { compareWithDisk, generatedFiles, writeGenerated } from '../src/generate.ts';
import { DATASOURCE_UID } from '../src/grafana.ts';
import { expandMacros } from '../src/macros.ts';

const temp = mkdtempSync(join(tmpdir(), 'ta-dashboards-'));
after(() => rmSync(temp, { recursive: true, force: true }));

describe('pnpm dashboards: the generated files in infra/grafana', () => {
  it('are up to date with dashboards/src (run `pnpm dashboards` when this fails)', async () => {
    const differences = await compareWithDisk();
    assert.deepEqual(differences, [], differences.map((d) => `${d.problem}: ${d.path}`).join('\n'));
  });

  it('are written where missing, then left alone; a dashboard no longer generated is removed', async () => {
    const root = join(temp, 'fresh');
    const first = await writeGenerated(root);
    assert.equal(first.length, (await generatedFiles()).size);
    assert.ok(first.every((d) => d.problem === 'missing'));
    assert.deepEqual(await writeGenerated(root), []);
    const gone = join(root, 'infra/grafana/dashboards/ta-retired.json');
    writeFileSync(gone, JSON.stringify({ title: 'retired', tags: ['table-audit'] }));
    const mine = join(root, 'infra/grafana/dashboards/someone-elses.json');
    writeFileSync(mine, JSON.stringify({ title: 'not ours', tags: ['ops'] }));
    assert.deepEqual(await compareWithDisk(root), [
      { path: 'infra/grafana/dashboards/ta-retired.json', problem: 'left over' },
    ]);
    await writeGenerated(root);
    assert.equal(existsSync(gone), false);
    assert.equal(readFileSync(mine, 'utf8'), JSON.stringify({ title: 'not ours', tags: ['ops'] }));
  });

  it('never overwrites a file it did not write, and says which', async () => {
    const root = join(temp, 'foreign');
    const path = join(root, 'infra/grafana/provisioning/datasources/table-audit-clickhouse.yaml');
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, 'apiVersion: 1\n# hand-written\n');
    await assert.rejects(
      writeGenerated(root),
      /table-audit-clickhouse\.yaml: exists and was not written by `pnpm dashboards`/,
    );
    assert.equal(readFileSync(path, 'utf8'), 'apiVersion: 1\n# hand-written\n');
  });
});

describe('the dashboards', () => {
  const built = dashboards.map((spec) => ({ spec, json: buildDashboard(spec) }));

  it('have unique uids and panel ids, and every panel queries the provisioned ClickHouse data source', () => {
    assert.equal(new Set(dashboards.map((d) => d.uid)).size, dashboards.length);
    const ids = dashboards.flatMap((d) => d.panels.map((p) => p.id));
    assert.equal(new Set(ids).size, ids.length);
    for (const { spec, json } of built) {
      const queried = (json.panels ?? []).filter(
        (p): p is sdk.Panel => 'targets' in p && !!p.targets?.length,
      );
      assert.equal(queried.length, spec.panels.length, spec.uid);
      for (const [i, p] of queried.entries()) {
        assert.equal(p.datasource?.uid, DATASOURCE_UID);
        const target = p.targets![0] as unknown as { rawSql: string; datasource: { uid: string } };
        assert.equal(target.rawSql, spec.panels[i]!.sql);
        assert.equal(target.datasource.uid, DATASOURCE_UID);
      }
    }
  });

  it('define every variable their panels and links use, and each panel declares the variables it uses', () => {
    for (const { spec, json } of built) {
      const defined = new Set((json.templating.list ?? []).map((v) => v.name));
      for (const p of spec.panels) {
        const used = new Set(
          [...p.sql.matchAll(/\$\{(\w+)(?::\w+)?\}|\$(\w+)/g)]
            .map((m) => (m[1] ?? m[2]) as string)
            .filter((n) => !n.startsWith('__')),
        );
        assert.deepEqual([...used].sort(), [...p.variables].sort(), `${p.id}: variables used vs declared`);
        for (const v of used) assert.ok(defined.has(v), `${p.id} uses $${v}, not defined on ${spec.uid}`);
      }
      for (const link of json.links ?? [])
        for (const m of (link.url ?? '').matchAll(/\$\{(\w+)\}/g))
          assert.ok(defined.has(m[1]!), `${spec.uid} link uses $${m[1]}`);
    }
  });

  it('say wherever the game can be chosen that Mah-Jong’s outcomes are out of scope', () => {
    for (const { spec, json } of built) {
      const game = json.templating.list?.find((v) => v.name === 'game');
      if (game)
        assert.match(game.description ?? '', /Mah-Jong: only the deal is judged.*out of scope/, spec.uid);
    }
    assert.ok(built.some(({ json }) => json.templating.list?.some((v) => v.name === 'game')));
  });

  it('link the round drill-down to the API disputed-hand page', () => {
    const drill = built.find(({ spec }) => spec.uid === 'ta-round')!.json;
    assert.ok(drill.links?.some((l) => l.url === '${api_base_url}/ui/rounds/${round}'));
    assert.ok(drill.templating.list?.some((v) => v.name === 'api_base_url' && v.type === 'constant'));
  });

  it('expand with any selection: All, one value, several values with a quote in them', () => {
    const selections = [{ values: ['A', 'B'], all: true }, { values: ['A'] }, { values: ["O'Brien", 'B'] }];
    for (const selection of selections)
      for (const d of dashboards)
        for (const p of d.panels) {
          const variables = Object.fromEntries(p.variables.map((v) => [v, selection]));
          const sql = expandMacros(p.sql, { from: 0, to: 86_400_000, intervalMs: 60_000, variables });
          assert.doesNotMatch(sql, /\$/, `${p.id}: something left unexpanded`);
        }
  });
});
