/** Learning modules and articles (docs/api/reference.md). */
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { type NotFound, type Unavailable } from '../shared/errors.js';
import type { Article, ArticleSummary, Category, LearningModule } from './content.js';
import type { ArticleId } from '../shared/primitives.js';
import type { Page } from '../shared/paging.js';
import type { ArticleListQuery } from './requests.js';
import { ApplicationDeps, orNotFound, toPageRequest } from '../shared/deps.js';
import { shippedContent } from './shipped-content.js';

export const listLearningModules =
  (deps: Pick<ApplicationDeps, 'content'>) =>
  (category?: Category): TE.TaskEither<Unavailable, ReadonlyArray<LearningModule>> =>
    (deps.content ?? shippedContent).listModules(category);

export const listArticles =
  (deps: Pick<ApplicationDeps, 'content'>) =>
  (query: ArticleListQuery): TE.TaskEither<Unavailable, Page<ArticleSummary>> =>
    (deps.content ?? shippedContent).listArticles(toPageRequest(query), query.category);

export const getArticle =
  (deps: Pick<ApplicationDeps, 'content'>) =>
  (id: ArticleId): TE.TaskEither<NotFound | Unavailable, Article> =>
    pipe((deps.content ?? shippedContent).getArticle(id), orNotFound('Article'));

/** Learning modules and articles: this feature's use cases bound to `deps`, as `createApplication` spreads them (docs/adding-a-resource.md). */
export const contentUseCases = (deps: ApplicationDeps) => ({
  listLearningModules: listLearningModules(deps),
  listArticles: listArticles(deps),
  getArticle: getArticle(deps),
});
