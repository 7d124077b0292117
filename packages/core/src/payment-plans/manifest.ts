/**
 * What the payment-plans feature contributes, declared once (shared/feature-manifest.ts; docs/architecture.md,
 * "One manifest per feature"): the registry lists it in `registry/features.ts`.
 */
import type { FeatureManifest } from '../shared/feature-manifest.js';
import { portToken } from '../shared/store-ports.js';
import type { PaymentPlanRepository } from './payment-plan-repository.js';
import type { PlanPaymentRepository } from './plan-payment-repository.js';
import { paymentPlanUseCases } from './bundle.js';
import { paymentPlanSchedulePaged } from './payment-plan-schedule-paged.js';
/**
 * The store ports the feature owns (key → typed token), apart from the manifest so the registry's port
 * table (registry/store-ports.ts) types the transaction's ports without the use cases that read them.
 */
export const paymentPlansStorePorts = {
  paymentPlans: portToken<PaymentPlanRepository>('PaymentPlanRepository'),
  planPayments: portToken<PlanPaymentRepository>('PlanPaymentRepository'),
} as const;

export const paymentPlansManifest = {
  storePorts: paymentPlansStorePorts,
  useCases: paymentPlanUseCases,
  versionChanges: [paymentPlanSchedulePaged],
} as const satisfies FeatureManifest;
