/**
 * `PlanPaymentRepository` in memory: payments are kept per (user, plan), the
 * pair every query names.
 */
import * as E from 'fp-ts/lib/Either.js';
import { inject, injectable } from 'inversify';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type {
  StoreError,
  Id,
  NewPlanPayment,
  Page,
  PageRequest,
  PaymentPlanId,
  PlanPaymentRecord,
  PlanPaymentRepository,
  UserId,
} from '@debtkit/core';
import { MEMORY_SESSION, lazyEither, lazyRight, pageOf } from './memory-collection.js';
import type { MemorySession } from './memory-database.js';

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
  /** user → payment id → payment (a user's payments are few; a plan's are found by filter). */
  private readonly payments;
  private readonly ids;

  constructor(@inject(MEMORY_SESSION) private readonly s: MemorySession) {
    this.payments = s.db.table<UserId, Id, PlanPaymentRecord>('planPayments');
    this.ids = s.db.ids('planPayments');
  }

  create(payment: NewPlanPayment): TE.TaskEither<StoreError, PlanPaymentRecord> {
    return lazyEither(() => {
      const record = copyPayment({ ...payment, id: this.ids.next() });
      const done = this.payments.set(this.s, record.user_id, record.id, record);
      return E.isLeft(done) ? done : E.right(copyPayment(record));
    });
  }

  list(userId: UserId, planId: PaymentPlanId, page: PageRequest): TE.TaskEither<StoreError, Page<PlanPaymentRecord>> {
    return lazyRight(() => pageOf(this.payments.values(this.s, userId), page, copyPayment, (p) => p.payment_plan_id === planId));
  }

  deleteAllForPlan(userId: UserId, planId: PaymentPlanId): TE.TaskEither<StoreError, number> {
    return lazyEither(() => {
      let count = 0;
      for (const p of [...this.payments.values(this.s, userId)]) {
        if (p.payment_plan_id !== planId) continue;
        const done = this.payments.delete(this.s, userId, p.id);
        if (E.isLeft(done)) return done;
        count += 1;
      }
      return E.right(count);
    });
  }

  deleteAllForUser(userId: UserId): TE.TaskEither<StoreError, number> {
    return lazyEither(() => this.payments.deleteAll(this.s, userId));
  }
}
