import type { Plugin } from 'esbuild';

/** See esbuild-externals.mjs. */
export function externalsPlugin(o: {
  name: string;
  lazy?: { names: Record<string, unknown>; module: (path: string, names: unknown) => string };
}): Plugin;
