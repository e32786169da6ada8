#!/usr/bin/env node
// Runs the compiled command (apps/cli/dist, made by `pnpm install` or `pnpm run build`) while it matches the
// sources; otherwise (a source edited since, no build, TABLE_AUDIT_FROM_SOURCES=1) the TypeScript sources,
// transpiled as they load (register-ts.mjs), so there is no build step between an edit and a run.
import { fileURLToPath } from 'node:url';
import { compiledState } from './compiled.mjs';

// `table-audit … | head` closes the pipe early: that is the reader's choice, not an error to report.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const root = fileURLToPath(new URL('../../../', import.meta.url));
const state = process.env.TABLE_AUDIT_FROM_SOURCES === '1' ? { current: false } : compiledState(dist, root);
let main;
if (state.current) ({ main } = await import('../dist/main.mjs'));
else {
  // said on a terminal only: the output of scripts and tests stays the same either way
  if (state.reason && process.stderr.isTTY)
    process.stderr.write(
      `table-audit: running from the TypeScript sources (slower start): ${state.reason}; pnpm run build compiles them\n`,
    );
  await import('./register-ts.mjs');
  ({ main } = await import('../src/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
