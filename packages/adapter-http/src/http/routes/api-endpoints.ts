/**
 * Every resource endpoint of the API (docs/api/reference.md). Paths, methods and
 * shapes of the spec's endpoints are exactly the spec's.
 */
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import {
  AccountListQuery,
  ArticleListQuery,
  ConsentBody,
  CreateUserBody,
  CreatePaymentPlanBody,
  ComparePaymentPlansBody,
  CreditScoreHistoryQuery,
  DebtCalculatorBody,
  IdentityBody,
  InvokeBureauBody,
  LearningModulesQuery,
  LinkAccountBody,
  OtpBody,
  PageQuery,
  PatchAccountBody,
  PayoffQuoteQuery,
  PatchUserBody,
  PlanPaymentBody,
  SandboxAdvanceBody,
  PaymentPlanScheduleQuery,
  apiVersionList,
  inContext,
  renderContextOf,
  versioning,
  noChange,
} from '@debtkit/core';
import { Endpoint, EndpointInput, endpoint } from './endpoint.js';
import { paged } from './paged-list.js';
import { WEBHOOK_API_ENDPOINTS } from './webhook-endpoints.js';
import { CREDIT_OUTLOOK_EXAMPLE } from './credit-outlook-example.js';

/** The user's scope; the authenticated client's pinned version goes with it, so events need no second read of the client (docs/performance.md). */
const scope = (input: EndpointInput<unknown, unknown, 'id'>) => ({ clientId: input.client.id, userId: input.ids.id });

/** `{ <items>: [...], has_more }`, the envelope of every paged list (docs/decisions/api-conventions.md). */

const USER_ERRORS = ['not_found', 'validation_error'] as const;

