// Whether the compiled command (apps/cli/dist, made by apps/cli/scripts/build.mjs) matches the sources: every
// source it was built from has the size and modification time it had then. Any difference, a source missing, or
// no build at all: not current, and bin/table-audit.js runs the sources instead.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** @returns {{ current: true } | { current: false, reason: string }} */
export function compiledState(distDir, repoRoot) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(distDir, 'manifest.json'), 'utf8'));
  } catch {
    return { current: false, reason: 'there is no compiled build' };
  }
  if (manifest.node !== process.version)
    return {
      current: false,
      reason: `it was compiled under Node ${manifest.node}, this is ${process.version}`,
    };
  for (const [file, was] of Object.entries(manifest.inputs ?? {})) {
    let now;
    try {
      now = statSync(join(repoRoot, file));
    } catch {
      return { current: false, reason: `${file}, compiled into it, is gone` };
    }
    if (now.size !== was.size || now.mtimeMs !== was.mtimeMs)
      return { current: false, reason: `${file} changed after it was compiled` };
  }
  return { current: true };
}
