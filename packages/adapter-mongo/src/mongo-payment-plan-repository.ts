/**
 * `PaymentPlanRepository` on MongoDB: collection `payment_plans`, `_id` = the
 * plan id, the schedule stored inside the plan document; every filter names the
 * owning user as well (DESIGN 5).
 */
import * as t from 'io-ts';
import { inject, injectable } from 'inversify';
import type * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import {
  PaymentPlanRecord,
  type ClientId,
  type DomainError,
  type NewPaymentPlan,
  type OwnedRead,
  type Page,
  type PageRequest,
  type PaymentPlanId,
  type PaymentPlanRepository,
  type UserId,
} from '@debtkit/core';
import { COLLECTIONS } from './mongo-collections.js';
import { type MongoContext, MONGO_CONTEXT } from './mongo-context.js';
import { documentCodec } from './mongo-document-codec.js';
import { MongoRecordCollection, NOT_DELETING } from './mongo-record-collection.js';
import { visibleUser } from './mongo-user-repository.js';

/**
 * Plans stored before DESIGN 7.10 have no `custom_order`, `extra_payments` or
 * `start_date`: they read as what they were (no custom order, no extra
 * payments, month n dated from the day they were created). Anything else is
 * decoded as strictly as ever.
 */
const withPlanningDefaults = (u: unknown): unknown => {
  if (typeof u !== 'object' || u === null || Array.isArray(u)) return u;
  const doc = u as Record<string, unknown>;
  if ('start_date' in doc || 'custom_order' in doc || 'extra_payments' in doc) return doc;
  const createdAt = doc['created_at'];
  return { ...doc, custom_order: null, extra_payments: [], start_date: typeof createdAt === 'string' ? createdAt.slice(0, 10) : undefined };
};

const StoredPaymentPlanRecord = new t.Type<PaymentPlanRecord, unknown, unknown>(
  PaymentPlanRecord.name,
  PaymentPlanRecord.is,
  (u, c) => PaymentPlanRecord.validate(withPlanningDefaults(u), c),
  t.identity,
);

export const PaymentPlanDocument = documentCodec(COLLECTIONS.paymentPlans, StoredPaymentPlanRecord, 'id');

@injectable()
export class MongoPaymentPlanRepository implements PaymentPlanRepository {
  private readonly plans: MongoRecordCollection<PaymentPlanRecord>;

  constructor(@inject(MONGO_CONTEXT) ctx: MongoContext) {
    this.plans = new MongoRecordCollection(ctx, COLLECTIONS.paymentPlans, PaymentPlanDocument);
  }

  create(plan: NewPaymentPlan): TE.TaskEither<DomainError, PaymentPlanRecord> {
    return this.plans.task(async () => this.plans.insert({ ...plan, id: await this.plans.nextId() }));
  }

  get(userId: UserId, planId: PaymentPlanId): TE.TaskEither<DomainError, O.Option<PaymentPlanRecord>> {
    return this.plans.task(() => this.plans.findOne({ user_id: userId, _id: planId, ...NOT_DELETING }));
  }

  list(userId: UserId, page: PageRequest): TE.TaskEither<DomainError, Page<PaymentPlanRecord>> {
    return this.plans.task(() => this.plans.findPage({ user_id: userId, ...NOT_DELETING }, page));
  }

  /** One `aggregate` (mongo-record-collection.ts `findOwnedOne`): the user, and its plan with that id unless it is being deleted. */
  getOwned(clientId: ClientId, userId: UserId, planId: PaymentPlanId): TE.TaskEither<DomainError, OwnedRead<O.Option<PaymentPlanRecord>>> {
    return this.plans.task(() => this.plans.findOwnedOne(visibleUser(clientId, userId), { _id: planId, ...NOT_DELETING }));
  }

  /** One `aggregate`: the user, and one page of its plans not being deleted (`findOwnedPage`). */
  listOwned(clientId: ClientId, userId: UserId, page: PageRequest): TE.TaskEither<DomainError, OwnedRead<Page<PaymentPlanRecord>>> {
    return this.plans.task(() => this.plans.findOwnedPage(visibleUser(clientId, userId), NOT_DELETING, page));
  }

  touch(userId: UserId, planId: PaymentPlanId): TE.TaskEither<DomainError, boolean> {
    return this.plans.task(() => this.plans.touch({ user_id: userId, _id: planId, ...NOT_DELETING }));
  }

  delete(userId: UserId, planId: PaymentPlanId): TE.TaskEither<DomainError, boolean> {
    return this.plans.task(() => this.plans.deleteOne({ user_id: userId, _id: planId }));
  }

  deleteAllForUser(userId: UserId): TE.TaskEither<DomainError, number> {
    return this.plans.task(() => this.plans.deleteMany({ user_id: userId }));
  }
}
