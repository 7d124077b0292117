/** Learning modules and articles (spec 4.5, DESIGN 7.8). */
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { DomainError } from '../domain/errors.js';
import type { Article, ArticleSummary, Category, LearningModule } from '../content/content.js';
import type { ArticleId } from '../domain/primitives.js';
import type { Page } from '../ports/paging.js';
import type { ArticleListQuery } from './requests.js';
import { ApplicationDeps, orNotFound, toPageRequest } from './deps.js';
import { shippedContent } from '../content/shipped-content.js';

export const listLearningModules =
  (deps: Pick<ApplicationDeps, 'content'>) =>
  (category?: Category): TE.TaskEither<DomainError, ReadonlyArray<LearningModule>> =>
    (deps.content ?? shippedContent).listModules(category);

export const listArticles =
  (deps: Pick<ApplicationDeps, 'content'>) =>
  (query: ArticleListQuery): TE.TaskEither<DomainError, Page<ArticleSummary>> =>
    (deps.content ?? shippedContent).listArticles(toPageRequest(query), query.category);

export const getArticle =
  (deps: Pick<ApplicationDeps, 'content'>) =>
  (id: ArticleId): TE.TaskEither<DomainError, Article> =>
    pipe((deps.content ?? shippedContent).getArticle(id), orNotFound('Article'));
