import type * as TE from 'fp-ts/lib/TaskEither.js';
import type * as O from 'fp-ts/lib/Option.js';
import type { DomainError } from '../domain/errors.js';
import type { AccountRecord, AccountStatus, AccountType } from '../domain/account.js';
import type { AccountId, UserId } from '../domain/primitives.js';
import type { Page, PageRequest } from './paging.js';

export type NewAccount = Omit<AccountRecord, 'id'>;
export type AccountPatch = Partial<Omit<AccountRecord, 'id' | 'user_id' | 'created_at'>>;

export interface AccountFilter {
  readonly type?: AccountType;
  readonly status?: AccountStatus;
}

/** Accounts are always addressed through their owning user. */
export interface AccountRepository {
  create(account: NewAccount): TE.TaskEither<DomainError, AccountRecord>;
  get(userId: UserId, accountId: AccountId): TE.TaskEither<DomainError, O.Option<AccountRecord>>;
  list(userId: UserId, page: PageRequest, filter: AccountFilter): TE.TaskEither<DomainError, Page<AccountRecord>>;
  /** Every account of the user, ascending by id. */
  listAll(userId: UserId): TE.TaskEither<DomainError, ReadonlyArray<AccountRecord>>;
  update(userId: UserId, accountId: AccountId, patch: AccountPatch): TE.TaskEither<DomainError, O.Option<AccountRecord>>;
  deleteAllForUser(userId: UserId): TE.TaskEither<DomainError, number>;
}
