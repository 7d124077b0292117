import type * as TE from 'fp-ts/lib/TaskEither.js';
import type * as O from 'fp-ts/lib/Option.js';
import type { DomainError } from '../domain/errors.js';
import type { UserRecord } from '../domain/user.js';
import type { ClientId, UserId } from '../domain/primitives.js';
import type { Page, PageRequest } from './paging.js';

export type NewUser = Omit<UserRecord, 'id'>;
export type UserPatch = Partial<Pick<UserRecord, 'first_name' | 'last_name' | 'email' | 'date_of_birth' | 'phone'>>;

/** Users are always addressed through their owning client. */
export interface UserRepository {
  create(user: NewUser): TE.TaskEither<DomainError, UserRecord>;
  get(clientId: ClientId, userId: UserId): TE.TaskEither<DomainError, O.Option<UserRecord>>;
  list(clientId: ClientId, page: PageRequest): TE.TaskEither<DomainError, Page<UserRecord>>;
  update(clientId: ClientId, userId: UserId, patch: UserPatch): TE.TaskEither<DomainError, O.Option<UserRecord>>;
  /** Delete the user document only (the use case deletes what the user owns first). */
  delete(clientId: ClientId, userId: UserId): TE.TaskEither<DomainError, boolean>;
}
