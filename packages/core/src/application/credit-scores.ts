/** Credit scores (spec 4.1, DESIGN 7.3). */
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { DomainError } from '../domain/errors.js';
import { CreditScore, toCreditScoreView } from '../domain/credit-score.js';
import { ApplicationDeps, UserScope, orNotFound, requireUser } from './deps.js';

/** The latest score; `not_found` until the user completes bureau authentication. */
export const getLatestCreditScore =
  (deps: Pick<ApplicationDeps, 'creditScores' | 'users'>) =>
  (scope: UserScope): TE.TaskEither<DomainError, CreditScore> =>
    pipe(
      requireUser(deps, scope),
      TE.chain(() => pipe(deps.creditScores.latest(scope.userId), orNotFound('Credit score'))),
      TE.map(toCreditScoreView),
    );

/** Every score of the user, newest first. */
export const getCreditScoreHistory =
  (deps: Pick<ApplicationDeps, 'creditScores' | 'users'>) =>
  (scope: UserScope): TE.TaskEither<DomainError, ReadonlyArray<CreditScore>> =>
    pipe(
      requireUser(deps, scope),
      TE.chain(() => deps.creditScores.history(scope.userId)),
      TE.map((scores) => scores.map(toCreditScoreView)),
    );
