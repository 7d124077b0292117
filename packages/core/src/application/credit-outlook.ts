/**
 * The credit outlook of a stored plan (DESIGN 7.12): only reads; nothing is
 * stored.
 */
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { DomainError } from '../domain/errors.js';
import { creditOutlook, type CreditOutlook } from '../domain/credit-outlook.js';
import type { PaymentPlanId } from '../domain/primitives.js';
import { ApplicationDeps, UserScope, today } from './deps.js';
import { requirePlan } from './payment-plans.js';

/**
 * `GET …/payment_plans/{payment_plan_id}/credit_outlook`: the plan's
 * re-forecast from the current balances (as `progress.forecast`), projected
 * onto the user's six credit factors month by month. `not_found` for a user or
 * plan that is missing or another client's; `conflict` when the plan can no
 * longer be forecast from its accounts as they are now.
 */
export const getCreditOutlook =
  (deps: Pick<ApplicationDeps, 'accounts' | 'clock' | 'paymentPlans'>) =>
  (scope: UserScope, planId: PaymentPlanId): TE.TaskEither<DomainError, CreditOutlook> =>
    pipe(
      requirePlan(deps, scope, planId),
      TE.bindTo('plan'),
      TE.bind('accounts', () => deps.accounts.listAll(scope.userId)),
      TE.chainEitherK(({ plan, accounts }) => creditOutlook({ plan, accounts, today: today(deps.clock) })),
    );
