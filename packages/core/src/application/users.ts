/** Users (DESIGN 7.1). */
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { DomainError } from '../domain/errors.js';
import { toUserView, type User } from '../domain/user.js';
import { erasedUserView, erasureMarker } from '../domain/erasure.js';
import type { ClientId } from '../domain/primitives.js';
import type { Page } from '../ports/paging.js';
import type { CreateUserBody, PatchUserBody } from './requests.js';
import { ApplicationDeps, type Change, PageInput, UserScope, inTransaction, inUserTransaction, mapPage, nowStamp, orNotFound, requireUser, toPageRequest } from './deps.js';
import { emitEvent } from './events.js';

/** One write, in a transaction all the same: under an Idempotency-Key it commits with the kept response. */
export const createUser =
  (deps: Pick<ApplicationDeps, 'clock' | 'unitOfWork'>) =>
  (clientId: ClientId, body: CreateUserBody): Change<User> =>
    inTransaction(deps, (tx) => pipe(
      tx.users.create({
        client_id: clientId,
        last_name: body.last_name,
        first_name: body.first_name ?? null,
        email: body.email ?? null,
        date_of_birth: body.date_of_birth ?? null,
        phone: body.phone ?? null,
        created_at: nowStamp(deps.clock),
      }),
      TE.map(toUserView),
    ));

export const listUsers =
  (deps: Pick<ApplicationDeps, 'users'>) =>
  (clientId: ClientId, page: PageInput): TE.TaskEither<DomainError, Page<User>> =>
    pipe(deps.users.list(clientId, toPageRequest(page)), TE.map(mapPage(toUserView)));

export const getUser =
  (deps: Pick<ApplicationDeps, 'users'>) =>
  (scope: UserScope): TE.TaskEither<DomainError, User> =>
    pipe(requireUser(deps, scope), TE.map(toUserView));

export const updateUser =
  (deps: Pick<ApplicationDeps, 'unitOfWork'>) =>
  (scope: UserScope, body: PatchUserBody): TE.TaskEither<DomainError, User> =>
    inUserTransaction(deps, scope, (tx) => pipe(tx.users.update(scope.clientId, scope.userId, body), orNotFound('User'), TE.map(toUserView)));

/**
 * Delete the user and everything the user owns, in one transaction (DESIGN
 * 4.6): all of it or nothing. Deleting the user record writes it, so a
 * transaction creating anything under the user (which writes the user too,
 * `touchUser`) conflicts with this one instead of leaving an orphan.
 *
 * Erasure (DESIGN 4.9), in the same transaction: the user's erasure marker
 * (by which events, deliveries and Idempotency-Key replays are redacted from
 * the commit on), the cancellation of the pending webhook deliveries of the
 * user's events, and a `user.deleted` whose personal fields are emptied.
 */
export const deleteUser =
  (deps: Pick<ApplicationDeps, 'clock' | 'unitOfWork' | 'versioning'>) =>
  (scope: UserScope): TE.TaskEither<DomainError, void> =>
    inUserTransaction(deps, scope, (tx) =>
      pipe(
        requireUser(tx, scope),
        TE.chainFirst(() => tx.planPayments.deleteAllForUser(scope.userId)),
        TE.chainFirst(() => tx.paymentPlans.deleteAllForUser(scope.userId)),
        TE.chainFirst(() => tx.creditScores.deleteAllForUser(scope.userId)),
        TE.chainFirst(() => tx.bureauFlows.deleteForUser(scope.userId)),
        TE.chainFirst(() => tx.accounts.deleteAllForUser(scope.userId)),
        TE.chainFirst(() => tx.users.delete(scope.clientId, scope.userId)),
        TE.chainFirst(() => tx.erasures.record(erasureMarker(scope.clientId, scope.userId, deps.clock.now()))),
        TE.chainFirst(() => tx.webhookDeliveries.cancelPendingForUser(scope.clientId, scope.userId)),
        TE.chain((user) => emitEvent(tx, scope, 'user.deleted', 'user')(erasedUserView(toUserView(user)))),
      ),
    );
