import type * as TE from 'fp-ts/lib/TaskEither.js';
import type * as O from 'fp-ts/lib/Option.js';
import type { DomainError } from '../domain/errors.js';
import type { UserRecord } from '../domain/user.js';
import type { ClientId, UserId } from '../domain/primitives.js';
import type { Page, PageRequest } from './paging.js';

export type NewUser = Omit<UserRecord, 'id'>;
export type UserPatch = Partial<Pick<UserRecord, 'first_name' | 'last_name' | 'email' | 'date_of_birth' | 'phone'>>;

/**
 * Users are always addressed through their owning client.
 *
 * Deleting is two steps (DESIGN 4.5): `beginDelete` marks the user as being
 * deleted, and from then on `get`, `list` and `update` no longer see it, so a
 * creation that re-checks its user after writing knows it lost the race.
 */
export interface UserRepository {
  create(user: NewUser): TE.TaskEither<DomainError, UserRecord>;
  get(clientId: ClientId, userId: UserId): TE.TaskEither<DomainError, O.Option<UserRecord>>;
  list(clientId: ClientId, page: PageRequest): TE.TaskEither<DomainError, Page<UserRecord>>;
  /** Set the patch's defined fields in one atomic store operation (no read-modify-write). */
  update(clientId: ClientId, userId: UserId, patch: UserPatch): TE.TaskEither<DomainError, O.Option<UserRecord>>;
  /**
   * Mark the user as being deleted (idempotent: a user already marked is found
   * again, so a delete that failed part-way can be repeated). `none` when there is no such user.
   */
  beginDelete(clientId: ClientId, userId: UserId): TE.TaskEither<DomainError, O.Option<UserRecord>>;
  /** Delete the user document only (the use case deletes what the user owns first). */
  delete(clientId: ClientId, userId: UserId): TE.TaskEither<DomainError, boolean>;
}
