import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { StoreError } from '../shared/errors.js';
import type { PlanPaymentRecord } from './payment-plan.js';
import type { PaymentPlanId, UserId } from '../shared/primitives.js';
import type { Page, PageRequest } from '../shared/paging.js';

export type NewPlanPayment = Omit<PlanPaymentRecord, 'id'>;

export interface PlanPaymentRepository {
  create(payment: NewPlanPayment): TE.TaskEither<StoreError, PlanPaymentRecord>;
  list(userId: UserId, planId: PaymentPlanId, page: PageRequest): TE.TaskEither<StoreError, Page<PlanPaymentRecord>>;
  deleteAllForPlan(userId: UserId, planId: PaymentPlanId): TE.TaskEither<StoreError, number>;
  deleteAllForUser(userId: UserId): TE.TaskEither<StoreError, number>;
}
