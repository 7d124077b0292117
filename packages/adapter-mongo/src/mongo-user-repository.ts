/**
 * `UserRepository` on MongoDB: collection `users`, `_id` = the user id; every
 * filter names the owning client as well (docs/decisions/tenancy.md).
 */
import { inject, injectable } from 'inversify';
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import {
  UserRecord,
  type PaymentPlanRecord,
  type ClientId,
  type StoreError,
  type NewUser,
  type Page,
  type PageRequest,
  type UserId,
  type UserPatch,
  type UserRepository,
} from '@debtkit/core';
import { COLLECTION_NAMES } from './mongo-collection-names.js';
import { type MongoContext, MONGO_CONTEXT } from './mongo-context.js';
import { documentCodec } from './mongo-document-codec.js';
import { MongoRecordCollection, NOT_DELETING } from './mongo-record-collection.js';
import { OWNER_DATE, PLAN_OWNER, PaymentPlanDocument } from './mongo-payment-plan-repository.js';
import { visibleUser } from './mongo-visible-user.js';

export const UserDocument = documentCodec(COLLECTION_NAMES.users, UserRecord, 'id');

export { visibleUser };

@injectable()
export class MongoUserRepository implements UserRepository {
  private readonly users: MongoRecordCollection<UserRecord>;

  /** Only to keep the plans' copy of the user's clock current (`update`). */
  private readonly plans: MongoRecordCollection<PaymentPlanRecord>;

  constructor(@inject(MONGO_CONTEXT) ctx: MongoContext) {
    this.users = new MongoRecordCollection(ctx, COLLECTION_NAMES.users, UserDocument);
    this.plans = new MongoRecordCollection(ctx, COLLECTION_NAMES.paymentPlans, PaymentPlanDocument);
  }

  create(user: NewUser): TE.TaskEither<StoreError, UserRecord> {
    return this.users.task(async () => this.users.insert({ id: await this.users.nextId(), ...user }));
  }

  get(clientId: ClientId, userId: UserId): TE.TaskEither<StoreError, O.Option<UserRecord>> {
    return this.users.task(() => this.users.findOne(visibleUser(clientId, userId)));
  }

  list(clientId: ClientId, page: PageRequest): TE.TaskEither<StoreError, Page<UserRecord>> {
    return this.users.task(() => this.users.findPage({ client_id: clientId, ...NOT_DELETING }, page));
  }

  /**
   * A patch that moves the sandbox clock (docs/sandbox-over-time.md) also sets the copy the
   * user's plans keep of it (mongo-payment-plan-repository.ts `OWNER_DATE`),
   * in the same transaction: one more command, only when the clock moves.
   */
  update(clientId: ClientId, userId: UserId, patch: UserPatch): TE.TaskEither<StoreError, O.Option<UserRecord>> {
    return this.users.task(async () => {
      const updated = await this.users.update({ client_id: clientId, _id: userId, ...NOT_DELETING }, patch);
      if (O.isSome(updated) && patch.sandbox_date !== undefined) {
        await this.plans.setMany({ user_id: userId, [PLAN_OWNER]: { $exists: true } }, { [OWNER_DATE]: patch.sandbox_date });
      }
      return updated;
    });
  }

  touch(clientId: ClientId, userId: UserId): TE.TaskEither<StoreError, boolean> {
    return this.users.task(() => this.users.touch(visibleUser(clientId, userId)));
  }

  touchAndGet(clientId: ClientId, userId: UserId): TE.TaskEither<StoreError, O.Option<UserRecord>> {
    return this.users.task(() => this.users.touchAndGet(visibleUser(clientId, userId)));
  }

  delete(clientId: ClientId, userId: UserId): TE.TaskEither<StoreError, boolean> {
    return this.users.task(() => this.users.deleteOne({ client_id: clientId, _id: userId }));
  }
}
