/**
 * examples/dashboard in a real browser: headless Chromium (Debian's `chromium`,
 * driven by playwright-core, as the interactive docs' test) loads the page from
 * the dashboard's server in front of a started debtkit with the demo data
 * (fixed clock), and the charts must draw the API's numbers: every point of
 * every series is compared with what the API answers to @debtkit/client here.
 * A second load reuses the plans the first one made; the token never reaches
 * the page; nothing leaves 127.0.0.1.
 *
 * The page is built once, with Vite, into a temporary folder (its time is
 * printed). Without Chromium the test fails under CI=true and is skipped with
 * its reason otherwise.
 */
import { access, constants, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createClient, unwrap, type DebtkitClient } from '@debtkit/client';
import { buildDashboard, serveDashboard, startDemoDebtkit, type DashboardServer } from '../dashboard/server.js';

const CHROMIUM = '/usr/bin/chromium';
const STEP_MS = 60_000;
const NOW = new Date('2026-03-15T12:00:00.000Z');
const USER = 1;

type Series = { name: string | null; values: number[] };

const collect = async <A>(items: AsyncIterable<A>): Promise<A[]> => {
  const all: A[] = [];
  for await (const item of items) all.push(item);
  return all;
};

/** Every series a chart drew: its name and the value of each point, as Chartist wrote them into the SVG. */
const drawnSeries = (page: Page, chart: string): Promise<Series[]> =>
  page.locator(`#${chart} g.ct-series`).evaluateAll((groups) =>
    groups.map((g) => ({
      name: g.getAttribute('ct:series-name'),
      values: [...g.querySelectorAll('.ct-point')].map((p) => Number(p.getAttribute('ct:value'))),
    })),
  );

