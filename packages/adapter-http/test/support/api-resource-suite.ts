/**
 * Every resource endpoint over HTTP (`app.callback()`), success and error paths.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { FactorName, IsoDate, Timestamp, factorObject, idOf } from '@debtkit/core';
import type { StorePorts } from '@debtkit/core';
import { ResourceHarness, SUITE_API_VERSION, resourceHarness } from './resource-app.js';
import { expectResponseMatchesOpenApi } from './openapi-assert.js';

const DEMO = '/api/users/1';

/**
 * The resource suite, run once per store (memory, and mongo through the real driver).
 * `makeStore` gives a fresh, empty store for each test.
 */
export function apiResourceSuite(name: string, makeStore: () => Promise<StorePorts>): void {
  describe(`API resources over HTTP (${name})`, () => {
    let h: ResourceHarness;
    let store: StorePorts | undefined;
    beforeEach(async () => {
      store = await makeStore();
      h = await resourceHarness(store);
    });
    afterEach(async function () {
      await store?.close();
      // Every response a test received must be one the OpenAPI document describes.
      if (this.currentTest?.state !== 'passed') return;
      expect(h.responses.length, 'responses recorded').to.be.greaterThan(0);
      for (const res of h.responses) expectResponseMatchesOpenApi(res);
    });

    const newUser = async (last_name = 'Okafor'): Promise<number> => {
      const res = await h.request.post('/api/users').set(h.auth).send({ last_name, first_name: 'Ada' }).expect(201);
      return res.body.id as number;
    };
    const loan = (over: Record<string, unknown> = {}) => ({
      name: 'Personal loan',
      type: 'loan',
      subtype: 'personal_loan',
      balance: 500_000,
      apr: 12.5,
      minimum_payment: 15_000,
      mask: '1234',
      opened_at: '2021-05-01',
      payments_history: ['1', '1', 'E', '2'],
      ...over,
    });

    describe('credit scores (docs/api/reference.md)', () => {
      it('serves the demo user score with every spec field', async () => {
        const res = await h.request.get(`${DEMO}/credit_scores`).set(h.auth).expect(200).expect('Content-Type', /json/);
        expect(res.body).to.have.all.keys(
          'id',
          'date',
          'last_name',
          'score',
          'increase',
          'payment_history',
          'credit_utilization',
          'derogatory_marks',
          'credit_age',
          'credit_mix',
          'new_credit',
        );
        expect(res.body.date).to.equal('2026-03-15');
        expect(res.body.last_name).to.equal('Rivera');
        expect(res.body.score).to.be.within(300, 850);
        expect(res.headers['api-version']).to.equal(SUITE_API_VERSION); // the version the suite's client is pinned to
      });

      it('answers 404 before the user has authenticated with the bureau', async () => {
        const id = await newUser();
        const res = await h.request.get(`/api/users/${id}/credit_scores`).set(h.auth).expect(404);
        expect(res.body.error.code).to.equal('not_found');
      });

      // Both sides of every Good threshold, as served.
      const boundaries: ReadonlyArray<[FactorName, number, 'Good' | 'Poor']> = [
        ['payment_history', 90, 'Good'],
        ['payment_history', 89.99, 'Poor'],
        ['payment_history', 100, 'Good'],
        ['payment_history', 0, 'Poor'],
        ['credit_utilization', 30, 'Good'],
        ['credit_utilization', 30.01, 'Poor'],
        ['credit_utilization', 0, 'Good'],
        ['credit_utilization', 100, 'Poor'],
        ['derogatory_marks', 0, 'Good'],
        ['derogatory_marks', 1, 'Poor'],
        ['derogatory_marks', 100, 'Poor'],
        ['credit_age', 5, 'Poor'],
        ['credit_age', 5.01, 'Good'],
        ['credit_age', 0, 'Poor'],
        ['credit_age', 100, 'Good'],
        ['credit_mix', 2, 'Poor'],
        ['credit_mix', 3, 'Good'],
        ['credit_mix', 0, 'Poor'],
        ['credit_mix', 6, 'Good'],
        ['new_credit', 2, 'Good'],
        ['new_credit', 3, 'Poor'],
        ['new_credit', 0, 'Good'],
        ['new_credit', 100, 'Poor'],
      ];
      for (const [name, amount, expected] of boundaries) {
        it(`serves ${name} = ${amount} as ${expected}`, async () => {
          const id = await newUser();
          const base = {
            date: '2026-03-15' as IsoDate,
            last_name: 'Okafor',
            score: 700,
            increase: 0,
            user_id: idOf('user', id),
            created_at: '2026-03-15T12:00:00.000Z' as Timestamp,
          };
          const factors = {
            payment_history: factorObject('payment_history', 95),
            credit_utilization: factorObject('credit_utilization', 10),
            derogatory_marks: factorObject('derogatory_marks', 0),
            credit_age: factorObject('credit_age', 7),
            credit_mix: factorObject('credit_mix', 3),
            new_credit: factorObject('new_credit', 1),
          };
          const added = await h.store.creditScores.add({ ...base, ...factors, [name]: factorObject(name, amount) })();
          expect(E.isRight(added)).to.equal(true);
          const res = await h.request.get(`/api/users/${id}/credit_scores`).set(h.auth).expect(200);
          expect(res.body[name]).to.deep.equal({ amount, factor: expected });
        });
      }

      it('lists the history newest first', async () => {
        const res = await h.request.get(`${DEMO}/credit_scores/history`).set(h.auth).expect(200);
        expect(res.body.credit_scores).to.have.length(1);
      });
    });

    describe('users (docs/api/reference.md)', () => {
      it('creates, reads, lists, patches and deletes a user', async () => {
        const created = await h.request.post('/api/users').set(h.auth).send({ last_name: 'Nakamura', email: 'k@example.com' }).expect(201);
        expect(created.body).to.deep.include({
          last_name: 'Nakamura',
          email: 'k@example.com',
          first_name: null,
          phone: null,
          date_of_birth: null,
        });
        const id = created.body.id;
        expect(id).to.be.greaterThan(1);
        await h.request.get(`/api/users/${id}`).set(h.auth).expect(200);
        const patched = await h.request.patch(`/api/users/${id}`).set(h.auth).send({ first_name: 'Kenji', phone: null }).expect(200);
        expect(patched.body.first_name).to.equal('Kenji');
        const page = await h.request.get('/api/users?limit=1').set(h.auth).expect(200);
        expect(page.body.users.map((u: { id: number }) => u.id)).to.deep.equal([1]);
        expect(page.body.has_more).to.equal(true);
        // After the two demo users (the second carries statement terms, docs/decisions/payoff-and-outlook.md).
        const rest = await h.request.get('/api/users?limit=1&starting_after=2').set(h.auth).expect(200);
        expect(rest.body).to.deep.equal({ users: [patched.body], has_more: false });
        await h.request.delete(`/api/users/${id}`).set(h.auth).expect(204);
        await h.request.get(`/api/users/${id}`).set(h.auth).expect(404);
      });

      it('rejects bad user input with details and changes nothing', async () => {
        const res = await h.request.post('/api/users').set(h.auth).send({ last_name: '', email: 'nope', admin: true }).expect(400);
        expect(res.body.error.code).to.equal('validation_error');
        expect(res.body.error.details.map((d: { path: string }) => d.path)).to.include('admin');
        const again = await h.request.post('/api/users').set(h.auth).send({ last_name: '', email: 'nope' }).expect(400);
        expect(again.body.error.details.map((d: { path: string }) => d.path)).to.have.members(['last_name', 'email']);
        const list = await h.request.get('/api/users').set(h.auth).expect(200);
        expect(list.body.users).to.have.length(2); // the two demo users
        await h.request.get('/api/users?limit=0').set(h.auth).expect(400);
        await h.request.get('/api/users?limit=101').set(h.auth).expect(400);
        await h.request.get('/api/users?starting_after=abc').set(h.auth).expect(400);
        await h.request.get('/api/users?color=red').set(h.auth).expect(400);
      });

      for (const bad of ['0', '-1', '1.5', '9007199254740993', 'abc', '01']) {
        it(`answers 400 for the path id ${bad}`, async () => {
          const res = await h.request.get(`/api/users/${bad}/accounts/1`).set(h.auth).expect(400);
          expect(res.body.error.code).to.equal('validation_error');
          expect(res.body.error.details[0].path).to.equal('id');
        });
      }

      it("answers another client's user exactly like a missing one", async () => {
        const created = await h.request
          .post('/admin/clients')
          .set('Authorization', 'Bearer admin-secret-token-for-tests')
          .send({ name: 'Other fintech' })
          .expect(201);
        const other = { Authorization: `Bearer ${created.body.token}` };
        const foreign = await h.request.get(`${DEMO}/credit_scores`).set(other).expect(404);
        const missing = await h.request.get('/api/users/999/credit_scores').set(other).expect(404);
        expect(foreign.body.error.message).to.equal(missing.body.error.message);
        await h.request.get(`${DEMO}/accounts/1`).set(other).expect(404);
        await h.request.delete(`${DEMO}/payment_plans/1`).set(other).expect(404);
        await h.request.post(`${DEMO}/bureau/auth/abort`).set(other).expect(404);
        const mine = await h.request.get('/api/users').set(other).expect(200);
        expect(mine.body.users).to.deep.equal([]);
      });
    });

    describe('accounts (docs/api/reference.md)', () => {
      it('links an account and serves every spec field, absent ones as null', async () => {
        const id = await newUser();
        const created = await h.request.post(`/api/users/${id}/accounts`).set(h.auth).send(loan()).expect(201);
        const res = await h.request.get(`/api/users/${id}/accounts/${created.body.id}`).set(h.auth).expect(200);
        expect(res.body).to.have.all.keys(
          'id',
          'name',
          'type',
          'subtype',
          'mask',
          'status',
          'nickname',
          'user_apr',
          'user_minimum_payment',
          'effective_minimum_payment',
          'effective_apr',
          'original_loan_amount',
          'balance',
          'limit',
          'last_payment_amount',
          'last_updated_at',
          'last_payment_date',
          'opened_at',
          'closed_at',
          'institution_name',
          'institution_logo',
          'next_payment_due_date',
          'user_next_payment_date',
          'first_time_payment',
          'expected_payoff_date',
          'payments_history',
          // The statement terms (docs/decisions/payoff-and-outlook.md), null when absent.
          'interest_method',
          'minimum_payment_formula',
          'apr_segments',
          'escrow_payment',
          'accrued_interest',
        );
        expect(res.body).to.deep.include({
          status: 'active',
          effective_apr: 12.5,
          effective_minimum_payment: 15_000,
          nickname: null,
          limit: null,
        });
        expect(res.body).to.deep.include({
          interest_method: null,
          minimum_payment_formula: null,
          apr_segments: null,
          escrow_payment: null,
          accrued_interest: null,
        });
        expect(res.body.expected_payoff_date).to.match(/^20\d\d-\d\d-15$/);
      });

      it('rejects invalid accounts field by field', async () => {
        const id = await newUser();
        const cases: Array<[Record<string, unknown>, string]> = [
          [loan({ mask: '12345' }), 'mask'],
          [loan({ type: 'crypto' }), 'type'],
          [loan({ balance: -1 }), 'balance'],
          [loan({ balance: 1.5 }), 'balance'],
          [loan({ payments_history: Array(25).fill('1') }), 'payments_history'],
          [loan({ payments_history: ['X'] }), 'payments_history.0'],
          [loan({ opened_at: '2023-02-30' }), 'opened_at'],
          [loan({ user_apr: 3 }), 'user_apr'],
          [loan({ apr: 101 }), 'apr'],
        ];
        for (const [body, path] of cases) {
          const res = await h.request.post(`/api/users/${id}/accounts`).set(h.auth).send(body).expect(400);
          expect(
            res.body.error.details.map((d: { path: string }) => d.path),
            JSON.stringify(body),
          ).to.include(path);
        }
        const list = await h.request.get(`/api/users/${id}/accounts`).set(h.auth).expect(200);
        expect(list.body.accounts).to.deep.equal([]);
      });

      const card = (over: Record<string, unknown> = {}) => ({
        name: 'Card',
        type: 'loan',
        subtype: 'credit_card_loan',
        balance: 500_000,
        ...over,
      });
      const formula = { floor: 2_500, terms: [{ percent_of_balance: 1, plus_interest: true }] };

      it('links statement terms (docs/decisions/payoff-and-outlook.md) and derives the effective APR, minimum and payoff date from them', async () => {
        const id = await newUser();
        const segments = [
          { kind: 'purchase', balance: 300_000, apr: 24 },
          { kind: 'balance_transfer', balance: 200_000, apr: 0, promo_ends_on: '2030-01-15', go_to_apr: 21.99 },
        ];
        const res = await h.request
          .post(`/api/users/${id}/accounts`)
          .set(h.auth)
          .send(card({ interest_method: 'daily_compound', minimum_payment_formula: formula, apr_segments: segments }))
          .expect(201);
        expect(res.body).to.deep.include({
          interest_method: 'daily_compound',
          minimum_payment_formula: formula,
          apr_segments: segments,
          escrow_payment: null,
          accrued_interest: null,
        });
        expect(res.body.effective_apr).to.equal(14.4); // (300,000 × 24 + 200,000 × 0) / 500,000
        expect(res.body.effective_minimum_payment).to.be.greaterThan(5_000); // 1% of $5,000 plus a month's interest on the purchases
        expect(res.body.expected_payoff_date).to.match(/^20\d\d-\d\d-\d\d$/);
        const read = await h.request.get(`/api/users/${id}/accounts/${res.body.id}`).set(h.auth).expect(200);
        expect(read.body).to.deep.equal(res.body);

        const mortgage = await h.request
          .post(`/api/users/${id}/accounts`)
          .set(h.auth)
          .send({
            name: 'Home',
            type: 'loan',
            subtype: 'mortgage_loan',
            balance: 30_000_000,
            apr: 6.5,
            minimum_payment: 249_620,
            escrow_payment: 60_000,
          })
          .expect(201);
        expect(mortgage.body).to.include({ escrow_payment: 60_000, effective_minimum_payment: 249_620 });
        // 361 months paying $1,896.20 of principal and interest (not 195 with the escrow counted).
        const months = (d: string) => {
          const [y, m] = d.split('-').map(Number);
          return y! * 12 + m!;
        };
        expect(months(mortgage.body.expected_payoff_date) - months(mortgage.body.last_updated_at)).to.equal(361);
      });

      it('rejects bad statement terms with a 400 naming the field, and stores nothing', async () => {
        const id = await newUser();
        const cases: Array<[Record<string, unknown>, string]> = [
          [card({ apr_segments: [{ kind: 'purchase', balance: 400_000, apr: 20 }] }), 'apr_segments'],
          [
            card({ apr_segments: [{ kind: 'purchase', balance: 500_000, apr: 0, promo_ends_on: '2030-01-01' }] }),
            'apr_segments.0.go_to_apr',
          ],
          [
            card({ apr_segments: [{ kind: 'purchase', balance: 500_000, apr: 0, deferred_interest: true }] }),
            'apr_segments.0.deferred_interest',
          ],
          [card({ apr_segments: [{ kind: 'cash', balance: 500_000, apr: 0 }] }), 'apr_segments.0.kind'],
          [card({ apr_segments: [] }), 'apr_segments'],
          [card({ minimum_payment_formula: { floor: 2_500, terms: [] } }), 'minimum_payment_formula.terms'],
          [
            card({ minimum_payment_formula: { floor: 2_500, terms: [{ percent_of_balance: -1 }] } }),
            'minimum_payment_formula.terms.0.percent_of_balance',
          ],
          [loan({ apr_segments: [{ kind: 'purchase', balance: 500_000, apr: 20 }] }), 'apr_segments'],
          [card({ interest_method: 'daily_simple' }), 'interest_method'],
          [card({ interest_method: 'weekly' }), 'interest_method'],
          [loan({ escrow_payment: 1_000 }), 'escrow_payment'],
          [loan({ subtype: 'mortgage_loan', escrow_payment: 15_000 }), 'escrow_payment'],
          [card({ accrued_interest: 100 }), 'accrued_interest'],
          [loan({ balance: 10_000_000_000_001 }), 'balance'],
        ];
        for (const [body, path] of cases) {
          const res = await h.request.post(`/api/users/${id}/accounts`).set(h.auth).send(body).expect(400);
          expect(res.body.error.code).to.equal('validation_error');
          expect(
            res.body.error.details.map((d: { path: string }) => d.path),
            JSON.stringify(body),
          ).to.include(path);
        }
        const list = await h.request.get(`/api/users/${id}/accounts`).set(h.auth).expect(200);
        expect(list.body.accounts).to.deep.equal([]);
      });

      it('PATCHes statement terms, checks them against the stored account (400 naming the field, nothing stored) and clears them with null', async () => {
        const id = await newUser();
        const created = (
          await h.request
            .post(`/api/users/${id}/accounts`)
            .set(h.auth)
            .send(card({ apr: 22 }))
            .expect(201)
        ).body;
        const path = `/api/users/${id}/accounts/${created.id}`;
        const bad = await h.request
          .patch(path)
          .set(h.auth)
          .send({ apr_segments: [{ kind: 'purchase', balance: 1, apr: 20 }] })
          .expect(400);
        expect(bad.body.error.details.map((d: { path: string }) => d.path)).to.deep.equal(['apr_segments']);
        expect(
          (await h.request.patch(path).set(h.auth).send({ interest_method: 'daily_simple' }).expect(400)).body.error.details[0].path,
        ).to.equal('interest_method');
        expect((await h.request.get(path).set(h.auth).expect(200)).body).to.deep.equal(created);
        const segments = [{ kind: 'purchase', balance: 500_000, apr: 22 }];
        const patched = (
          await h.request.patch(path).set(h.auth).send({ apr_segments: segments, minimum_payment_formula: formula }).expect(200)
        ).body;
        expect(patched).to.deep.include({ apr_segments: segments, minimum_payment_formula: formula });
        const cleared = (await h.request.patch(path).set(h.auth).send({ apr_segments: null, minimum_payment_formula: null }).expect(200))
          .body;
        expect(cleared).to.deep.include({ apr_segments: null, minimum_payment_formula: null });
        expect(cleared.expected_payoff_date).to.equal(created.expected_payoff_date);
      });

      it('lists with paging and filters', async () => {
        const all = await h.request.get(`${DEMO}/accounts`).set(h.auth).expect(200);
        expect(all.body.accounts).to.have.length(7);
        expect(all.body.has_more).to.equal(false);
        const loans = await h.request.get(`${DEMO}/accounts?type=loan&status=active&limit=2`).set(h.auth).expect(200);
        expect(loans.body.accounts).to.have.length(2);
        expect(loans.body.has_more).to.equal(true);
        const depository = await h.request.get(`${DEMO}/accounts?type=depository`).set(h.auth).expect(200);
        expect(depository.body.accounts.map((a: { subtype: string }) => a.subtype)).to.deep.equal(['checking']);
        await h.request.get(`${DEMO}/accounts?type=crypto`).set(h.auth).expect(400);
      });

      it('patches user fields and follows the status transitions', async () => {
        const patched = await h.request
          .patch(`${DEMO}/accounts/1`)
          .set(h.auth)
          .send({ nickname: 'Daily card', user_apr: 9.99, status: 'disabled' })
          .expect(200);
        expect(patched.body).to.deep.include({ nickname: 'Daily card', user_apr: 9.99, effective_apr: 9.99, status: 'disabled' });
        await h.request.patch(`${DEMO}/accounts/1`).set(h.auth).send({ status: 'active' }).expect(200);
        const closed = await h.request.patch(`${DEMO}/accounts/1`).set(h.auth).send({ status: 'closed' }).expect(200);
        expect(closed.body.closed_at).to.equal('2026-03-15');
        const reopen = await h.request.patch(`${DEMO}/accounts/1`).set(h.auth).send({ status: 'active' }).expect(409);
        expect(reopen.body.error.code).to.equal('conflict');
        const forbidden = await h.request.patch(`${DEMO}/accounts/2`).set(h.auth).send({ balance: 0 }).expect(400);
        expect(forbidden.body.error.details[0].path).to.equal('balance');
        await h.request.get(`${DEMO}/accounts/999`).set(h.auth).expect(404);
      });
    });

    describe('bureau authentication (docs/api/reference.md)', () => {
      it('runs the whole flow to a stored credit score', async () => {
        const id = await newUser('Lindqvist');
        await h.request.post(`/api/users/${id}/accounts`).set(h.auth).send(loan()).expect(201);
        const base = `/api/users/${id}/bureau/auth`;
        expect((await h.request.get(base).set(h.auth).expect(200)).body).to.deep.equal({ status: 'initial', step: null });
        expect((await h.request.post(`${base}/invoke`).set(h.auth).send({ device_ip: '198.51.100.23' }).expect(200)).body).to.deep.equal({
          step: 'consent',
        });
        const early = await h.request
          .post(`${base}/identity`)
          .set(h.auth)
          .send({ ssn_last4: '1234', date_of_birth: '1990-01-01' })
          .expect(409);
        expect(early.body.error.message).to.contain('consent');
        expect((await h.request.post(`${base}/consent`).set(h.auth).send({ accepted: true }).expect(200)).body).to.deep.equal({
          status: 'pending',
          step: 'validate_otp',
        });
        const wrong = await h.request.post(`${base}/validate_otp`).set(h.auth).send({ code: '654321' }).expect(400);
        expect(wrong.body.error.code).to.equal('validation_error');
        await h.request.post(`${base}/validate_otp`).set(h.auth).send({ code: '12345' }).expect(400);
        expect((await h.request.post(`${base}/validate_otp`).set(h.auth).send({ code: '123456' }).expect(200)).body).to.deep.equal({
          status: 'pending',
          step: 'identity',
        });
        expect(
          (await h.request.post(`${base}/identity`).set(h.auth).send({ ssn_last4: '1234', date_of_birth: '1990-01-01' }).expect(200)).body,
        ).to.deep.equal({
          status: 'authenticated',
          step: null,
        });
        const score = await h.request.get(`/api/users/${id}/credit_scores`).set(h.auth).expect(200);
        expect(score.body.last_name).to.equal('Lindqvist');
        expect(score.body.increase).to.equal(0);
      });

      it('validates device_ip', async () => {
        for (const device_ip of ['1.2.3', '999.1.1.1', 'localhost', 12345678, '']) {
          const res = await h.request.post(`${DEMO}/bureau/auth/invoke`).set(h.auth).send({ device_ip }).expect(400);
          expect(res.body.error.details[0].path).to.equal('device_ip');
        }
        await h.request.post(`${DEMO}/bureau/auth/invoke`).set(h.auth).send({}).expect(400);
        await h.request.post(`${DEMO}/bureau/auth/invoke`).set(h.auth).send({ device_ip: '::ffff:192.0.2.1' }).expect(200);
      });

      it('answers 422 bureau_error for the Nomatch sandbox user', async () => {
        const id = await newUser('Nomatch');
        const res = await h.request
          .post(`/api/users/${id}/bureau/auth/invoke`)
          .set(h.auth)
          .send({ device_ip: '198.51.100.23' })
          .expect(422);
        expect(res.body.error.code).to.equal('bureau_error');
        expect((await h.request.get(`/api/users/${id}/bureau/auth`).set(h.auth).expect(200)).body.status).to.equal('initial');
      });

      it('aborts to initial, and answers 400 for the Locked sandbox user', async () => {
        const abort = await h.request.post(`${DEMO}/bureau/auth/abort`).set(h.auth).expect(200);
        expect(abort.body).to.deep.equal({ status: 'initial', step: null });
        await h.request.post(`${DEMO}/bureau/auth/abort`).set(h.auth).send({ extra: 1 }).expect(400);
        const id = await newUser('Locked');
        await h.request.post(`/api/users/${id}/bureau/auth/invoke`).set(h.auth).send({ device_ip: '198.51.100.23' }).expect(200);
        const locked = await h.request.post(`/api/users/${id}/bureau/auth/abort`).set(h.auth).expect(400);
        expect(locked.body.error).to.deep.include({ code: 'validation_error', message: 'The identity cannot be deleted' });
        expect((await h.request.get(`/api/users/${id}/bureau/auth`).set(h.auth).expect(200)).body).to.deep.equal({
          status: 'pending',
          step: 'consent',
        });
      });
    });

    describe('payment plans and payments (docs/api/reference.md, docs/decisions/payoff-and-outlook.md)', () => {
      it('creates avalanche and snowball plans, records a payment, deletes a plan', async () => {
        const avalanche = await h.request
          .post(`${DEMO}/payment_plans`)
          .set(h.auth)
          .send({ strategy: 'avalanche', monthly_payment: 400_000 })
          .expect(201);
        const snowball = await h.request
          .post(`${DEMO}/payment_plans`)
          .set(h.auth)
          .send({ strategy: 'snowball', monthly_payment: 400_000 })
          .expect(201);
        expect(avalanche.body).to.include.keys(
          'id',
          'strategy',
          'monthly_payment',
          'account_ids',
          'order',
          'months',
          'payoff_date',
          'total_interest',
          'total_paid',
          'created_at',
          'schedule',
        );
        expect(avalanche.body.order[0]).to.equal(1); // the 24.99% card
        expect(snowball.body.order[0]).to.equal(2); // the smallest balance
        expect(avalanche.body.total_interest).to.be.at.most(snowball.body.total_interest);
        const planId = avalanche.body.id;
        expect((await h.request.get(`${DEMO}/payment_plans/${planId}`).set(h.auth).expect(200)).body).to.deep.equal(avalanche.body);
        const list = await h.request.get(`${DEMO}/payment_plans`).set(h.auth).expect(200);
        expect(list.body.payment_plans.map((p: { id: number }) => p.id)).to.deep.equal([planId, snowball.body.id]);

        const payment = await h.request
          .post(`${DEMO}/payment_plans/${planId}/payments`)
          .set(h.auth)
          .send({ account_id: 2, amount: 10_000 })
          .expect(201);
        expect(payment.body).to.deep.equal({
          id: payment.body.id,
          payment_plan_id: planId,
          account_id: 2,
          amount: 10_000,
          date: '2026-03-15',
        });
        const account = await h.request.get(`${DEMO}/accounts/2`).set(h.auth).expect(200);
        expect(account.body.balance).to.equal(127_540 - 10_000);
        expect(account.body.last_payment_amount).to.equal(10_000);
        const payments = await h.request.get(`${DEMO}/payment_plans/${planId}/payments`).set(h.auth).expect(200);
        expect(payments.body).to.deep.equal({ payments: [payment.body], has_more: false });
        await h.request.post(`${DEMO}/payment_plans/${planId}/payments`).set(h.auth).send({ account_id: 7, amount: 100 }).expect(400);
        await h.request.post(`${DEMO}/payment_plans/${planId}/payments`).set(h.auth).send({ account_id: 2, amount: 0 }).expect(400);
        await h.request
          .post(`${DEMO}/payment_plans/${planId}/payments`)
          .set(h.auth)
          .send({ account_id: 2, amount: 100, date: '2030-01-01' })
          .expect(400);

        const deleted = await h.request.delete(`${DEMO}/payment_plans/${planId}`).set(h.auth).expect(204);
        expect(deleted.text).to.equal('');
        await h.request.delete(`${DEMO}/payment_plans/${planId}`).set(h.auth).expect(404);
        await h.request.get(`${DEMO}/payment_plans/${planId}/payments`).set(h.auth).expect(404);
      });

      it('rejects a budget below the minimums, unknown strategies and unknown accounts', async () => {
        const low = await h.request
          .post(`${DEMO}/payment_plans`)
          .set(h.auth)
          .send({ strategy: 'avalanche', monthly_payment: 1_000 })
          .expect(400);
        expect(low.body.error.details[0].path).to.equal('monthly_payment');
        await h.request.post(`${DEMO}/payment_plans`).set(h.auth).send({ strategy: 'fastest', monthly_payment: 400_000 }).expect(400);
        await h.request
          .post(`${DEMO}/payment_plans`)
          .set(h.auth)
          .send({ strategy: 'avalanche', monthly_payment: 400_000, account_ids: [42] })
          .expect(400);
        await h.request
          .post(`${DEMO}/payment_plans`)
          .set(h.auth)
          .send({ strategy: 'avalanche', monthly_payment: 400_000, account_ids: [1, 1] })
          .expect(400);
        const none = await h.request.get(`${DEMO}/payment_plans`).set(h.auth).expect(200);
        expect(none.body.payment_plans).to.deep.equal([]);
      });
    });

    describe('debt calculator (docs/decisions/payoff-and-outlook.md)', () => {
      it('computes months from a payment, and the payment from months', async () => {
        const byPayment = await h.request
          .post('/api/debt_calculator')
          .set(h.auth)
          .send({ balance: 1_000_000, apr: 20, monthly_payment: 50_000 })
          .expect(200);
        expect(byPayment.body).to.deep.include({ monthly_payment: 50_000, months: 25, total_interest: 226_606 });
        // Both directions answer the same five keys (docs/decisions/payoff-and-outlook.md).
        expect(Object.keys(byPayment.body).sort()).to.deep.equal([
          'monthly_payment',
          'months',
          'payoff_date',
          'total_interest',
          'total_paid',
        ]);
        const byMonths = await h.request
          .post('/api/debt_calculator')
          .set(h.auth)
          .send({ balance: 1_000_000, apr: 20, months: 25 })
          .expect(200);
        expect(byMonths.body.monthly_payment).to.be.at.most(50_000);
        expect(byMonths.body.months).to.be.at.most(25);
        expect(Object.keys(byMonths.body).sort()).to.deep.equal([
          'monthly_payment',
          'months',
          'payoff_date',
          'total_interest',
          'total_paid',
        ]);
      });

      it('rejects a payment that never pays off and mixed inputs', async () => {
        const never = await h.request
          .post('/api/debt_calculator')
          .set(h.auth)
          .send({ balance: 1_000_000, apr: 20, monthly_payment: 100 })
          .expect(400);
        expect(never.body.error.code).to.equal('validation_error');
        const both = await h.request
          .post('/api/debt_calculator')
          .set(h.auth)
          .send({ balance: 1_000_000, apr: 20, monthly_payment: 50_000, months: 12 })
          .expect(400);
        expect(both.body.error.details).to.deep.equal([{ path: '(body)', message: 'must have exactly one of monthly_payment or months' }]);
        await h.request.post('/api/debt_calculator').set(h.auth).send({ balance: 1_000_000, apr: 20, months: 601 }).expect(400);
      });
    });

    describe('learning modules and articles (docs/api/reference.md)', () => {
      it('lists every module, filters by category, and rejects an unknown category', async () => {
        const all = await h.request.get('/api/learning_modules').set(h.auth).expect(200);
        expect(all.body.modules.length).to.be.at.least(16);
        const investing = await h.request.get('/api/learning_modules?category=investing').set(h.auth).expect(200);
        expect(investing.body.modules.length).to.be.at.least(2);
        expect(investing.body.modules.every((m: { category: string }) => m.category === 'investing')).to.equal(true);
        expect(Object.keys(investing.body.modules[0])).to.include.members(['category', 'title', 'content']);
        const bad = await h.request.get('/api/learning_modules?category=astrology').set(h.auth).expect(400);
        expect(bad.body.error.details[0].path).to.equal('category');
        expect(bad.body.error.details[0].message).to.match(/^must be one of career, college, .*investing/);
      });

      it('compresses the large modules response with gzip and leaves small bodies alone', async () => {
        const gz = await h.request.get('/api/learning_modules').set(h.auth).set('Accept-Encoding', 'gzip').expect(200);
        expect(gz.headers['content-encoding']).to.equal('gzip');
        expect(gz.headers['vary']).to.match(/Accept-Encoding/i);
        const small = await h.request.get(`${DEMO}/bureau/auth`).set(h.auth).set('Accept-Encoding', 'gzip').expect(200);
        expect(small.headers['content-encoding']).to.equal(undefined);
      });

      it('pages articles, filters by category and reads one', async () => {
        const page = await h.request.get('/api/articles?limit=2').set(h.auth).expect(200);
        expect(page.body.articles).to.have.length(2);
        expect(page.body.has_more).to.equal(true);
        expect(page.body.articles[0]).to.have.all.keys('id', 'title', 'category', 'summary');
        const one = await h.request.get(`/api/articles/${page.body.articles[0].id}`).set(h.auth).expect(200);
        expect(one.body).to.include.keys('content', 'published_at');
        await h.request.get('/api/articles/9999').set(h.auth).expect(404);
        await h.request.get('/api/articles?category=nope').set(h.auth).expect(400);
      });
    });
  });
}
