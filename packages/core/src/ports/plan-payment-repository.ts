import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { DomainError } from '../domain/errors.js';
import type { PlanPaymentRecord } from '../domain/payment-plan.js';
import type { PaymentPlanId, UserId } from '../domain/primitives.js';
import type { Page, PageRequest } from './paging.js';

export type NewPlanPayment = Omit<PlanPaymentRecord, 'id'>;

export interface PlanPaymentRepository {
  create(payment: NewPlanPayment): TE.TaskEither<DomainError, PlanPaymentRecord>;
  list(userId: UserId, planId: PaymentPlanId, page: PageRequest): TE.TaskEither<DomainError, Page<PlanPaymentRecord>>;
  deleteAllForPlan(userId: UserId, planId: PaymentPlanId): TE.TaskEither<DomainError, number>;
  deleteAllForUser(userId: UserId): TE.TaskEither<DomainError, number>;
}
