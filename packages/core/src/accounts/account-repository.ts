import type * as TE from 'fp-ts/lib/TaskEither.js';
import type * as O from 'fp-ts/lib/Option.js';
import type { StoreError } from '../shared/errors.js';
import type { AccountRecord, AccountStatus, AccountType } from './account.js';
import type { AccountId, Cents, ClientId, IsoDate, UserId } from '../shared/primitives.js';
import type { OwnedRead } from '../shared/owned-read.js';
import type { Page, PageRequest } from '../shared/paging.js';

/** A new account: the repository allocates the id and stores version 1. */
export type NewAccount = Omit<AccountRecord, 'id' | 'version'>;
export type AccountPatch = Partial<Omit<AccountRecord, 'id' | 'user_id' | 'created_at' | 'version'>>;

export interface AccountFilter {
  readonly type?: AccountType;
  readonly status?: AccountStatus;
}

/** A payment that lowers an account's balance (docs/decisions/payoff-and-outlook.md). */
export interface AccountPayment {
  readonly amount: Cents;
  readonly date: IsoDate;
  /** The account's `last_updated_at` after the payment. */
  readonly updatedOn: IsoDate;
}

/** Accounts are always addressed through their owning user. */
export interface AccountRepository {
  create(account: NewAccount): TE.TaskEither<StoreError, AccountRecord>;
  get(userId: UserId, accountId: AccountId): TE.TaskEither<StoreError, O.Option<AccountRecord>>;
  list(userId: UserId, page: PageRequest, filter: AccountFilter): TE.TaskEither<StoreError, Page<AccountRecord>>;
  /** `get` through the owning user, checked in the same read (owned-read.ts): `none` when the client has no such user. */
  getOwned(clientId: ClientId, userId: UserId, accountId: AccountId): TE.TaskEither<StoreError, OwnedRead<O.Option<AccountRecord>>>;
  /** `list` through the owning user, checked in the same read (owned-read.ts): `none` when the client has no such user. */
  listOwned(
    clientId: ClientId,
    userId: UserId,
    page: PageRequest,
    filter: AccountFilter,
  ): TE.TaskEither<StoreError, OwnedRead<Page<AccountRecord>>>;
  /** Every account of the user, ascending by id. */
  listAll(userId: UserId): TE.TaskEither<StoreError, ReadonlyArray<AccountRecord>>;
  /**
   * Compare-and-set (docs/decisions/transactions.md): apply `patch` and increase the version by one
   * only if the stored version is `expectedVersion`; `conflict` when it is not,
   * `none` when there is no such account.
   */
  update(
    userId: UserId,
    accountId: AccountId,
    expectedVersion: number,
    patch: AccountPatch,
  ): TE.TaskEither<StoreError, O.Option<AccountRecord>>;
  /**
   * One atomic step, whatever runs beside it: balance := max(0, balance − amount),
   * the last-payment fields set, the version increased. `none` when there is no such account.
   * An account whose payments are allocated (`apr_segments`, or `accrued_interest`
   * above 0: statement-terms.ts `allocatesPayments`, docs/decisions/payoff-and-outlook.md) is left unchanged
   * and answered as stored: the caller allocates the payment (payment-allocation.ts)
   * and writes it with `update`, a compare-and-set on the version it answered.
   */
  applyPayment(userId: UserId, accountId: AccountId, payment: AccountPayment): TE.TaskEither<StoreError, O.Option<AccountRecord>>;
  deleteAllForUser(userId: UserId): TE.TaskEither<StoreError, number>;
  /** How many accounts the user has, closed ones included (the accounts-per-user quota, shared/quotas.ts). */
  countForUser(userId: UserId): TE.TaskEither<StoreError, number>;
}
