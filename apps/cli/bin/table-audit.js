#!/usr/bin/env node
// The sources are TypeScript, transpiled as they load (register-ts.mjs), so there is no build step between an
// edit and a run.
import './register-ts.mjs';

const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv.slice(2));
