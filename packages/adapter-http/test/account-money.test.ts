/**
 * A card's Minimum Payment Warning and an account's payoff quote over HTTP
 * (`app.callback()`, docs/decisions/payoff-and-outlook.md): `GET …/repayment_disclosure`
 * and `GET …/payoff_quote` on the memory store and on the mongo store through the
 * real driver, with every error case. Accounts are linked over the API; the clock
 * is injected; every response is checked against the OpenAPI document.
 */
import { expect } from 'chai';
import type { StorePorts } from '@debtkit/core';
import { createMemoryStore } from '@debtkit/adapter-memory';
import { useMongoStores } from './support/mongo-stores.js';
import { TODAY, fixedClock, resourceHarness, type ResourceHarness } from './support/resource-app.js';
import { expectResponseMatchesOpenApi } from './support/openapi-assert.js';

const ADMIN = { Authorization: 'Bearer admin-secret-token-for-tests' };

/** `TODAY` plus n calendar months (docs/decisions/api-conventions.md) or days. */
const plusMonths = (d: string, n: number): string => {
  const [y, m, day] = d.split('-').map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + n;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, '0')}-${String(Math.min(day, last)).padStart(2, '0')}`;
};
const plusDays = (d: string, n: number): string => new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** "2% of the balance or $20" (Appendix M2) and "1% of the balance plus interest, $25 floor". */
const M2_FORMULA = { floor: 2_000, terms: [{ percent_of_balance: 2, plus_interest: false, plus_amount: 0 }] };
const ONE_PERCENT_PLUS_INTEREST = { floor: 2_500, terms: [{ percent_of_balance: 1, plus_interest: true, plus_amount: 0 }] };

/** Appendix M2's account, its promotion ending on `promoEnds`. */
const m2Card = (promoEnds: string) => ({
  name: 'M2 card',
  type: 'loan',
  subtype: 'credit_card_loan',
  balance: 100_000,
  minimum_payment_formula: M2_FORMULA,
  apr_segments: [
    { kind: 'promotional', balance: 50_000, apr: 0, promo_ends_on: promoEnds, go_to_apr: 17 },
    { kind: 'purchase', balance: 25_000, apr: 17 },
    { kind: 'cash_advance', balance: 25_000, apr: 21 },
  ],
});

function accountMoneySuite(name: string, makeStore: () => Promise<StorePorts>): void {
  describe(`repayment disclosure and payoff quote over HTTP (${name})`, () => {
    let h: ResourceHarness;
    let store: StorePorts | undefined;

    before(async () => {
      store = await makeStore();
      h = await resourceHarness(store, fixedClock());
    });
    after(async () => {
      await store?.close();
    });
    afterEach(function () {
      if (this.currentTest?.state === 'passed') for (const res of h.responses.splice(0)) expectResponseMatchesOpenApi(res);
      else h.responses.splice(0);
    });

    const newUser = async (): Promise<string> =>
      `/api/users/${(await h.request.post('/api/users').set(h.auth).send({ last_name: 'Okafor' }).expect(201)).body.id}`;
    const link = async (user: string, body: Record<string, unknown>): Promise<number> =>
      (await h.request.post(`${user}/accounts`).set(h.auth).send(body).expect(201)).body.id;
    const disclosure = (user: string, id: number | string) => h.request.get(`${user}/accounts/${id}/repayment_disclosure`).set(h.auth);
    const quote = (user: string, id: number | string, date?: string) =>
      h.request.get(`${user}/accounts/${id}/payoff_quote${date === undefined ? '' : `?date=${date}`}`).set(h.auth);

    describe('GET …/repayment_disclosure', () => {
      it("answers Appendix M2's worked example (promotion ending as_of + 6 months): 94 months, 8 years, $1,872; $35 a month, $1,276, $596 saved", async () => {
        const user = await newUser();
        const id = await link(user, m2Card(plusMonths(TODAY, 6)));
        const res = await disclosure(user, id).expect(200);
        expect(res.body).to.deep.equal({
          as_of: TODAY,
          minimum_payments_only: { months: 94, years: 8, total_cost: 187_200 },
          three_year: { monthly_payment: 3_500, total_cost: 127_600, savings: 59_600 },
          never_pays_off: false,
          rounding: 'nearest_dollar',
        });
        // The latest version answers the same body.
        const latest = await disclosure(user, id).set('API-Version', '2026-11-26').expect(200);
        expect(latest.body).to.deep.equal(res.body);
      });

      it('moves with promo_ends_on as the rule says: a day earlier 94 months and $36 (5 whole months of promotion); a day later 93 months', async () => {
        const user = await newUser();
        const end = plusMonths(TODAY, 6);
        const earlier = await disclosure(user, await link(user, m2Card(plusDays(end, -1)))).expect(200);
        expect(earlier.body.minimum_payments_only).to.deep.equal({ months: 94, years: 8, total_cost: 187_200 });
        expect(earlier.body.three_year).to.deep.equal({ monthly_payment: 3_600, total_cost: 128_000, savings: 59_200 });
        const later = await disclosure(user, await link(user, m2Card(plusDays(end, 1)))).expect(200);
        expect(later.body.minimum_payments_only).to.deep.equal({ months: 93, years: 8, total_cost: 185_000 });
        expect(later.body.three_year).to.deep.equal({ monthly_payment: 3_500, total_cost: 127_600, savings: 57_400 });
      });

      it('a "1% + interest, $25 floor" card: $5,000 at 24% takes 234 months, 20 years, $13,887', async () => {
        const user = await newUser();
        const id = await link(user, {
          name: 'Formula card',
          type: 'loan',
          subtype: 'credit_card_loan',
          balance: 500_000,
          apr: 24,
          minimum_payment_formula: ONE_PERCENT_PLUS_INTEREST,
        });
        const res = await disclosure(user, id).expect(200);
        expect(res.body.minimum_payments_only).to.deep.equal({ months: 234, years: 20, total_cost: 1_388_700 });
        expect(res.body.three_year).to.deep.equal({ monthly_payment: 19_600, total_cost: 706_200, savings: 682_500 });
        // The user's own minimum replaces the formula (as effective_minimum_payment does): $150 fixed, 56 months.
        await h.request.patch(`${user}/accounts/${id}`).set(h.auth).send({ user_minimum_payment: 15_000 }).expect(200);
        expect((await disclosure(user, id).expect(200)).body.minimum_payments_only).to.deep.equal({
          months: 56,
          years: 5,
          total_cost: 832_200,
        });
      });

      it('a minimum that never repays answers never_pays_off: true and minimum_payments_only: null', async () => {
        const user = await newUser();
        const id = await link(user, {
          name: 'Never',
          type: 'loan',
          subtype: 'credit_card_loan',
          balance: 500_000,
          apr: 24,
          minimum_payment_formula: { floor: 1_000, terms: [{ percent_of_balance: 1, plus_interest: false, plus_amount: 0 }] },
        });
        expect((await disclosure(user, id).expect(200)).body).to.deep.equal({
          as_of: TODAY,
          minimum_payments_only: null,
          three_year: { monthly_payment: 19_600, total_cost: 706_200, savings: null },
          never_pays_off: true,
          rounding: 'nearest_dollar',
        });
      });

      it('a deferred-interest medical card: at 0% when the minimums repay it in time, at its accruing rate when they do not', async () => {
        const user = await newUser();
        const medical = (balance: number) => ({
          name: 'CareCredit',
          type: 'loan',
          subtype: 'medical_loan',
          balance,
          minimum_payment_formula: { floor: 5_000, terms: [{ percent_of_balance: 1, plus_interest: false, plus_amount: 0 }] },
          apr_segments: [
            {
              kind: 'promotional',
              balance,
              apr: 0,
              promo_ends_on: plusMonths(TODAY, 12),
              go_to_apr: 26.99,
              deferred_interest: true,
              accrued_deferred_interest: 4_000,
            },
          ],
        });
        const inTime = await disclosure(user, await link(user, medical(55_000))).expect(200);
        expect(inTime.body.minimum_payments_only).to.deep.equal({ months: 11, years: null, total_cost: 55_000 });
        expect(inTime.body.three_year).to.equal(null);
        const late = await disclosure(user, await link(user, medical(60_000))).expect(200);
        const atRate = await disclosure(
          user,
          await link(user, {
            name: 'Same at 26.99%',
            type: 'loan',
            subtype: 'credit_card_loan',
            balance: 60_000,
            apr: 26.99,
            minimum_payment_formula: { floor: 5_000, terms: [{ percent_of_balance: 1, plus_interest: false, plus_amount: 0 }] },
          }),
        ).expect(200);
        expect(late.body).to.deep.equal(atRate.body);
        expect(late.body.minimum_payments_only.months).to.equal(15);
      });

      it("the demo user's Visa (fixed $105 minimum, 24.99%) on the sandbox's today", async () => {
        const user = `/api/users/${h.demo.user.id}`;
        const visa = h.demo.accounts[0]!;
        const res = await disclosure(user, visa.id).expect(200);
        expect(res.body.as_of).to.equal(TODAY);
        expect(res.body.never_pays_off).to.equal(false);
        expect(res.body.minimum_payments_only.months).to.be.greaterThan(36);
        expect(res.body.three_year.savings).to.be.greaterThan(0);
      });

      it('answers 409 naming subtype for a non-card, 409 naming the missing field without a minimum or a rate, 404s and 400s', async () => {
        const user = await newUser();
        const student = await link(user, {
          name: 'Student',
          type: 'loan',
          subtype: 'student_loan',
          balance: 1_000_000,
          apr: 5.5,
          minimum_payment: 12_000,
        });
        const notCard = await disclosure(user, student).expect(409);
        expect(notCard.body.error.code).to.equal('conflict');
        expect(notCard.body.error.message).to.match(/^subtype: /);
        const noMinimum = await link(user, { name: 'No minimum', type: 'loan', subtype: 'credit_card_loan', balance: 100_000, apr: 20 });
        expect((await disclosure(user, noMinimum).expect(409)).body.error.message).to.match(/^minimum_payment_formula: /);
        const noRate = await link(user, {
          name: 'No rate',
          type: 'loan',
          subtype: 'credit_card_loan',
          balance: 100_000,
          minimum_payment: 3_000,
        });
        expect((await disclosure(user, noRate).expect(409)).body.error.message).to.match(/^apr: /);

        const card = await link(user, {
          name: 'Card',
          type: 'loan',
          subtype: 'credit_card_loan',
          balance: 100_000,
          apr: 20,
          minimum_payment: 3_000,
        });
        await disclosure(user, card + 1000).expect(404);
        await disclosure('/api/users/987654', card).expect(404);
        await disclosure(user, 'abc').expect(400);
        await disclosure(user, 0).expect(400);
        await disclosure('/api/users/abc', card).expect(400);
        const extra = await h.request.get(`${user}/accounts/${card}/repayment_disclosure?verbose=1`).set(h.auth).expect(400);
        expect(extra.body.error.code).to.equal('validation_error');
        await h.request.post(`${user}/accounts/${card}/repayment_disclosure`).set(h.auth).send({}).expect(405);
        const other = await h.request.post('/admin/clients').set(ADMIN).send({ name: 'Other fintech' }).expect(201);
        const foreign = await h.request
          .get(`${user}/accounts/${card}/repayment_disclosure`)
          .set({ Authorization: `Bearer ${other.body.token}` })
          .expect(404);
        expect(foreign.body.error.code).to.equal('not_found');
      });
    });

    describe('GET …/payoff_quote', () => {
      it("a daily_simple loan: accrued interest plus APR/365 a day from last_payment_date to the user's today, one more day as per diem", async () => {
        const user = await newUser();
        const id = await link(user, {
          name: 'Student',
          type: 'loan',
          subtype: 'student_loan',
          balance: 1_000_000,
          apr: 18.25,
          minimum_payment: 12_000,
          interest_method: 'daily_simple',
          accrued_interest: 12_345,
          last_payment_date: plusDays(TODAY, -10),
        });
        const res = await quote(user, id).expect(200);
        // $10,000 at 18.25% is $5.00 a day; 10 days.
        expect(res.body).to.deep.equal({
          account_id: id,
          as_of: TODAY,
          good_through: TODAY,
          payoff_amount: 1_000_000 + 12_345 + 5_000,
          per_diem: 500,
          interest_due: 12_345 + 5_000,
          trailing_interest_note: false,
        });
        const later = await quote(user, id, plusDays(TODAY, 30)).expect(200);
        expect(later.body).to.include({
          good_through: plusDays(TODAY, 30),
          interest_due: 12_345 + 40 * 500,
          payoff_amount: 1_000_000 + 12_345 + 20_000,
        });
      });

      it('a card with segments, compounded daily from one month before its next due date, carries the trailing-interest note', async () => {
        const user = await newUser();
        const id = await link(user, {
          name: 'Card',
          type: 'loan',
          subtype: 'credit_card_loan',
          balance: 600_000,
          interest_method: 'daily_compound',
          minimum_payment_formula: ONE_PERCENT_PLUS_INTEREST,
          next_payment_due_date: plusDays(plusMonths(TODAY, 1), -5),
          apr_segments: [
            { kind: 'purchase', balance: 400_000, apr: 24 },
            { kind: 'balance_transfer', balance: 200_000, apr: 0, promo_ends_on: plusMonths(TODAY, 3), go_to_apr: 21.99 },
          ],
        });
        const res = await quote(user, id, plusDays(TODAY, 7)).expect(200);
        // Interest runs from TODAY − 5 days to TODAY + 7: 12 days on the purchase balance only (the transfer is at 0% until its promotion ends).
        const grown = (days: number) => Math.round(400_000 * ((1 + 0.24 / 365) ** days - 1));
        expect(res.body).to.deep.equal({
          account_id: id,
          as_of: TODAY,
          good_through: plusDays(TODAY, 7),
          payoff_amount: 600_000 + grown(12),
          per_diem: grown(13) - grown(12),
          interest_due: grown(12),
          trailing_interest_note: true,
        });
      });

      it('adds a deferred-interest charge when the quote is good through the end of the promotion with a balance left', async () => {
        const user = await newUser();
        const id = await link(user, {
          name: 'Medical',
          type: 'loan',
          subtype: 'medical_loan',
          balance: 150_000,
          minimum_payment: 5_000,
          last_payment_date: TODAY,
          apr_segments: [
            {
              kind: 'promotional',
              balance: 150_000,
              apr: 0,
              promo_ends_on: plusDays(TODAY, 10),
              go_to_apr: 26.99,
              deferred_interest: true,
              accrued_deferred_interest: 31_415,
            },
          ],
        });
        expect((await quote(user, id, plusDays(TODAY, 9)).expect(200)).body).to.include({ payoff_amount: 150_000, interest_due: 0 });
        const after = (await quote(user, id, plusDays(TODAY, 10)).expect(200)).body;
        // The accrued $314.15, and 10 days at 26.99% on $1,500 accruing in the background ($11.09); the promotion's own rate is 0%.
        expect(after).to.include({ interest_due: 0, payoff_amount: 150_000 + 31_415 + 1_109 });
      });

      it('answers 400 naming date outside today..today + 30 days, 409 naming both dates when neither is set, 409 for a non-debt, 404s and 400s', async () => {
        const user = await newUser();
        const id = await link(user, {
          name: 'Loan',
          type: 'loan',
          subtype: 'personal_loan',
          balance: 500_000,
          apr: 9.9,
          minimum_payment: 20_000,
          last_payment_date: TODAY,
        });
        for (const bad of [plusDays(TODAY, -1), plusDays(TODAY, 31), '2026-02-30', 'tomorrow']) {
          const res = await quote(user, id, bad).expect(400);
          expect(res.body.error.code, bad).to.equal('validation_error');
          expect(
            res.body.error.details.map((d: { path: string }) => d.path),
            bad,
          ).to.deep.equal(['date']);
        }
        await quote(user, id, plusDays(TODAY, 30)).expect(200);
        const undated = await link(user, {
          name: 'Undated',
          type: 'loan',
          subtype: 'personal_loan',
          balance: 500_000,
          apr: 9.9,
          minimum_payment: 20_000,
        });
        const neither = await quote(user, undated).expect(409);
        expect(neither.body.error.message).to.match(/^last_payment_date, next_payment_due_date: /);
        const checking = await link(user, { name: 'Checking', type: 'depository', subtype: 'checking', balance: 10_000 });
        expect((await quote(user, checking).expect(409)).body.error.message).to.match(/^type: /);
        await quote(user, id + 1000).expect(404);
        await quote('/api/users/987654', id).expect(404);
        await quote(user, 'abc').expect(400);
        await quote('/api/users/0', id).expect(400);
        await h.request.get(`${user}/accounts/${id}/payoff_quote?date=${TODAY}&extra=1`).set(h.auth).expect(400);
        await h.request.patch(`${user}/accounts/${id}/payoff_quote`).set(h.auth).send({}).expect(405);
        const other = await h.request.post('/admin/clients').set(ADMIN).send({ name: 'Another fintech' }).expect(201);
        const foreign = await h.request
          .get(`${user}/accounts/${id}/payoff_quote`)
          .set({ Authorization: `Bearer ${other.body.token}` })
          .expect(404);
        expect(foreign.body.error.code).to.equal('not_found');
      });

      it("defaults to the sandbox user's today once the clock is advanced", async () => {
        const user = await newUser();
        const id = await link(user, {
          name: 'Loan',
          type: 'loan',
          subtype: 'auto_loan',
          balance: 500_000,
          apr: 7.3,
          minimum_payment: 20_000,
          next_payment_due_date: plusDays(TODAY, 10),
        });
        await h.request.post(`${user}/sandbox/advance`).set(h.auth).send({ months: 1, payments: 'minimum' }).expect(200);
        const res = await quote(user, id).expect(200);
        expect(res.body.as_of).to.equal(plusMonths(TODAY, 1));
        expect(res.body.good_through).to.equal(plusMonths(TODAY, 1));
        await quote(user, id, TODAY).expect(400);
      });
    });
  });
}

accountMoneySuite('memory store', async () => createMemoryStore());

describe('repayment disclosure and payoff quote on the mongo store', () => {
  const mongo = useMongoStores('money');
  accountMoneySuite(mongo.label, mongo.connect);
});
