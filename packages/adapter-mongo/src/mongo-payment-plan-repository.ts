/**
 * `PaymentPlanRepository` on MongoDB: collection `payment_plans`, `_id` = the
 * plan id, the schedule stored inside the plan document; every filter names the
 * owning user as well (docs/decisions/tenancy.md).
 */
import type { Document } from 'mongodb';
import * as t from 'io-ts';
import { inject, injectable } from 'inversify';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import {
  PaymentPlanRecord,
  type ClientId,
  type StoreError,
  type NewPaymentPlan,
  type OwnedRead,
  type OwnerFacts,
  owned,
  IsoDate,
  type Page,
  type PageRequest,
  type PaymentPlanId,
  type PaymentPlanRepository,
  ScheduleMonth,
  toDetails,
  type UserId,
} from '@debtkit/core';
import { COLLECTION_NAMES } from './mongo-collection-names.js';
import { type MongoContext, MONGO_CONTEXT } from './mongo-context.js';
import { documentCodec } from './mongo-document-codec.js';
import { StoredDocumentError } from './mongo-errors.js';
import { MongoRecordCollection, NOT_DELETING } from './mongo-record-collection.js';
import { visibleUser } from './mongo-visible-user.js';

/**
 * Plans stored before docs/decisions/payoff-and-outlook.md have no `custom_order`, `extra_payments` or
 * `start_date`: they read as what they were (no custom order, no extra
 * payments, month n dated from the day they were created). Anything else is
 * decoded as strictly as ever.
 */
const withPlanningDefaults = (u: unknown): unknown => {
  if (typeof u !== 'object' || u === null || Array.isArray(u)) return u;
  // The owner kept beside the plan (`OWNER`) is the adapter's, not the record's.
  const { [OWNER]: _owner, [OWNER_DATE]: _ownerDate, ...stored } = u as Record<string, unknown>;
  // Plans stored before their warnings (docs/decisions/payoff-and-outlook.md) have none.
  const doc = 'warnings' in stored ? stored : { ...stored, warnings: [] };
  if ('start_date' in doc || 'custom_order' in doc || 'extra_payments' in doc) return doc;
  const createdAt = doc['created_at'];
  return { ...doc, custom_order: null, extra_payments: [], start_date: typeof createdAt === 'string' ? createdAt.slice(0, 10) : undefined };
};

/**
 * The client that owns the plan's user, stored beside the plan since payments
 * fold their owned read and their plan bump into one command (`touchOwned`).
 * Plans stored before have none: they take the owned read and the bump, two
 * commands, as before.
 */
const OWNER = 'client_id';
export const PLAN_OWNER = OWNER;

/**
 * The owner's sandbox clock (docs/sandbox-over-time.md), kept beside the plan for the same
 * reason: a payment checks its date against the user's today, which the
 * one-command `touchOwned` then answers without reading the user. Kept current
 * by `MongoUserRepository.update`, in the transaction that moves the clock.
 * Absent (a plan stored before): the user's clock was never moved since.
 */
export const OWNER_DATE = 'owner_sandbox_date';

const StoredPaymentPlanRecord = new t.Type<PaymentPlanRecord, unknown, unknown>(
  PaymentPlanRecord.name,
  PaymentPlanRecord.is,
  (u, c) => PaymentPlanRecord.validate(withPlanningDefaults(u), c),
  t.identity,
);

export const PaymentPlanDocument = documentCodec(COLLECTION_NAMES.paymentPlans, StoredPaymentPlanRecord, 'id');

/** The months a schedule projection answers (`getScheduleOwned`); throws `StoredDocumentError` when they do not decode (a bug). */
const ScheduleMonths = t.array(ScheduleMonth);
const scheduleMonthsOf = (document: Document): ReadonlyArray<ScheduleMonth> => {
  const result = ScheduleMonths.decode(document['months']);
  if (E.isLeft(result)) throw new StoredDocumentError(COLLECTION_NAMES.paymentPlans, document['_id'], toDetails(result.left));
  return result.right;
};

@injectable()
export class MongoPaymentPlanRepository implements PaymentPlanRepository {
  private readonly plans: MongoRecordCollection<PaymentPlanRecord>;

  constructor(@inject(MONGO_CONTEXT) ctx: MongoContext) {
    this.plans = new MongoRecordCollection(ctx, COLLECTION_NAMES.paymentPlans, PaymentPlanDocument);
  }

  create(plan: NewPaymentPlan, owner?: ClientId, ownerFacts?: OwnerFacts): TE.TaskEither<StoreError, PaymentPlanRecord> {
    const beside =
      owner === undefined ? {} : { [OWNER]: owner, ...(ownerFacts === undefined ? {} : { [OWNER_DATE]: ownerFacts.sandboxDate }) };
    return this.plans.task(async () => this.plans.insert({ ...plan, id: await this.plans.nextId() }, beside));
  }

