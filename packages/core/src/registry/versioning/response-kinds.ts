/**
 * The response kinds, each paired ONCE with its codec (docs/adding-a-resource.md): a
 * versioned `/api` answer names its kind, and its codec (for the OpenAPI document and
 * the endpoint's type check) and its version transforms (`VersionChange.transforms`)
 * follow from that name. `ResponseKind` is derived from this table.
 */
import * as t from 'io-ts';
import { Account } from '../../accounts/account.js';
import { PayoffQuote, RepaymentDisclosure } from '../../accounts/account-money.js';
import { BureauStep } from '../../bureau/bureau-flow.machine.js';
import { CreditScore } from '../../credit-scores/credit-score.js';
import { Article, ArticleSummary, LearningModule } from '../../content/content.js';
import { CreditOutlook } from '../../payment-plans/credit-outlook.js';
import { PaymentPlan, PaymentPlanSchedulePage, PlanPayment } from '../../payment-plans/payment-plan.js';
import { PaymentPlanComparison } from '../../payment-plans/payoff-comparison.js';
import { PaymentPlanProgress } from '../../payment-plans/payoff-progress.js';
import { SandboxAdvanceResult } from '../../sandbox/use-cases.js';
import { pagedCodec } from '../../shared/paging.js';
import { Cents, IsoDate, nullable } from '../../shared/primitives.js';
import { User } from '../../users/user.js';
import { EventRedelivery, WebhookDelivery, WebhookEndpoint, WebhookEvent, WebhookReplay } from '../../webhooks/webhook.js';
import { ApiVersionList } from '../../shared/versioning/changelog.js';

/** Each response kind → the codec of its body in the latest version (one per resource or list body). */
export const RESPONSE_CODECS = {
  credit_score: CreditScore,
  credit_score_history: t.type({ credit_scores: t.readonlyArray(CreditScore), has_more: t.boolean }, 'CreditScoreHistory'),
  account: Account,
  account_list: pagedCodec('accounts', Account),
  repayment_disclosure: RepaymentDisclosure,
  payoff_quote: PayoffQuote,
  user: User,
  user_list: pagedCodec('users', User),
  bureau_status: t.type(
    { status: t.keyof({ initial: null, pending: null, authenticated: null }), step: nullable(BureauStep) },
    'BureauStatus',
  ),
  bureau_step: t.type({ step: BureauStep }, 'BureauInvokeResult'),
  learning_modules: t.type({ modules: t.readonlyArray(LearningModule) }, 'LearningModules'),
  payment_plan: PaymentPlan,
  payment_plan_list: pagedCodec('payment_plans', PaymentPlan),
  payment_plan_schedule: PaymentPlanSchedulePage,
  plan_payment: PlanPayment,
  plan_payment_list: pagedCodec('payments', PlanPayment),
  payment_plan_comparison: PaymentPlanComparison,
  payment_plan_progress: PaymentPlanProgress,
  credit_outlook: CreditOutlook,
  debt_calculation: t.type(
    { monthly_payment: Cents, months: t.number, payoff_date: IsoDate, total_interest: Cents, total_paid: Cents },
    'DebtCalculation',
  ),
  article: Article,
  article_list: pagedCodec('articles', ArticleSummary),
  ping: t.type({ payload: t.string }, 'PingResult'),
  event: WebhookEvent,
  event_list: pagedCodec('events', WebhookEvent),
  webhook_endpoint: WebhookEndpoint,
  webhook_endpoint_list: pagedCodec('webhook_endpoints', WebhookEndpoint),
  webhook_delivery_list: pagedCodec('deliveries', WebhookDelivery),
  api_versions: ApiVersionList,
  event_redelivery: EventRedelivery,
  webhook_replay: WebhookReplay,
  sandbox_advance: SandboxAdvanceResult,
} as const satisfies Readonly<Record<string, t.Mixed>>;

declare module '../../shared/versioning/version-change.js' {
  /** The kernel's slot, filled with this table (a version change's `transforms` are checked against it). */
  interface ResponseCodecs extends ResponseCodecTable {}
}
type ResponseCodecTable = typeof RESPONSE_CODECS;

/** The response shapes a version change can transform: the keys of `RESPONSE_CODECS`. */
export const ResponseKind = t.keyof(
  Object.fromEntries(Object.keys(RESPONSE_CODECS).map((kind) => [kind, null])) as { readonly [K in keyof typeof RESPONSE_CODECS]: null },
  'ResponseKind',
);
export type ResponseKind = t.TypeOf<typeof ResponseKind>;

/** The body of a response kind, in the latest version (what its codec describes). */
export type ResponseOf<K extends ResponseKind> = t.TypeOf<(typeof RESPONSE_CODECS)[K]>;
