/**
 * The credit outlook of a stored plan (docs/decisions/payoff-and-outlook.md): only reads; nothing is
 * stored.
 */
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { type NotFound, type Conflict, type Unavailable } from '../shared/errors.js';
import type { CreditOutlook } from './credit-outlook.js';
import type { ForecastPlan } from './payoff-progress.js';
import { computationsOf } from './computations.js';
import type { PaymentPlanId } from '../shared/primitives.js';
import { ApplicationDeps, UserScope, outsideTransaction } from '../shared/deps.js';
import { todayOf } from '../users/user-scope.js';
import { requireOwnedPlan } from './use-cases.js';

/**
 * `GET …/payment_plans/{payment_plan_id}/credit_outlook`: the plan's
 * re-forecast from the current balances (as `progress.forecast`), projected
 * onto the user's six credit factors month by month. `not_found` for a user or
 * plan that is missing or another client's; `conflict` when the plan can no
 * longer be forecast from its accounts as they are now.
 */
export const getCreditOutlook =
  (deps: Pick<ApplicationDeps, 'accounts' | 'clock' | 'paymentPlans' | 'computations'>) =>
  (scope: UserScope, planId: PaymentPlanId): TE.TaskEither<NotFound | Conflict | Unavailable, CreditOutlook> =>
    pipe(
      outsideTransaction(requireOwnedPlan(deps, scope, planId)),
      TE.map(({ value: plan, owner }) => ({ plan, owner })),
      TE.bindW('accounts', () => outsideTransaction(deps.accounts.listAll(scope.userId))),
      TE.chainW(
        ({ plan, owner, accounts }) =>
          () =>
            computationsOf(deps).creditOutlook({ plan: forecastPlanOf(plan), accounts, today: todayOf(deps.clock, owner) }),
      ),
    );

/** The fields of a stored plan its re-forecast reads (not its schedule, which can be large: it is not sent to a worker for nothing). */
const forecastPlanOf = (plan: ForecastPlan): ForecastPlan => ({
  strategy: plan.strategy,
  monthly_payment: plan.monthly_payment,
  account_ids: plan.account_ids,
  custom_order: plan.custom_order,
  extra_payments: plan.extra_payments,
  start_date: plan.start_date,
});
