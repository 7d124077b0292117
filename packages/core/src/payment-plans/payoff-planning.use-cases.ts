/**
 * Payoff planning beyond one plan at a time (docs/decisions/payoff-and-outlook.md): compare every
 * strategy on the same inputs, and follow a stored plan's progress. Both only
 * read; nothing is stored.
 */
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { type ValidationError, type NotFound, type Unavailable, type StoreError } from '../shared/errors.js';
import { currentDebtOf } from '../accounts/account.js';
import { MAX_BALANCE } from '../accounts/statement-terms.js';
import type { PaymentPlanComparison } from './payoff-comparison.js';
import { computationsOf } from './computations.js';
import { planProgress, type PaymentPlanProgress } from './payoff-progress.js';
import type { Cents, PaymentPlanId } from '../shared/primitives.js';
import type { PageRequest } from '../shared/paging.js';
import type { ComparePaymentPlansBody } from './requests.js';
import { ApplicationDeps, UserScope, outsideTransaction } from '../shared/deps.js';
import { todayOf } from '../users/user-scope.js';
import { planInputs, requireOwnedPlan } from './use-cases.js';

/**
 * `POST …/payment_plans/compare`: the plan body minus `strategy`, run through
 * every strategy with the same validation as plan creation (docs/decisions/payoff-and-outlook.md).
 */
export const comparePaymentPlans =
  (deps: Pick<ApplicationDeps, 'accounts' | 'clock' | 'users' | 'computations'>) =>
  (scope: UserScope, body: ComparePaymentPlansBody): TE.TaskEither<ValidationError | NotFound | Unavailable, PaymentPlanComparison> =>
    pipe(
      outsideTransaction(planInputs(deps, scope, body)),
      TE.chainW(
        ({ start, debts, accounts }) =>
          () =>
            computationsOf(deps).comparePayoffStrategies(
              {
                // No month of a projection of accounts owes more than an account may (issue 42).
                maxBalance: MAX_BALANCE,
                monthlyPayment: body.monthly_payment,
                debts,
                today: start,
                customOrder: body.custom_order,
                extraPayments: body.extra_payments,
              },
              accounts,
            ),
      ),
    );

const PAYMENTS_PAGE = 100;

/** The sum of every payment recorded under a plan, page by page (the port lists; it does not sum). */
const sumPlanPayments = (
  deps: Pick<ApplicationDeps, 'planPayments'>,
  scope: UserScope,
  planId: PaymentPlanId,
): TE.TaskEither<StoreError, Cents> => {
  const go = (page: PageRequest, total: number): TE.TaskEither<StoreError, Cents> =>
    pipe(
      deps.planPayments.list(scope.userId, planId, page),
      TE.chainW((p) => {
        const sum = p.items.reduce((acc, x) => acc + x.amount, total);
        const last = p.items[p.items.length - 1];
        return p.hasMore && last !== undefined ? go({ limit: PAYMENTS_PAGE, startingAfter: last.id }, sum) : TE.right(sum as Cents);
      }),
    );
  return go({ limit: PAYMENTS_PAGE }, 0);
};

/**
 * `GET …/payment_plans/{payment_plan_id}/progress` (docs/decisions/payoff-and-outlook.md): scheduled
 * against paid to date, and a re-forecast from the accounts' current balances.
 */
export const getPlanProgress =
  (deps: Pick<ApplicationDeps, 'accounts' | 'clock' | 'paymentPlans' | 'planPayments' | 'users'>) =>
  (scope: UserScope, planId: PaymentPlanId): TE.TaskEither<NotFound | Unavailable, PaymentPlanProgress> =>
    pipe(
      outsideTransaction(requireOwnedPlan(deps, scope, planId)),
      TE.map(({ value: plan, owner }) => ({ plan, owner })),
      TE.bindW('paid', () => outsideTransaction(sumPlanPayments(deps, scope, planId))),
      TE.bindW('accounts', () => outsideTransaction(deps.accounts.listAll(scope.userId))),
      TE.map(({ plan, owner, paid, accounts }) =>
        planProgress({
          plan,
          paidToDate: paid,
          accounts: accounts.map((a) => currentDebtOf(a, todayOf(deps.clock, owner))),
          today: todayOf(deps.clock, owner),
        }),
      ),
    );
