/**
 * The credit-scores feature's endpoints (docs/api/reference.md, docs/decisions/payoff-and-outlook.md): ONE list of `API_ENDPOINTS` (api-endpoints.ts;
 * docs/adding-a-resource.md). Paths, methods and shapes of the spec's endpoints are exactly the spec's.
 */
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { CreditScoreHistoryQuery } from '@debtkit/core';
import { type Endpoint, endpoint } from './endpoint.js';
import { scope, USER_ERRORS } from './user-scope.js';

export const CREDIT_SCORE_ENDPOINTS: ReadonlyArray<Endpoint> = [
  endpoint({
    method: 'GET',
    path: '/api/users/:id/credit_scores',
    summary: 'Retrieve credit score factors',
    tag: 'Credit Scores',
    pathIds: ['id'],
    status: 200,
    response: { kind: 'credit_score' },
    errors: USER_ERRORS,
    run: (app, i) => app.getLatestCreditScore(scope(i)),
  }),
  endpoint({
    method: 'GET',
    path: '/api/users/:id/credit_scores/history',
    summary: 'Credit score history, newest first',
    tag: 'Credit Scores',
    pathIds: ['id'],
    description:
      'Ends early by size (`has_more: true`) rather than pass 1 MiB; `starting_after` the last id received gives the older scores.',
    query: CreditScoreHistoryQuery,
    status: 200,
    response: { kind: 'credit_score_history' },
    errors: USER_ERRORS,
    run: (app, i) =>
      pipe(
        app.getCreditScoreHistory(scope(i), i.query),
        TE.map((credit_scores) => ({ credit_scores, has_more: false })),
      ),
  }),
];
