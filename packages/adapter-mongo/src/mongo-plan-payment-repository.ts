/**
 * `PlanPaymentRepository` on MongoDB: collection `plan_payments`, `_id` = the
 * payment id; listed per (user, plan), both always in the filter (docs/decisions/tenancy.md).
 */
import { inject, injectable } from 'inversify';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import {
  PlanPaymentRecord,
  type StoreError,
  type NewPlanPayment,
  type Page,
  type PageRequest,
  type PaymentPlanId,
  type PlanPaymentRepository,
  type UserId,
} from '@debtkit/core';
import { COLLECTION_NAMES } from './mongo-collection-names.js';
import { type MongoContext, MONGO_CONTEXT } from './mongo-context.js';
import { documentCodec } from './mongo-document-codec.js';
import { MongoRecordCollection } from './mongo-record-collection.js';

export const PlanPaymentDocument = documentCodec(COLLECTION_NAMES.planPayments, PlanPaymentRecord, 'id');

@injectable()
export class MongoPlanPaymentRepository implements PlanPaymentRepository {
  private readonly payments: MongoRecordCollection<PlanPaymentRecord>;

  constructor(@inject(MONGO_CONTEXT) ctx: MongoContext) {
    this.payments = new MongoRecordCollection(ctx, COLLECTION_NAMES.planPayments, PlanPaymentDocument);
  }

  create(payment: NewPlanPayment): TE.TaskEither<StoreError, PlanPaymentRecord> {
    return this.payments.task(async () => this.payments.insert({ ...payment, id: await this.payments.nextId() }));
  }

  list(userId: UserId, planId: PaymentPlanId, page: PageRequest): TE.TaskEither<StoreError, Page<PlanPaymentRecord>> {
    return this.payments.task(() => this.payments.findPage({ user_id: userId, payment_plan_id: planId }, page));
  }

  deleteAllForPlan(userId: UserId, planId: PaymentPlanId): TE.TaskEither<StoreError, number> {
    return this.payments.task(() => this.payments.deleteMany({ user_id: userId, payment_plan_id: planId }));
  }

  deleteAllForUser(userId: UserId): TE.TaskEither<StoreError, number> {
    return this.payments.task(() => this.payments.deleteMany({ user_id: userId }));
  }
}
