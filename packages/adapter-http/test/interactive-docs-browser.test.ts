/**
 * docs/sandbox-over-time.md: the interactive docs in a real browser. Headless Chromium
 * (Debian's `chromium`, driven by playwright-core) loads `/docs` from a
 * sandbox server on 127.0.0.1, pastes the demo token into the page's
 * authorization dialog, sends `POST /api/ping` from the page's try-it and sees
 * the answer. Every request the page makes is watched: none may leave the
 * server, none may break the page's Content-Security-Policy, and the token
 * must not be kept in the browser's storage.
 *
 * One browser for the file. Without Chromium the test fails under CI=true
 * (`.ci/run` installs it) and is skipped with its reason otherwise.
 */
import { expect } from 'chai';
import pino from 'pino';
import * as E from 'fp-ts/lib/Either.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { loadConfig } from '../src/main/config.js';
import { startServer, type RunningServer } from '../src/main/server.js';
import { chromiumMissing, launchChromium } from '../tools/chromium.js';

/** How long the page may take for one step: generous, for a loaded machine (the first load also compresses the bundle). */
const STEP_MS = 60_000;

describe('interactive docs in a browser (GET /docs, headless Chromium)', function () {
  this.timeout(240_000);
  let running: RunningServer | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext;
  let page: Page;
  let token: string;
  /** Every URL the browser asked for, and the ones that were not this server (refused). */
  const requested: string[] = [];
  const foreign: string[] = [];
  /** What the page reported as Content-Security-Policy violations (its event, and Chromium's console errors). */
  const violations: string[] = [];

  before(async function () {
    const missing = await chromiumMissing();
    if (missing !== undefined) {
      if (process.env['CI'] === 'true') throw new Error(`interactive docs browser test: ${missing}; CI must run this test`);
      console.log(`    (skipped: ${missing})`);
      this.skip();
    }
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DEBTKIT_ENV: 'sandbox', DEBTKIT_STORE: 'memory', LOG_LEVEL: 'silent' });
    if (E.isLeft(config)) throw new Error(config.left);
    running = await startServer({ config: config.right, logger: pino({ level: 'silent' }) });
    if (running.demo === undefined) throw new Error('the sandbox server seeded no demo client');
    token = running.demo.token;
    const origin = new URL(running.url).origin;

    browser = await launchChromium();
    context = await browser.newContext();
    // Anything not for this server is refused and remembered (data: URLs never reach the network).
    await context.route('**/*', async (route) => {
      const url = route.request().url();
      requested.push(url);
      if (new URL(url).origin === origin) await route.continue();
      else {
        foreign.push(url);
        await route.abort('blockedbyclient');
      }
    });
    // Run in the page (this file is compiled without the DOM's types, hence a string).
    await context.addInitScript({
      content:
        "window.cspViolations = []; document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));",
    });
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
  });

  after(async () => {
    await browser?.close();
    await running?.shutdown();
  });

  it('loads the reference of the served version, pastes the token, sends POST /api/ping from the page and shows the answer', async () => {
    const base = running!.url;
    const loaded = await page.goto(`${base}/docs`, { waitUntil: 'load' });
    expect(loaded?.status()).to.equal(200);
    expect(loaded?.headers()['content-security-policy']).to.include("script-src 'self'");

    // The version choice, built from the versions the server knows.
    const ping = page.locator('#operations-Ping-postPing');
    await ping.waitFor({ timeout: STEP_MS });
    const versions = await page
      .locator('#debtkit-docs-version option')
      .evaluateAll((options) => options.map((o) => ({ name: o.textContent, url: o.getAttribute('value') })));
    expect(versions.length).to.be.greaterThan(0);
    expect(versions[0]!.url).to.equal(`openapi.json?version=${versions[0]!.name ?? ''}`);

    // Paste the token into the client token's authorization.
    await page.locator('.auth-wrapper .authorize').click();
    const bearer = page
      .locator('.auth-container')
      .filter({ hasText: /^bearer/ })
      .first();
    await bearer.locator('input').fill(token);
    await bearer.locator('button.authorize').click();
    await page.locator('.btn-done').first().click();

    // Open ping (try-it is on), write the payload, execute.
    await ping.locator('.opblock-summary').click();
    const body = ping.locator('textarea.body-param__text');
    await body.waitFor({ timeout: STEP_MS });
    await body.fill('{"payload":"from the browser"}');
    const sent = page.waitForRequest((r) => r.url() === `${base}/api/ping` && r.method() === 'POST', { timeout: STEP_MS });
    await ping.locator('button.execute').click();
    const request = await sent;
    expect(request.headers()['authorization']).to.equal(`Bearer ${token}`);
    const answered = await request.response();
    expect(answered?.status()).to.equal(200);

    // The page shows the server's answer.
    const live = ping.locator('.live-responses-table');
    const row = live.locator('tr.response');
    await row.first().waitFor({ timeout: STEP_MS });
    expect((await row.locator('.response-col_status').first().textContent())?.trim()).to.equal('200');
    expect(await row.locator('.response-col_description').first().textContent()).to.include('"payload": "from the browser"');

    // Nothing left 127.0.0.1, nothing broke the page's policy.
    expect(foreign, 'requests that left the server').to.deep.equal([]);
    expect(requested.some((u) => u.includes('/docs/assets/swagger-ui-bundle.js'))).to.equal(true);
    expect(requested.some((u) => u.includes('/openapi.json?version='))).to.equal(true);
    const reported = await page.evaluate<string[]>('window.cspViolations');
    expect([...reported, ...violations], 'Content-Security-Policy violations').to.deep.equal([]);

    // The token lives in the page's memory only.
    const stored = await page.evaluate<string>('JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } })');
    expect(stored).not.to.include(token);
    const cookies = await context.cookies();
    expect(cookies).to.deep.equal([]);
  });

  it('forgets the token when the page is loaded again', async () => {
    await page.reload({ waitUntil: 'load' });
    await page.locator('#operations-Ping-postPing').waitFor({ timeout: STEP_MS });
    // Not authorized any more: the dialog's bearer entry offers an empty field again.
    await page.locator('.auth-wrapper .authorize').click();
    const bearer = page
      .locator('.auth-container')
      .filter({ hasText: /^bearer/ })
      .first();
    expect(await bearer.locator('input').inputValue()).to.equal('');
    await page.locator('.btn-done').first().click();
  });
});
