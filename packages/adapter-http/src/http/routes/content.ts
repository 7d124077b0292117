/**
 * The content feature's endpoints (docs/api/reference.md): ONE list of `API_ENDPOINTS` (api-endpoints.ts;
 * docs/adding-a-resource.md). Paths, methods and shapes of the spec's endpoints are exactly the spec's.
 */
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { ArticleListQuery, LearningModulesQuery } from '@debtkit/core';
import { type Endpoint, endpoint } from './endpoint.js';
import { paged } from './paged-list.js';

export const CONTENT_ENDPOINTS: ReadonlyArray<Endpoint> = [
  endpoint({
    method: 'GET',
    path: '/api/learning_modules',
    summary: 'Get learning modules',
    tag: 'Learning Modules',
    pathIds: [],
    query: LearningModulesQuery,
    status: 200,
    response: { kind: 'learning_modules' },
    errors: ['validation_error'],
    run: (app, i) =>
      pipe(
        app.listLearningModules(i.query.category),
        TE.map((modules) => ({ modules })),
      ),
  }),
  endpoint({
    method: 'GET',
    path: '/api/articles',
    summary: 'List articles',
    tag: 'Articles',
    pathIds: [],
    query: ArticleListQuery,
    status: 200,
    response: { kind: 'article_list' },
    errors: ['validation_error'],
    run: (app, i) => pipe(app.listArticles(i.query), TE.map(paged('articles'))),
  }),
  endpoint({
    method: 'GET',
    path: '/api/articles/:article_id',
    summary: 'Retrieve an article',
    tag: 'Articles',
    pathIds: ['article_id'],
    status: 200,
    response: { kind: 'article' },
    errors: ['validation_error', 'not_found'],
    run: (app, i) => app.getArticle(i.ids.article_id),
  }),
];
