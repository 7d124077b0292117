import type * as TE from 'fp-ts/lib/TaskEither.js';
import type * as O from 'fp-ts/lib/Option.js';
import type { Unavailable } from '../shared/errors.js';
import type { Article, ArticleSummary, Category, LearningModule } from './content.js';
import type { ArticleId } from '../shared/primitives.js';
import type { Page, PageRequest } from '../shared/paging.js';

export interface ContentRepository {
  listModules(category?: Category): TE.TaskEither<Unavailable, ReadonlyArray<LearningModule>>;
  listArticles(page: PageRequest, category?: Category): TE.TaskEither<Unavailable, Page<ArticleSummary>>;
  getArticle(id: ArticleId): TE.TaskEither<Unavailable, O.Option<Article>>;
}