describe('example: dashboard in a browser (headless Chromium)', function () {
  this.timeout(240_000);
  let debtkit: Awaited<ReturnType<typeof startDemoDebtkit>> | undefined;
  let dashboard: DashboardServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let pageDir = '';
  let api: DebtkitClient<'2026-11-26'>;
  const foreign: string[] = [];
  const tokensSeen: string[] = [];
  const violations: string[] = [];

  before(async function () {
    try {
      await access(CHROMIUM, constants.X_OK);
    } catch {
      const missing = `${CHROMIUM} is not installed (Debian: apt-get install --no-install-recommends chromium)`;
      if (process.env['CI'] === 'true') throw new Error(`dashboard browser test: ${missing}; CI must run this test`);
      console.log(`    (skipped: ${missing})`);
      this.skip();
    }
    debtkit = await startDemoDebtkit({ now: () => NOW });
    api = createClient({ baseUrl: debtkit.url, token: debtkit.token, apiVersion: '2026-11-26' });
    pageDir = await mkdtemp(join(tmpdir(), 'debtkit-dashboard-'));
    const started = performance.now();
    const nodeEnv = process.env['NODE_ENV'];
    await buildDashboard(pageDir);
    console.log(`    (the page built with Vite in ${Math.round(performance.now() - started)} ms)`);
    // Vite's build sets NODE_ENV in this process; the next test file of this mocha worker must not inherit it.
    if (process.env['NODE_ENV'] !== nodeEnv)
      throw new Error(`building the dashboard left NODE_ENV=${process.env['NODE_ENV']} in the test process`);
    dashboard = await serveDashboard({ apiUrl: debtkit.url, token: debtkit.token, pageDir });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const origin = new URL(dashboard.url).origin;
    await context.route('**/*', async (route) => {
      const url = route.request().url();
      const authorization = route.request().headers()['authorization'];
      if (authorization !== undefined) tokensSeen.push(authorization);
      if (new URL(url).origin === origin) await route.continue();
      else {
        foreign.push(url);
        await route.abort('blockedbyclient');
      }
    });
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') violations.push(message.text());
    });
  });

  after(async () => {
    await browser?.close();
    await dashboard?.close();
    await debtkit?.shutdown();
    if (pageDir !== '') await rm(pageDir, { recursive: true, force: true });
  });

  const load = async (): Promise<string> => {
    await page.goto(`${dashboard!.url}/?user=${USER}`, { waitUntil: 'load' });
    await page.locator('body[data-state="ready"], body[data-state="error"]').waitFor({ timeout: STEP_MS });
    const state = await page.locator('body').getAttribute('data-state');
    expect(state, (await page.locator('#summary').textContent()) ?? '').to.equal('ready');
    return (await page.locator('body').getAttribute('data-created')) ?? '';
  };

  it("draws each account's balance month by month as the plan's schedule says", async () => {
    expect(await load(), 'the first load makes the two plans').to.equal('avalanche minimum_only');
    const plans = await collect(api.paginate('/api/users/{id}/payment_plans', { params: { path: { id: USER } } }));
    const plan = plans.find((p) => p.strategy === 'avalanche')!;
    const months = await collect(
      api.paginate('/api/users/{id}/payment_plans/{payment_plan_id}/schedule', {
        params: { path: { id: USER, payment_plan_id: plan.id } },
      }),
    );
    expect(months).to.have.length(plan.months!);
    const accounts = await collect(api.paginate('/api/users/{id}/accounts', { params: { path: { id: USER } } }));

    const drawn = await drawnSeries(page, 'balances-chart');
    expect(drawn.map((s) => s.name)).to.deep.equal(plan.account_ids.map((id) => accounts.find((a) => a.id === id)!.name));
    for (const [i, id] of plan.account_ids.entries()) {
      const expected = months.map((m) => m.payments.find((p) => p.account_id === id)?.balance ?? 0);
      expect(drawn[i]!.values, `account ${id}`).to.deep.equal(expected);
    }
    // The chart's numbers as a table, too, and a summary for a screen reader.
    expect(await page.locator('#balances-chart').getAttribute('role')).to.equal('img');
    expect(await page.locator('#balances details tr').count()).to.equal(months.length + 1);
    expect(await page.locator('#summary').textContent()).to.include(`debt-free by ${plan.payoff_date} (${plan.months} months)`);
  });

  it('draws the plan beside the minimum-only path, both totals as the API computes them', async () => {
    const plans = await collect(api.paginate('/api/users/{id}/payment_plans', { params: { path: { id: USER } } }));
    const totals = async (strategy: string): Promise<number[]> => {
      const plan = plans.find((p) => p.strategy === strategy)!;
      const out: number[] = [];
      for await (const m of api.paginate('/api/users/{id}/payment_plans/{payment_plan_id}/schedule', {
        params: { path: { id: USER, payment_plan_id: plan.id } },
      })) {
        out.push(m.payments.reduce((sum, p) => sum + p.balance, 0));
      }
      return out;
    };
    const drawn = await drawnSeries(page, 'versus-chart');
    expect(drawn).to.have.length(2);
    expect(drawn[0]!.values).to.deep.equal(await totals('avalanche'));
    expect(drawn[1]!.values).to.deep.equal(await totals('minimum_only'));
    expect(drawn[1]!.values.length, 'minimums only take longer').to.be.greaterThan(drawn[0]!.values.length);
  });

  it("draws the outlook's six factors month by month and lists its milestones", async () => {
    const plans = await collect(api.paginate('/api/users/{id}/payment_plans', { params: { path: { id: USER } } }));
    const plan = plans.find((p) => p.strategy === 'avalanche')!;
    const outlook = await unwrap(
      api.GET('/api/users/{id}/payment_plans/{payment_plan_id}/credit_outlook', {
        params: { path: { id: USER, payment_plan_id: plan.id } },
      }),
    );
    for (const factor of ['payment_history', 'credit_utilization', 'derogatory_marks', 'credit_age', 'credit_mix', 'new_credit'] as const) {
      const drawn = await drawnSeries(page, `factor-${factor}`);
      expect(
        drawn.map((s) => s.values),
        factor,
      ).to.deep.equal([outlook.months.map((m) => m.factors[factor].amount)]);
    }
    expect(outlook.milestones.length, 'the demo user has milestones').to.be.greaterThan(0);
    const items = await page
      .locator('#milestones li')
      .evaluateAll((li) => li.map((l) => `${l.getAttribute('data-factor')}@${l.getAttribute('data-month')}`));
    expect(items).to.deep.equal(outlook.milestones.map((m) => `${m.factor}@${m.month}`));
  });

  it('reuses the plans on the next load instead of making new ones', async () => {
    expect(await load(), 'nothing created').to.equal('');
    expect(await collect(api.paginate('/api/users/{id}/payment_plans', { params: { path: { id: USER } } }))).to.have.length(2);
  });

  it('passes on only the calls the page makes: another call through the dashboard is refused', async () => {
    expect((await fetch(`${dashboard!.url}/api/users`)).status).to.equal(403);
    expect((await fetch(`${dashboard!.url}/api/users/${USER}`, { method: 'DELETE' })).status).to.equal(403);
    expect((await fetch(`${dashboard!.url}/api/users/${USER}/accounts`, { method: 'POST', body: '{}' })).status).to.equal(403);
    expect((await fetch(`${dashboard!.url}/api/users/${USER}/accounts?limit=1`)).status).to.equal(200);
    // Nothing was created or deleted through the dashboard: the sandbox's two demo users, as seeded.
    expect(await collect(api.paginate('/api/users', { params: {} }))).to.have.length(2);
  });

  it('keeps the token on the server and every request on 127.0.0.1, without errors in the page', () => {
    expect(tokensSeen, 'no Authorization header leaves the browser').to.deep.equal([]);
    expect(foreign).to.deep.equal([]);
    expect(violations).to.deep.equal([]);
  });
});
