/**
 * The use cases composed with the memory store and the sandbox bureau, as an
 * embedding service would compose them: no HTTP.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { Application, ClientId, CreditScore, DomainError, IsoDate, UserScope, createApplication, idOf } from '@debtkit/core';
import { aSandboxToken, readableTokenHasher, sequentialSecrets } from '@debtkit/core/testing';
import { SandboxCreditBureau, createMemoryStore, seedDemo } from '../src/index.js';

const fixedClock = (iso: string) => ({ now: () => new Date(iso) });

const run = async <A>(te: TE.TaskEither<DomainError, A>): Promise<A> => {
  const r = await te();
  if (E.isLeft(r)) throw new Error(`expected Right, got ${JSON.stringify(r.left)}`);
  return r.right;
};
const fail = async <A>(te: TE.TaskEither<DomainError, A>): Promise<DomainError> => {
  const r = await te();
  if (E.isRight(r)) throw new Error(`expected Left, got ${JSON.stringify(r.right)}`);
  return r.left;
};

describe('application (memory store + sandbox bureau, no HTTP)', () => {
  let app: Application;
  let store: ReturnType<typeof createMemoryStore>;
  let clientId: ClientId;
  const clock = fixedClock('2026-03-15T12:00:00.000Z');

  beforeEach(async () => {
    store = createMemoryStore();
    app = createApplication({ ...store, clock, bureau: new SandboxCreditBureau(), secrets: sequentialSecrets() });
    const client = await run(
      store.clients.create({
        name: 'test',
        environment: 'sandbox',
        api_version: '2024-07-01',
        created_at: '2026-03-15T12:00:00.000Z' as never,
      }),
    );
    clientId = client.id;
  });

  const newUser = async (last_name = 'Smith'): Promise<UserScope> => {
    const user = await run(app.createUser(clientId, { last_name }));
    return { clientId, userId: user.id };
  };

  const linkLoan = (scope: UserScope, balance: number, apr: number, minimum: number, name = 'Loan') =>
    run(
      app.linkAccount(scope, {
        name,
        type: 'loan',
        subtype: 'personal_loan',
        balance: balance as never,
        institution_apr: apr,
        institution_minimum_payment: minimum as never,
        opened_at: '2020-01-01' as IsoDate,
        payments_history: ['1', '1', '2'],
      }),
    );

  it('goes from an empty store to a credit score, two plans, a payment and a deleted plan', async () => {
    const scope = await newUser('Garcia');
    await linkLoan(scope, 1_000_000, 20, 25_000, 'Big loan');
    const small = await linkLoan(scope, 200_000, 10, 5_000, 'Small loan');
    await run(
      app.linkAccount(scope, {
        name: 'Card',
        type: 'loan',
        subtype: 'credit_card_loan',
        balance: 50_000 as never,
        limit: 200_000 as never,
        institution_apr: 25,
        institution_minimum_payment: 2_500 as never,
      }),
    );

    expect((await fail(app.getLatestCreditScore(scope)))._tag).to.equal('not_found');
    expect(await run(app.invokeBureau(scope, { device_ip: '203.0.113.7' }))).to.deep.equal({ step: 'consent' });
    expect(await run(app.invokeBureau(scope, { device_ip: '203.0.113.7' }))).to.deep.equal({ step: 'consent' });
    expect(await run(app.consentBureau(scope))).to.deep.equal({ status: 'pending', step: 'validate_otp' });
    const wrong = await fail(app.validateBureauOtp(scope, { code: '000000' }));
    expect(wrong._tag).to.equal('validation_error');
    expect(await run(app.validateBureauOtp(scope, { code: '123456' }))).to.deep.equal({ status: 'pending', step: 'identity' });
    expect(await run(app.submitBureauIdentity(scope, { ssn_last4: '1234', date_of_birth: '1990-01-01' as IsoDate }))).to.deep.equal({
      status: 'authenticated',
      step: null,
    });

    const score: CreditScore = await run(app.getLatestCreditScore(scope));
    expect(score.date).to.equal('2026-03-15');
    expect(score.last_name).to.equal('Garcia');
    expect(score.increase).to.equal(0);
    expect(score.score).to.be.within(300, 850);
    expect(score.credit_mix.amount).to.equal(2);
    expect(score.credit_mix.factor).to.equal('Poor');
    expect(score.credit_utilization?.amount).to.equal(25);

    // A second authentication skips consent and stores a second score.
    expect(await run(app.invokeBureau(scope, { device_ip: '2001:db8::1' }))).to.deep.equal({ step: 'validate_otp' });
    await run(app.validateBureauOtp(scope, { code: '123456' }));
    await run(app.submitBureauIdentity(scope, { ssn_last4: '1234', date_of_birth: '1990-01-01' as IsoDate }));
    const history = await run(app.getCreditScoreHistory(scope));
    expect(history.map((s) => s.id)).to.have.length(2);
    expect(history[0]!.id).to.be.greaterThan(history[1]!.id);

    const avalanche = await run(app.createPaymentPlan(scope, { strategy: 'avalanche', monthly_payment: 60_000 as never }));
    const snowball = await run(app.createPaymentPlan(scope, { strategy: 'snowball', monthly_payment: 60_000 as never }));
    expect(avalanche.account_ids).to.have.length(3);
    expect(avalanche.total_interest).to.be.at.most(snowball.total_interest);
    expect(snowball.order[0]).to.equal(avalanche.account_ids[2]); // the card has the smallest balance
    const schedule = await run(app.getPaymentPlanSchedule(scope, avalanche.id, { limit: 120 }));
    expect(schedule.has_more).to.equal(false);
    const paid = schedule.months.flatMap((m) => m.payments).reduce((s, p) => s + p.payment, 0);
    expect(paid).to.equal(avalanche.total_paid);
    // A store written for core 2.0 has no getScheduleOwned: the use case cuts the same pages from the whole plan.
    const withoutProjection = new Proxy(store.paymentPlans, {
      get: (target, key, receiver) => (key === 'getScheduleOwned' ? undefined : Reflect.get(target, key, receiver)),
    });
    expect(withoutProjection.getScheduleOwned).to.equal(undefined);
    const older = createApplication({
      ...store,
      paymentPlans: withoutProjection,
      clock,
      bureau: new SandboxCreditBureau(),
      secrets: sequentialSecrets(),
    });
    for (const query of [{ limit: 120 }, { limit: 2 }, { limit: 3, starting_after: 1 }, { limit: 5, starting_after: 999 }]) {
      expect(await run(older.getPaymentPlanSchedule(scope, avalanche.id, query)), JSON.stringify(query)).to.deep.equal(
        await run(app.getPaymentPlanSchedule(scope, avalanche.id, query)),
      );
    }

    const payment = await run(app.recordPlanPayment(scope, avalanche.id, { account_id: small.id, amount: 12_345 as never }));
    expect(payment).to.deep.include({ payment_plan_id: avalanche.id, account_id: small.id, amount: 12_345, date: '2026-03-15' });
    const after = await run(app.getAccount(scope, small.id));
    expect(after.balance).to.equal(200_000 - 12_345);
    expect(after.last_payment_amount).to.equal(12_345);
    expect(after.last_payment_date).to.equal('2026-03-15');
    expect((await run(app.listPlanPayments(scope, avalanche.id, {}))).items).to.have.length(1);

    await run(app.deletePaymentPlan(scope, avalanche.id));
    expect((await fail(app.getPaymentPlan(scope, avalanche.id)))._tag).to.equal('not_found');
    expect((await fail(app.deletePaymentPlan(scope, avalanche.id)))._tag).to.equal('not_found');
    expect((await run(app.listPaymentPlans(scope, {}))).items.map((p) => p.id)).to.deep.equal([snowball.id]);
  });

  it('answers bureau_error for the Nomatch user and leaves the flow initial', async () => {
    const scope = await newUser('NoMatch');
    expect((await fail(app.invokeBureau(scope, { device_ip: '203.0.113.7' })))._tag).to.equal('bureau_error');
    expect(await run(app.getBureauStatus(scope))).to.deep.equal({ status: 'initial', step: null });
  });

  it('refuses to abort a Locked user with validation_error, state unchanged', async () => {
    const scope = await newUser('Locked');
    await run(app.invokeBureau(scope, { device_ip: '203.0.113.7' }));
    expect((await fail(app.abortBureau(scope)))._tag).to.equal('validation_error');
    expect(await run(app.getBureauStatus(scope))).to.deep.equal({ status: 'pending', step: 'consent' });
  });

  it('aborts any flow back to initial and forgets consent', async () => {
    const scope = await newUser();
    await run(app.invokeBureau(scope, { device_ip: '203.0.113.7' }));
    await run(app.consentBureau(scope));
    expect(await run(app.abortBureau(scope))).to.deep.equal({ status: 'initial', step: null });
    expect(await run(app.abortBureau(scope))).to.deep.equal({ status: 'initial', step: null });
    expect(await run(app.invokeBureau(scope, { device_ip: '203.0.113.7' }))).to.deep.equal({ step: 'consent' });
  });

  it('rolls the flow back after the fifth wrong code', async () => {
    const scope = await newUser();
    await run(app.invokeBureau(scope, { device_ip: '203.0.113.7' }));
    await run(app.consentBureau(scope));
    for (let i = 1; i <= 4; i++) {
      expect((await fail(app.validateBureauOtp(scope, { code: '111111' })))._tag).to.equal('validation_error');
      expect(await run(app.getBureauStatus(scope))).to.deep.equal({ status: 'pending', step: 'validate_otp' });
    }
    const fifth = await fail(app.validateBureauOtp(scope, { code: '111111' }));
    expect(fifth.message).to.match(/reset/);
    expect(await run(app.getBureauStatus(scope))).to.deep.equal({ status: 'initial', step: null });
  });

  it('answers conflict to a step that is not awaited', async () => {
    const scope = await newUser();
    expect((await fail(app.consentBureau(scope)))._tag).to.equal('conflict');
    await run(app.invokeBureau(scope, { device_ip: '203.0.113.7' }));
    const e = await fail(app.validateBureauOtp(scope, { code: '123456' }));
    expect(e._tag).to.equal('conflict');
    expect(e.message).to.contain('consent');
  });

  it('lets exactly one of two concurrent transitions from the same state win', async () => {
    const scope = await newUser();
    await run(app.invokeBureau(scope, { device_ip: '203.0.113.7' }));
    const results = await Promise.all([app.consentBureau(scope)(), app.consentBureau(scope)()]);
    expect(results.filter(E.isRight)).to.have.length(1);
    const lost = results.find(E.isLeft);
    expect(lost !== undefined && E.isLeft(lost) ? lost.left._tag : null).to.equal('conflict');
  });

  it("treats another client's user as missing", async () => {
    const scope = await newUser();
    const other = await run(
      store.clients.create({
        name: 'other',
        environment: 'sandbox',
        api_version: '2024-07-01',
        created_at: '2026-03-15T12:00:00.000Z' as never,
      }),
    );
    const foreign: UserScope = { clientId: other.id, userId: scope.userId };
    expect((await fail(app.getUser(foreign)))._tag).to.equal('not_found');
    expect((await fail(app.listAccounts(foreign, {})))._tag).to.equal('not_found');
    expect((await fail(app.deleteUser(foreign)))._tag).to.equal('not_found');
    expect((await run(app.getUser(scope))).id).to.equal(scope.userId);
  });

  it('closes an account for good and validates plan inputs', async () => {
    const scope = await newUser();
    const loan = await linkLoan(scope, 100_000, 12, 3_000);
    const noApr = await run(app.linkAccount(scope, { name: 'Mystery', type: 'loan', subtype: 'other_loan', balance: 5_000 as never }));
    const missing = await fail(app.createPaymentPlan(scope, { strategy: 'avalanche', monthly_payment: 10_000 as never }));
    expect(missing._tag).to.equal('validation_error');
    expect(JSON.stringify(missing)).to.contain(`account ${noApr.id} has no APR`);
    await run(app.updateAccount(scope, noApr.id, { user_apr: 9, user_minimum_payment: 1_000 as never }));
    const low = await fail(app.createPaymentPlan(scope, { strategy: 'avalanche', monthly_payment: 100 as never }));
    expect(low._tag).to.equal('validation_error');

    const closed = await run(app.updateAccount(scope, loan.id, { status: 'closed' }));
    expect(closed.status).to.equal('closed');
    expect(closed.closed_at).to.equal('2026-03-15');
    expect((await fail(app.updateAccount(scope, loan.id, { status: 'active' })))._tag).to.equal('conflict');
    const unknown = await fail(
      app.createPaymentPlan(scope, { strategy: 'snowball', monthly_payment: 10_000 as never, account_ids: [idOf('account', 999)] }),
    );
    expect(unknown._tag).to.equal('validation_error');
  });

  it('deletes a user and everything the user owns', async () => {
    const scope = await newUser();
    await linkLoan(scope, 100_000, 12, 3_000);
    await run(app.invokeBureau(scope, { device_ip: '203.0.113.7' }));
    await run(app.consentBureau(scope));
    await run(app.validateBureauOtp(scope, { code: '123456' }));
    await run(app.submitBureauIdentity(scope, { ssn_last4: '1234', date_of_birth: '1990-01-01' as IsoDate }));
    await run(app.createPaymentPlan(scope, { strategy: 'avalanche', monthly_payment: 10_000 as never }));
    await run(app.deleteUser(scope));
    expect((await fail(app.getUser(scope)))._tag).to.equal('not_found');
    expect(await run(store.accounts.listAll(scope.userId))).to.deep.equal([]);
    expect(await run(store.creditScores.history(scope.userId))).to.deep.equal([]);
    expect((await run(store.paymentPlans.list(scope.userId, { limit: 10 }))).items).to.deep.equal([]);
  });

  it('seeds the sandbox demo: user 1 with accounts and a score', async () => {
    const fresh = createMemoryStore();
    const demo = await run(seedDemo({ ...fresh, clock, tokenHasher: readableTokenHasher }, { token: aSandboxToken(1) }));
    expect(demo.user.id).to.equal(1);
    expect(demo.accounts.length).to.be.greaterThanOrEqual(6);
    const demoApp = createApplication({ ...fresh, clock, bureau: new SandboxCreditBureau(), secrets: sequentialSecrets() });
    const demoScope = { clientId: demo.client.id, userId: demo.user.id };
    const score = await run(demoApp.getLatestCreditScore(demoScope));
    expect(score.score).to.be.within(300, 850);
    expect(await run(demoApp.getBureauStatus(demoScope))).to.deep.equal({ status: 'authenticated', step: null });
    expect(await run(demoApp.invokeBureau(demoScope, { device_ip: '203.0.113.7' }))).to.deep.equal({ step: 'validate_otp' });
    const plan = await run(demoApp.createPaymentPlan(demoScope, { strategy: 'avalanche', monthly_payment: 300_000 as never }));
    expect(plan.account_ids).to.have.length(6);
  });
});
