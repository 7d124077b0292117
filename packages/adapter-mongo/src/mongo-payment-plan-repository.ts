/**
 * `PaymentPlanRepository` on MongoDB: collection `payment_plans`, `_id` = the
 * plan id, the schedule stored inside the plan document; every filter names the
 * owning user as well (DESIGN 5).
 */
import { inject, injectable } from 'inversify';
import type * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import {
  PaymentPlanRecord,
  type DomainError,
  type NewPaymentPlan,
  type Page,
  type PageRequest,
  type PaymentPlanId,
  type PaymentPlanRepository,
  type UserId,
} from '@debtkit/core';
import { COLLECTIONS } from './mongo-collections.js';
import { type MongoContext, MONGO_CONTEXT } from './mongo-context.js';
import { documentCodec } from './mongo-document-codec.js';
import { MongoRecordCollection } from './mongo-record-collection.js';

export const PaymentPlanDocument = documentCodec(COLLECTIONS.paymentPlans, PaymentPlanRecord, 'id');

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
    return this.plans.task(() => this.plans.findOne({ user_id: userId, _id: planId }));
  }

  list(userId: UserId, page: PageRequest): TE.TaskEither<DomainError, Page<PaymentPlanRecord>> {
    return this.plans.task(() => this.plans.findPage({ user_id: userId }, page));
  }

  delete(userId: UserId, planId: PaymentPlanId): TE.TaskEither<DomainError, boolean> {
    return this.plans.task(() => this.plans.deleteOne({ user_id: userId, _id: planId }));
  }

  deleteAllForUser(userId: UserId): TE.TaskEither<DomainError, number> {
    return this.plans.task(() => this.plans.deleteMany({ user_id: userId }));
  }
}
