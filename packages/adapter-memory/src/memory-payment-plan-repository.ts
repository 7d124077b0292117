/**
 * `PaymentPlanRepository` in memory: plans are kept per owning user.
 */
import * as E from 'fp-ts/lib/Either.js';
import { inject, injectable } from 'inversify';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type {
  ClientId,
  StoreError,
  NewPaymentPlan,
  OwnedRead,
  Page,
  PageRequest,
  PaymentPlanId,
  PaymentPlanRecord,
  PaymentPlanRepository,
  ScheduleMonth,
  UserId,
  UserRepository,
} from '@debtkit/core';
import { scheduleThroughPlan } from '@debtkit/core';
import { MEMORY_SESSION, lazyEither, lazyRight, pageOf, readOwned } from './memory-collection.js';
import type { MemorySession } from './memory-database.js';
import { MemoryUserRepository } from './memory-user-repository.js';

/**
 * A plan as stored: a deep copy of what was given, frozen. A plan never changes
 * once created, so reads hand the stored record out as it is (as accounts and
 * credit scores are): a plan of 12,000 account-months is not copied again on
 * every read, and no caller can change the store through it.
 */
const storedPlan = (p: PaymentPlanRecord): PaymentPlanRecord =>
  Object.freeze({
    ...p,
    account_ids: Object.freeze([...p.account_ids]),
    order: Object.freeze([...p.order]),
    custom_order: p.custom_order === null ? null : Object.freeze([...p.custom_order]),
    extra_payments: Object.freeze(p.extra_payments.map((x) => Object.freeze({ ...x }))),
    schedule: Object.freeze(
      p.schedule.map((m) =>
        Object.freeze({ month: m.month, date: m.date, payments: Object.freeze(m.payments.map((x) => Object.freeze({ ...x }))) }),
      ),
    ),
  }) as PaymentPlanRecord;

/** Reads hand out the frozen stored record itself. */
const asStored = (p: PaymentPlanRecord): PaymentPlanRecord => p;

@injectable()
export class MemoryPaymentPlanRepository implements PaymentPlanRepository {
  /** user → plan id → plan. */
  private readonly plans;
  private readonly ids;
  /** Whose owner check the owned reads apply: the users of the same session. */
  private readonly users: UserRepository;

  constructor(@inject(MEMORY_SESSION) private readonly s: MemorySession) {
    this.plans = s.db.table<UserId, PaymentPlanId, PaymentPlanRecord>('paymentPlans');
    this.ids = s.db.ids('paymentPlans');
    this.users = new MemoryUserRepository(s);
  }

  create(plan: NewPaymentPlan): TE.TaskEither<StoreError, PaymentPlanRecord> {
    return lazyEither(() => {
      const record = storedPlan({ ...plan, id: this.ids.next() });
      const done = this.plans.set(this.s, record.user_id, record.id, record);
      return E.isLeft(done) ? done : E.right(record);
    });
  }

  get(userId: UserId, planId: PaymentPlanId): TE.TaskEither<StoreError, O.Option<PaymentPlanRecord>> {
    return lazyRight(() => {
      const found = this.plans.get(this.s, userId, planId);
      return found === undefined ? O.none : O.some(found);
    });
  }

  list(userId: UserId, page: PageRequest): TE.TaskEither<StoreError, Page<PaymentPlanRecord>> {
    return lazyRight(() => pageOf(this.plans.values(this.s, userId), page, asStored));
  }

  getOwned(clientId: ClientId, userId: UserId, planId: PaymentPlanId): TE.TaskEither<StoreError, OwnedRead<O.Option<PaymentPlanRecord>>> {
    return readOwned(this.users, clientId, userId, () => this.get(userId, planId));
  }

  /** The kept plan's months after `after`, at most `count` of them (the memory store hands records out without copying the rest). */
  getScheduleOwned(
    clientId: ClientId,
    userId: UserId,
    planId: PaymentPlanId,
    after: number,
    count: number,
  ): TE.TaskEither<StoreError, OwnedRead<O.Option<ReadonlyArray<ScheduleMonth>>>> {
    return scheduleThroughPlan(this, clientId, userId, planId, after, count);
  }

  listOwned(clientId: ClientId, userId: UserId, page: PageRequest): TE.TaskEither<StoreError, OwnedRead<Page<PaymentPlanRecord>>> {
    return readOwned(this.users, clientId, userId, () => this.list(userId, page));
  }

  touch(userId: UserId, planId: PaymentPlanId): TE.TaskEither<StoreError, boolean> {
    return lazyEither(() => {
      const found = this.plans.get(this.s, userId, planId);
      if (found === undefined) return E.right(false);
      const done = this.plans.set(this.s, userId, planId, found);
      return E.isLeft(done) ? done : E.right(true);
    });
  }

  touchOwned(clientId: ClientId, userId: UserId, planId: PaymentPlanId): TE.TaskEither<StoreError, OwnedRead<O.Option<PaymentPlanRecord>>> {
    return pipe(
      this.getOwned(clientId, userId, planId),
      TE.chainFirst((owned) => (O.isSome(owned) && O.isSome(owned.value) ? this.touch(userId, planId) : TE.right(false))),
    );
  }

  delete(userId: UserId, planId: PaymentPlanId): TE.TaskEither<StoreError, boolean> {
    return lazyEither(() => this.plans.delete(this.s, userId, planId));
  }

  deleteAllForUser(userId: UserId): TE.TaskEither<StoreError, number> {
    return lazyEither(() => this.plans.deleteAll(this.s, userId));
  }

  countForUser(userId: UserId): TE.TaskEither<StoreError, number> {
    return lazyRight(() => this.plans.count(this.s, userId));
  }
}
