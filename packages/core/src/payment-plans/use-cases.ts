/** Debt payoff plans and plan payments (docs/decisions/payoff-and-outlook.md). */
import * as TE from 'fp-ts/lib/TaskEither.js';
import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import {
  validationError,
  type ValidationError,
  type NotFound,
  type QuotaExceeded,
  type Unavailable,
  type StoreError,
  type ErrorDetail,
} from '../shared/errors.js';
import { AccountRecord, currentDebtOf } from '../accounts/account.js';
import { MAX_BALANCE, allocatesPayments } from '../accounts/statement-terms.js';
import { allocatedPayment } from '../accounts/payment-allocation.js';
import type { PaymentPlan, PlanPayment } from './payment-plan.js';
import type { IsoDate, PaymentPlanId, Timestamp } from '../shared/primitives.js';
import { startDateProblems, type PayoffDebt, type PayoffPlanResult } from './payoff-plan.js';
import { planSizeProblem } from './plan-size.js';
import { inContext, renderContextOf, type InContext, type Versioning } from '../shared/versioning/version-change.js';
import { planScheduleContext } from './payment-plan-schedule-paged.js';
import type { PaymentPlanSchedulePage, ScheduleMonth } from './payment-plan.js';
import { scheduleThroughPlan } from './payment-plan-repository.js';
import { computationsOf } from './computations.js';
import type { Page } from '../shared/paging.js';
import type { PaymentPlanRecord, PlanPaymentRecord } from './payment-plan.js';
import type { CreatePaymentPlanBody, PlanPaymentBody } from './requests.js';
import type { PageQuery } from '../shared/requests.js';
import {
  ApplicationDeps,
  type Change,
  UserScope,
  checkQuota,
  inUserTransaction,
  mapPage,
  nowStamp,
  orNotFound,
  ownedOrNotFound,
  ownedSome,
  toPageRequest,
  outsideTransaction,
} from '../shared/deps.js';
import { requireUser, todayOf, touchUser } from '../users/user-scope.js';
import { ownerFactsOf } from '../shared/owned-read.js';
import { emitEvent } from '../webhooks/events.use-cases.js';

export const toPlanView = (p: PaymentPlanRecord): PaymentPlan => ({
  id: p.id,
  strategy: p.strategy,
  monthly_payment: p.monthly_payment,
  account_ids: p.account_ids,
  order: p.order,
  custom_order: p.custom_order,
  extra_payments: p.extra_payments,
  start_date: p.start_date,
  months: p.months,
  payoff_date: p.payoff_date,
  total_interest: p.total_interest,
  total_paid: p.total_paid,
  created_at: p.created_at,
  warnings: p.warnings,
});

/** A stored plan as the API shows it, with its schedule for the versions that embed it. */
const toPlanAnswer = (p: PaymentPlanRecord): InContext<PaymentPlan> => inContext(toPlanView(p), planScheduleContext([p]));

export const toPaymentView = (p: PlanPaymentRecord): PlanPayment => ({
  id: p.id,
  payment_plan_id: p.payment_plan_id,
  account_id: p.account_id,
  amount: p.amount,
  date: p.date,
});

/** A plan's `start_date` (default today) checked against today (docs/decisions/payoff-and-outlook.md). */
export const planStartDate = (startDate: IsoDate | undefined, date: IsoDate): E.Either<ValidationError, IsoDate> => {
  const start = startDate ?? date;
  const details = startDateProblems(start, date);
  return details.length > 0 ? E.left(validationError('Invalid start_date', details)) : E.right(start);
};

/** The debts a plan covers: the requested accounts, or every open loan with a balance. */
export const selectDebts = (
  accounts: ReadonlyArray<AccountRecord>,
  requested: ReadonlyArray<number> | undefined,
): E.Either<ValidationError, ReadonlyArray<AccountRecord>> => {
  if (requested === undefined) {
    const open = accounts.filter((a) => a.type === 'loan' && a.status !== 'closed' && a.balance > 0);
    return open.length === 0
      ? E.left(
          validationError('The user has no open loan accounts with a balance to plan', [
            { path: 'account_ids', message: 'no open loan accounts with a balance' },
          ]),
        )
      : E.right(open);
  }
  const byId = new Map(accounts.map((a) => [a.id as number, a]));
  const details: ErrorDetail[] = [];
  const chosen: AccountRecord[] = [];
  requested.forEach((id, i) => {
    const a = byId.get(id);
    if (a === undefined) details.push({ path: `account_ids.${i}`, message: `no account ${id} for this user` });
    else if (a.status === 'closed') details.push({ path: `account_ids.${i}`, message: `account ${id} is closed` });
    else chosen.push(a);
  });
  return details.length > 0 ? E.left(validationError('Invalid account_ids', details)) : E.right(chosen);
};

