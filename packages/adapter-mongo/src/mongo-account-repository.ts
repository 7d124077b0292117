/**
 * `AccountRepository` on MongoDB: collection `accounts`, `_id` = the account
 * id; every filter names the owning user as well (DESIGN 5).
 */
import { inject, injectable } from 'inversify';
import type * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { Filter } from 'mongodb';
import {
  AccountRecord,
  type AccountFilter,
  type AccountId,
  type AccountPatch,
  type AccountRepository,
  type DomainError,
  type NewAccount,
  type Page,
  type PageRequest,
  type UserId,
} from '@debtkit/core';
import { COLLECTIONS } from './mongo-collections.js';
import { type MongoContext, MONGO_CONTEXT } from './mongo-context.js';
import { documentCodec, type StoredDocument } from './mongo-document-codec.js';
import { MongoRecordCollection } from './mongo-record-collection.js';

export const AccountDocument = documentCodec(COLLECTIONS.accounts, AccountRecord, 'id');

const listFilter = (userId: UserId, filter: AccountFilter): Filter<StoredDocument> => ({
  user_id: userId,
  ...(filter.type === undefined ? {} : { type: filter.type }),
  ...(filter.status === undefined ? {} : { status: filter.status }),
});

@injectable()
export class MongoAccountRepository implements AccountRepository {
  private readonly accounts: MongoRecordCollection<AccountRecord>;

  constructor(@inject(MONGO_CONTEXT) ctx: MongoContext) {
    this.accounts = new MongoRecordCollection(ctx, COLLECTIONS.accounts, AccountDocument);
  }

  create(account: NewAccount): TE.TaskEither<DomainError, AccountRecord> {
    return this.accounts.task(async () => this.accounts.insert({ ...account, id: await this.accounts.nextId() }));
  }

  get(userId: UserId, accountId: AccountId): TE.TaskEither<DomainError, O.Option<AccountRecord>> {
    return this.accounts.task(() => this.accounts.findOne({ user_id: userId, _id: accountId }));
  }

  list(userId: UserId, page: PageRequest, filter: AccountFilter): TE.TaskEither<DomainError, Page<AccountRecord>> {
    return this.accounts.task(() => this.accounts.findPage(listFilter(userId, filter), page));
  }

  listAll(userId: UserId): TE.TaskEither<DomainError, ReadonlyArray<AccountRecord>> {
    return this.accounts.task(() => this.accounts.findAll({ user_id: userId }, { _id: 1 }));
  }

  update(userId: UserId, accountId: AccountId, patch: AccountPatch): TE.TaskEither<DomainError, O.Option<AccountRecord>> {
    return this.accounts.task(() => this.accounts.update({ user_id: userId, _id: accountId }, patch));
  }

  deleteAllForUser(userId: UserId): TE.TaskEither<DomainError, number> {
    return this.accounts.task(() => this.accounts.deleteMany({ user_id: userId }));
  }
}
