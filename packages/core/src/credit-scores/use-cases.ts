/** Credit scores (docs/api/reference.md, docs/decisions/payoff-and-outlook.md). */
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { type NotFound, type Unavailable } from '../shared/errors.js';
import { CreditScore, toCreditScoreView } from './credit-score.js';
import { ApplicationDeps, UserScope, orNotFound, outsideTransaction } from '../shared/deps.js';
import type { CreditScoreHistoryQuery } from './requests.js';

/**
 * The latest score; `not_found` until the user completes bureau authentication.
 * The user and the score are one owned read (shared/owned-read.ts): one store
 * round trip where the store can join, whichever of the two is missing.
 */
export const getLatestCreditScore =
  (deps: Pick<ApplicationDeps, 'creditScores'>) =>
  (scope: UserScope): TE.TaskEither<NotFound | Unavailable, CreditScore> =>
    pipe(
      outsideTransaction(deps.creditScores.latestOwned(scope.clientId, scope.userId)),
      orNotFound('User'),
      orNotFound('Credit score'),
      TE.map(toCreditScoreView),
    );

/**
 * Every score of the user, newest first; with `starting_after`, the ones older
 * than that score (the next page of a history the HTTP adapter ended early by
 * size, docs/decisions/tenancy.md).
 */
export const getCreditScoreHistory =
  (deps: Pick<ApplicationDeps, 'creditScores'>) =>
  (scope: UserScope, query: CreditScoreHistoryQuery = {}): TE.TaskEither<NotFound | Unavailable, ReadonlyArray<CreditScore>> =>
    pipe(
      outsideTransaction(deps.creditScores.historyOwned(scope.clientId, scope.userId)),
      orNotFound('User'),
      TE.map((scores) => {
        const { starting_after: after } = query;
        return (after === undefined ? scores : scores.filter((s) => s.id < after)).map(toCreditScoreView);
      }),
    );

/** Credit scores: this feature's use cases bound to `deps`, as `createApplication` spreads them (docs/adding-a-resource.md). */
export const creditScoreUseCases = (deps: ApplicationDeps) => ({
  getLatestCreditScore: getLatestCreditScore(deps),
  getCreditScoreHistory: getCreditScoreHistory(deps),
});
