/**
 * How a team that builds on debtkit tests its own service: debtkit's real use
 * cases on the memory store, a fixed clock, data created through the use cases
 * (request bodies decoded with core's codecs, as the HTTP layer would), and
 * assertions on both the answer and what is left in the store.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type * as t from 'io-ts';
import {
  type Application,
  type Cents,
  type Clock,
  CreateUserBody,
  CURRENT_VERSION,
  type DomainError,
  type IsoDate,
  LinkAccountBody,
  type UserScope,
  createApplication,
  decode,
  planPayoff,
  timestampOf,
  noChange,
  unavailable,
} from '@debtkit/core';
import { SandboxCreditBureau, createMemoryStore } from '@debtkit/adapter-memory';
import { DebtCoach } from '../testing-with-memory/debt-coach.js';

const TODAY = '2026-03-15' as IsoDate;
const clock: Clock = { now: () => new Date(`${TODAY}T09:30:00.000Z`) };

/** A body as a client would send it, decoded with the use case's own codec (a typo fails here, not later). */
const body = <A>(codec: t.Type<A, unknown, unknown>, raw: unknown): A => {
  const decoded = decode(codec, codec.name)(raw);
  if (E.isLeft(decoded)) throw new Error(`test data does not decode: ${decoded.left.message}`);
  return decoded.right;
};

const run = async <A>(task: TE.TaskEither<DomainError, A>): Promise<A> => {
  const result = await task();
  if (E.isLeft(result)) throw new Error(`${result.left._tag}: ${result.left.message}`);
  return result.right;
};

const loan = (name: string, balance: number, apr: number, minimumPayment: number) =>
  body(LinkAccountBody, {
    name,
    type: 'loan',
    subtype: 'personal_loan',
    balance,
    institution_apr: apr,
    institution_minimum_payment: minimumPayment,
  });

interface World {
  readonly app: Application;
  readonly scope: UserScope;
  readonly otherClientId: UserScope['clientId'];
}

/** A fresh store with two clients; the first has one user, without accounts yet. */
const world = async (): Promise<World> => {
  const store = createMemoryStore();
  const app = createApplication({
    ...store,
    clock,
    bureau: new SandboxCreditBureau(),
    secrets: { secret: () => randomBytes(32).toString('base64url') },
  });
  const newClient = (name: string) =>
    run(store.clients.create({ name, environment: 'sandbox', api_version: CURRENT_VERSION, created_at: timestampOf(clock.now()) }));
  const client = await newClient('Budget app');
  const other = await newClient('Another app');
  const user = await run(app.createUser(client.id, body(CreateUserBody, { last_name: 'Okafor', first_name: 'Ada' })));
  return { app, scope: { clientId: client.id, userId: user.id }, otherClientId: other.id };
};

const plansOf = async ({ app, scope }: World) => (await run(app.listPaymentPlans(scope, {}))).items;

describe('example: testing with the memory store (DebtCoach)', () => {
  it('recommends avalanche when the costly debt is the big one, and keeps only that plan', async () => {
    const w = await world();
    const small = await run(w.app.linkAccount(w.scope, loan('Store card', 100_000, 5, 5_000)));
    const big = await run(w.app.linkAccount(w.scope, loan('Credit line', 500_000, 24, 15_000)));

    const advice = await run(new DebtCoach(w.app).recommend(w.scope, 40_000 as Cents));

    expect(advice.strategy).to.equal('avalanche');
    expect(advice.plan.order).to.deep.equal([big.id, small.id]);
    expect(advice.interestSaved).to.be.greaterThan(0);
    expect((await plansOf(w)).map((p) => [p.id, p.strategy])).to.deep.equal([[advice.plan.id, 'avalanche']]);
  });

  it("reports the saving as the difference between the two strategies' plans", async () => {
    const w = await world();
    const small = await run(w.app.linkAccount(w.scope, loan('Store card', 100_000, 5, 5_000)));
    const big = await run(w.app.linkAccount(w.scope, loan('Credit line', 500_000, 24, 15_000)));
    // The same plans computed by core directly, as an independent expectation.
    const debts = [small, big].map((a) => ({
      id: a.id,
      balance: a.balance,
      apr: a.effective_apr!,
      minimumPayment: a.effective_minimum_payment!,
    }));
    const planned = (strategy: 'avalanche' | 'snowball') => {
      const plan = planPayoff({ strategy, monthlyPayment: 40_000 as Cents, debts, today: TODAY });
      if (E.isLeft(plan)) throw new Error(plan.left.message);
      return plan.right;
    };

    const advice = await run(new DebtCoach(w.app).recommend(w.scope, 40_000 as Cents));

    expect(advice.interestSaved).to.equal(planned('snowball').total_interest - planned('avalanche').total_interest);
    expect(advice.monthsSaved).to.equal(planned('snowball').months - planned('avalanche').months);
  });

  it('calls a tie for avalanche when both strategies cost the same (a single debt)', async () => {
    const w = await world();
    await run(w.app.linkAccount(w.scope, loan('Car loan', 800_000, 6.9, 25_000)));

    const advice = await run(new DebtCoach(w.app).recommend(w.scope, 30_000 as Cents));

    expect([advice.strategy, advice.interestSaved, advice.monthsSaved]).to.deep.equal(['avalanche', 0, 0]);
    expect(await plansOf(w)).to.have.length(1);
  });

  it('passes on a budget below the minimums as a validation error, leaving no plan behind', async () => {
    const w = await world();
    await run(w.app.linkAccount(w.scope, loan('Credit line', 500_000, 24, 15_000)));

    const result = await new DebtCoach(w.app).recommend(w.scope, 10_000 as Cents)();

    expect(E.isLeft(result) && result.left._tag).to.equal('validation_error');
    expect(await plansOf(w)).to.deep.equal([]);
  });

  it("cannot reach another client's user: not_found, as for a missing user", async () => {
    const w = await world();
    await run(w.app.linkAccount(w.scope, loan('Credit line', 500_000, 24, 15_000)));

    const result = await new DebtCoach(w.app).recommend({ clientId: w.otherClientId, userId: w.scope.userId }, 40_000 as Cents)();

    expect(E.isLeft(result) && result.left._tag).to.equal('not_found');
    expect(await plansOf(w)).to.deep.equal([]);
  });

  it('deletes the first plan when the second cannot be made (the store failed in between)', async () => {
    const w = await world();
    await run(w.app.linkAccount(w.scope, loan('Credit line', 500_000, 24, 15_000)));
    // The coach needs two use cases only, so a failure is one property away.
    const flaky = {
      ...w.app,
      createPaymentPlan: (...args: Parameters<Application['createPaymentPlan']>) =>
        args[1].strategy === 'snowball' ? noChange(TE.left(unavailable('store unreachable'))) : w.app.createPaymentPlan(...args),
    };

    const result = await new DebtCoach(flaky).recommend(w.scope, 40_000 as Cents)();

    expect(E.isLeft(result) && result.left._tag).to.equal('unavailable');
    expect(await plansOf(w)).to.deep.equal([]);
  });
});
