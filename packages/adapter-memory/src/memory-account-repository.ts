/**
 * `AccountRepository` in memory: accounts are kept per owning user, so a lookup
 * is two map reads and another user's account is unreachable.
 */
import * as E from 'fp-ts/lib/Either.js';
import { inject, injectable } from 'inversify';
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { allocatesPayments, conflict, initialAccountVersion } from '@debtkit/core';
import type {
  AccountFilter,
  AccountPayment,
  AccountId,
  AccountPatch,
  AccountRecord,
  AccountRepository,
  Cents,
  ClientId,
  StoreError,
  NewAccount,
  OwnedRead,
  Page,
  PageRequest,
  UserId,
  UserRepository,
} from '@debtkit/core';
import { MEMORY_SESSION, applyPatch, lazyEither, lazyRight, pageOf, readOwned } from './memory-collection.js';
import type { MemorySession } from './memory-database.js';
import { MemoryUserRepository } from './memory-user-repository.js';

/**
 * A stored account: copied once from what the caller handed in (every field is
 * flat except the history array) and frozen. An update stores a new record, so
 * reads hand the stored one out as it is, without a copy per read (docs/performance.md).
 */
/** Stored records are frozen: a page hands them out as they are. */
const asStored = (a: AccountRecord): AccountRecord => a;

const storedAccount = (a: AccountRecord): AccountRecord =>
  Object.freeze({
    ...a,
    // Frozen at run time (a write to it throws); the codec's type is a plain array.
    payments_history: Object.freeze([...a.payments_history]) as AccountRecord['payments_history'],
  });

const FROZEN: ReadonlyArray<keyof AccountRecord> = ['id', 'user_id', 'created_at', 'version'];

const filterOf = (filter: AccountFilter): ((a: AccountRecord) => boolean) | undefined => {
  const { type, status } = filter;
  if (type === undefined && status === undefined) return undefined;
  return (a) => (type === undefined || a.type === type) && (status === undefined || a.status === status);
};

@injectable()
export class MemoryAccountRepository implements AccountRepository {
  /** user → account id → account. */
  private readonly accounts;
  private readonly ids;
  /** Whose owner check the owned reads apply: the users of the same session. */
  private readonly users: UserRepository;

  constructor(@inject(MEMORY_SESSION) private readonly s: MemorySession) {
    this.accounts = s.db.table<UserId, AccountId, AccountRecord>('accounts');
    this.ids = s.db.ids('accounts');
    this.users = new MemoryUserRepository(s);
  }

  create(account: NewAccount): TE.TaskEither<StoreError, AccountRecord> {
    return lazyEither(() => {
      const record = storedAccount({ ...account, id: this.ids.next(), version: initialAccountVersion });
      const done = this.accounts.set(this.s, record.user_id, record.id, record);
      return E.isLeft(done) ? done : E.right(record);
    });
  }

  get(userId: UserId, accountId: AccountId): TE.TaskEither<StoreError, O.Option<AccountRecord>> {
    return lazyRight(() => O.fromNullable(this.accounts.get(this.s, userId, accountId)));
  }

  list(userId: UserId, page: PageRequest, filter: AccountFilter): TE.TaskEither<StoreError, Page<AccountRecord>> {
    return lazyRight(() => pageOf(this.accounts.values(this.s, userId), page, asStored, filterOf(filter)));
  }

  getOwned(clientId: ClientId, userId: UserId, accountId: AccountId): TE.TaskEither<StoreError, OwnedRead<O.Option<AccountRecord>>> {
    return readOwned(this.users, clientId, userId, () => this.get(userId, accountId));
  }

  listOwned(
    clientId: ClientId,
    userId: UserId,
    page: PageRequest,
    filter: AccountFilter,
  ): TE.TaskEither<StoreError, OwnedRead<Page<AccountRecord>>> {
    return readOwned(this.users, clientId, userId, () => this.list(userId, page, filter));
  }

  listAll(userId: UserId): TE.TaskEither<StoreError, ReadonlyArray<AccountRecord>> {
    return lazyRight(() => [...this.accounts.values(this.s, userId)]);
  }

  /** Read, compare and write in one synchronous step: nothing else can run in between. */
  update(
    userId: UserId,
    accountId: AccountId,
    expectedVersion: number,
    patch: AccountPatch,
  ): TE.TaskEither<StoreError, O.Option<AccountRecord>> {
    return lazyEither(() => {
      const found = this.accounts.get(this.s, userId, accountId);
      if (found === undefined) return E.right(O.none);
      if (found.version !== expectedVersion) return E.left(conflict('The account changed concurrently; read it again and retry'));
      // Copy after patching: the patch's history array must not become the stored one.
      const next = storedAccount({ ...applyPatch(found, patch, FROZEN), version: found.version + 1 });
      const done = this.accounts.set(this.s, userId, accountId, next);
      return E.isLeft(done) ? done : E.right(O.some(next));
    });
  }

  applyPayment(userId: UserId, accountId: AccountId, payment: AccountPayment): TE.TaskEither<StoreError, O.Option<AccountRecord>> {
    return lazyEither(() => {
      const found = this.accounts.get(this.s, userId, accountId);
      if (found === undefined) return E.right(O.none);
      // Allocated by the caller (docs/decisions/payoff-and-outlook.md): answered as stored, for its compare-and-set.
      if (allocatesPayments(found)) return E.right(O.some(found));
      const next: AccountRecord = Object.freeze({
        ...found,
        balance: Math.max(0, found.balance - payment.amount) as Cents,
        last_payment_amount: payment.amount,
        last_payment_date: payment.date,
        last_updated_at: payment.updatedOn,
        version: found.version + 1,
      });
      const done = this.accounts.set(this.s, userId, accountId, next);
      return E.isLeft(done) ? done : E.right(O.some(next));
    });
  }

  deleteAllForUser(userId: UserId): TE.TaskEither<StoreError, number> {
    return lazyEither(() => this.accounts.deleteAll(this.s, userId));
  }

  countForUser(userId: UserId): TE.TaskEither<StoreError, number> {
    return lazyRight(() => this.accounts.count(this.s, userId));
  }
}
