/**
 * `npm run docs:screenshot` (with the interactive docs' picture): the dashboard
 * against a fresh demo debtkit, in headless Chromium, written to
 * docs/images/dashboard.png. Run by hand when the page changes; no test writes
 * into the repository.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { DASHBOARD_ROOT, buildDashboard, serveDashboard, startDemoDebtkit } from './server.js';

const OUTPUT = resolve(DASHBOARD_ROOT, '../../docs/images/dashboard.png');

const main = async (): Promise<void> => {
  const debtkit = await startDemoDebtkit();
  const pageDir = await mkdtemp(join(tmpdir(), 'debtkit-dashboard-'));
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
  try {
    await buildDashboard(pageDir);
    const dashboard = await serveDashboard({ apiUrl: debtkit.url, token: debtkit.token, pageDir });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`${dashboard.url}/`, { waitUntil: 'load' });
      await page.locator('body[data-state="ready"], body[data-state="error"]').waitFor({ timeout: 60_000 });
      if ((await page.locator('body').getAttribute('data-state')) !== 'ready')
        throw new Error(`the page did not load: ${await page.locator('#summary').textContent()}`);
      await mkdir(dirname(OUTPUT), { recursive: true });
      await page.screenshot({ path: OUTPUT, fullPage: true });
      console.log(`wrote ${OUTPUT}`);
    } finally {
      await dashboard.close();
    }
  } finally {
    await browser.close();
    await debtkit.shutdown();
    await rm(pageDir, { recursive: true, force: true });
  }
};

main().catch((err: unknown) => {
  console.error(`docs:screenshot: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
});
