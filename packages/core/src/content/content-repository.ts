import type * as TE from 'fp-ts/lib/TaskEither.js';
import type * as O from 'fp-ts/lib/Option.js';
import type { DomainError } from '../shared/errors.js';
import type { Article, ArticleSummary, Category, LearningModule } from './content.js';
import type { ArticleId } from '../shared/primitives.js';
import type { Page, PageRequest } from '../shared/paging.js';

export interface ContentRepository {
  listModules(category?: Category): TE.TaskEither<DomainError, ReadonlyArray<LearningModule>>;
  listArticles(page: PageRequest, category?: Category): TE.TaskEither<DomainError, Page<ArticleSummary>>;
  getArticle(id: ArticleId): TE.TaskEither<DomainError, O.Option<Article>>;
}
