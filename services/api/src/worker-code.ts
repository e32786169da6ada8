/**
 * What the API's worker threads (the replay workers, the access writer) are started from: the compiled worker
 * (services/replay's compiledWorker: the source and everything of the workspace it imports bundled by esbuild into
 * one JavaScript file, kept in node_modules/.cache/table-audit-replay and made again when a source changes), else
 * the TypeScript source itself with the loader the caller names, or with the flags this process runs with.
 */
import { compiledWorker, withoutModuleHooks } from '@table-audit/replay';

export interface WorkerCodeOptions {
  /** false: start from the TypeScript source (tests of the fallback) */
  readonly compiled?: boolean;
  /** a module the worker imports first when it starts from the source (the TypeScript loader) */
  readonly loader?: string;
}

export type WorkerCode = { readonly compiled: true } | { readonly compiled: false; readonly why: string };

export async function workerCode(
  source: URL,
  name: string,
  o: WorkerCodeOptions = {},
): Promise<{ entry: URL; execArgv: string[]; code: WorkerCode }> {
  if (o.compiled !== false) {
    const made = await compiledWorker(source, name);
    if (made.url !== null)
      return { entry: made.url, execArgv: withoutModuleHooks(process.execArgv), code: { compiled: true } };
    return { entry: source, execArgv: sourceArgv(o), code: { compiled: false, why: made.why } };
  }
  return { entry: source, execArgv: sourceArgv(o), code: { compiled: false, why: 'compiled is false' } };
}

const sourceArgv = (o: WorkerCodeOptions): string[] =>
  o.loader ? [...process.execArgv, '--import', o.loader] : process.execArgv;
