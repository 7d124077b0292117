/**
 * docs/decisions/payoff-and-outlook.md over HTTP (`app.callback()`): plans with custom orders, extra
 * payments and start dates, strategy comparison, progress — on the memory store
 * and on the mongo store through the real driver. The clock is injected and
 * moved by the tests; every response is checked against the OpenAPI document.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import type supertest from 'supertest';
import { addMonths, idOf, planPayoff, type Cents, type Clock, type IsoDate, type StorePorts } from '@debtkit/core';
import { createMemoryStore } from '@debtkit/adapter-memory';
import { useMongoStores } from './support/mongo-stores.js';
import { resourceHarness, type ResourceHarness } from './support/resource-app.js';
import { expectResponseMatchesOpenApi } from './support/openapi-assert.js';

/** A clock the test moves: "today" is whatever the test says it is. */
const movableClock = (iso: string): Clock & { set(iso: string): void } => {
  let now = new Date(iso);
  return { now: () => now, set: (next) => void (now = new Date(next)) };
};

type Detail = { path: string; message: string };
const detailsOf = (res: supertest.Response): Detail[] => (res.body as { error: { details?: Detail[] } }).error.details ?? [];

function payoffPlanningSuite(name: string, makeStore: () => Promise<StorePorts>): void {
  describe(`payoff planning over HTTP (docs/decisions/payoff-and-outlook.md, ${name})`, () => {
    let h: ResourceHarness;
    let store: StorePorts | undefined;
    const clock = movableClock('2026-03-15T12:00:00.000Z');
    let user: string;
    let card: number;
    let loan: number;

    beforeEach(async () => {
      clock.set('2026-03-15T12:00:00.000Z');
      store = await makeStore();
      h = await resourceHarness(store, clock);
      const created = await h.request.post('/api/users').set(h.auth).send({ last_name: 'Adeyemi' }).expect(201);
      user = `/api/users/${created.body.id}`;
      // The hand-checked pair of core's tests: $100 at 12% and $200 at 24%, $20 minimums.
      const base = { type: 'loan', subtype: 'personal_loan', minimum_payment: 2_000 };
      card = (
        await h.request
          .post(`${user}/accounts`)
          .set(h.auth)
          .send({ ...base, name: 'Small loan', balance: 10_000, apr: 12 })
          .expect(201)
      ).body.id;
      loan = (
        await h.request
          .post(`${user}/accounts`)
          .set(h.auth)
          .send({ ...base, name: 'Dear loan', balance: 20_000, apr: 24 })
          .expect(201)
      ).body.id;
    });
    afterEach(async function () {
      await store?.close();
      if (this.currentTest?.state !== 'passed') return;
      for (const res of h.responses) expectResponseMatchesOpenApi(res);
    });

    const plans = () => h.request.get(`${user}/payment_plans`).set(h.auth).expect(200);

    describe('POST …/payment_plans with the new fields', () => {
      it('stores and returns custom_order, extra_payments and start_date; month n falls on start_date + n months', async () => {
        const body = {
          strategy: 'custom',
          monthly_payment: 6_000,
          custom_order: [loan, card],
          extra_payments: [{ month: 5, amount: 3_000 }],
          start_date: '2025-03-31',
        };
        const created = await h.request.post(`${user}/payment_plans`).set(h.auth).send(body).expect(201);
        expect(created.body).to.deep.include({
          strategy: 'custom',
          custom_order: [loan, card],
          extra_payments: [{ month: 5, amount: 3_000 }],
          start_date: '2025-03-31',
          order: [loan, card],
          months: 5,
          total_interest: 1_574,
          total_paid: 31_574,
          payoff_date: '2025-08-31',
        });
        expect(created.body.schedule.map((m: { date: string }) => m.date)).to.deep.equal([
          '2025-04-30',
          '2025-05-31',
          '2025-06-30',
          '2025-07-31',
          '2025-08-31',
        ]);
        expect((await h.request.get(`${user}/payment_plans/${created.body.id}`).set(h.auth).expect(200)).body).to.deep.equal(created.body);
        expect((await plans()).body.payment_plans).to.deep.equal([created.body]);
      });

      it('defaults: no custom order, no extra payments, starting today', async () => {
        const created = await h.request
          .post(`${user}/payment_plans`)
          .set(h.auth)
          .send({ strategy: 'minimum_only', monthly_payment: 6_000 })
          .expect(201);
        expect(created.body).to.deep.include({
          custom_order: null,
          extra_payments: [],
          start_date: '2026-03-15',
          months: 12,
          total_interest: 2_851,
          order: [card, loan],
        });
        // minimum_only spends only the minimums: $40 of the $60 budget.
        expect(created.body.schedule[0].payments.map((p: { payment: number }) => p.payment)).to.deep.equal([2_000, 2_000]);
      });

      const invalid: ReadonlyArray<[string, () => Record<string, unknown>, string, RegExp | (() => RegExp)]> = [
        ['custom without custom_order', () => ({ strategy: 'custom' }), 'custom_order', /required when strategy is custom/],
        [
          'custom_order with avalanche',
          () => ({ strategy: 'avalanche', custom_order: [card, loan] }),
          'custom_order',
          /only allowed when strategy is custom/,
        ],
        [
          'custom_order with minimum_only',
          () => ({ strategy: 'minimum_only', custom_order: [card, loan] }),
          'custom_order',
          /only allowed/,
        ],
        [
          'custom_order missing an account',
          () => ({ strategy: 'custom', custom_order: [loan] }),
          'custom_order',
          () => new RegExp(`missing: ${card}$`),
        ],
        [
          'custom_order naming another account',
          () => ({ strategy: 'custom', custom_order: [loan, card, 4242] }),
          'custom_order',
          /not in the plan: 4242/,
        ],
        [
          'custom_order listing an account twice',
          () => ({ strategy: 'custom', custom_order: [loan, loan, card] }),
          'custom_order',
          /distinct account ids/,
        ],
        ['an empty custom_order', () => ({ strategy: 'custom', custom_order: [] }), 'custom_order', /distinct account ids/],
        ['custom_order that is not a list', () => ({ strategy: 'custom', custom_order: 'loan first' }), 'custom_order', /.+/],
        [
          'an extra payment in month 0',
          () => ({ extra_payments: [{ month: 0, amount: 100 }] }),
          'extra_payments.0.month',
          /integer\(1\.\.600\)/,
        ],
        [
          'an extra payment in month 601',
          () => ({ extra_payments: [{ month: 601, amount: 100 }] }),
          'extra_payments.0.month',
          /integer\(1\.\.600\)/,
        ],
        ['an extra payment in month 1.5', () => ({ extra_payments: [{ month: 1.5, amount: 100 }] }), 'extra_payments.0.month', /.+/],
        ['an extra payment of 0', () => ({ extra_payments: [{ month: 1, amount: 0 }] }), 'extra_payments.0.amount', /positive cents/],
        ['a negative extra payment', () => ({ extra_payments: [{ month: 1, amount: -5 }] }), 'extra_payments.0.amount', /.+/],
        ['an extra payment in dollars', () => ({ extra_payments: [{ month: 1, amount: 10.5 }] }), 'extra_payments.0.amount', /.+/],
        ['an extra payment without a month', () => ({ extra_payments: [{ amount: 100 }] }), 'extra_payments.0.month', /required/],
        [
          'an extra payment with an unknown field',
          () => ({ extra_payments: [{ month: 1, amount: 100, note: 'bonus' }] }),
          'extra_payments.0.note',
          /not a known field/,
        ],
        [
          '121 extra payments',
          () => ({ extra_payments: Array.from({ length: 121 }, (_, i) => ({ month: i + 1, amount: 100 })) }),
          'extra_payments',
          /120/,
        ],
        ['a start_date in the future', () => ({ start_date: '2026-03-16' }), 'start_date', /must not be in the future/],
        [
          'a start_date more than 24 months back',
          () => ({ start_date: '2024-03-14' }),
          'start_date',
          /24 months in the past \(earliest 2024-03-15\)/,
        ],
        ['a start_date that is not a date', () => ({ start_date: '2026-02-30' }), 'start_date', /YYYY-MM-DD/],
        [
          'a minimum_only budget below the minimums',
          () => ({ strategy: 'minimum_only', monthly_payment: 3_999 }),
          'monthly_payment',
          /sum of minimum payments \(4000 cents\)/,
        ],
      ];
      for (const [what, over, path, message] of invalid) {
        it(`rejects ${what} (400 on ${path}) and stores nothing`, async () => {
          const extra = over();
          // Ids are only known once the accounts exist.
          const expected = typeof message === 'function' ? message() : message;
          const res = await h.request
            .post(`${user}/payment_plans`)
            .set(h.auth)
            .send({ strategy: 'avalanche', monthly_payment: 6_000, ...extra })
            .expect(400);
          expect(res.body.error.code).to.equal('validation_error');
          const detail = detailsOf(res).find((d) => d.path === path);
          expect(detail, JSON.stringify(detailsOf(res))).to.not.equal(undefined);
          expect(detail!.message).to.match(expected);
          expect((await plans()).body.payment_plans).to.deep.equal([]);
        });
      }

      it('accepts the edges: start_date exactly 24 months back, month 600, 120 extra payments', async () => {
        const extra_payments = [{ month: 600, amount: 1 }, ...Array.from({ length: 119 }, (_, i) => ({ month: i + 1, amount: 1 }))];
        const res = await h.request
          .post(`${user}/payment_plans`)
          .set(h.auth)
          .send({ strategy: 'snowball', monthly_payment: 6_000, start_date: '2024-03-15', extra_payments })
          .expect(201);
        expect(res.body.extra_payments).to.have.length(120);
        expect(res.body.schedule[0].date).to.equal('2024-04-15');
      });
    });

    describe('POST …/payment_plans/compare', () => {
      it('answers every strategy side by side, hand-checked, and stores nothing', async () => {
        const res = await h.request
          .post(`${user}/payment_plans/compare`)
          .set(h.auth)
          .send({ monthly_payment: 6_000, custom_order: [loan, card], start_date: '2025-01-31' })
          .expect(200);
        expect(res.body).to.deep.equal({
          comparisons: [
            {
              strategy: 'avalanche',
              months: 6,
              payoff_date: '2025-07-31',
              total_interest: 1_602,
              total_paid: 31_602,
              order: [loan, card],
              interest_saved: 1_249,
              months_saved: 6,
              credit_utilization_good_month: 0,
              warnings: [],
            },
            {
              strategy: 'snowball',
              months: 6,
              payoff_date: '2025-07-31',
              total_interest: 1_737,
              total_paid: 31_737,
              order: [card, loan],
              interest_saved: 1_114,
              months_saved: 6,
              credit_utilization_good_month: 0,
              warnings: [],
            },
            {
              strategy: 'custom',
              months: 6,
              payoff_date: '2025-07-31',
              total_interest: 1_602,
              total_paid: 31_602,
              order: [loan, card],
              interest_saved: 1_249,
              months_saved: 6,
              credit_utilization_good_month: 0,
              warnings: [],
            },
            {
              strategy: 'minimum_only',
              months: 12,
              payoff_date: '2026-01-31',
              total_interest: 2_851,
              total_paid: 32_851,
              order: [card, loan],
              interest_saved: 0,
              months_saved: 0,
              credit_utilization_good_month: 0,
              warnings: [],
            },
          ],
          recommended: 'avalanche',
        });
        expect((await plans()).body.payment_plans).to.deep.equal([]);
      });

      it('applies extra payments to every strategy but minimum_only, and omits custom without a custom order', async () => {
        const res = await h.request
          .post(`${user}/payment_plans/compare`)
          .set(h.auth)
          .send({ monthly_payment: 6_000, extra_payments: [{ month: 5, amount: 3_000 }] })
          .expect(200);
        expect(res.body.comparisons.map((c: { strategy: string; total_interest: number }) => [c.strategy, c.total_interest])).to.deep.equal(
          [
            ['avalanche', 1_574],
            // Snowball has only the 24% loan left in month 5 (7,552 + 151 interest): the extra pays it off.
            ['snowball', 1_703],
            ['minimum_only', 2_851],
          ],
        );
        expect(res.body.comparisons[0].interest_saved).to.equal(2_851 - 1_574);
      });

      it('nulls minimum_only and all savings when the minimums never pay off', async () => {
        await h.request.patch(`${user}/accounts/${loan}`).set(h.auth).send({ user_minimum_payment: 400 }).expect(200); // = 2% of $200: never shrinks
        const res = await h.request.post(`${user}/payment_plans/compare`).set(h.auth).send({ monthly_payment: 6_000 }).expect(200);
        const minimumOnly = res.body.comparisons[2];
        expect(minimumOnly).to.deep.equal({
          strategy: 'minimum_only',
          months: null,
          payoff_date: null,
          total_interest: null,
          total_paid: null,
          order: [card, loan],
          interest_saved: null,
          months_saved: null,
          credit_utilization_good_month: 0,
          warnings: [],
        });
        expect(
          res.body.comparisons.every(
            (c: { interest_saved: unknown; months_saved: unknown }) => c.interest_saved === null && c.months_saved === null,
          ),
        ).to.equal(true);
        expect(res.body.recommended).to.equal('avalanche');
      });

      it('validates like plan creation: no strategy field, custom_order a permutation, extra payments, start_date', async () => {
        const cases: ReadonlyArray<[Record<string, unknown>, string, RegExp]> = [
          [{ strategy: 'avalanche' }, 'strategy', /not a known field/],
          [{ custom_order: [card] }, 'custom_order', new RegExp(`missing: ${loan}`)],
          [{ custom_order: [card, loan, 99] }, 'custom_order', /not in the plan: 99/],
          [{ extra_payments: [{ month: 601, amount: 1 }] }, 'extra_payments.0.month', /integer/],
          [{ start_date: '2027-01-01' }, 'start_date', /future/],
          [{ monthly_payment: 100 }, 'monthly_payment', /minimum/],
          [{ account_ids: [card, 777] }, 'account_ids.1', /no account 777/],
        ];
        for (const [over, path, message] of cases) {
          const res = await h.request
            .post(`${user}/payment_plans/compare`)
            .set(h.auth)
            .send({ monthly_payment: 6_000, ...over })
            .expect(400);
          const detail = detailsOf(res).find((d) => d.path === path);
          expect(detail, `${JSON.stringify(over)} → ${JSON.stringify(detailsOf(res))}`).to.not.equal(undefined);
          expect(detail!.message).to.match(message);
        }
        await h.request.post(`${user}/payment_plans/compare`).set(h.auth).send({}).expect(400);
        await h.request.post('/api/users/9999/payment_plans/compare').set(h.auth).send({ monthly_payment: 6_000 }).expect(404);
      });
    });

    describe('GET …/payment_plans/{payment_plan_id}/progress', () => {
      /** An avalanche plan over both loans that started 2025-12-31: months fall on Jan 31, Feb 28, Mar 31, … */
      const pastPlan = async (): Promise<{ id: number; path: string }> => {
        const res = await h.request
          .post(`${user}/payment_plans`)
          .set(h.auth)
          .send({ strategy: 'avalanche', monthly_payment: 6_000, start_date: '2025-12-31' })
          .expect(201);
        expect(res.body.schedule.slice(0, 3).map((m: { date: string }) => m.date)).to.deep.equal([
          '2026-01-31',
          '2026-02-28',
          '2026-03-31',
        ]);
        return { id: res.body.id, path: `${user}/payment_plans/${res.body.id}` };
      };
      const pay = (path: string, account_id: number, amount: number, date: string) =>
        h.request.post(`${path}/payments`).set(h.auth).send({ account_id, amount, date });

      /** What the plan's budget does from these balances, month 1 being plan month `firstMonth`. */
      const expectedForecast = (balances: [number, number], firstMonth: number) => {
        const plan = planPayoff({
          strategy: 'avalanche',
          monthlyPayment: 6_000 as Cents,
          today: '2000-01-15' as IsoDate,
          debts: [
            { id: idOf('account', card), balance: balances[0] as Cents, apr: 12, minimumPayment: 2_000 as Cents },
            { id: idOf('account', loan), balance: balances[1] as Cents, apr: 24, minimumPayment: 2_000 as Cents },
          ],
        });
        if (E.isLeft(plan)) throw new Error(plan.left.message);
        return {
          months: plan.right.months,
          payoff_date: addMonths('2025-12-31' as IsoDate, firstMonth - 1 + plan.right.months),
          total_interest: plan.right.total_interest,
        };
      };

      it('compares the payments recorded in the past with the schedule to date, and re-forecasts from the current balances', async () => {
        const { path } = await pastPlan();
        // Months 1 and 2 as scheduled (avalanche: $20 to the 12% loan, $40 to the 24% one).
        for (const [account, amount, date] of [
          [card, 2_000, '2026-01-31'],
          [loan, 4_000, '2026-01-31'],
          [card, 2_000, '2026-02-28'],
          [loan, 4_000, '2026-02-28'],
        ] as const) {
          await pay(path, account, amount, date).expect(201);
        }
        const res = await h.request.get(`${path}/progress`).set(h.auth).expect(200);
        // Recorded payments lower balances without the interest the schedule charged: 6,000 and 12,000 remain.
        expect(res.body).to.deep.equal({
          as_of: '2026-03-15',
          months_elapsed: 2,
          scheduled_to_date: 12_000,
          paid_to_date: 12_000,
          status: 'on_track',
          remaining_balance: 18_000,
          forecast: expectedForecast([6_000, 12_000], 3),
        });
        // Dated as the schedule (start_date + n months), not from Feb 28 onwards: the last of the month stays the last.
        expect(res.body.forecast.payoff_date).to.match(/-(31|30)$/);

        // Time passes without payments: month 3 is due on Mar 31 and nothing was paid for it.
        clock.set('2026-04-01T08:00:00.000Z');
        const later = await h.request.get(`${path}/progress`).set(h.auth).expect(200);
        expect(later.body).to.deep.include({
          as_of: '2026-04-01',
          months_elapsed: 3,
          scheduled_to_date: 18_000,
          paid_to_date: 12_000,
          status: 'behind',
        });
        expect(later.body.forecast).to.deep.equal(expectedForecast([6_000, 12_000], 4));
      });

      it('is on track within 1%, ahead beyond it, and forecasts 0 months once everything is paid', async () => {
        const { path } = await pastPlan();
        await pay(path, loan, 12_120, '2026-02-01').expect(201); // +1% of 12,000
        expect((await h.request.get(`${path}/progress`).set(h.auth).expect(200)).body.status).to.equal('on_track');
        await pay(path, card, 1, '2026-03-01').expect(201);
        const ahead = await h.request.get(`${path}/progress`).set(h.auth).expect(200);
        expect(ahead.body).to.deep.include({ paid_to_date: 12_121, status: 'ahead' });
        await pay(path, card, 10_000, '2026-03-02').expect(201);
        await pay(path, loan, 20_000, '2026-03-03').expect(201);
        const done = await h.request.get(`${path}/progress`).set(h.auth).expect(200);
        expect(done.body).to.deep.include({ remaining_balance: 0, forecast: { months: 0, payoff_date: '2026-02-28', total_interest: 0 } });
      });

      it('forecasts null when the plan no longer pays off', async () => {
        const { path } = await pastPlan();
        await h.request.patch(`${user}/accounts/${loan}`).set(h.auth).send({ user_minimum_payment: 5_000 }).expect(200); // minimums now exceed the budget
        expect((await h.request.get(`${path}/progress`).set(h.auth).expect(200)).body.forecast).to.equal(null);
      });

      it('refuses payments dated before the plan start_date (400), accepts one on it, and answers 404/400 for bad plans', async () => {
        const { path, id } = await pastPlan();
        const early = await pay(path, card, 100, '2025-12-30').expect(400);
        expect(detailsOf(early)).to.deep.equal([{ path: 'date', message: "must not be before the plan's start_date (2025-12-31)" }]);
        await pay(path, card, 100, '2025-12-31').expect(201);
        expect((await h.request.get(`${path}/payments`).set(h.auth).expect(200)).body.payments).to.have.length(1);
        await h.request
          .get(`${user}/payment_plans/${id + 100}/progress`)
          .set(h.auth)
          .expect(404);
        await h.request.get(`${user}/payment_plans/abc/progress`).set(h.auth).expect(400);
        await h.request.get(`/api/users/1/payment_plans/${id}/progress`).set(h.auth).expect(404);
      });
    });
  });
}

payoffPlanningSuite('memory store', async () => createMemoryStore());

describe('payoff planning on the mongo store', () => {
  const mongo = useMongoStores('payoff');
  payoffPlanningSuite(mongo.label, mongo.connect);
});
