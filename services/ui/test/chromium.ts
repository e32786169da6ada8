/**
 * Debian's Chromium for the UI's browser tests, driven by playwright-core: where it is, where screenshots go
 * (services/ui/test-artifacts/ui/, git-ignored), whether the tests run (skipped without it, saying so, except under
 * CI=true, where they fail), and a headless launch that keeps everything on loopback.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const ARTIFACTS = new URL('../test-artifacts/ui/', import.meta.url);
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && process.env.CI === 'true')
  throw new Error(`${CHROMIUM} is missing: under CI the browser test must run (apt-get install chromium)`);
export const skip = haveChromium
  ? false
  : `${CHROMIUM} is missing (apt-get install chromium); the browser test is skipped`;

export function launchChromium(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
