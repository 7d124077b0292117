import type * as TE from 'fp-ts/lib/TaskEither.js';
import type * as O from 'fp-ts/lib/Option.js';
import type { StoreError } from '../shared/errors.js';
import type { UserRecord } from './user.js';
import type { ClientId, UserId } from '../shared/primitives.js';
import type { Page, PageRequest } from '../shared/paging.js';

export type NewUser = Omit<UserRecord, 'id'>;
/** The fields a PATCH sets, and the sandbox clock's (docs/sandbox-over-time.md), which only the advance sets. */
export type UserPatch = Partial<
  Pick<UserRecord, 'first_name' | 'last_name' | 'email' | 'date_of_birth' | 'phone' | 'sandbox_date' | 'sandbox_advance'>
>;

/**
 * Users are always addressed through their owning client. A change under a
 * user runs in one transaction (docs/decisions/transactions.md) that writes the user record
 * (`touch`), so it conflicts with the user's delete instead of leaving an orphan.
 */
export interface UserRepository {
  create(user: NewUser): TE.TaskEither<StoreError, UserRecord>;
  get(clientId: ClientId, userId: UserId): TE.TaskEither<StoreError, O.Option<UserRecord>>;
  list(clientId: ClientId, page: PageRequest): TE.TaskEither<StoreError, Page<UserRecord>>;
  /** Set the patch's defined fields in one atomic store operation (no read-modify-write). */
  update(clientId: ClientId, userId: UserId, patch: UserPatch): TE.TaskEither<StoreError, O.Option<UserRecord>>;
  /**
   * Write the user record without changing what it answers (the owner bump,
   * docs/decisions/transactions.md): inside a transaction, it makes a concurrent transaction that
   * writes the user (its delete, another change under it) conflict. `false` when there is no such user.
   */
  touch(clientId: ClientId, userId: UserId): TE.TaskEither<StoreError, boolean>;
  /** `touch` that answers the user it wrote (one store command), or none: the owner bump that also reads the user's clock (docs/sandbox-over-time.md). */
  touchAndGet(clientId: ClientId, userId: UserId): TE.TaskEither<StoreError, O.Option<UserRecord>>;
  /** Delete the user document only (the use case deletes what the user owns first). */
  delete(clientId: ClientId, userId: UserId): TE.TaskEither<StoreError, boolean>;
}
