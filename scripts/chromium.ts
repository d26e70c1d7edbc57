import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/**
 * A headless Chromium driven by playwright-core, for the build page's browser test
 * (test/integration/build-page.test.ts) and the screenshots (scripts/screenshots.ts). It is
 * the system's Chromium (Debian: `apt-get install chromium`, which .ci/run does), never a
 * browser downloaded by Playwright; `CHROMIUM_PATH` points elsewhere. Every launch gets a fresh
 * temporary profile (user data dir), removed when the browser closes.
 */

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH || '/usr/bin/chromium';
}

/** Fails with what to do when there is no Chromium: a browser test must not pass without one. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!existsSync(executablePath)) {
    throw new Error(
      `Chromium is not installed at ${executablePath}: the build page is tested in a real ` +
        'browser. Install it (Debian: apt-get install chromium; .ci/run does) or set ' +
        'CHROMIUM_PATH to a Chromium or Chrome binary.',
    );
  }
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}
