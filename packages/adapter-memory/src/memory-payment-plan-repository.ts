/**
 * `PaymentPlanRepository` in memory: plans are kept per owning user.
 */
import { inject, injectable } from 'inversify';
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { STORE_PORTS } from '@debtkit/core';
import type {
  ClientId,
  DomainError,
  NewPaymentPlan,
  OwnedRead,
  Page,
  PageRequest,
  PaymentPlanId,
  PaymentPlanRecord,
  PaymentPlanRepository,
  UserId,
  UserRepository,
} from '@debtkit/core';
import { IdSequence, lazyRight, pageOf, readOwned } from './memory-collection.js';

const copyPlan = (p: PaymentPlanRecord): PaymentPlanRecord => ({
  ...p,
  account_ids: [...p.account_ids],
  order: [...p.order],
  custom_order: p.custom_order === null ? null : [...p.custom_order],
  extra_payments: p.extra_payments.map((x) => ({ ...x })),
  schedule: p.schedule.map((m) => ({ month: m.month, date: m.date, payments: m.payments.map((x) => ({ ...x })) })),
});

@injectable()
export class MemoryPaymentPlanRepository implements PaymentPlanRepository {
  /** user → (plan id → plan), each inner map in ascending id order. */
  private readonly byUser = new Map<UserId, Map<PaymentPlanId, PaymentPlanRecord>>();
  private readonly ids = new IdSequence();
  /** Plans being deleted: invisible to `get` and `list` until `delete` removes them. */
  private readonly deleting = new Set<PaymentPlanId>();

  /** `users`: whose owner check the owned reads apply (the store's own user repository). */
  constructor(@inject(STORE_PORTS.users) private readonly users: UserRepository) {}

  create(plan: NewPaymentPlan): TE.TaskEither<DomainError, PaymentPlanRecord> {
    return lazyRight(() => {
      const record = copyPlan({ ...plan, id: this.ids.next() });
      let plans = this.byUser.get(record.user_id);
      if (plans === undefined) {
        plans = new Map();
        this.byUser.set(record.user_id, plans);
      }
      plans.set(record.id, record);
      return copyPlan(record);
    });
  }

  get(userId: UserId, planId: PaymentPlanId): TE.TaskEither<DomainError, O.Option<PaymentPlanRecord>> {
    return lazyRight(() => {
      const found = this.byUser.get(userId)?.get(planId);
      return found === undefined || this.deleting.has(planId) ? O.none : O.some(copyPlan(found));
    });
  }

  list(userId: UserId, page: PageRequest): TE.TaskEither<DomainError, Page<PaymentPlanRecord>> {
    return lazyRight(() => pageOf(this.byUser.get(userId)?.values() ?? [], page, copyPlan, (p) => !this.deleting.has(p.id)));
  }

  getOwned(clientId: ClientId, userId: UserId, planId: PaymentPlanId): TE.TaskEither<DomainError, OwnedRead<O.Option<PaymentPlanRecord>>> {
    return readOwned(this.users, clientId, userId, () => this.get(userId, planId));
  }

  listOwned(clientId: ClientId, userId: UserId, page: PageRequest): TE.TaskEither<DomainError, OwnedRead<Page<PaymentPlanRecord>>> {
    return readOwned(this.users, clientId, userId, () => this.list(userId, page));
  }

  beginDelete(userId: UserId, planId: PaymentPlanId): TE.TaskEither<DomainError, O.Option<PaymentPlanRecord>> {
    return lazyRight(() => {
      const found = this.byUser.get(userId)?.get(planId);
      if (found === undefined) return O.none;
      this.deleting.add(planId);
      return O.some(copyPlan(found));
    });
  }

  delete(userId: UserId, planId: PaymentPlanId): TE.TaskEither<DomainError, boolean> {
    return lazyRight(() => {
      const deleted = this.byUser.get(userId)?.delete(planId) ?? false;
      if (deleted) this.deleting.delete(planId);
      return deleted;
    });
  }

  deleteAllForUser(userId: UserId): TE.TaskEither<DomainError, number> {
    return lazyRight(() => {
      const plans = this.byUser.get(userId);
      for (const id of plans?.keys() ?? []) this.deleting.delete(id);
      const count = plans?.size ?? 0;
      this.byUser.delete(userId);
      return count;
    });
  }
}
