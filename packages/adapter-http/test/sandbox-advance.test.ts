/**
 * The sandbox over time (docs/sandbox-over-time.md) over HTTP, on both stores: a clock per
 * sandbox user (`sandbox_date`, and everything dated by the user's today),
 * `POST /api/users/{id}/sandbox/advance` with its arithmetic, history codes,
 * scores and events, its errors, its absence in production, and a request
 * that fails in month 2 of 3 (memory: the fault injector, at every store
 * call of month 2) then continues to the same target and never past it.
 * The arithmetic is also checked by property tests (fast-check) against a
 * reference written here.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { createMemoryStore } from '@debtkit/adapter-memory';
import type { StorePorts } from '@debtkit/core';
import { faultInjectingStore, type FaultInjectingStore } from '@debtkit/core/testing';
import { resourceHarness, type ResourceHarness, TODAY } from './support/resource-app.js';
import { useMongoStores } from './support/mongo-stores.js';
import { harness } from './support/http-harness.js';

type Json = Record<string, any>;

/** The reference month interest: round-half-up(balance × apr / 1200), exact (APR with at most 2 decimals here). */
const refInterest = (balance: number, apr: number): number => {
  const hundredths = BigInt(Math.round(apr * 100));
  return Number((2n * BigInt(balance) * hundredths + 120_000n) / 240_000n);
};

