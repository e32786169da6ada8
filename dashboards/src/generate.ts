// `pnpm dashboards`: writes the dashboard JSON and the provisioning files into infra/grafana/. `--check` writes
// nothing and exits 1 naming every file that is missing, stale or left over. It only ever overwrites or removes
// files that carry its own generated mark.
import { existsSync, mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { buildDashboard, GENERATED_TAG } from './build.ts';
import { dashboards } from './dashboards.ts';
import { dashboardProviderYaml, datasourceYaml, GENERATED_HEADER } from './provisioning.ts';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const GRAFANA_DIR = join(REPO_ROOT, 'infra/grafana');
const DASHBOARD_DIR = 'dashboards';

const README = `# infra/grafana (generated)

Everything here is written by \`pnpm dashboards\` from \`dashboards/src\`; edit the code there, never these files
(a test fails when they are stale). See [docs/dashboards.md](../../docs/dashboards.md).

- \`provisioning/datasources/table-audit-clickhouse.yaml\`: the ClickHouse data source (grafana-clickhouse-datasource)
- \`provisioning/dashboards/table-audit.yaml\`: a file provider for the dashboards
- \`dashboards/*.json\`: the dashboards, mounted where the provider looks
`;

const format = async (path: string, text: string): Promise<string> => {
  const options = (await prettier.resolveConfig(join(REPO_ROOT, path))) ?? {};
  return prettier.format(text, { ...options, filepath: path });
};

/** Every generated file: path relative to the repository root → content (made once per process: it is pure). */
let made: Promise<Map<string, string>> | undefined;
export const generatedFiles = (): Promise<Map<string, string>> => (made ??= makeFiles());
const makeFiles = async (): Promise<Map<string, string>> => {
  const files = new Map<string, string>();
  files.set('infra/grafana/README.md', README);
  files.set(
    'infra/grafana/provisioning/datasources/table-audit-clickhouse.yaml',
    await format('infra/grafana/provisioning/datasources/table-audit-clickhouse.yaml', datasourceYaml()),
  );
  files.set(
    'infra/grafana/provisioning/dashboards/table-audit.yaml',
    await format('infra/grafana/provisioning/dashboards/table-audit.yaml', dashboardProviderYaml()),
  );
  for (const spec of dashboards) {
    const path = `infra/grafana/${DASHBOARD_DIR}/${spec.uid}.json`;
    files.set(path, await format(path, JSON.stringify(buildDashboard(spec))));
  }
  return files;
};

/** Whether a file on disk was written by this generator (and may be replaced or removed by it). */
const isGenerated = (path: string, content: string): boolean => {
  if (path.endsWith('.md')) return content.startsWith('# infra/grafana (generated)');
  if (path.endsWith('.yaml')) return content.startsWith(GENERATED_HEADER);
  if (path.endsWith('.json')) {
    try {
      const tags: unknown = (JSON.parse(content) as { tags?: unknown }).tags;
      return Array.isArray(tags) && tags.includes(GENERATED_TAG);
    } catch {
      return false;
    }
  }
  return false;
};

export interface Difference {
  readonly path: string;
  readonly problem: 'missing' | 'stale' | 'left over';
}

const generatedDashboardsOnDisk = (root: string): string[] => {
  const dir = join(root, 'infra/grafana', DASHBOARD_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => `infra/grafana/${DASHBOARD_DIR}/${name}`)
    .filter((path) => isGenerated(path, readFileSync(join(root, path), 'utf8')));
};

/** What differs between the generated files and those under `root`. */
export const compareWithDisk = async (root = REPO_ROOT): Promise<Difference[]> => {
  const files = await generatedFiles();
  const differences: Difference[] = [];
  for (const [path, content] of files) {
    const full = join(root, path);
    if (!existsSync(full)) differences.push({ path, problem: 'missing' });
    else if (readFileSync(full, 'utf8') !== content) differences.push({ path, problem: 'stale' });
  }
  for (const path of generatedDashboardsOnDisk(root))
    if (!files.has(path)) differences.push({ path, problem: 'left over' });
  return differences;
};

/** Writes the generated files under `root`; refuses to replace a file it did not write. Returns what changed. */
export const writeGenerated = async (root = REPO_ROOT): Promise<Difference[]> => {
  const differences = await compareWithDisk(root);
  const files = await generatedFiles();
  for (const { path, problem } of differences) {
    const full = join(root, path);
    if (problem === 'stale' && !isGenerated(path, readFileSync(full, 'utf8')))
      throw new Error(
        `${path}: exists and was not written by \`pnpm dashboards\`; move it away, then run again`,
      );
  }
  for (const { path, problem } of differences) {
    const full = join(root, path);
    if (problem === 'left over') unlinkSync(full);
    else {
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, files.get(path)!);
    }
  }
  return differences;
};

const main = async (): Promise<number> => {
  const check = process.argv.includes('--check');
  const differences = check ? await compareWithDisk() : await writeGenerated();
  for (const d of differences)
    console.log(`${check ? d.problem : d.problem === 'left over' ? 'removed' : 'written'}: ${d.path}`);
  if (check && differences.length) {
    console.error(`dashboards: ${differences.length} generated file(s) out of date; run \`pnpm dashboards\``);
    return 1;
  }
  if (!differences.length) console.log(`dashboards: ${relative(REPO_ROOT, GRAFANA_DIR)} is up to date`);
  return 0;
};

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(`dashboards: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
