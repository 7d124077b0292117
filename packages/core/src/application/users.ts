/** Users (DESIGN 7.1). */
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { DomainError } from '../domain/errors.js';
import { toUserView, type User } from '../domain/user.js';
import type { ClientId } from '../domain/primitives.js';
import type { Page } from '../ports/paging.js';
import type { CreateUserBody, PatchUserBody } from './requests.js';
import { ApplicationDeps, PageInput, UserScope, mapPage, nowStamp, orNotFound, requireUser, toPageRequest } from './deps.js';
import { emitEvent } from './events.js';

export const createUser =
  (deps: Pick<ApplicationDeps, 'clock' | 'users'>) =>
  (clientId: ClientId, body: CreateUserBody): TE.TaskEither<DomainError, User> =>
    pipe(
      deps.users.create({
        client_id: clientId,
        last_name: body.last_name,
        first_name: body.first_name ?? null,
        email: body.email ?? null,
        date_of_birth: body.date_of_birth ?? null,
        phone: body.phone ?? null,
        created_at: nowStamp(deps.clock),
      }),
      TE.map(toUserView),
    );

export const listUsers =
  (deps: Pick<ApplicationDeps, 'users'>) =>
  (clientId: ClientId, page: PageInput): TE.TaskEither<DomainError, Page<User>> =>
    pipe(deps.users.list(clientId, toPageRequest(page)), TE.map(mapPage(toUserView)));

export const getUser =
  (deps: Pick<ApplicationDeps, 'users'>) =>
  (scope: UserScope): TE.TaskEither<DomainError, User> =>
    pipe(requireUser(deps, scope), TE.map(toUserView));

export const updateUser =
  (deps: Pick<ApplicationDeps, 'users'>) =>
  (scope: UserScope, body: PatchUserBody): TE.TaskEither<DomainError, User> =>
    pipe(deps.users.update(scope.clientId, scope.userId, body), orNotFound('User'), TE.map(toUserView));

/**
 * Delete the user and everything the user owns. The user is marked first (from
 * then on it is not found, and creations racing the delete undo themselves,
 * see race-guards.ts), children go next and the user document last, so a
 * failure part-way leaves a marked user whose delete can be repeated.
 */
export const deleteUser =
  (deps: Pick<ApplicationDeps, 'accounts' | 'bureauFlows' | 'clients' | 'clock' | 'creditScores' | 'events' | 'paymentPlans' | 'planPayments' | 'users' | 'versioning'>) =>
  (scope: UserScope): TE.TaskEither<DomainError, void> =>
    pipe(
      pipe(deps.users.beginDelete(scope.clientId, scope.userId), orNotFound('User')),
      TE.chainFirst(() => deps.planPayments.deleteAllForUser(scope.userId)),
      TE.chainFirst(() => deps.paymentPlans.deleteAllForUser(scope.userId)),
      TE.chainFirst(() => deps.creditScores.deleteAllForUser(scope.userId)),
      TE.chainFirst(() => deps.bureauFlows.deleteForUser(scope.userId)),
      TE.chainFirst(() => deps.accounts.deleteAllForUser(scope.userId)),
      // user.deleted only, with the user's last state, and only from the DELETE that removed it (two racing DELETEs emit one event).
      TE.chain((user) =>
        pipe(
          deps.users.delete(scope.clientId, scope.userId),
          TE.chain((removed) => (removed ? emitEvent(deps, scope, 'user.deleted', 'user')(toUserView(user)) : TE.right(undefined))),
        ),
      ),
    );

