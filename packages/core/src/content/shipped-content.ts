/**
 * The learning modules and articles shipped with core, as the `ContentRepository`
 * the use cases read (the default of `ApplicationDeps.content`). The content is
 * part of the product, not of a store: no store adapter implements it.
 */
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { ContentRepository } from './content-repository.js';
import { findArticle, listArticles, modulesByCategory } from './catalog.js';

export const shippedContent: ContentRepository = {
  listModules: (category) => TE.right(modulesByCategory(category)),
  listArticles: (page, category) => TE.right(listArticles(page, category)),
  getArticle: (id) => TE.right(findArticle(id)),
};
