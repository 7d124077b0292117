/**
 * What the payment-plans feature contributes, declared once (shared/feature-manifest.ts; docs/architecture.md,
 * "One manifest per feature"): the registry lists it in `registry/features.ts`.
 */
import type { FeatureManifest, FeatureResponses } from '../shared/feature-manifest.js';
import { portToken } from '../shared/store-ports.js';
import type { PaymentPlanRepository } from './payment-plan-repository.js';
import type { PlanPaymentRepository } from './plan-payment-repository.js';
import { paymentPlanUseCases } from './bundle.js';
import { paymentPlanSchedulePaged } from './payment-plan-schedule-paged.js';
import { pagedCodec } from '../shared/paging.js';
import { CreditOutlook } from './credit-outlook.js';
import { PaymentPlan, PaymentPlanSchedulePage, PlanPayment } from './payment-plan.js';
import { PaymentPlanComparison } from './payoff-comparison.js';
import { PaymentPlanProgress } from './payoff-progress.js';
import type { UserDataRowsOf } from '../shared/user-data.js';
/**
 * The store ports the feature owns (key → typed token), apart from the manifest so the registry's port
 * table (registry/store-ports.ts) types the transaction's ports without the use cases that read them.
 */
export const storePorts = {
  paymentPlans: portToken<PaymentPlanRepository>('PaymentPlanRepository'),
  planPayments: portToken<PlanPaymentRepository>('PlanPaymentRepository'),
} as const;

/**
 * What the user delete does with each of the feature's store ports (docs/decisions/tenancy.md#erasure):
 * the method deleting a user's records, or why they stay; rows of `USER_DATA` (registry/user-data.ts).
 */
export const userData = {
  planPayments: 'deleteAllForUser',
  paymentPlans: 'deleteAllForUser',
} as const satisfies UserDataRowsOf<typeof storePorts>;

/**
 * The response kinds the feature answers with, each kind → the codec of its body in the latest version
 * (docs/decisions/versioning.md): merged into `RESPONSE_CODECS` (registry/versioning/response-kinds.ts).
 */
export const responses = {
  payment_plan: PaymentPlan,
  payment_plan_list: pagedCodec('payment_plans', PaymentPlan),
  payment_plan_schedule: PaymentPlanSchedulePage,
  plan_payment: PlanPayment,
  plan_payment_list: pagedCodec('payments', PlanPayment),
  payment_plan_comparison: PaymentPlanComparison,
  payment_plan_progress: PaymentPlanProgress,
  credit_outlook: CreditOutlook,
} as const satisfies FeatureResponses;

export const manifest = {
  storePorts,
  useCases: paymentPlanUseCases,
  versionChanges: [paymentPlanSchedulePaged],
} as const satisfies FeatureManifest;
