/**
 * The memory store's classes of the payment-plans feature's store ports (core's `payment-plans/manifest.ts`), one
 * row of `MEMORY_STORE_CLASSES` (memory-store.ts; docs/adding-a-resource.md).
 */
import type { StorePortClasses } from '@debtkit/core';
import { MemoryPaymentPlanRepository } from './memory-payment-plan-repository.js';
import { MemoryPlanPaymentRepository } from './memory-plan-payment-repository.js';

export const paymentPlansMemoryClasses = {
  paymentPlans: MemoryPaymentPlanRepository,
  planPayments: MemoryPlanPaymentRepository,
} as const satisfies Partial<StorePortClasses>;
