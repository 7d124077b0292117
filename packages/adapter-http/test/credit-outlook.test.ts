/**
 * docs/decisions/payoff-and-outlook.md over HTTP (`app.callback()`): `GET …/credit_outlook` on the
 * memory store and on the mongo store through the real driver, and `compare`'s
 * `credit_utilization_good_month`. The outlook is checked month by month
 * against an independent computation written here from docs/decisions/payoff-and-outlook.md
 * and 7.12 over what the API itself answers (accounts and plan): it calls no
 * core function. The clock is injected; every response is checked against
 * the OpenAPI document.
 */
import { expect } from 'chai';
import type supertest from 'supertest';
import type { Clock, StorePorts } from '@debtkit/core';
import { createMemoryStore } from '@debtkit/adapter-memory';
import { useMongoStores } from './support/mongo-stores.js';
import { SUITE_API_VERSION, resourceHarness, type ResourceHarness } from './support/resource-app.js';
import { expectMatchesOpenApi, expectResponseMatchesOpenApi } from './support/openapi-assert.js';
import { buildOpenApiDocument } from '../src/index.js';

const ADMIN = { Authorization: 'Bearer admin-secret-token-for-tests' };
const NOW = '2026-03-15T12:00:00.000Z';
const TODAY = '2026-03-15';
const fixed = (): Clock => ({ now: () => new Date(NOW) });

// ---------------------------------------------------------------------------
// The independent computation (docs/decisions/payoff-and-outlook.md), from API objects
// ---------------------------------------------------------------------------

interface ApiAccount {
  id: number;
  type: string;
  subtype: string;
  status: string;
  balance: number;
  limit: number | null;
  effective_apr: number | null;
  effective_minimum_payment: number | null;
  opened_at: string | null;
  payments_history: string[];
}
interface ApiPlan {
  strategy: 'avalanche' | 'snowball' | 'custom' | 'minimum_only';
  monthly_payment: number;
  account_ids: number[];
  custom_order: number[] | null;
  extra_payments: Array<{ month: number; amount: number }>;
  start_date: string;
}
interface Factor {
  amount: number;
  factor: 'Good' | 'Poor';
}
type Factors = Record<(typeof FACTORS)[number], Factor>;
interface Month {
  month: number;
  date: string;
  factors: Factors;
}

const FACTORS = ['payment_history', 'credit_utilization', 'derogatory_marks', 'credit_age', 'credit_mix', 'new_credit'] as const;

