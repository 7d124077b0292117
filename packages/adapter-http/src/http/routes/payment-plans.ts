/**
 * The payment-plans feature's endpoints (docs/api/reference.md, docs/decisions/payoff-and-outlook.md): ONE list of `API_ENDPOINTS` (api-endpoints.ts;
 * docs/adding-a-resource.md). Paths, methods and shapes of the spec's endpoints are exactly the spec's.
 */
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import {
  CreatePaymentPlanBody,
  ComparePaymentPlansBody,
  PageQuery,
  PlanPaymentBody,
  PaymentPlanScheduleQuery,
  inContext,
  renderContextOf,
  noChange,
} from '@debtkit/core';
import { type Endpoint, endpoint } from './endpoint.js';
import { scope, USER_ERRORS } from './user-scope.js';
import { paged } from './paged-list.js';
import { CREDIT_OUTLOOK_EXAMPLE } from './credit-outlook-example.js';

export const PAYMENT_PLAN_ENDPOINTS: ReadonlyArray<Endpoint> = [
  endpoint({
    method: 'POST',
    path: '/api/users/:id/payment_plans',
    summary: 'Create a debt payoff plan',
    tag: 'Debt Payoff Plan',
    pathIds: ['id'],
    body: CreatePaymentPlanBody,
    status: 201,
    response: { kind: 'payment_plan' },
    errors: [...USER_ERRORS, 'quota_exceeded', 'conflict'],
    run: (app, i) => app.createPaymentPlan(scope(i), i.body),
  }),
  endpoint({
    method: 'POST',
    path: '/api/users/:id/payment_plans/compare',
    summary: 'Compare every payoff strategy on the same debts and budget (nothing is stored)',
    tag: 'Debt Payoff Plan',
    pathIds: ['id'],
    body: ComparePaymentPlansBody,
    status: 200,
    response: { kind: 'payment_plan_comparison' },
    errors: USER_ERRORS,
    run: (app, i) => noChange(app.comparePaymentPlans(scope(i), i.body)),
  }),
  endpoint({
    method: 'GET',
    path: '/api/users/:id/payment_plans',
    summary: 'List payment plans',
    tag: 'Debt Payoff Plan',
    pathIds: ['id'],
    query: PageQuery,
    status: 200,
    response: { kind: 'payment_plan_list' },
    errors: USER_ERRORS,
    run: (app, i) =>
      pipe(
        app.listPaymentPlans(scope(i), i.query),
        TE.map((page) => inContext(paged('payment_plans')(page), renderContextOf(page) ?? {})),
      ),
  }),
  endpoint({
    method: 'GET',
    path: '/api/users/:id/payment_plans/:payment_plan_id',
    summary: 'Retrieve a payment plan',
    tag: 'Debt Payoff Plan',
    pathIds: ['id', 'payment_plan_id'],
    status: 200,
    response: { kind: 'payment_plan' },
    errors: USER_ERRORS,
    run: (app, i) => app.getPaymentPlan(scope(i), i.ids.payment_plan_id),
  }),
  endpoint({
    method: 'DELETE',
    path: '/api/users/:id/payment_plans/:payment_plan_id',
    summary: 'Delete payment plan',
    tag: 'Debt Payoff Plan',
    pathIds: ['id', 'payment_plan_id'],
    status: 204,
    errors: [...USER_ERRORS, 'conflict'],
    run: (app, i) => app.deletePaymentPlan(scope(i), i.ids.payment_plan_id),
  }),
  endpoint({
    method: 'GET',
    path: '/api/users/:id/payment_plans/:payment_plan_id/schedule',
    summary: "A page of a plan's month-by-month schedule",
    description:
      'At most `limit` months (default 12, at most 120) after month `starting_after` (a month number; default 0, before the first), ascending; ' +
      '`has_more` says whether later months follow. Each month lists every payment of the plan that month. Served in every API version ' +
      '(since 2026-11-26 a plan no longer embeds its schedule; in 2024-07-01 it still does).',
    tag: 'Debt Payoff Plan',
    pathIds: ['id', 'payment_plan_id'],
    query: PaymentPlanScheduleQuery,
    status: 200,
    response: { kind: 'payment_plan_schedule' },
    errors: USER_ERRORS,
    run: (app, i) => app.getPaymentPlanSchedule(scope(i), i.ids.payment_plan_id, i.query),
  }),
  endpoint({
    method: 'GET',
    path: '/api/users/:id/payment_plans/:payment_plan_id/progress',
    summary: 'Progress of a plan: scheduled against paid to date, and a re-forecast',
    tag: 'Debt Payoff Plan',
    pathIds: ['id', 'payment_plan_id'],
    status: 200,
    response: { kind: 'payment_plan_progress' },
    errors: USER_ERRORS,
    run: (app, i) => app.getPlanProgress(scope(i), i.ids.payment_plan_id),
  }),
  endpoint({
    method: 'GET',
    path: '/api/users/:id/payment_plans/:payment_plan_id/credit_outlook',
    summary: "Credit outlook of a plan: the user's six credit factors month by month if the plan is followed",
    description:
      "From the user's linked accounts, assuming on-time payments; not a score. Month 0 is today; month 1 is the first schedule date after today, " +
      'as in the progress forecast (current balances, APRs and minimums), up to payoff or 600 months. 409 when the plan can no longer be forecast.',
    tag: 'Debt Payoff Plan',
    pathIds: ['id', 'payment_plan_id'],
    status: 200,
    response: { kind: 'credit_outlook', example: CREDIT_OUTLOOK_EXAMPLE },
    errors: [...USER_ERRORS, 'conflict'],
    run: (app, i) => app.getCreditOutlook(scope(i), i.ids.payment_plan_id),
  }),
  endpoint({
    method: 'POST',
    path: '/api/users/:id/payment_plans/:payment_plan_id/payments',
    summary: 'Record a payment made under a plan',
    tag: 'Debt Payoff Plan Payments',
    pathIds: ['id', 'payment_plan_id'],
    body: PlanPaymentBody,
    status: 201,
    response: { kind: 'plan_payment' },
    errors: [...USER_ERRORS, 'conflict'],
    run: (app, i) => app.recordPlanPayment(scope(i), i.ids.payment_plan_id, i.body),
  }),
  endpoint({
    method: 'GET',
    path: '/api/users/:id/payment_plans/:payment_plan_id/payments',
    summary: 'List the payments of a plan',
    tag: 'Debt Payoff Plan Payments',
    pathIds: ['id', 'payment_plan_id'],
    query: PageQuery,
    status: 200,
    response: { kind: 'plan_payment_list' },
    errors: USER_ERRORS,
    run: (app, i) => pipe(app.listPlanPayments(scope(i), i.ids.payment_plan_id, i.query), TE.map(paged('payments'))),
  }),
];
