/**
 * A worker of the workspace (the bulk replay's shard worker, the what-if's, the API's replay workers) as one
 * compiled JavaScript file each, so that a worker thread does not
 * transpile ~170 TypeScript files
 * through the loader before its first event (0.5–0.7 s a worker in a probe; in the bench runs under load, the
 * compiled worker started in about half the time of the sources). docs/scaling.md, replay, fourth pass, has the
 * figures.
 *
 * The file is made with esbuild from the worker's source and everything of the workspace it imports; packages from
 * node_modules stay imports of the exact file this install resolves them to, and `import.meta.url` in each bundled
 * source is that source's own URL (files found next to a source are found where they are), as the CLI's build does.
 * It is kept in node_modules/.cache/table-audit-replay/ with a manifest of every source it was made from (size and
 * modification time) and the Node version: it is used only while all of them are unchanged, otherwise made again.
 * Writes go to a file of their own, renamed into place, so two processes making it at once do not mix their bytes.
 * When it cannot be made (esbuild missing, the cache not writable), the caller starts the workers from the sources.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { externalsPlugin } from './esbuild-externals.mjs';

const SHARD_WORKER = new URL('./shard-worker.ts', import.meta.url);
const ROOT = resolve(dirname(fileURLToPath(SHARD_WORKER)), '../../..');
/** Where the compiled workers and their manifests are kept. */
export const COMPILED_WORKER_DIR = join(ROOT, 'node_modules/.cache/table-audit-replay');

/** A worker's source and where its bundle and manifest are kept (named after the source's file). */
interface WorkerFiles {
  readonly source: string;
  readonly bundle: string;
  readonly manifest: string;
}
const filesOf = (source: URL, name: string): WorkerFiles => ({
  source: fileURLToPath(source),
  bundle: join(COMPILED_WORKER_DIR, `${name}.mjs`),
  manifest: join(COMPILED_WORKER_DIR, `${name}.json`),
});

interface Manifest {
  node: string;
  /** sha256 of the bundle: a bundle edited or cut short is not used */
  sha256: string;
  inputs: Record<string, { size: number; mtimeMs: number }>;
}

const sha256 = (bytes: string | Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Why the kept bundle cannot be used, or its digest (checked against the manifest's) when it can. */
function stale(files: WorkerFiles): { why: string } | { sha256: string } {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(files.manifest, 'utf8')) as Manifest;
  } catch {
    return { why: 'no compiled worker' };
  }
  if (manifest.node !== process.version) return { why: `compiled under Node ${manifest.node}` };
  for (const [file, was] of Object.entries(manifest.inputs ?? {})) {
    try {
      const now = statSync(join(ROOT, file));
      if (now.size !== was.size || now.mtimeMs !== was.mtimeMs) return { why: `${file} changed` };
    } catch {
      return { why: `${file} is gone` };
    }
  }
  try {
    if (sha256(readFileSync(files.bundle)) !== manifest.sha256)
      return { why: 'the compiled worker is not the one made' };
  } catch {
    return { why: 'the compiled worker is gone' };
  }
  return { sha256: manifest.sha256 };
}

async function make(files: WorkerFiles): Promise<void> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [files.source],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    write: false,
    metafile: true,
    logLevel: 'silent',
    supported: { 'import-attributes': true },
    plugins: [externalsPlugin({ name: 'table-audit-replay-worker' })],
  });
  const code = result.outputFiles[0]!.text;
  const inputs: Manifest['inputs'] = {};
  for (const file of Object.keys(result.metafile.inputs)) {
    const abs = resolve(process.cwd(), file);
    const rel = relative(ROOT, abs);
    if (rel.startsWith('..') || rel.includes('node_modules')) continue;
    const s = statSync(abs);
    inputs[rel] = { size: s.size, mtimeMs: s.mtimeMs };
  }
  mkdirSync(COMPILED_WORKER_DIR, { recursive: true });
  const own = `.${process.pid}.${Date.now()}`;
  const { bundle, manifest: manifestFile } = files;
  writeFileSync(bundle + own, code);
  renameSync(bundle + own, bundle);
  const manifest: Manifest = { node: process.version, sha256: sha256(code), inputs };
  writeFileSync(manifestFile + own, `${JSON.stringify(manifest, null, 1)}\n`);
  renameSync(manifestFile + own, manifestFile);
}

/**
 * A compiled worker, made first if it is missing or stale; null (with why) when it cannot be made, and the caller
 * then starts its workers from the sources.
 */
/** The compiled shard worker of the bulk replay (see compiledWorker). */
export function compiledShardWorker(): Promise<
  { url: URL; made: boolean; sha256: string } | { url: null; why: string }
> {
  return compiledWorker(SHARD_WORKER, 'shard-worker');
}

/**
 * Any worker of the workspace compiled the same way (e.g. the API's replay workers): `source` is its TypeScript
 * entry, `name` the name its bundle and manifest are kept under in COMPILED_WORKER_DIR (one name per source).
 */
export async function compiledWorker(
  source: URL,
  name: string,
): Promise<{ url: URL; made: boolean; sha256: string } | { url: null; why: string }> {
  if (!/^[\w-]+$/.test(name)) throw new Error(`not a worker name: ${name}`);
  const files = filesOf(source, name);
  // the bundle's digest names the code it runs: prepared readings record it (readings-ready.ts)
  const url = pathToFileURL(files.bundle);
  const before = stale(files);
  if ('sha256' in before) return { url, sha256: before.sha256, made: false };
  try {
    await make(files);
  } catch (err) {
    return { url: null, why: err instanceof Error ? err.message : String(err) };
  }
  const after = stale(files);
  return 'sha256' in after ? { url, sha256: after.sha256, made: true } : { url: null, why: after.why };
}