  get(userId: UserId, planId: PaymentPlanId): TE.TaskEither<StoreError, O.Option<PaymentPlanRecord>> {
    return this.plans.task(() => this.plans.findOne({ user_id: userId, _id: planId, ...NOT_DELETING }));
  }

  list(userId: UserId, page: PageRequest): TE.TaskEither<StoreError, Page<PaymentPlanRecord>> {
    return this.plans.task(() => this.plans.findPage({ user_id: userId, ...NOT_DELETING }, page));
  }

  /** One `aggregate` (mongo-record-collection.ts `findOwnedOne`): the user, and its plan with that id unless it is being deleted. */
  getOwned(clientId: ClientId, userId: UserId, planId: PaymentPlanId): TE.TaskEither<StoreError, OwnedRead<O.Option<PaymentPlanRecord>>> {
    return this.plans.task(() => this.plans.findOwnedOne(visibleUser(clientId, userId), { _id: planId, ...NOT_DELETING }));
  }

  /**
   * One `aggregate`, as `getOwned`: the user, and of its plan only the months
   * after `after`, at most `count` of them (`$filter`, then `$slice`, on the
   * server), not the rest of a plan whose schedule can be 1 MiB.
   */
  getScheduleOwned(
    clientId: ClientId,
    userId: UserId,
    planId: PaymentPlanId,
    after: number,
    count: number,
  ): TE.TaskEither<StoreError, OwnedRead<O.Option<ReadonlyArray<ScheduleMonth>>>> {
    const months = { $slice: [{ $filter: { input: '$schedule', as: 'month', cond: { $gt: ['$$month.month', after] } } }, count] };
    return this.plans.task(() =>
      this.plans.findOwnedProjection(visibleUser(clientId, userId), { _id: planId, ...NOT_DELETING }, { _id: 1, months }, scheduleMonthsOf),
    );
  }

  /** One `aggregate`: the user, and one page of its plans not being deleted (`findOwnedPage`). */
  listOwned(clientId: ClientId, userId: UserId, page: PageRequest): TE.TaskEither<StoreError, OwnedRead<Page<PaymentPlanRecord>>> {
    return this.plans.task(() => this.plans.findOwnedPage(visibleUser(clientId, userId), NOT_DELETING, page));
  }

  touch(userId: UserId, planId: PaymentPlanId): TE.TaskEither<StoreError, boolean> {
    return this.plans.task(() => this.plans.touch({ user_id: userId, _id: planId, ...NOT_DELETING }));
  }

  /**
   * One `findOneAndUpdate` for a plan stored with its owner: the filter names
   * the client, the user and the plan, and the bump answers the plan. That the
   * user is still there needs no read of its own: a user's delete removes its
   * plans in the same transaction (docs/decisions/transactions.md), and it writes them, so a delete
   * that commits first makes this bump find nothing, and one that commits later
   * conflicts with it. No match (no such plan, another client's, a plan stored
   * without its owner) takes the owned read, which tells "no user" from "no
   * plan", and bumps a plan it finds.
   */
  touchOwned(clientId: ClientId, userId: UserId, planId: PaymentPlanId): TE.TaskEither<StoreError, OwnedRead<O.Option<PaymentPlanRecord>>> {
    return this.plans.task(async () => {
      const bumped = await this.plans.touchAndGetBeside({ [OWNER]: clientId, user_id: userId, _id: planId, ...NOT_DELETING }, OWNER_DATE);
      if (O.isSome(bumped)) {
        const date = bumped.value.beside;
        return owned(O.some(bumped.value.record), { sandboxDate: IsoDate.is(date) ? date : null });
      }
      const found = await this.plans.findOwnedOne(visibleUser(clientId, userId), { _id: planId, ...NOT_DELETING });
      if (O.isSome(found) && O.isSome(found.value)) await this.plans.touch({ user_id: userId, _id: planId, ...NOT_DELETING });
      return found;
    });
  }

  delete(userId: UserId, planId: PaymentPlanId): TE.TaskEither<StoreError, boolean> {
    return this.plans.task(() => this.plans.deleteOne({ user_id: userId, _id: planId }));
  }

  deleteAllForUser(userId: UserId): TE.TaskEither<StoreError, number> {
    return this.plans.task(() => this.plans.deleteMany({ user_id: userId }));
  }

  countForUser(userId: UserId): TE.TaskEither<StoreError, number> {
    return this.plans.task(() => this.plans.count({ user_id: userId }));
  }
}