/** The accounts as the plan's debts, with their statement terms (docs/decisions/payoff-and-outlook.md), as of the plan's start (`today`). */
export const toDebts = (accounts: ReadonlyArray<AccountRecord>, today: IsoDate) => {
  const details: ErrorDetail[] = [];
  const debts = accounts.flatMap((a): PayoffDebt[] => {
    const { apr, minimumPayment, ...debt } = currentDebtOf(a, today);
    if (apr === null) details.push({ path: `accounts.${a.id}`, message: `account ${a.id} has no APR (set user_apr)` });
    if (minimumPayment === null)
      details.push({ path: `accounts.${a.id}`, message: `account ${a.id} has no minimum payment (set user_minimum_payment)` });
    return apr === null || minimumPayment === null ? [] : [{ ...debt, apr, minimumPayment }];
  });
  return details.length > 0
    ? E.left(validationError('Every account in a plan needs an APR and a minimum payment', details))
    : E.right(debts);
};

/**
 * What plan creation and the strategy comparison both start from: the user's
 * debts the body selects, each with an APR and a minimum, and the plan's start
 * date, validated the same way for both.
 */
export const planInputs = (
  deps: Pick<ApplicationDeps, 'accounts' | 'clock' | 'users'>,
  scope: UserScope,
  body: Pick<CreatePaymentPlanBody, 'account_ids' | 'start_date'>,
) =>
  pipe(
    requireUser(deps, scope),
    TE.chainW((user) =>
      pipe(
        deps.accounts.listAll(scope.userId),
        TE.map((accounts) => ({ user, accounts })),
      ),
    ),
    TE.chainEitherKW(({ user, accounts }) =>
      pipe(
        selectDebts(accounts, body.account_ids),
        E.map((chosen) => ({ user, accounts, chosen })),
      ),
    ),
    TE.chainEitherKW(({ user, accounts, chosen }) =>
      pipe(
        E.Do,
        E.apSW('user', E.right(user)),
        // Every account of the user: the comparison's credit utilization counts every card (docs/decisions/payoff-and-outlook.md).
        E.apSW('accounts', E.right(accounts)),
        E.apSW('chosen', E.right(chosen)),
        // "Not in the future" is the user's today (docs/sandbox-over-time.md).
        E.apSW('start', planStartDate(body.start_date, todayOf(deps.clock, user))),
        E.bindW('debts', ({ start }) => toDebts(chosen, start)),
      ),
    ),
  );

/** The widest id a plan can get: its size is measured with it before the store gives it one. */
const WIDEST_ID = Number.MAX_SAFE_INTEGER as PaymentPlanId;

/** A computed plan as the API shows it, before the store gives it an id. */
export const computedPlan = (
  body: CreatePaymentPlanBody,
  chosen: ReadonlyArray<AccountRecord>,
  result: PayoffPlanResult,
  start: IsoDate,
  createdAt: Timestamp,
): Omit<PaymentPlanRecord, 'id' | 'user_id'> => ({
  strategy: body.strategy,
  monthly_payment: body.monthly_payment,
  account_ids: chosen.map((a) => a.id),
  order: result.order,
  custom_order: body.custom_order ?? null,
  extra_payments: body.extra_payments ?? [],
  start_date: start,
  months: result.months,
  payoff_date: result.payoff_date,
  total_interest: result.total_interest,
  total_paid: result.total_paid,
  created_at: createdAt,
  warnings: result.warnings ?? [],
  schedule: result.schedule,
});

/**
 * The plan-size rule (payment-plans/plan-size.ts) on a computed plan, measured as
 * every supported API version renders it.
 */
export const checkPlanSize = (versions: Versioning, plan: Omit<PaymentPlanRecord, 'id' | 'user_id'>): E.Either<ValidationError, void> => {
  const { schedule, ...view } = plan;
  const context = planScheduleContext([{ id: WIDEST_ID, schedule }]);
  return planSizeProblem(
    { id: WIDEST_ID, ...view },
    versions.known.map((version) => (rendered: PaymentPlan) => versions.render('payment_plan', rendered, version, context)),
  );
};

/**
 * One transaction: the accounts it plans are read in it, the plans-per-user
 * quota counted (before the plan is computed, so a user at the quota costs no
 * computation), the plan computed and held to the size rule (payment-plans/plan-size.ts:
 * 400 naming the limit in account-months), the user is bumped (the user's delete
 * and a concurrent creation conflict with it, so the count stays exact), then
 * the plan and its event.
 */
