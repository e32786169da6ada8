// The one esbuild plugin of the workspace's bundles: the CLI's build (apps/cli/scripts/build.mjs) and the compiled
// workers (services/replay/src/compiled-worker.ts). Plain JavaScript, so that the build script, which runs before
// anything is compiled, can import it as it is.
//  - A bare import of a package from node_modules stays an import, of the URL of the exact file this install
//    resolves it to (the bundle runs on the machine that made it); a Node builtin stays as written.
//  - Workspace packages (@table-audit/*) and relative imports are bundled.
//  - `import.meta.url` in each bundled TypeScript source becomes that source's own URL, so the files found next to a
//    source (Avro schemas, the UI's assets, a worker) are found where they are.
//  - `lazy` (optional): packages whose named imports are replaced by stand-ins that load the package on first use;
//    `lazy.names[package]` lists each named import, `lazy.module(resolvedPath, names)` writes the stand-in module.
import { builtinModules } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';

const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

/** @param {{ name: string, lazy?: { names: Record<string, unknown>, module: (path: string, names: unknown) => string } }} o */
export function externalsPlugin({ name, lazy }) {
  return {
    name,
    /** @param {import('esbuild').PluginBuild} b */
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData?.resolving || args.path.startsWith('@table-audit/')) return undefined;
        if (builtins.has(args.path)) return { path: args.path, external: true };
        const r = await b.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: { resolving: true },
        });
        if (r.errors.length) return { errors: r.errors };
        if (lazy && Object.hasOwn(lazy.names, args.path) && args.kind === 'import-statement')
          return { path: r.path, namespace: 'lazy', pluginData: { names: lazy.names[args.path] } };
        return { path: pathToFileURL(r.path).href, external: true };
      });
      if (lazy)
        b.onLoad({ filter: /.*/, namespace: 'lazy' }, (args) => ({
          contents: lazy.module(args.path, args.pluginData.names),
          loader: 'js',
          resolveDir: dirname(args.path),
        }));
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        const url = JSON.stringify(pathToFileURL(args.path).href);
        return { contents: source.replaceAll('import.meta.url', url), loader: 'ts' };
      });
    },
  };
}
