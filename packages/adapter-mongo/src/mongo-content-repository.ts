/**
 * `ContentRepository` of the mongo store. Content is the catalog shipped in core
 * (docs/api/reference.md), the same for every deployment, so it is served from core's
 * accessors and never stored: no collection, no migration when the catalog
 * changes, and articles and modules stay readable while MongoDB is down.
 */
import { injectable } from 'inversify';
import * as E from 'fp-ts/lib/Either.js';
import type * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import {
  findArticle,
  listArticles,
  modulesByCategory,
  type Article,
  type ArticleId,
  type ArticleSummary,
  type Category,
  type ContentRepository,
  type DomainError,
  type LearningModule,
  type Page,
  type PageRequest,
} from '@debtkit/core';

@injectable()
export class MongoContentRepository implements ContentRepository {
  listModules(category?: Category): TE.TaskEither<DomainError, ReadonlyArray<LearningModule>> {
    return () => Promise.resolve(E.right(modulesByCategory(category)));
  }

  listArticles(page: PageRequest, category?: Category): TE.TaskEither<DomainError, Page<ArticleSummary>> {
    return () => Promise.resolve(E.right(listArticles(page, category)));
  }

  getArticle(id: ArticleId): TE.TaskEither<DomainError, O.Option<Article>> {
    return () => Promise.resolve(E.right(findArticle(id)));
  }
}
