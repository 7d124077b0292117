/**
 * `npm run docs:screenshot`: starts a sandbox server on 127.0.0.1 (memory
 * store, demo data), opens `/docs` in headless Chromium (the browser the test
 * uses), and writes `docs/images/interactive-docs.png`. Run by hand when the
 * page changes; no test writes into the repository.
 */
import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as E from 'fp-ts/lib/Either.js';
import pino from 'pino';
import { loadConfig } from '../src/main/config.js';
import { startServer } from '../src/main/server.js';
import { chromiumMissing, launchChromium } from './chromium.js';

/** The repository's root, from this file's place in packages/adapter-http/dist/tools. */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const OUTPUT = resolve(ROOT, 'docs/images/interactive-docs.png');

const main = async (): Promise<void> => {
  const missing = await chromiumMissing();
  if (missing !== undefined) throw new Error(missing);
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DEBTKIT_ENV: 'sandbox', DEBTKIT_STORE: 'memory', LOG_LEVEL: 'silent' });
  if (E.isLeft(config)) throw new Error(config.left);
  const running = await startServer({ config: config.right, logger: pino({ level: 'silent' }) });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${running.url}/docs`, { waitUntil: 'load' });
    const ping = page.locator('#operations-Ping-postPing');
    await ping.waitFor({ timeout: 120_000 });
    // The ping operation opened, as a developer about to try it sees it.
    await ping.locator('.opblock-summary').click();
    await ping.locator('button.execute').waitFor({ timeout: 60_000 });
    await mkdir(dirname(OUTPUT), { recursive: true });
    await page.screenshot({ path: OUTPUT });
    console.log(`wrote ${OUTPUT}`);
  } finally {
    await browser.close();
    await running.shutdown();
  }
};

main().catch((err: unknown) => {
  console.error(`docs:screenshot: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
});
