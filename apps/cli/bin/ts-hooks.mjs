// Module hooks that run the TypeScript sources directly: esbuild strips the types, file by file. Unlike tsx it
// does not keep function names (esbuild's keepNames wraps every closure in a defineProperty call, which halved
// the replay's speed), and it keeps import attributes (`with { type: 'json' }`). Source maps stay inline.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const { code } = await transform(await readFile(path, 'utf8'), {
    loader: 'ts',
    format: 'esm',
    target: 'node20',
    sourcemap: 'inline',
    sourcefile: path,
    supported: { 'import-attributes': true },
  });
  return { format: 'module', source: code, shortCircuit: true };
}
