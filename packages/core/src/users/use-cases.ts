/** Users (docs/api/reference.md). */
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { type NotFound, type Unavailable, type StoreError } from '../shared/errors.js';
import { toUserView, type User, type UserRecord } from './user.js';
import { erasedUserView, erasureMarker } from './erasure.js';
import type { ClientId } from '../shared/primitives.js';
import type { Page } from '../shared/paging.js';
import type { CreateUserBody, PatchUserBody } from './requests.js';
import {
  ApplicationDeps,
  type Change,
  PageInput,
  UserScope,
  inTransaction,
  inUserTransaction,
  mapPage,
  nowStamp,
  orNotFound,
  toPageRequest,
  outsideTransaction,
} from '../shared/deps.js';
import { requireUser, todayOf } from './user-scope.js';
import { emitEvent } from '../webhooks/events.use-cases.js';
import { userDeletedEvent } from './user-deleted-ids-only.js';

/** The user as the API shows it: with its `sandbox_date` (its today) in sandbox only (docs/sandbox-over-time.md). */
export const userViewFor =
  (deps: Pick<ApplicationDeps, 'clock' | 'sandboxClock'>) =>
  (u: UserRecord): User =>
    toUserView(u, deps.sandboxClock === true ? todayOf(deps.clock, u) : undefined);

/** One write, in a transaction all the same: under an Idempotency-Key it commits with the kept response. */
export const createUser =
  (deps: Pick<ApplicationDeps, 'clock' | 'unitOfWork' | 'sandboxClock'>) =>
  (clientId: ClientId, body: CreateUserBody): Change<User, StoreError> =>
    inTransaction(deps, (tx) =>
      pipe(
        tx.users.create({
          client_id: clientId,
          last_name: body.last_name,
          first_name: body.first_name ?? null,
          email: body.email ?? null,
          date_of_birth: body.date_of_birth ?? null,
          phone: body.phone ?? null,
          created_at: nowStamp(deps.clock),
        }),
        TE.map(userViewFor(deps)),
      ),
    );

export const listUsers =
  (deps: Pick<ApplicationDeps, 'users' | 'clock' | 'sandboxClock'>) =>
  (clientId: ClientId, page: PageInput): TE.TaskEither<Unavailable, Page<User>> =>
    pipe(outsideTransaction(deps.users.list(clientId, toPageRequest(page))), TE.map(mapPage(userViewFor(deps))));

export const getUser =
  (deps: Pick<ApplicationDeps, 'users' | 'clock' | 'sandboxClock'>) =>
  (scope: UserScope): TE.TaskEither<NotFound | Unavailable, User> =>
    pipe(outsideTransaction(requireUser(deps, scope)), TE.map(userViewFor(deps)));

export const updateUser =
  (deps: Pick<ApplicationDeps, 'unitOfWork' | 'clock' | 'sandboxClock'>) =>
  (scope: UserScope, body: PatchUserBody): TE.TaskEither<NotFound | StoreError, User> =>
    inUserTransaction(deps, scope, (tx) =>
      pipe(tx.users.update(scope.clientId, scope.userId, body), orNotFound('User'), TE.map(userViewFor(deps))),
    );

/**
 * Delete the user and everything the user owns, in one transaction
 * (docs/decisions/transactions.md): all of it or nothing. Deleting the user
 * record writes it, so a
 * transaction creating anything under the user (which writes the user too,
 * `touchUser`) conflicts with this one instead of leaving an orphan.
 *
 * Erasure (docs/decisions/tenancy.md), in the same transaction: the user's erasure marker
 * (by which events, deliveries and Idempotency-Key replays are redacted from
 * the commit on), the cancellation of the pending webhook deliveries of the
 * user's events, and a `user.deleted` with ids only (its personal fields
 * emptied in 2024-07-01).
 */
export const deleteUser =
  (deps: Pick<ApplicationDeps, 'clock' | 'unitOfWork' | 'versioning' | 'userDataDelete'>) =>
  (scope: UserScope): TE.TaskEither<NotFound | StoreError, void> =>
    inUserTransaction(deps, scope, (tx) =>
      pipe(
        requireUser(tx, scope),
        // Every port whose records are the user's, in the order of the table (registry/user-data.ts).
        TE.chainFirstW(() => deps.userDataDelete(tx, scope.userId)),
        TE.chainFirstW(() => tx.users.delete(scope.clientId, scope.userId)),
        TE.chainFirstW(() => tx.erasures.record(erasureMarker(scope.clientId, scope.userId, deps.clock.now()))),
        TE.chainFirstW(() => tx.webhookDeliveries.cancelPendingForUser(scope.clientId, scope.userId)),
        TE.chainW((user) => {
          // Ids only in the latest version; 2024-07-01 renders the emptied user from the context (docs/decisions/tenancy.md, docs/decisions/versioning.md).
          const { object, context } = userDeletedEvent(erasedUserView(toUserView(user)));
          return emitEvent(tx, scope, 'user.deleted', 'user', context)(object);
        }),
      ),
    );

/** Users: this feature's use cases bound to `deps`, as `createApplication` spreads them (docs/adding-a-resource.md). */
export const userUseCases = (deps: ApplicationDeps) => ({
  createUser: createUser(deps),
  listUsers: listUsers(deps),
  getUser: getUser(deps),
  updateUser: updateUser(deps),
  deleteUser: deleteUser(deps),
});
