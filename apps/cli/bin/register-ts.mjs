// `node --import ./apps/cli/bin/register-ts.mjs file.ts`: runs TypeScript through ts-hooks.mjs.
import { register } from 'node:module';

process.setSourceMapsEnabled(true);
register('./ts-hooks.mjs', import.meta.url);
