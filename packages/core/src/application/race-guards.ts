/**
 * The two rules of DESIGN 4.5 that use cases apply around their writes.
 *
 * - A read-modify-write is a compare-and-set; a lost race is tried again from a
 *   fresh read a few times, then answered `conflict`.
 * - A creation under an owner (a user, a plan) re-checks the owner after it has
 *   written. Deletes first mark the owner (`beginDelete`), then remove what it
 *   owns, then the owner itself; a record written before the mark is removed by
 *   the delete, and a creation that finds the owner gone or marked after
 *   writing removes what it wrote itself and answers `not_found`. Either way
 *   nothing is left behind, with no transaction and across processes.
 */
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { DomainError } from '../domain/errors.js';

/** How many times a compare-and-set use case runs before a lost race is answered `conflict`. */
export const CAS_ATTEMPTS = 5;

/**
 * Run `attempt` (which must read afresh every time it runs) until it is not a
 * `conflict`, at most `attempts` times; the last result is the answer.
 */
export const retryOnConflict = <A>(attempt: () => TE.TaskEither<DomainError, A>, attempts = CAS_ATTEMPTS): TE.TaskEither<DomainError, A> =>
  pipe(
    attempt(),
    TE.orElse((error): TE.TaskEither<DomainError, A> => (error._tag === 'conflict' && attempts > 1 ? retryOnConflict(attempt, attempts - 1) : TE.left(error))),
  );

/**
 * After writing `written`: `ownerCheck` must still succeed. When it answers
 * `not_found` (the owner was deleted or is being deleted), `undo` removes what
 * was written and the creation answers that `not_found`.
 */
export const keepIfOwnerLives =
  <A>(ownerCheck: () => TE.TaskEither<DomainError, unknown>, undo: () => TE.TaskEither<DomainError, unknown>) =>
  (written: A): TE.TaskEither<DomainError, A> =>
    pipe(
      ownerCheck(),
      TE.map((): A => written),
      TE.orElse((error) => (error._tag === 'not_found' ? undoThenFail(undo, error) : TE.left(error))),
    );

/** Run `undo`, then answer `error` (or the undo's own failure). */
export const undoThenFail = <A>(undo: () => TE.TaskEither<DomainError, unknown>, error: DomainError): TE.TaskEither<DomainError, A> =>
  pipe(
    undo(),
    TE.chain(() => TE.left<DomainError, A>(error)),
  );
