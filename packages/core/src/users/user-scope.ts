/**
 * The scope's user, read or bumped (docs/decisions/transactions.md): what every feature above
 * users (accounts, bureau, payment plans, sandbox) reads first. Kept in the users feature, not the
 * kernel, since they answer a `UserRecord`.
 */
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { Clock } from '../shared/clock.js';
import type { NotFound, StoreError } from '../shared/errors.js';
import type { IsoDate } from '../shared/primitives.js';
import type { OwnerFacts } from '../shared/owned-read.js';
import type { TransactionPorts } from '../shared/store-ports.js';
import { orNotFound, today, type ApplicationDeps, type UserScope } from '../shared/deps.js';
import { userToday, type UserRecord } from './user.js';

/** The user's "today" (docs/sandbox-over-time.md): its sandbox clock's date, read with the user, or the clock's date. */
export const todayOf = (clock: Clock, owner: OwnerFacts | Pick<UserRecord, 'sandbox_date'>): IsoDate =>
  userToday(today(clock), 'sandboxDate' in owner ? owner.sandboxDate : owner.sandbox_date);

/** The user addressed by the scope, or `not_found` (identical for a missing user and another client's user). */
export const requireUser = (deps: Pick<ApplicationDeps, 'users'>, scope: UserScope): TE.TaskEither<NotFound | StoreError, UserRecord> =>
  pipe(deps.users.get(scope.clientId, scope.userId), orNotFound('User'));

/**
 * The owner bump (docs/decisions/transactions.md): inside a transaction, write the scope's user
 * (`not_found` when there is none for this client), so the transaction
 * conflicts with the user's delete instead of committing under a deleted user.
 */
export const touchUser = (tx: Pick<TransactionPorts, 'users'>, scope: UserScope): TE.TaskEither<NotFound | StoreError, UserRecord> =>
  pipe(tx.users.touchAndGet(scope.clientId, scope.userId), orNotFound('User'));