export const API_ENDPOINTS: ReadonlyArray<Endpoint> = [
  // Users (docs/api/reference.md)
  endpoint({
    method: 'POST',
    path: '/api/users',
    summary: 'Create a user',
    tag: 'Users',
    pathIds: [],
    body: CreateUserBody,
    status: 201,
    response: { kind: 'user' },
    errors: ['validation_error', 'conflict'],
    run: (app, i) => app.createUser(i.client.id, i.body),
  }),
  endpoint({
    method: 'GET',
    path: '/api/users',
    summary: 'List users',
    tag: 'Users',
    pathIds: [],
    query: PageQuery,
    status: 200,
    response: { kind: 'user_list' },
    errors: ['validation_error'],
    run: (app, i) => pipe(app.listUsers(i.client.id, i.query), TE.map(paged('users'))),
  }),
  endpoint({
    method: 'GET',
    path: '/api/users/:id',
    summary: 'Retrieve a user',
    tag: 'Users',
    pathIds: ['id'],
    status: 200,
    response: { kind: 'user' },
    errors: USER_ERRORS,
    run: (app, i) => app.getUser(scope(i)),
  }),
  endpoint({
    method: 'PATCH',
    path: '/api/users/:id',
    summary: 'Update a user',
    tag: 'Users',
    pathIds: ['id'],
    body: PatchUserBody,
    status: 200,
    response: { kind: 'user' },
    errors: [...USER_ERRORS, 'conflict'],
    run: (app, i) => app.updateUser(scope(i), i.body),
  }),
  endpoint({
    method: 'DELETE',
    path: '/api/users/:id',
    summary: 'Delete a user and everything the user owns',
    tag: 'Users',
    pathIds: ['id'],
    status: 204,
    errors: [...USER_ERRORS, 'conflict'],
    run: (app, i) => app.deleteUser(scope(i)),
  }),

  // Accounts (docs/api/reference.md)
  endpoint({
    method: 'POST',
    path: '/api/users/:id/accounts',
    summary: 'Link an account',
    tag: 'Accounts',
    pathIds: ['id'],
    body: LinkAccountBody,
    status: 201,
    response: { kind: 'account' },
    errors: [...USER_ERRORS, 'quota_exceeded', 'conflict'],
    run: (app, i) => app.linkAccount(scope(i), i.body),
  }),
  endpoint({
    method: 'GET',
    path: '/api/users/:id/accounts',
    summary: 'List accounts',
    tag: 'Accounts',
    pathIds: ['id'],
    query: AccountListQuery,
    status: 200,
    response: { kind: 'account_list' },
    errors: USER_ERRORS,
    run: (app, i) => pipe(app.listAccounts(scope(i), i.query), TE.map(paged('accounts'))),
  }),
  endpoint({
    method: 'GET',
    path: '/api/users/:id/accounts/:account_id',
    summary: 'Retrieve account',
    tag: 'Accounts',
    pathIds: ['id', 'account_id'],
    status: 200,
    response: { kind: 'account' },
    errors: USER_ERRORS,
    run: (app, i) => app.getAccount(scope(i), i.ids.account_id),
  }),
  endpoint({
    method: 'PATCH',
    path: '/api/users/:id/accounts/:account_id',
    summary: 'Update the user-editable fields or the status of an account',
    tag: 'Accounts',
    pathIds: ['id', 'account_id'],
    body: PatchAccountBody,
    status: 200,
    response: { kind: 'account' },
    errors: [...USER_ERRORS, 'conflict'],
    run: (app, i) => app.updateAccount(scope(i), i.ids.account_id, i.body),
  }),
  endpoint({
    method: 'GET',
    path: '/api/users/:id/accounts/:account_id/repayment_disclosure',
    summary: "A card's Minimum Payment Warning, as its statement discloses it (Regulation Z Appendix M1)",
    tag: 'Accounts',
    description:
      'The minimum payment repayment estimate (months; years as the statement rounds them), its total cost, and the payment that repays the ' +
      'balance in 36 months with its total cost and savings, computed as Regulation Z Appendix M1 says (equal months of 365/12 days, no grace ' +
      "period, the minimum to the lowest rate first, a deferred-interest balance at 0% only if the minimums repay it in time) as of the user's " +
      'today. Amounts are cents rounded to the dollar. `three_year` is null when the rounded estimate is 3 years or less; a minimum that never ' +
      'repays answers `never_pays_off: true` and `minimum_payments_only: null`. Cards only (`credit_card_loan`, `medical_loan`): 409 naming ' +
      '`subtype` otherwise, and 409 naming the missing field when the account has no rate or no minimum can be derived.',
    pathIds: ['id', 'account_id'],
    status: 200,
    response: { kind: 'repayment_disclosure' },
    errors: [...USER_ERRORS, 'conflict'],
    run: (app, i) => app.getRepaymentDisclosure(scope(i), i.ids.account_id),
  }),
  endpoint({
    method: 'GET',
    path: '/api/users/:id/accounts/:account_id/payoff_quote',
    summary: 'What paying the account off in full on a date costs: balance, interest due, per diem',
    tag: 'Accounts',
    description:
      "`date` (`YYYY-MM-DD`, default the user's today; from today to 30 days after it, else 400) is the day the quote is good through. " +
      '`interest_due` = the accrued interest plus the interest from `last_payment_date` (else one month before `next_payment_due_date`) to ' +
      '`good_through`, per segment at APR/365 a day (compounded daily for `daily_compound`); `per_diem` is one more day of it; `payoff_amount` = ' +
      'balance + `interest_due`, plus a deferred-interest charge once its promotion has ended with a balance. `trailing_interest_note` is true ' +
      'for cards, which may post interest after a payoff. 409 naming `last_payment_date` and `next_payment_due_date` when the account has ' +
      'neither, `apr` when it has no rate, `type` when it is not a debt.',
    pathIds: ['id', 'account_id'],
    query: PayoffQuoteQuery,
    status: 200,
    response: { kind: 'payoff_quote' },
    errors: [...USER_ERRORS, 'conflict'],
    run: (app, i) => app.getPayoffQuote(scope(i), i.ids.account_id, i.query),
  }),

  // Credit scores (docs/api/reference.md, docs/decisions/payoff-and-outlook.md)
  endpoint({
    method: 'GET',
    path: '/api/users/:id/credit_scores',
    summary: 'Retrieve credit score factors',
    tag: 'Credit Scores',
    pathIds: ['id'],
    status: 200,
    response: { kind: 'credit_score' },
    errors: USER_ERRORS,
    run: (app, i) => app.getLatestCreditScore(scope(i)),
  }),
  endpoint({
    method: 'GET',
    path: '/api/users/:id/credit_scores/history',
    summary: 'Credit score history, newest first',
    tag: 'Credit Scores',
    pathIds: ['id'],
    description:
      'Ends early by size (`has_more: true`) rather than pass 1 MiB; `starting_after` the last id received gives the older scores.',
    query: CreditScoreHistoryQuery,
    status: 200,
    response: { kind: 'credit_score_history' },
    errors: USER_ERRORS,
    run: (app, i) =>
      pipe(
        app.getCreditScoreHistory(scope(i), i.query),
        TE.map((credit_scores) => ({ credit_scores, has_more: false })),
      ),
  }),

  // Bureau authentication (docs/api/reference.md)
  endpoint({
    method: 'GET',
    path: '/api/users/:id/bureau/auth',
    summary: 'Bureau authentication status',
    tag: 'Bureau',
    pathIds: ['id'],
    status: 200,
    response: { kind: 'bureau_status' },
    errors: USER_ERRORS,
    run: (app, i) => app.getBureauStatus(scope(i)),
  }),
  endpoint({
    method: 'POST',
    path: '/api/users/:id/bureau/auth/invoke',
    summary: 'Start bureau authentication',
    tag: 'Bureau',
    pathIds: ['id'],
    body: InvokeBureauBody,
    status: 200,
    response: { kind: 'bureau_step' },
    errors: [...USER_ERRORS, 'bureau_error', 'conflict'],
    run: (app, i) => app.invokeBureau(scope(i), i.body),
  }),
  endpoint({
    method: 'POST',
    path: '/api/users/:id/bureau/auth/consent',
    summary: 'Give consent to the bureau',
    tag: 'Bureau',
    pathIds: ['id'],
    body: ConsentBody,
    status: 200,
    response: { kind: 'bureau_status' },
    errors: [...USER_ERRORS, 'conflict'],
    run: (app, i) => app.consentBureau(scope(i)),
  }),
  endpoint({
    method: 'POST',
    path: '/api/users/:id/bureau/auth/validate_otp',
    summary: 'Validate the one-time code',
    tag: 'Bureau',
    pathIds: ['id'],
    body: OtpBody,
    status: 200,
    response: { kind: 'bureau_status' },
    errors: [...USER_ERRORS, 'conflict'],
    run: (app, i) => app.validateBureauOtp(scope(i), i.body),
  }),
  endpoint({
    method: 'POST',
    path: '/api/users/:id/bureau/auth/identity',
    summary: 'Answer the identity questions',
    tag: 'Bureau',
    pathIds: ['id'],
    body: IdentityBody,
    status: 200,
    response: { kind: 'bureau_status' },
    errors: [...USER_ERRORS, 'conflict', 'bureau_error'],
    run: (app, i) => app.submitBureauIdentity(scope(i), i.body),
  }),
  endpoint({
    method: 'POST',
    path: '/api/users/:id/bureau/auth/abort',
    summary: 'Abort bureau authentication',
    tag: 'Bureau',
    pathIds: ['id'],
    status: 200,
    response: { kind: 'bureau_status' },
    errors: [...USER_ERRORS, 'conflict'],
    run: (app, i) => app.abortBureau(scope(i)),
  }),

  // Debt payoff plans and payments (docs/api/reference.md, docs/decisions/payoff-and-outlook.md)
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

  // Debt calculator (docs/decisions/payoff-and-outlook.md)
  endpoint({
    method: 'POST',
    path: '/api/debt_calculator',
    summary: 'Months to pay off a debt, or the payment to pay it off in given months',
    tag: 'Debt Calculator',
    pathIds: [],
    body: DebtCalculatorBody,
    status: 200,
    response: { kind: 'debt_calculation' },
    errors: ['validation_error'],
    run: (app, i) => noChange(app.calculateDebt(i.body)),
  }),

  // Learning modules and articles (docs/api/reference.md)
  endpoint({
    method: 'GET',
    path: '/api/learning_modules',
    summary: 'Get learning modules',
    tag: 'Learning Modules',
    pathIds: [],
    query: LearningModulesQuery,
    status: 200,
    response: { kind: 'learning_modules' },
    errors: ['validation_error'],
    run: (app, i) =>
      pipe(
        app.listLearningModules(i.query.category),
        TE.map((modules) => ({ modules })),
      ),
  }),
  endpoint({
    method: 'GET',
    path: '/api/articles',
    summary: 'List articles',
    tag: 'Articles',
    pathIds: [],
    query: ArticleListQuery,
    status: 200,
    response: { kind: 'article_list' },
    errors: ['validation_error'],
    run: (app, i) => pipe(app.listArticles(i.query), TE.map(paged('articles'))),
  }),
  endpoint({
    method: 'GET',
    path: '/api/articles/:article_id',
    summary: 'Retrieve an article',
    tag: 'Articles',
    pathIds: ['article_id'],
    status: 200,
    response: { kind: 'article' },
    errors: ['validation_error', 'not_found'],
    run: (app, i) => app.getArticle(i.ids.article_id),
  }),

  // The sandbox over time (docs/sandbox-over-time.md): 404 in production
  endpoint({
    method: 'POST',
    path: '/api/users/:id/sandbox/advance',
    summary: "Advance a sandbox user's clock month by month (sandbox only)",
    description:
      'Records the target date on the user, then applies each month in its own transaction: interest on every open loan (APR / 12, rounded half up ' +
      'to the cent), the payments (`minimum`, `none`, or the schedule month of `payment_plan_id`, recorded as plan payments), a payments_history ' +
      'code, and a new credit score from the sandbox bureau. 1 to 12 months a call. A request that failed midway keeps the months it applied; ' +
      'its retry, or any later advance, continues to the same target and no further. 409 when an open loan with a balance has no APR or minimum. ' +
      'In production: 404.',
    tag: 'Sandbox',
    pathIds: ['id'],
    body: SandboxAdvanceBody,
    status: 200,
    response: { kind: 'sandbox_advance' },
    errors: [...USER_ERRORS, 'conflict', 'bureau_error'],
    run: (app, i) => app.advanceSandbox(scope(i), i.body),
  }),

  // API versions (docs/decisions/versioning.md)
  endpoint({
    method: 'GET',
    path: '/api/versions',
    summary: 'The API versions, newest first, with their changes (the changelog)',
    tag: 'Versions',
    pathIds: [],
    description:
      'Every version, newest first, with its release date and the description of each backward-incompatible change it made; `latest` is the ' +
      "version new clients are pinned to, `pinned` the calling client's. docs/api/changelog.md is generated from the same list.",
    status: 200,
    response: { kind: 'api_versions' },
    errors: ['validation_error'],
    run: (_app, i) => TE.right(apiVersionList(versioning, i.client.api_version)),
  }),

  // Events and webhook endpoints (docs/decisions/webhooks.md)
  ...WEBHOOK_API_ENDPOINTS,
];