export const createPaymentPlan =
  (deps: Pick<ApplicationDeps, 'clock' | 'unitOfWork' | 'versioning' | 'quotas' | 'computations'>) =>
  (
    scope: UserScope,
    body: CreatePaymentPlanBody,
  ): Change<InContext<PaymentPlan>, ValidationError | NotFound | QuotaExceeded | StoreError> =>
    inUserTransaction(deps, scope, (tx) =>
      pipe(
        planInputs(tx, scope, body),
        TE.chainFirstW(() => checkQuota(deps, 'paymentPlansPerUser', tx.paymentPlans.countForUser(scope.userId))),
        TE.chainW(
          ({ user, chosen, start, debts }) =>
            () =>
              computationsOf(deps)
                .planPayoff({
                  // No month of a plan of accounts owes more than an account may (issue 42).
                  maxBalance: MAX_BALANCE,
                  strategy: body.strategy,
                  monthlyPayment: body.monthly_payment,
                  debts,
                  today: start,
                  customOrder: body.custom_order,
                  extraPayments: body.extra_payments,
                })
                .then(E.map((result) => computedPlan(body, chosen, result, start, nowStamp(deps.clock))))
                .then(E.chainFirst((plan) => checkPlanSize(deps.versioning, plan)))
                .then(E.map((plan) => ({ plan, owner: ownerFactsOf(user) }))),
        ),
        TE.chainFirstW(() => touchUser(tx, scope)),
        TE.chainW(({ plan, owner }) => tx.paymentPlans.create({ user_id: scope.userId, ...plan }, scope.clientId, owner)),
        TE.map(toPlanAnswer),
        TE.chainFirstW((answer) => emitEvent(tx, scope, 'payment_plan.created', 'payment_plan', renderContextOf(answer))(answer)),
      ),
    );

/** The user and the page are one owned read (shared/owned-read.ts). */
export const listPaymentPlans =
  (deps: Pick<ApplicationDeps, 'paymentPlans'>) =>
  (scope: UserScope, query: PageQuery): TE.TaskEither<NotFound | Unavailable, InContext<Page<PaymentPlan>>> =>
    pipe(
      outsideTransaction(deps.paymentPlans.listOwned(scope.clientId, scope.userId, toPageRequest(query))),
      orNotFound('User'),
      TE.map((page) => inContext(mapPage(toPlanView)(page), planScheduleContext(page.items))),
    );

/**
 * The plan of the scope's user, or `not_found` for the user or the plan: one
 * owned read (shared/owned-read.ts), which sees a user or a plan being deleted
 * as missing, exactly as reading the user and then the plan did.
 */
export const requirePlan = (deps: Pick<ApplicationDeps, 'paymentPlans'>, scope: UserScope, planId: PaymentPlanId) =>
  pipe(
    requireOwnedPlan(deps, scope, planId),
    TE.map((found) => found.value),
  );

/** `requirePlan` with what the same read learnt of the user (its clock, docs/sandbox-over-time.md). */
export const requireOwnedPlan = (deps: Pick<ApplicationDeps, 'paymentPlans'>, scope: UserScope, planId: PaymentPlanId) =>
  pipe(deps.paymentPlans.getOwned(scope.clientId, scope.userId, planId), ownedOrNotFound('User'), ownedSome('Payment plan'));

export const getPaymentPlan =
  (deps: Pick<ApplicationDeps, 'paymentPlans' | 'users'>) =>
  (scope: UserScope, planId: PaymentPlanId): TE.TaskEither<NotFound | Unavailable, InContext<PaymentPlan>> =>
    pipe(outsideTransaction(requirePlan(deps, scope, planId)), TE.map(toPlanAnswer));

/** Months a schedule page holds by default, and at most. */
export const DEFAULT_SCHEDULE_PAGE_MONTHS = 12;
export const MAX_SCHEDULE_PAGE_MONTHS = 120;

/**
 * A page of the plan's schedule: at most `limit` months (default 12) after
 * month `starting_after` (default: from the first), ascending, and whether more
 * follow. One owned read of those months alone (`limit + 1` of them, so that
 * `has_more` is exact), not of the whole plan; not found alike for a missing
 * user or plan, or another client's, as the plan's GET.
 */
export const getPaymentPlanSchedule =
  (deps: Pick<ApplicationDeps, 'paymentPlans'>) =>
  (
    scope: UserScope,
    planId: PaymentPlanId,
    query: { readonly limit?: number; readonly starting_after?: number },
  ): TE.TaskEither<NotFound | Unavailable, PaymentPlanSchedulePage> => {
    const after = query.starting_after ?? 0;
    const limit = query.limit ?? DEFAULT_SCHEDULE_PAGE_MONTHS;
    const plans = deps.paymentPlans;
    // A store without the projection (an embedder's, written for core 2.0): the months cut from the whole plan.
    const read =
      plans.getScheduleOwned?.(scope.clientId, scope.userId, planId, after, limit + 1) ??
      scheduleThroughPlan(plans, scope.clientId, scope.userId, planId, after, limit + 1);
    return pipe(
      outsideTransaction(pipe(read, ownedOrNotFound('User'), ownedSome('Payment plan'))),
      TE.map(({ value: months }) => ({ months: months.slice(0, limit), has_more: months.length > limit })),
    );
  };

