/**
 * # Testing your service against the memory store
 *
 * A downstream service built on debtkit's use cases, and tested the way its
 * team would test it: the real use cases from `createApplication`, on
 * `createMemoryStore()` instead of MongoDB, with a fixed clock. No HTTP, no
 * mocks of debtkit: the test (examples/test/testing-with-memory.test.ts) seeds
 * a client, a user and accounts through the same use cases, then asserts what
 * the coach recommends and what it leaves in the store.
 *
 * The service: `DebtCoach.recommend` asks for an avalanche and a snowball plan
 * for the same monthly budget, keeps the one that costs less interest (fewer
 * months on a tie, avalanche on a full tie), and deletes the other, so the
 * user ends up with exactly one plan.
 *
 * Run the test: `npm test` (or, without a build,
 * `node --conditions=debtkit-source --import tsx node_modules/.bin/mocha --config .mocharc.package.cjs examples/test/testing-with-memory.test.ts`).
 */
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { Application, Cents, DomainError, PaymentPlan, Strategy, UserScope } from '@debtkit/core';

/** The use cases the coach needs: a narrow slice of `Application`, easy to provide in a test. */
export type CoachUseCases = Pick<Application, 'createPaymentPlan' | 'deletePaymentPlan'>;

export interface Recommendation {
  readonly strategy: Strategy;
  /** The plan kept for the user. */
  readonly plan: PaymentPlan;
  /** Interest the kept plan saves over the other strategy's plan (0 on a tie). */
  readonly interestSaved: Cents;
  readonly monthsSaved: number;
}

/** Which of two plans costs the user less: less interest, then fewer months, then the first (avalanche). */
const cheaper = (a: PaymentPlan, b: PaymentPlan): [kept: PaymentPlan, dropped: PaymentPlan] =>
  b.total_interest < a.total_interest || (b.total_interest === a.total_interest && b.months < a.months) ? [b, a] : [a, b];

export class DebtCoach {
  constructor(private readonly useCases: CoachUseCases) {}

  /** Recommend a strategy for `monthlyPayment` over the user's open loans, keeping only that plan. */
  recommend(scope: UserScope, monthlyPayment: Cents): TE.TaskEither<DomainError, Recommendation> {
    const plan = (strategy: Strategy) => this.useCases.createPaymentPlan(scope, { strategy, monthly_payment: monthlyPayment });
    const discard = (p: PaymentPlan) => this.useCases.deletePaymentPlan(scope, p.id);
    return pipe(
      plan('avalanche'),
      TE.chainW((avalanche) =>
        pipe(
          plan('snowball'),
          // Never leave a half-finished comparison behind: drop the first plan, keep the error.
          TE.orElseFirstW(() => discard(avalanche)),
          TE.map((snowball) => cheaper(avalanche, snowball)),
        ),
      ),
      TE.chainW(([kept, dropped]) =>
        pipe(
          discard(dropped),
          TE.map(() => ({
            strategy: kept.strategy,
            plan: kept,
            interestSaved: (dropped.total_interest - kept.total_interest) as Cents,
            monthsSaved: dropped.months - kept.months,
          })),
        ),
      ),
    );
  }
}
