#!/usr/bin/env node
// The sources are TypeScript, transpiled as they load (register-ts.mjs), so there is no build step between an
// edit and a run.
import './register-ts.mjs';

// `table-audit … | head` closes the pipe early: that is the reader's choice, not an error to report.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv.slice(2));