/**
 * Delete the plan and its recorded payments (docs/api/reference.md) in one transaction with
 * its event. Deleting the plan writes it, so a payment under the plan (which
 * writes the plan too) conflicts with this delete instead of outliving it.
 */
export const deletePaymentPlan =
  (deps: Pick<ApplicationDeps, 'clock' | 'unitOfWork' | 'versioning'>) =>
  (scope: UserScope, planId: PaymentPlanId): TE.TaskEither<NotFound | StoreError, void> =>
    inUserTransaction(deps, scope, (tx) =>
      pipe(
        requirePlan(tx, scope, planId),
        TE.chainFirstW(() => tx.planPayments.deleteAllForPlan(scope.userId, planId)),
        TE.chainFirstW(() => tx.paymentPlans.delete(scope.userId, planId)),
        TE.chainW((plan) => emitEvent(tx, scope, 'payment_plan.deleted', 'payment_plan', planScheduleContext([plan]))(toPlanView(plan))),
      ),
    );

/**
 * Record a payment made under a plan, in one transaction: the plan is read and
 * bumped in one step (its delete conflicts with this; a rejected payment aborts
 * and undoes the bump), the payment stored, the account's balance
 * lowered (not below 0) with its last-payment fields set, and the event
 * appended. All of it commits, or none of it.
 */
export const recordPlanPayment =
  (deps: Pick<ApplicationDeps, 'clock' | 'unitOfWork' | 'versioning'>) =>
  (scope: UserScope, planId: PaymentPlanId, body: PlanPaymentBody): Change<PlanPayment, ValidationError | NotFound | StoreError> =>
    inUserTransaction(deps, scope, (tx) =>
      pipe(
        pipe(tx.paymentPlans.touchOwned(scope.clientId, scope.userId, planId), ownedOrNotFound('User'), ownedSome('Payment plan')),
        // The plan's bump read the user's clock too: "not in the future" is the user's today (docs/sandbox-over-time.md).
        TE.map(({ value: plan, owner }) => {
          const userToday = todayOf(deps.clock, owner);
          return { plan, userToday, date: body.date ?? userToday };
        }),
        TE.chainEitherKW(({ plan, userToday, date }) =>
          body.date !== undefined && body.date > userToday
            ? E.left(validationError('Invalid payment', [{ path: 'date', message: 'must not be in the future' }]))
            : date < plan.start_date
              ? E.left(
                  validationError('Invalid payment', [
                    { path: 'date', message: `must not be before the plan's start_date (${plan.start_date})` },
                  ]),
                )
              : plan.account_ids.includes(body.account_id)
                ? E.right({ userToday, date })
                : E.left(
                    validationError('Invalid payment', [
                      { path: 'account_id', message: `account ${body.account_id} is not part of this plan` },
                    ]),
                  ),
        ),
        TE.chainW(({ userToday, date }) =>
          pipe(
            tx.planPayments.create({
              user_id: scope.userId,
              payment_plan_id: planId,
              account_id: body.account_id,
              amount: body.amount,
              date,
            }),
            TE.chainFirstW(() =>
              pipe(
                tx.accounts.applyPayment(scope.userId, body.account_id, { amount: body.amount, date, updatedOn: userToday }),
                orNotFound('Account'),
                // Segments or accrued interest (docs/decisions/payoff-and-outlook.md): the store left it as it was; allocate it
                // (Regulation Z §1026.53) and write it as a compare-and-set on the version just read.
                TE.chainW((account) =>
                  allocatesPayments(account)
                    ? pipe(
                        tx.accounts.update(
                          scope.userId,
                          account.id,
                          account.version,
                          allocatedPayment(account, body.amount, date, userToday),
                        ),
                        orNotFound('Account'),
                      )
                    : TE.right(account),
                ),
              ),
            ),
          ),
        ),
        TE.map(toPaymentView),
        TE.chainFirstW(emitEvent(tx, scope, 'plan_payment.created', 'plan_payment')),
      ),
    );

export const listPlanPayments =
  (deps: Pick<ApplicationDeps, 'paymentPlans' | 'planPayments' | 'users'>) =>
  (scope: UserScope, planId: PaymentPlanId, query: PageQuery): TE.TaskEither<NotFound | Unavailable, Page<PlanPayment>> =>
    pipe(
      outsideTransaction(requirePlan(deps, scope, planId)),
      TE.chainW(() => outsideTransaction(deps.planPayments.list(scope.userId, planId, toPageRequest(query)))),
      TE.map(mapPage(toPaymentView)),
    );