/** Month i of an advance from `from` (calendar months, the day clamped to the month's last). */
const refMonth = (from: string, i: number): string => {
  const [y, m, d] = from.split('-').map(Number) as [number, number, number];
  const total = m - 1 + i;
  const year = y + Math.floor(total / 12);
  const month = (total % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
};

interface LoanSpec {
  readonly balance: number;
  readonly apr: number;
  readonly minimum: number;
}

const loanBody = (spec: LoanSpec, n: number) => ({
  name: `Loan ${n}`,
  type: 'loan',
  subtype: 'personal_loan',
  balance: spec.balance,
  apr: spec.apr,
  minimum_payment: spec.minimum,
  opened_at: '2020-01-01',
  payments_history: ['1'],
});

const storesUnderTest: ReadonlyArray<{ readonly name: string; readonly make: (mongo: () => Promise<StorePorts>) => Promise<StorePorts> }> =
  [
    { name: 'memory store', make: async () => createMemoryStore() },
    { name: 'mongo store (wire-protocol test server)', make: (mongo) => mongo() },
  ];

describe('the sandbox over time (docs/sandbox-over-time.md): a clock per user and POST /api/users/{id}/sandbox/advance', function () {
  this.timeout(60_000);
  const mongo = useMongoStores('sandbox_advance');

  for (const kind of storesUnderTest) {
    describe(kind.name, () => {
      let h: ResourceHarness;
      before(async () => {
        h = await resourceHarness(await kind.make(mongo.connect));
      });

      const newUser = async (loans: ReadonlyArray<LoanSpec>, lastName = 'Doe'): Promise<{ path: string; accounts: Json[] }> => {
        const user = await h.request.post('/api/users').set(h.auth).send({ last_name: lastName });
        expect(user.status, JSON.stringify(user.body)).to.equal(201);
        const path = `/api/users/${user.body.id}`;
        const accounts: Json[] = [];
        for (const [i, spec] of loans.entries()) {
          const a = await h.request.post(`${path}/accounts`).set(h.auth).send(loanBody(spec, i));
          expect(a.status, JSON.stringify(a.body)).to.equal(201);
          accounts.push(a.body);
        }
        return { path, accounts };
      };
      const advance = (path: string, body: Json, key?: string) => {
        const req = h.request.post(`${path}/sandbox/advance`).set(h.auth);
        return (key === undefined ? req : req.set('Idempotency-Key', key)).send(body);
      };
      const accountsOf = async (path: string): Promise<Json[]> =>
        (await h.request.get(`${path}/accounts?limit=100`).set(h.auth)).body.accounts;

      it('a user has sandbox_date = today until advanced, and a user stored before the field (no sandbox fields) reads as today', async () => {
        const created = await h.request.post('/api/users').set(h.auth).send({ last_name: 'Fresh' });
        expect(created.body.sandbox_date).to.equal(TODAY);
        // An old-shape record, written straight to the store: no sandbox_date, no sandbox_advance.
        const old = await h.store.users.create({
          client_id: h.demo.client.id,
          last_name: 'Old',
          first_name: null,
          email: null,
          date_of_birth: null,
          phone: null,
          created_at: '2024-01-01T00:00:00.000Z' as never,
        })();
        if (old._tag === 'Left') throw new Error(old.left.message);
        expect(old.right).not.to.have.property('sandbox_date');
        const read = await h.request.get(`/api/users/${old.right.id}`).set(h.auth);
        expect(read.status).to.equal(200);
        expect(read.body.sandbox_date).to.equal(TODAY);
        const listed = await h.request.get('/api/users?limit=100').set(h.auth);
        expect(listed.body.users.find((u: Json) => u.id === old.right.id).sandbox_date).to.equal(TODAY);
        // Its accounts, plans and advance work as for any user.
        const a = await h.request
          .post(`/api/users/${old.right.id}/accounts`)
          .set(h.auth)
          .send(loanBody({ balance: 10_000, apr: 12, minimum: 1_000 }, 0));
        expect(a.status).to.equal(201);
        const moved = await advance(`/api/users/${old.right.id}`, { months: 1, payments: 'minimum' });
        expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
        expect(moved.body.sandbox_date).to.equal(refMonth(TODAY, 1));
      });

      it('advances 3 months paying minimums: interest at APR/12 half up, payments, codes, dates, a score a month, and the events of the real changes', async () => {
        const loans = [
          { balance: 250_000, apr: 19.99, minimum: 7_500 },
          { balance: 1_500, apr: 24.99, minimum: 2_500 },
          { balance: 0, apr: 5, minimum: 100 },
        ];
        const { path, accounts } = await newUser(loans);
        const scoresBefore = (await h.request.get(`${path}/credit_scores/history`).set(h.auth)).body.credit_scores?.length ?? 0;
        const res = await advance(path, { months: 3, payments: 'minimum' });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body.sandbox_date).to.equal(refMonth(TODAY, 3));
        expect(res.body.months.map((m: Json) => m.date)).to.deep.equal([1, 2, 3].map((i) => refMonth(TODAY, i)));
        // The reference, month by month.
        let balances = loans.map((l) => l.balance);
        for (const month of res.body.months as Json[]) {
          const interest = balances.map((b, i) => (b > 0 ? refInterest(b, loans[i]!.apr) : 0));
          const paid = balances.map((b, i) => Math.min(loans[i]!.minimum, b + interest[i]!));
          const after = balances.map((b, i) => b + interest[i]! - paid[i]!);
          expect(month).to.include({
            interest: interest.reduce((a, b) => a + b),
            paid: paid.reduce((a, b) => a + b),
            balance: after.reduce((a, b) => a + b),
          });
          expect(month.score).to.be.a('number').within(300, 850);
          balances = after;
        }
        const now = await accountsOf(path);
        expect(now.map((a) => a.balance)).to.deep.equal(balances);
        // Loan 1 paid at least its minimum: 1 each month; loan 2 paid off in month 1: E; loan 3 stayed at 0: E.
        expect(now[0]!.payments_history.slice(0, 4)).to.deep.equal(['1', '1', '1', '1']);
        expect(now[1]!.payments_history.slice(0, 4)).to.deep.equal(['E', 'E', 'E', '1']);
        expect(now[2]!.payments_history.slice(0, 4)).to.deep.equal(['E', 'E', 'E', '1']);
        expect(now[0]).to.include({
          last_payment_amount: 7_500,
          last_payment_date: refMonth(TODAY, 3),
          next_payment_due_date: refMonth(TODAY, 4),
        });
        expect(now[2]).to.include({ balance: 0, next_payment_due_date: null });
        // The user's clock, and what is dated by it.
        const user = await h.request.get(path).set(h.auth);
        expect(user.body.sandbox_date).to.equal(refMonth(TODAY, 3));
        const one = await h.request.get(`${path}/accounts/${accounts[0]!.id}`).set(h.auth);
        expect(one.body.expected_payoff_date > refMonth(TODAY, 3)).to.equal(true);
        const scores = (await h.request.get(`${path}/credit_scores/history`).set(h.auth)).body.credit_scores as Json[];
        expect(scores.length - scoresBefore).to.equal(3);
        expect(scores[0]!.date).to.equal(refMonth(TODAY, 3));
        // One account.updated per account and month (3 × 3), one credit_score.created a month.
        const uid = path.split('/').at(-1);
        const updated = (await h.request.get(`/api/events?limit=100&type=account.updated&user_id=${uid}`).set(h.auth)).body
          .events as Json[];
        expect(updated).to.have.length(9);
        const created = (await h.request.get(`/api/events?limit=100&type=credit_score.created&user_id=${uid}`).set(h.auth)).body
          .events as Json[];
        expect(created.map((e) => e.data.object.date)).to.deep.equal([1, 2, 3].map((i) => refMonth(TODAY, i)));
      });

      it("paying a plan posts its schedule month as plan payments (plan_payment.created); progress, outlook and dates follow the user's clock", async () => {
        const { path, accounts } = await newUser([{ balance: 100_000, apr: 12, minimum: 5_000 }]);
        const plan = await h.request.post(`${path}/payment_plans`).set(h.auth).send({ strategy: 'avalanche', monthly_payment: 20_000 });
        expect(plan.status, JSON.stringify(plan.body)).to.equal(201);
        const res = await advance(path, { months: 2, payments: 'plan', payment_plan_id: plan.body.id });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        const scheduled = (plan.body.schedule as Json[]).slice(0, 2).map((m) => m.payments[0].payment);
        expect(res.body.months.map((m: Json) => m.paid)).to.deep.equal(scheduled);
        const payments = (await h.request.get(`${path}/payment_plans/${plan.body.id}/payments`).set(h.auth)).body.payments as Json[];
        expect(payments.map((p) => [p.amount, p.date])).to.deep.equal([
          [scheduled[0], refMonth(TODAY, 1)],
          [scheduled[1], refMonth(TODAY, 2)],
        ]);
        const progress = await h.request.get(`${path}/payment_plans/${plan.body.id}/progress`).set(h.auth);
        expect(progress.body).to.include({ as_of: refMonth(TODAY, 2), months_elapsed: 2, status: 'on_track' });
        const outlook = await h.request.get(`${path}/payment_plans/${plan.body.id}/credit_outlook`).set(h.auth);
        expect(outlook.body.as_of).to.equal(refMonth(TODAY, 2));
        // "Not in the future" is the user's today: a payment dated after the real today but before the user's is accepted ...
        const paid = await h.request
          .post(`${path}/payment_plans/${plan.body.id}/payments`)
          .set(h.auth)
          .send({ account_id: accounts[0]!.id, amount: 100, date: refMonth(TODAY, 1) });
        expect(paid.status, JSON.stringify(paid.body)).to.equal(201);
        // ... and one after the user's today is not.
        const future = await h.request
          .post(`${path}/payment_plans/${plan.body.id}/payments`)
          .set(h.auth)
          .send({ account_id: accounts[0]!.id, amount: 100, date: refMonth(TODAY, 3) });
        expect(future.status).to.equal(400);
        // A plan may start on the user's today.
        const later = await h.request
          .post(`${path}/payment_plans`)
          .set(h.auth)
          .send({ strategy: 'snowball', monthly_payment: 20_000, start_date: refMonth(TODAY, 2) });
        expect(later.status, JSON.stringify(later.body)).to.equal(201);
        const events = (
          await h.request.get(`/api/events?limit=100&type=plan_payment.created&user_id=${path.split('/').at(-1)}`).set(h.auth)
        ).body.events as Json[];
        expect(events.filter((e) => e.data.object.payment_plan_id === plan.body.id)).to.have.length(3);
      });

      it('moves statement terms with the engine (docs/decisions/payoff-and-outlook.md): a deferred promotion ends and its interest posts as deferred_interest, a formula minimum falls, the sums add up', async () => {
        const user = await h.request.post('/api/users').set(h.auth).send({ last_name: 'Statement' });
        const path = `/api/users/${user.body.id}`;
        const medical = await h.request
          .post(`${path}/accounts`)
          .set(h.auth)
          .send({
            name: 'Medical',
            type: 'loan',
            subtype: 'medical_loan',
            balance: 120_000,
            minimum_payment: 10_000,
            apr_segments: [
              {
                kind: 'promotional',
                balance: 120_000,
                apr: 0,
                promo_ends_on: refMonth(TODAY, 2),
                go_to_apr: 26.99,
                deferred_interest: true,
                accrued_deferred_interest: 5_000,
              },
            ],
          });
        expect(medical.status, JSON.stringify(medical.body)).to.equal(201);
        const card = await h.request
          .post(`${path}/accounts`)
          .set(h.auth)
          .send({
            name: 'Formula card',
            type: 'loan',
            subtype: 'credit_card_loan',
            balance: 500_000,
            apr: 24,
            minimum_payment_formula: { floor: 2_500, terms: [{ percent_of_balance: 1, plus_interest: true }] },
          });
        expect(card.status, JSON.stringify(card.body)).to.equal(201);
        let before = 120_000 + 500_000;
        const cardPayments: number[] = [];
        const months: Json[] = [];
        for (let i = 1; i <= 4; i++) {
          const res = await advance(path, { months: 1, payments: 'minimum' });
          expect(res.status, JSON.stringify(res.body)).to.equal(200);
          const month = res.body.months[0] as Json;
          months.push(month);
          expect(before + month.interest + month.deferred_interest - month.paid, `month ${i}`).to.equal(month.balance);
          before = month.balance;
          const now = await accountsOf(path);
          cardPayments.push(now.find((a) => a.id === card.body.id)!.last_payment_amount);
          const med = now.find((a) => a.id === medical.body.id)!;
          expect(med.apr_segments.reduce((sum: number, x: Json) => sum + x.balance, 0)).to.equal(med.balance);
        }
        // Month 1: $1,200 at 0% (26.99% accrues in the background, $26.99); month 2 is dated on promo_ends_on: the $50 + $26.99 posts.
        expect(months.map((m) => m.deferred_interest)).to.deep.equal([0, 5_000 + refInterest(120_000, 26.99), 0, 0]);
        expect(months[0]!.interest).to.equal(refInterest(500_000, 24));
        expect(months[1]!.interest).to.equal(
          refInterest(110_000, 26.99) + refInterest(500_000 - (cardPayments[0]! - refInterest(500_000, 24)), 24),
        );
        const med = (await accountsOf(path)).find((a) => a.id === medical.body.id)!;
        expect(med.apr_segments).to.deep.equal([{ kind: 'promotional', balance: med.balance, apr: 26.99 }]);
        // 1% of the balance plus the month's interest: it falls as the balance does.
        expect(cardPayments[0]).to.equal(5_000 + refInterest(500_000, 24));
        for (let k = 1; k < cardPayments.length; k++) expect(cardPayments[k]).to.be.lessThan(cardPayments[k - 1]!);
      });

      it('stops at the maximum balance (issue 42): a month that would pass it is a 409 naming the account, and changes nothing', async () => {
        const user = await h.request.post('/api/users').set(h.auth).send({ last_name: 'Whale' });
        const path = `/api/users/${user.body.id}`;
        const big = await h.request
          .post(`${path}/accounts`)
          .set(h.auth)
          .send(loanBody({ balance: 9_990_000_000_000, apr: 24, minimum: 100 }, 0));
        expect(big.status, JSON.stringify(big.body)).to.equal(201);
        const res = await advance(path, { months: 1, payments: 'none' });
        expect(res.status, JSON.stringify(res.body)).to.equal(409);
        expect(res.body.error.message).to.include(`account ${big.body.id} would owe more than the maximum balance (10000000000000 cents)`);
        const after = (await h.request.get(`${path}/accounts/${big.body.id}`).set(h.auth)).body;
        expect(after.balance).to.equal(9_990_000_000_000);
        expect((await h.request.get(path).set(h.auth)).body.sandbox_date).to.equal(TODAY);
      });

      it('missed months count up 2, 3, 4, 5 with payments "none"', async () => {
        const { path } = await newUser([{ balance: 50_000, apr: 10, minimum: 1_000 }]);
        expect((await advance(path, { months: 5, payments: 'none' })).status).to.equal(200);
        expect((await accountsOf(path))[0]!.payments_history.slice(0, 6)).to.deep.equal(['5', '5', '4', '3', '2', '1']);
      });

      it("bad input: 400 naming the field, 409 naming accounts without APR or minimum, 404 for another client's user; nothing changes", async () => {
        const { path } = await newUser([{ balance: 50_000, apr: 10, minimum: 1_000 }]);
        const fieldOf = (r: { body: Json }) => (r.body.error.details as Json[] | undefined)?.map((d) => d.path);
        for (const months of [0, 13, 1.5, '3']) {
          const r = await advance(path, { months, payments: 'minimum' });
          expect(r.status, `months ${months}`).to.equal(400);
          expect(fieldOf(r)).to.include('months');
        }
        const noMode = await advance(path, { months: 1 });
        expect(noMode.status).to.equal(400);
        expect(fieldOf(noMode)).to.include('payments');
        const noPlan = await advance(path, { months: 1, payments: 'plan' });
        expect(noPlan.status).to.equal(400);
        expect(fieldOf(noPlan)).to.deep.equal(['payment_plan_id']);
        const unknownPlan = await advance(path, { months: 1, payments: 'plan', payment_plan_id: 999_999 });
        expect(unknownPlan.status).to.equal(400);
        expect(fieldOf(unknownPlan)).to.deep.equal(['payment_plan_id']);
        const other = await newUser([{ balance: 50_000, apr: 10, minimum: 1_000 }]);
        const theirPlan = await h.request
          .post(`${other.path}/payment_plans`)
          .set(h.auth)
          .send({ strategy: 'avalanche', monthly_payment: 5_000 });
        const foreign = await advance(path, { months: 1, payments: 'plan', payment_plan_id: theirPlan.body.id });
        expect(foreign.status).to.equal(400);
        expect(fieldOf(foreign)).to.deep.equal(['payment_plan_id']);
        const superfluous = await advance(path, { months: 1, payments: 'minimum', payment_plan_id: theirPlan.body.id });
        expect(superfluous.status).to.equal(400);
        const unknownField = await advance(path, { months: 1, payments: 'minimum', speed: 2 });
        expect(unknownField.status).to.equal(400);
        expect((await h.request.get(path).set(h.auth)).body.sandbox_date).to.equal(TODAY);

        const noApr = await h.request
          .post(`${path}/accounts`)
          .set(h.auth)
          .send({ name: 'Card', type: 'loan', subtype: 'credit_card_loan', balance: 1_000 });
        const conflict = await advance(path, { months: 1, payments: 'none' });
        expect(conflict.status).to.equal(409);
        expect(conflict.body.error.message)
          .to.include(`account ${noApr.body.id} has no APR`)
          .and.to.include(`account ${noApr.body.id} has no minimum payment`);
        expect((await h.request.get(path).set(h.auth)).body.sandbox_date).to.equal(TODAY);
        expect(
          (await h.request.post('/api/users/999999/sandbox/advance').set(h.auth).send({ months: 1, payments: 'none' })).status,
        ).to.equal(404);
      });

      it('property: per account and month, balance before + interest − paid = balance after, as the reference computes it (25 runs)', async () => {
        const loan = fc.record({
          balance: fc.integer({ min: 0, max: 5_000_000 }),
          apr: fc.integer({ min: 0, max: 3_999 }).map((h) => h / 100),
          minimum: fc.integer({ min: 1, max: 200_000 }),
        });
        await fc.assert(
          fc.asyncProperty(
            fc.array(loan, { minLength: 1, maxLength: 3 }),
            fc.integer({ min: 1, max: 4 }),
            fc.constantFrom('minimum', 'none'),
            async (loans, months, payments) => {
              const { path } = await newUser(loans);
              const res = await advance(path, { months, payments });
              expect(res.status, JSON.stringify(res.body)).to.equal(200);
              let balances = loans.map((l) => l.balance);
              for (const month of res.body.months as Json[]) {
                const interest = balances.map((b, i) => (b > 0 ? refInterest(b, loans[i]!.apr) : 0));
                const paid = balances.map((b, i) => (payments === 'minimum' ? Math.min(loans[i]!.minimum, b + interest[i]!) : 0));
                const after = balances.map((b, i) => b + interest[i]! - paid[i]!);
                expect(month.interest).to.equal(interest.reduce((a, b) => a + b, 0));
                expect(month.paid).to.equal(paid.reduce((a, b) => a + b, 0));
                expect(month.balance).to.equal(after.reduce((a, b) => a + b, 0));
                balances = after;
              }
              expect((await accountsOf(path)).map((a) => a.balance)).to.deep.equal(balances);
            },
          ),
          { numRuns: 25, seed: 7 },
        );
      });
    });
  }

  it('in production: users have no sandbox_date, and the advance path answers 404 (nothing changes)', async () => {
    const live = await harness({ environment: 'production' });
    const user = await live.request.post('/api/users').set(live.auth).send({ last_name: 'Live' });
    expect(user.status).to.equal(201);
    expect(user.body).not.to.have.property('sandbox_date');
    const path = `/api/users/${user.body.id}`;
    expect(
      (
        await live.request
          .post(`${path}/accounts`)
          .set(live.auth)
          .send(loanBody({ balance: 10_000, apr: 12, minimum: 1_000 }, 0))
      ).status,
    ).to.equal(201);
    const advanced = await live.request.post(`${path}/sandbox/advance`).set(live.auth).send({ months: 1, payments: 'minimum' });
    expect(advanced.status).to.equal(404);
    expect(advanced.body.error.code).to.equal('not_found');
    const read = await live.request.get(path).set(live.auth);
    expect(read.body).not.to.have.property('sandbox_date');
    expect((await live.request.get('/api/users').set(live.auth)).body.users[0]).not.to.have.property('sandbox_date');
    expect((await live.request.get(`${path}/accounts`).set(live.auth)).body.accounts[0].balance).to.equal(10_000);
  });

  describe('a request that fails in month 2 of 3 (memory store, the fault injector at every store call of month 2)', () => {
    let h: ResourceHarness;
    let store: FaultInjectingStore;
    before(async () => {
      store = faultInjectingStore(createMemoryStore());
      h = await resourceHarness(store);
    });
    const loans = [
      { balance: 300_000, apr: 18, minimum: 9_000 },
      { balance: 80_000, apr: 7.5, minimum: 2_000 },
    ];
    const newUser = async (): Promise<string> => {
      const user = await h.request.post('/api/users').set(h.auth).send({ last_name: 'Doe' });
      const path = `/api/users/${user.body.id}`;
      for (const [i, spec] of loans.entries())
        expect((await h.request.post(`${path}/accounts`).set(h.auth).send(loanBody(spec, i))).status).to.equal(201);
      return path;
    };
    const stateOf = async (path: string) => ({
      user: (await h.request.get(path).set(h.auth)).body.sandbox_date,
      accounts: ((await h.request.get(`${path}/accounts`).set(h.auth)).body.accounts as Json[]).map((a) => [
        a.balance,
        a.payments_history,
        a.last_payment_date,
      ]),
      scores:
        ((await h.request.get(`${path}/credit_scores/history`).set(h.auth)).body.credit_scores as Json[] | undefined)?.map((s) => [
          s.date,
          s.score,
        ]) ?? [],
      events: ((await h.request.get(`/api/events?limit=100&user_id=${path.split('/').at(-1)}`).set(h.auth)).body.events as Json[]).map(
        (e) => e.type,
      ),
    });

    it('keeps month 1, and its retry (same Idempotency-Key) or a later advance continues to the same target, never past it', async () => {
      // A clean run on a twin: the store calls of the recording and month 1, and of month 2; and the state after each month.
      const twin = await newUser();
      store.reset();
      expect((await h.request.post(`${twin}/sandbox/advance`).set(h.auth).send({ months: 1, payments: 'minimum' })).status).to.equal(200);
      const throughMonth1 = store.callsSinceArmed;
      const afterMonth1 = await stateOf(twin);
      store.reset();
      expect((await h.request.post(`${twin}/sandbox/advance`).set(h.auth).send({ months: 2, payments: 'minimum' })).status).to.equal(200);
      const recordAndTwoMonths = store.callsSinceArmed;
      const afterMonth3 = await stateOf(twin);
      // (recording + 2 months) − (recording + 1 month): the calls of one month.
      const month2Calls = recordAndTwoMonths - throughMonth1;
      expect(month2Calls, 'month 2 makes store calls').to.be.greaterThan(3);
      for (let k = 1; k <= month2Calls; k++) {
        const path = await newUser();
        store.failNthCall(throughMonth1 + k);
        const failed = await h.request
          .post(`${path}/sandbox/advance`)
          .set(h.auth)
          .set('Idempotency-Key', `fault-${k}`)
          .send({ months: 3, payments: 'minimum' });
        store.reset();
        expect(failed.status, `call ${k} of month 2 failing: ${JSON.stringify(failed.body)}`).to.equal(503);
        expect(await stateOf(path), `call ${k} of month 2 failing: month 1 kept, nothing of month 2`).to.deep.equal(afterMonth1);
        const retried =
          k % 2 === 1
            ? await h.request
                .post(`${path}/sandbox/advance`)
                .set(h.auth)
                .set('Idempotency-Key', `fault-${k}`)
                .send({ months: 3, payments: 'minimum' })
            : // Any later advance continues the recorded one, with its payments, to its target, and no further.
              await h.request.post(`${path}/sandbox/advance`).set(h.auth).send({ months: 12, payments: 'none' });
        expect(retried.status, JSON.stringify(retried.body)).to.equal(200);
        expect(retried.body.sandbox_date).to.equal(refMonth(TODAY, 3));
        expect(retried.body.months.map((m: Json) => m.date)).to.deep.equal([refMonth(TODAY, 2), refMonth(TODAY, 3)]);
        expect(await stateOf(path), `call ${k} of month 2 failing, then continued`).to.deep.equal(afterMonth3);
      }
    });
  });
});
