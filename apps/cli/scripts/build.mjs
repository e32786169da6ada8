#!/usr/bin/env node
// Compiles the table-audit command into JavaScript, so that a call does not transpile TypeScript first:
// apps/cli/dist/main.mjs and its chunks, with the workspace's TypeScript sources bundled in and every package from
// node_modules left as an import of the exact file this machine's install resolved it to (the build is made on the
// machine that runs it: `pnpm install` runs it as the root's `prepare` script; `pnpm run build` runs it again).
// Each command's heavy parts stay behind their dynamic imports (one chunk each), as in the sources.
//
// `import.meta.url` in each bundled file is replaced by that source file's own URL, so the files found next to a
// source (Avro schemas, the UI's assets, the replay's worker) are found where they are.
//
// dist/manifest.json lists every source bundled, with its size and modification time: bin/table-audit.js uses the
// build only while all of them are unchanged, and otherwise runs the sources (a stale build is never used).
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import { externalsPlugin } from '../../../services/replay/src/esbuild-externals.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const CLI_DIR = resolve(here, '..');
export const REPO_ROOT = resolve(CLI_DIR, '../..');
export const DEFAULT_OUT = join(CLI_DIR, 'dist');
/** Files outside the bundle whose change makes the build stale: the lockfile (the resolved dependency paths). */
const ALSO_WATCHED = ['pnpm-lock.yaml'];

/**
 * Heavy CommonJS packages that only some commands use (Kafka, the Confluent registry and the ClickHouse client
 * took about 45% of a `--help` otherwise): their imports are replaced by stand-ins that require the package on first use. Each named
 * import is listed with what it is ('class': constructed with new; 'object': read from); an import not listed
 * here fails the build, never the run.
 */
const LAZY = {
  kafkajs: { Kafka: 'class', logLevel: 'object' },
  '@kafkajs/confluent-schema-registry': {
    SchemaRegistry: 'class',
    COMPATIBILITY: 'object',
    SchemaType: 'object',
  },
  // a function, called: a 'class' stand-in forwards calls too
  '@clickhouse/client': { createClient: 'class' },
};

function lazyModule(resolvedPath, names) {
  const lines = [
    `import { createRequire } from 'node:module';`,
    `const require = createRequire(${JSON.stringify(pathToFileURL(resolvedPath).href)});`,
    `let loaded;`,
    `const load = () => (loaded ??= require(${JSON.stringify(resolvedPath)}));`,
    `const forward = (name) => ({`,
    `  get: (_, key) => Reflect.get(load()[name], key),`,
    `  has: (_, key) => Reflect.has(load()[name], key),`,
    `  ownKeys: () => Reflect.ownKeys(load()[name]).filter((k) => k !== 'prototype'),`,
    `  getOwnPropertyDescriptor: (_, key) => {`,
    `    const d = Reflect.getOwnPropertyDescriptor(load()[name], key);`,
    `    return d && { ...d, configurable: true };`,
    `  },`,
    `});`,
    `const lazyClass = (name) => new Proxy(function () {}, {`,
    `  ...forward(name),`,
    `  construct: (_, args, newTarget) => Reflect.construct(load()[name], args),`,
    `  apply: (_, self, args) => Reflect.apply(load()[name], self, args),`,
    `});`,
    `const lazyObject = (name) => new Proxy({}, forward(name));`,
  ];
  for (const [name, kind] of Object.entries(names))
    lines.push(
      `export const ${name} = ${kind === 'class' ? 'lazyClass' : 'lazyObject'}(${JSON.stringify(name)});`,
    );
  return lines.join('\n');
}

/** Bare imports of node_modules packages: external, as the URL of the file this install resolves them to. */
const externals = externalsPlugin({
  name: 'table-audit-externals',
  lazy: { names: LAZY, module: lazyModule },
});

/** Builds into `outdir` (default apps/cli/dist); returns the manifest written beside it. */
export async function buildCli({ outdir = DEFAULT_OUT, quiet = false } = {}) {
  const t0 = performance.now();
  rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    // the file ingest's preparing thread (services/ingest/src/parallel-ingest.ts), started from dist/ by the CLI
    entryPoints: {
      main: join(CLI_DIR, 'src/main.ts'),
      'ingest-worker': join(REPO_ROOT, 'services/ingest/src/ingest-worker.ts'),
    },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outdir,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
    supported: { 'import-attributes': true },
    // the code does not read function names; esbuild's keepNames would slow the replay (see bin/ts-hooks.mjs)
    plugins: [externals],
  });
  const inputs = {};
  for (const file of [...Object.keys(result.metafile.inputs), ...ALSO_WATCHED]) {
    const abs = resolve(REPO_ROOT, file);
    const rel = relative(REPO_ROOT, abs);
    if (rel.startsWith('..') || rel.includes('node_modules')) continue;
    const s = statSync(abs);
    inputs[rel] = { size: s.size, mtimeMs: s.mtimeMs };
  }
  const manifest = { builtAt: new Date().toISOString(), node: process.version, inputs };
  writeFileSync(join(outdir, 'manifest.json'), `${JSON.stringify(manifest, null, 1)}\n`);
  if (!quiet)
    process.stdout.write(
      `table-audit: compiled ${Object.keys(inputs).length} source files into ${relative(process.cwd(), outdir) || '.'} in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
    );
  return manifest;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildCli();
