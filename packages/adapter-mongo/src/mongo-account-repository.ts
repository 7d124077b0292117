/**
 * `AccountRepository` on MongoDB: collection `accounts`, `_id` = the account
 * id; every filter names the owning user as well (docs/decisions/tenancy.md).
 */
import { inject, injectable } from 'inversify';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { Filter } from 'mongodb';
import {
  AccountRecord,
  conflict,
  initialAccountVersion,
  type AccountPayment,
  type AccountFilter,
  type AccountId,
  type AccountPatch,
  type AccountRepository,
  type ClientId,
  type StoreError,
  type NewAccount,
  type OwnedRead,
  type Page,
  type PageRequest,
  type UserId,
} from '@debtkit/core';
import { COLLECTION_NAMES } from './mongo-collection-names.js';
import { type MongoContext, MONGO_CONTEXT } from './mongo-context.js';
import { documentCodec, type StoredDocument } from './mongo-document-codec.js';
import { MongoRecordCollection, setOf } from './mongo-record-collection.js';
import { visibleUser } from './mongo-visible-user.js';

export const AccountDocument = documentCodec(COLLECTION_NAMES.accounts, AccountRecord, 'id');

const CHANGED = 'The account changed concurrently; read it again and retry';

const listFilter = (userId: UserId, filter: AccountFilter): Filter<StoredDocument> => ({
  user_id: userId,
  ...filterOf(filter),
});

const filterOf = (filter: AccountFilter): Filter<StoredDocument> => ({
  ...(filter.type === undefined ? {} : { type: filter.type }),
  ...(filter.status === undefined ? {} : { status: filter.status }),
});

@injectable()
export class MongoAccountRepository implements AccountRepository {
  private readonly accounts: MongoRecordCollection<AccountRecord>;

  constructor(@inject(MONGO_CONTEXT) ctx: MongoContext) {
    this.accounts = new MongoRecordCollection(ctx, COLLECTION_NAMES.accounts, AccountDocument);
  }

  create(account: NewAccount): TE.TaskEither<StoreError, AccountRecord> {
    return this.accounts.task(async () =>
      this.accounts.insert({ ...account, id: await this.accounts.nextId(), version: initialAccountVersion }),
    );
  }

  get(userId: UserId, accountId: AccountId): TE.TaskEither<StoreError, O.Option<AccountRecord>> {
    return this.accounts.task(() => this.accounts.findOne({ user_id: userId, _id: accountId }));
  }

  list(userId: UserId, page: PageRequest, filter: AccountFilter): TE.TaskEither<StoreError, Page<AccountRecord>> {
    return this.accounts.task(() => this.accounts.findPage(listFilter(userId, filter), page));
  }

  /** One `aggregate` (mongo-record-collection.ts `findOwnedOne`): the user, and its account with that id. */
  getOwned(clientId: ClientId, userId: UserId, accountId: AccountId): TE.TaskEither<StoreError, OwnedRead<O.Option<AccountRecord>>> {
    return this.accounts.task(() => this.accounts.findOwnedOne(visibleUser(clientId, userId), { _id: accountId }));
  }

  /** One `aggregate`: the user, and one page of its accounts (`findOwnedPage`). */
  listOwned(
    clientId: ClientId,
    userId: UserId,
    page: PageRequest,
    filter: AccountFilter,
  ): TE.TaskEither<StoreError, OwnedRead<Page<AccountRecord>>> {
    return this.accounts.task(() => this.accounts.findOwnedPage(visibleUser(clientId, userId), filterOf(filter), page));
  }

  listAll(userId: UserId): TE.TaskEither<StoreError, ReadonlyArray<AccountRecord>> {
    return this.accounts.task(() => this.accounts.findAll({ user_id: userId }, { _id: 1 }));
  }

  /** One `findOneAndUpdate` whose filter names the expected version: of two writes from one version, the server applies one. */
  update(
    userId: UserId,
    accountId: AccountId,
    expectedVersion: number,
    patch: AccountPatch,
  ): TE.TaskEither<StoreError, O.Option<AccountRecord>> {
    const set = setOf(patch);
    return pipe(
      this.accounts.task(async () => {
        const updated = await this.accounts.findOneAndUpdate(
          { user_id: userId, _id: accountId, version: expectedVersion },
          Object.keys(set).length === 0 ? { $inc: { version: 1 } } : { $set: set, $inc: { version: 1 } },
        );
        // No match: tell a missing account from one at another version.
        return O.isSome(updated)
          ? { updated }
          : { updated, exists: O.isSome(await this.accounts.findOne({ user_id: userId, _id: accountId })) };
      }),
      TE.flatMap((r) => ('exists' in r && r.exists === true ? TE.left(conflict(CHANGED)) : TE.right(r.updated))),
    );
  }

  /**
   * max(0, balance − amount), the last-payment fields and the version in ONE
   * `findOneAndUpdate` with an update pipeline: the server computes the new
   * balance from the stored one, so nothing runs between a read and a write
   * and no retry is needed. `none` when there is no such account.
   */
  applyPayment(userId: UserId, accountId: AccountId, payment: AccountPayment): TE.TaskEither<StoreError, O.Option<AccountRecord>> {
    // An account whose payments are allocated (docs/decisions/payoff-and-outlook.md: segments, or accrued interest) keeps every
    // field: the command answers it as stored, for the caller's compare-and-set (`allocatesPayments`).
    const plain = { $and: [{ $eq: [{ $ifNull: ['$apr_segments', null] }, null] }, { $lte: [{ $ifNull: ['$accrued_interest', 0] }, 0] }] };
    const unlessAllocated = (value: unknown, field: string) => ({ $cond: [plain, value, `$${field}`] });
    return this.accounts.task(() =>
      this.accounts.findOneAndUpdate({ user_id: userId, _id: accountId }, [
        {
          $set: {
            balance: unlessAllocated({ $max: [0, { $subtract: ['$balance', { $literal: payment.amount }] }] }, 'balance'),
            last_payment_amount: unlessAllocated({ $literal: payment.amount }, 'last_payment_amount'),
            last_payment_date: unlessAllocated({ $literal: payment.date }, 'last_payment_date'),
            last_updated_at: unlessAllocated({ $literal: payment.updatedOn }, 'last_updated_at'),
            version: unlessAllocated({ $add: ['$version', 1] }, 'version'),
          },
        },
      ]),
    );
  }

  deleteAllForUser(userId: UserId): TE.TaskEither<StoreError, number> {
    return this.accounts.task(() => this.accounts.deleteMany({ user_id: userId }));
  }

  countForUser(userId: UserId): TE.TaskEither<StoreError, number> {
    return this.accounts.task(() => this.accounts.count({ user_id: userId }));
  }
}
