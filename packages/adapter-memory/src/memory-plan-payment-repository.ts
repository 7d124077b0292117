/**
 * `PlanPaymentRepository` in memory: payments are kept per (user, plan), the
 * pair every query names.
 */
import { injectable } from 'inversify';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { DomainError, NewPlanPayment, Page, PageRequest, PaymentPlanId, PlanPaymentRecord, PlanPaymentRepository, UserId } from '@debtkit/core';
import { IdSequence, lazyRight, pageOf } from './memory-collection.js';

const copyPayment = (p: PlanPaymentRecord): PlanPaymentRecord => ({
  id: p.id,
  payment_plan_id: p.payment_plan_id,
  account_id: p.account_id,
  amount: p.amount,
  date: p.date,
  user_id: p.user_id,
});

@injectable()
export class MemoryPlanPaymentRepository implements PlanPaymentRepository {
  /** user → plan → payments in ascending id order. */
  private readonly byUser = new Map<UserId, Map<PaymentPlanId, PlanPaymentRecord[]>>();
  private readonly ids = new IdSequence();

  create(payment: NewPlanPayment): TE.TaskEither<DomainError, PlanPaymentRecord> {
    return lazyRight(() => {
      const record = copyPayment({ ...payment, id: this.ids.next() });
      let plans = this.byUser.get(record.user_id);
      if (plans === undefined) {
        plans = new Map();
        this.byUser.set(record.user_id, plans);
      }
      const payments = plans.get(record.payment_plan_id);
      if (payments === undefined) plans.set(record.payment_plan_id, [record]);
      else payments.push(record);
      return copyPayment(record);
    });
  }

  list(userId: UserId, planId: PaymentPlanId, page: PageRequest): TE.TaskEither<DomainError, Page<PlanPaymentRecord>> {
    return lazyRight(() => pageOf(this.byUser.get(userId)?.get(planId) ?? [], page, copyPayment));
  }

  deleteAllForPlan(userId: UserId, planId: PaymentPlanId): TE.TaskEither<DomainError, number> {
    return lazyRight(() => {
      const plans = this.byUser.get(userId);
      const count = plans?.get(planId)?.length ?? 0;
      plans?.delete(planId);
      return count;
    });
  }

  deleteAllForUser(userId: UserId): TE.TaskEither<DomainError, number> {
    return lazyRight(() => {
      let count = 0;
      for (const payments of this.byUser.get(userId)?.values() ?? []) count += payments.length;
      this.byUser.delete(userId);
      return count;
    });
  }
}
