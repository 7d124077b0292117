/**
 * Headless Chromium for the interactive docs' browser test and screenshot
 * (docs/sandbox-over-time.md): Debian's `chromium` package, driven by playwright-core
 * (pinned), which downloads no browser of its own.
 */
import { access, constants } from 'node:fs/promises';
import { chromium, type Browser } from 'playwright-core';

/** Where Debian's `chromium` package puts the browser. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Why Chromium cannot run here (`apt-get install chromium`), or undefined when it can. */
export const chromiumMissing = async (): Promise<string | undefined> => {
  try {
    await access(CHROMIUM_PATH, constants.X_OK);
    return undefined;
  } catch {
    return `${CHROMIUM_PATH} is not installed (Debian: apt-get install --no-install-recommends chromium)`;
  }
};

/**
 * Chromium, headless. `--no-sandbox`: its sandbox cannot start as root (CI runs
 * as root); `--disable-dev-shm-usage`: containers' /dev/shm is small.
 */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
