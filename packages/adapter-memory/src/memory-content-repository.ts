/**
 * `ContentRepository` in memory: the content is the catalog shipped in core, so
 * this delegates to the catalog's accessors (filtering, ordering and paging then
 * agree with every other content store).
 *
 * No copies here, unlike the other memory repositories: the catalog hands out
 * frozen objects and arrays, which callers cannot change, and the
 * learning-modules endpoint is on the benchmark's hot path.
 */
import { injectable } from 'inversify';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type * as O from 'fp-ts/lib/Option.js';
import { findArticle, listArticles, modulesByCategory } from '@debtkit/core';
import type { Article, ArticleId, ArticleSummary, Category, ContentRepository, DomainError, LearningModule, Page, PageRequest } from '@debtkit/core';

@injectable()
export class MemoryContentRepository implements ContentRepository {
  listModules(category?: Category): TE.TaskEither<DomainError, ReadonlyArray<LearningModule>> {
    return TE.right(modulesByCategory(category));
  }

  listArticles(page: PageRequest, category?: Category): TE.TaskEither<DomainError, Page<ArticleSummary>> {
    return TE.right(listArticles(page, category));
  }

  getArticle(id: ArticleId): TE.TaskEither<DomainError, O.Option<Article>> {
    return TE.right(findArticle(id));
  }
}