const DAY_MS = 86_400_000;
const epochDay = (d: string): number => Date.parse(`${d}T00:00:00Z`) / DAY_MS;
/** `d` plus n calendar months, the day clamped to the month's last (docs/decisions/api-conventions.md). */
const plusMonths = (d: string, n: number): string => {
  const [y, m, day] = d.split('-').map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + n;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(Math.min(day, last)).padStart(2, '0')}`;
};

/** round-half-up(balance × apr / 1200) exactly: the APR as an integer over a power of ten, in BigInt. */
const interest = (balance: number, apr: number): number => {
  const [whole, fraction = ''] = String(apr).split('.');
  const units = BigInt(`${whole}${fraction}`);
  const denominator = 1200n * 10n ** BigInt(fraction.length);
  return Number((BigInt(balance) * units * 2n + denominator) / (2n * denominator));
};

/** Half away from zero, 2 decimals (docs/decisions/payoff-and-outlook.md), without binary noise (66.665 is 66.67). */
const round2 = (x: number): number => {
  const scaled = Number((Math.abs(x) * 100).toPrecision(12));
  return (Math.sign(x) * Math.round(scaled)) / 100 || 0;
};
const GOOD: Record<(typeof FACTORS)[number], (a: number) => boolean> = {
  payment_history: (a) => a >= 90,
  credit_utilization: (a) => a <= 30,
  derogatory_marks: (a) => a === 0,
  credit_age: (a) => a > 5,
  credit_mix: (a) => a > 2,
  new_credit: (a) => a <= 2,
};
const factor = (name: (typeof FACTORS)[number], raw: number): Factor => {
  const amount = round2(raw);
  return { amount, factor: GOOD[name](amount) ? 'Good' : 'Poor' };
};

/** The six factors of docs/decisions/payoff-and-outlook.md for accounts on a date. */
const factorsOf = (accounts: ReadonlyArray<ApiAccount>, date: string): Factors => {
  const codes = accounts.flatMap((a) => a.payments_history);
  const rated = codes.filter((c) => c !== '0' && c !== '*' && c !== '').length;
  const onTime = codes.filter((c) => c === '1' || c === 'E').length;
  const cards = accounts.filter((a) => a.status !== 'closed' && a.subtype === 'credit_card_loan' && (a.limit ?? 0) > 0);
  const limit = cards.reduce((s, a) => s + (a.limit ?? 0), 0);
  const balance = cards.reduce((s, a) => s + a.balance, 0);
  const opened = accounts.filter((a) => a.opened_at !== null).map((a) => epochDay(date) - epochDay(a.opened_at!));
  return {
    payment_history: factor('payment_history', rated === 0 ? 100 : (100 * onTime) / rated),
    credit_utilization: factor('credit_utilization', limit === 0 ? 0 : Math.min(100, (100 * balance) / limit)),
    derogatory_marks: factor(
      'derogatory_marks',
      accounts.filter((a) => a.payments_history.some((c) => '6789'.includes(c) && c !== '')).length,
    ),
    credit_age: factor('credit_age', opened.length === 0 ? 0 : Math.min(100, opened.reduce((s, d) => s + d, 0) / opened.length / 365.25)),
    credit_mix: factor('credit_mix', Math.min(6, new Set(accounts.filter((a) => a.type === 'loan').map((a) => a.subtype)).size)),
    new_credit: factor('new_credit', opened.filter((d) => d < 365).length),
  };
};

/**
 * The outlook as docs/decisions/payoff-and-outlook.md describes it: the plan re-run from the accounts'
 * current balances, APRs and minimums, month 1 being the first schedule date
 * after today; each month the plan accounts take their balances, and every
 * non-closed loan gets `1` (a balance at the month's start) or `E` in front.
 */
const expectedOutlook = (plan: ApiPlan, accounts: ReadonlyArray<ApiAccount>, today: string): { months: Month[]; milestones: unknown[] } => {
  let offset = 0;
  while (plusMonths(plan.start_date, offset + 1) <= today) offset++;
  const extras = new Map<number, number>();
  for (const x of plan.extra_payments) if (x.month > offset) extras.set(x.month - offset, (extras.get(x.month - offset) ?? 0) + x.amount);

  const byId = new Map(accounts.map((a) => [a.id, a]));
  const debts = plan.account_ids
    .map((id) => byId.get(id))
    .filter((a): a is ApiAccount => a !== undefined && a.balance > 0)
    .map((a) => ({ id: a.id, apr: a.effective_apr!, minimum: a.effective_minimum_payment!, balance: a.balance }));

  let current = accounts.map((a) => ({ ...a, payments_history: [...a.payments_history] }));
  const months: Month[] = [{ month: 0, date: today, factors: factorsOf(current, today) }];
  for (let month = 1; month <= 600 && debts.some((d) => d.balance > 0); month++) {
    const owing = debts.filter((d) => d.balance > 0);
    for (const d of owing) d.balance += interest(d.balance, d.apr);
    let spent = 0;
    for (const d of owing) {
      const pay = Math.min(d.minimum, d.balance);
      d.balance -= pay;
      spent += pay;
    }
    if (plan.strategy !== 'minimum_only') {
      let extra = plan.monthly_payment + (extras.get(month) ?? 0) - spent;
      const rank = (id: number) => plan.custom_order!.indexOf(id);
      const order = debts
        .filter((d) => d.balance > 0)
        .sort((a, b) =>
          plan.strategy === 'avalanche'
            ? b.apr - a.apr || a.balance - b.balance || a.id - b.id
            : plan.strategy === 'snowball'
              ? a.balance - b.balance || b.apr - a.apr || a.id - b.id
              : rank(a.id) - rank(b.id),
        );
      for (const d of order) {
        const pay = Math.min(extra, d.balance);
        d.balance -= pay;
        extra -= pay;
      }
    }
    const date = plusMonths(plan.start_date, offset + month);
    current = current.map((a) => {
      const d = debts.find((x) => x.id === a.id);
      const rolled =
        a.type === 'loan' && a.status !== 'closed' ? [a.balance > 0 ? '1' : 'E', ...a.payments_history].slice(0, 24) : a.payments_history;
      return { ...a, payments_history: rolled, balance: d === undefined ? a.balance : d.balance };
    });
    months.push({ month, date, factors: factorsOf(current, date) });
  }
  const milestones = months.slice(1).flatMap((m, k) =>
    FACTORS.filter((f) => m.factors[f].factor !== months[k]!.factors[f].factor).map((f) => ({
      factor: f,
      from: months[k]!.factors[f].factor,
      to: m.factors[f].factor,
      month: m.month,
      date: m.date,
    })),
  );
  return { months, milestones };
};

// ---------------------------------------------------------------------------

function creditOutlookSuite(name: string, makeStore: () => Promise<StorePorts>): void {
  describe(`credit outlook over HTTP (docs/decisions/payoff-and-outlook.md, ${name})`, () => {
    let h: ResourceHarness;
    let store: StorePorts | undefined;

    beforeEach(async () => {
      store = await makeStore();
      h = await resourceHarness(store, fixed());
    });
    afterEach(async function () {
      await store?.close();
      if (this.currentTest?.state !== 'passed') return;
      for (const res of h.responses) expectResponseMatchesOpenApi(res);
    });

    const allAccounts = async (user: string): Promise<ApiAccount[]> =>
      (await h.request.get(`${user}/accounts?limit=100`).set(h.auth).expect(200)).body.accounts;
    const outlookOf = (path: string): supertest.Test => h.request.get(`${path}/credit_outlook`).set(h.auth);

    /** The outlook answered over HTTP equals the independent computation over the API's own accounts and plan. */
    const expectAgreement = async (user: string, planId: number) => {
      const path = `${user}/payment_plans/${planId}`;
      const plan: ApiPlan = (await h.request.get(path).set(h.auth).expect(200)).body;
      const res = await outlookOf(path).expect(200);
      expect(res.headers['api-version']).to.equal(SUITE_API_VERSION); // the version the suite's client is pinned to
      const expected = expectedOutlook(plan, await allAccounts(user), TODAY);
      expect(res.body.as_of).to.equal(TODAY);
      expect(res.body.basis).to.equal('linked_accounts');
      expect(res.body.months.length).to.equal(expected.months.length);
      res.body.months.forEach((m: Month, k: number) => expect(m, `month ${k}`).to.deep.equal(expected.months[k]));
      expect(res.body.milestones).to.deep.equal(expected.milestones);
      return res.body as { months: Month[]; milestones: Array<{ factor: string; month: number }> };
    };

    it("the demo user's outlook agrees month by month with the independent computation", async () => {
      const user = `/api/users/${h.demo.user.id}`;
      const plan = await h.request
        .post(`${user}/payment_plans`)
        .set(h.auth)
        .send({ strategy: 'avalanche', monthly_payment: 300_000 })
        .expect(201);
      const outlook = await expectAgreement(user, plan.body.id);
      // Month 0 is today's sandbox report, score aside.
      const score = (await h.request.get(`${user}/credit_scores`).set(h.auth).expect(200)).body;
      for (const f of FACTORS) expect(outlook.months[0]!.factors[f], f).to.deep.equal(score[f]);
      // The mortgage makes it a long plan: every month of it is there, up to the payoff date.
      expect(outlook.months.length - 1).to.equal(plan.body.months);
      expect(outlook.months[outlook.months.length - 1]!.date).to.equal(plan.body.payoff_date);
    });

    it('a user built here (past start, custom order, extra payment, derogatory code, cards in and out of the plan) agrees too', async () => {
      const user = `/api/users/${(await h.request.post('/api/users').set(h.auth).send({ last_name: 'Moreau' }).expect(201)).body.id}`;
      const link = async (body: Record<string, unknown>) =>
        (await h.request.post(`${user}/accounts`).set(h.auth).send(body).expect(201)).body.id as number;
      const card = await link({
        name: 'Card',
        type: 'loan',
        subtype: 'credit_card_loan',
        balance: 420_000,
        limit: 600_000,
        apr: 22.9,
        minimum_payment: 12_600,
        opened_at: '2019-05-31',
        payments_history: ['1', '1', '2', '1', '1', '1'],
      });
      const loan = await link({
        name: 'Loan',
        type: 'loan',
        subtype: 'personal_loan',
        balance: 250_000,
        apr: 9.99,
        minimum_payment: 8_000,
        opened_at: '2025-08-01',
        payments_history: [...Array.from({ length: 20 }, () => '1'), '9', '1', '1', '1'],
      });
      await link({
        name: 'Store card',
        type: 'loan',
        subtype: 'credit_card_loan',
        balance: 90_000,
        limit: 100_000,
        apr: 27,
        minimum_payment: 3_000,
        opened_at: '2023-01-10',
        payments_history: ['1'],
      });
      await link({
        name: 'Old card',
        type: 'loan',
        subtype: 'credit_card_loan',
        status: 'closed',
        balance: 0,
        limit: 300_000,
        opened_at: '2012-02-29',
        payments_history: ['E', '5'],
      });
      await link({ name: 'Checking', type: 'depository', subtype: 'checking', balance: 150_000, opened_at: '2010-01-01' });
      const plan = await h.request
        .post(`${user}/payment_plans`)
        .set(h.auth)
        .send({
          strategy: 'custom',
          monthly_payment: 45_000,
          account_ids: [card, loan],
          custom_order: [loan, card],
          extra_payments: [
            { month: 4, amount: 100_000 },
            { month: 9, amount: 50_000 },
          ],
          start_date: '2025-12-31',
        })
        .expect(201);
      const outlook = await expectAgreement(user, plan.body.id);
      // The charge-off 21st of 24 falls off in month 4 (24 − 20 stored codes ahead of it).
      expect(outlook.milestones).to.deep.include({ factor: 'derogatory_marks', from: 'Poor', to: 'Good', month: 4, date: '2026-06-30' });
      expect(outlook.months[1]!.date).to.equal('2026-03-31');
    });

    it('follows the current APRs and minimums and a closed plan account, exactly as progress.forecast does', async () => {
      const user = `/api/users/${h.demo.user.id}`;
      const plan = await h.request
        .post(`${user}/payment_plans`)
        .set(h.auth)
        .send({ strategy: 'snowball', monthly_payment: 300_000 })
        .expect(201);
      const [visa, travel] = h.demo.accounts;
      await h.request.patch(`${user}/accounts/${visa!.id}`).set(h.auth).send({ user_apr: 12.5, user_minimum_payment: 20_000 }).expect(200);
      await h.request.patch(`${user}/accounts/${travel!.id}`).set(h.auth).send({ status: 'closed' }).expect(200);
      const outlook = await expectAgreement(user, plan.body.id);
      const progress = (await h.request.get(`${user}/payment_plans/${plan.body.id}/progress`).set(h.auth).expect(200)).body;
      expect(outlook.months.length - 1).to.equal(progress.forecast.months);
      expect(outlook.months[outlook.months.length - 1]!.date).to.equal(progress.forecast.payoff_date);
    });

    it("answers 409 when the plan can no longer be forecast, 404 for an unknown or another client's plan, 400 for bad ids", async () => {
      const user = `/api/users/${h.demo.user.id}`;
      const plan = await h.request
        .post(`${user}/payment_plans`)
        .set(h.auth)
        .send({ strategy: 'avalanche', monthly_payment: 300_000 })
        .expect(201);
      const path = `${user}/payment_plans/${plan.body.id}`;
      const before = (await h.request.get(path).set(h.auth).expect(200)).body;

      await h.request
        .get(`${user}/payment_plans/${plan.body.id + 100}/credit_outlook`)
        .set(h.auth)
        .expect(404);
      await h.request.get(`${user}/payment_plans/abc/credit_outlook`).set(h.auth).expect(400);
      await h.request.get(`/api/users/abc/payment_plans/${plan.body.id}/credit_outlook`).set(h.auth).expect(400);
      await h.request.get(`/api/users/987654/payment_plans/${plan.body.id}/credit_outlook`).set(h.auth).expect(404);
      const other = await h.request.post('/admin/clients').set(ADMIN).send({ name: 'Other fintech' }).expect(201);
      const otherAuth = { Authorization: `Bearer ${other.body.token}` };
      const foreign = await h.request.get(`${path}/credit_outlook`).set(otherAuth).expect(404);
      expect(foreign.body.error.code).to.equal('not_found');
      // The other client's own user, asking for this plan id: still 404.
      const theirs = (await h.request.post('/api/users').set(otherAuth).send({ last_name: 'Ito' }).expect(201)).body.id;
      await h.request.get(`/api/users/${theirs}/payment_plans/${plan.body.id}/credit_outlook`).set(otherAuth).expect(404);

      // Minimums raised beyond the budget: the forecast is null, the outlook a clear 409.
      await h.request.patch(`${user}/accounts/${h.demo.accounts[5]!.id}`).set(h.auth).send({ user_minimum_payment: 300_000 }).expect(200);
      const conflict = await outlookOf(path).expect(409);
      expect(conflict.body.error.code).to.equal('conflict');
      expect(conflict.body.error.message).to.match(/no longer be forecast.*must cover the sum of minimum payments/);
      expect((await h.request.get(`${path}/progress`).set(h.auth).expect(200)).body.forecast).to.equal(null);
      expect((await h.request.get(path).set(h.auth).expect(200)).body).to.deep.equal(before);
    });

    it('is the same answer under an explicit API-Version, and refuses an unknown one', async () => {
      const user = `/api/users/${h.demo.user.id}`;
      const plan = await h.request
        .post(`${user}/payment_plans`)
        .set(h.auth)
        .send({ strategy: 'avalanche', monthly_payment: 300_000 })
        .expect(201);
      const path = `${user}/payment_plans/${plan.body.id}/credit_outlook`;
      const plain = await h.request.get(path).set(h.auth).expect(200);
      const pinned = await h.request.get(path).set(h.auth).set('API-Version', '2024-07-01').expect(200);
      expect(pinned.body).to.deep.equal(plain.body);
      const unknown = await h.request.get(path).set(h.auth).set('API-Version', '1999-01-01').expect(400);
      expect(unknown.body.error.code).to.equal('unsupported_version');
    });

    it("compare gives every strategy's first Good-utilization month over all the user's cards", async () => {
      const user = `/api/users/${h.demo.user.id}`;
      const body = { monthly_payment: 300_000 };
      const res = await h.request.post(`${user}/payment_plans/compare`).set(h.auth).send(body).expect(200);
      const accounts = await allAccounts(user);
      for (const c of res.body.comparisons as Array<{
        strategy: ApiPlan['strategy'];
        credit_utilization_good_month: number | null;
        order: number[];
      }>) {
        const plan: ApiPlan = {
          strategy: c.strategy,
          monthly_payment: body.monthly_payment,
          account_ids: accounts.filter((a) => a.type === 'loan' && a.balance > 0).map((a) => a.id),
          custom_order: null,
          extra_payments: [],
          start_date: TODAY,
        };
        // compare's month m is dated start_date + m; the independent run from today is the same run.
        const months = expectedOutlook(plan, accounts, plusMonths(TODAY, 0)).months;
        const first = months.find((m) => m.factors.credit_utilization.factor === 'Good');
        expect(c.credit_utilization_good_month, c.strategy).to.equal(first?.month ?? null);
      }
      // The demo's cards: $4,725.52 of $13,000 (36.35%), Poor today; avalanche pays the 24.99% Visa first.
      const goodMonths = Object.fromEntries(
        res.body.comparisons.map((c: { strategy: string; credit_utilization_good_month: number }) => [
          c.strategy,
          c.credit_utilization_good_month,
        ]),
      );
      expect(goodMonths['avalanche']).to.be.a('number').and.to.be.greaterThan(0);
      expect(res.body.recommended).to.equal('avalanche');
    });
  });
}

describe('the OpenAPI example of GET …/credit_outlook', () => {
  it("is a real outlook that the document's own schema accepts, with a utilization milestone", () => {
    const path = '/api/users/{id}/payment_plans/{payment_plan_id}/credit_outlook';
    const document = buildOpenApiDocument() as unknown as {
      paths: Record<string, { get: { responses: Record<string, { content: Record<string, { example?: unknown }> }> } }>;
    };
    const example = document.paths[path]!.get.responses['200']!.content['application/json']!.example as {
      months: Month[];
      milestones: unknown[];
    };
    expectMatchesOpenApi('GET', '/api/users/1/payment_plans/2/credit_outlook', 200, example);
    expect(example.months.length).to.be.greaterThan(2);
    expect(example.milestones).to.deep.include({ factor: 'credit_utilization', from: 'Poor', to: 'Good', month: 2, date: '2026-08-15' });
  });
});

creditOutlookSuite('memory store', async () => createMemoryStore());

describe('credit outlook on the mongo store', () => {
  const mongo = useMongoStores('outlook');
  creditOutlookSuite(mongo.label, mongo.connect);
});
