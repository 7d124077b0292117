/**
 * What the payment-plans feature gives the stores' tests (`@debtkit/core/testing`, docs/adding-a-resource.md):
 * its contract suites and object mothers, and its row of contract suites (`paymentPlansContracts`), which
 * `runStoreContracts` runs on every store. One line in registry/feature-testing.ts lists this file.
 */
import type { FeatureContracts } from '../testing/contract-harness.js';
import type { storePorts } from './manifest.js';
import { paymentPlanRepositoryContract } from './payment-plan-repository.contract.js';
import { planPaymentRepositoryContract } from './plan-payment-repository.contract.js';
export * from './record-mothers.js';
export { paymentPlanRepositoryContract } from './payment-plan-repository.contract.js';
export { planPaymentRepositoryContract } from './plan-payment-repository.contract.js';

export const paymentPlansContracts = {
  ports: { paymentPlans: paymentPlanRepositoryContract, planPayments: planPaymentRepositoryContract },
} as const satisfies FeatureContracts<typeof storePorts>;
