/**
 * Pure read access to the shipped content, shared by every content store so
 * that filtering, ordering and paging agree across adapters. Everything that
 * does not depend on the request is computed once, at module load: the
 * learning-modules endpoint is benchmarked.
 */
import * as O from 'fp-ts/lib/Option.js';
import { Category, type Article, type ArticleSummary, type LearningModule } from './content.js';
import type { ArticleId } from '../shared/primitives.js';
import type { Page, PageRequest } from '../shared/paging.js';
import { LEARNING_MODULES } from './learning-modules.js';
import { ARTICLES } from './articles.js';

const CATEGORIES: ReadonlyArray<Category> = Object.keys(Category.keys).filter(Category.is);

const groupByCategory = <A extends { readonly category: Category }>(items: ReadonlyArray<A>): ReadonlyMap<Category, ReadonlyArray<A>> =>
  new Map(CATEGORIES.map((c) => [c, Object.freeze(items.filter((item) => item.category === c))] as const));

const MODULES_BY_CATEGORY = groupByCategory(LEARNING_MODULES);

const toSummary = (a: Article): ArticleSummary => Object.freeze({ id: a.id, title: a.title, category: a.category, summary: a.summary });

// Sorted here rather than trusted from the data file: paging depends on it.
const SORTED_ARTICLES: ReadonlyArray<Article> = Object.freeze([...ARTICLES].sort((a, b) => a.id - b.id));
const SUMMARIES: ReadonlyArray<ArticleSummary> = Object.freeze(SORTED_ARTICLES.map(toSummary));
const SUMMARIES_BY_CATEGORY = groupByCategory(SUMMARIES);
const ARTICLES_BY_ID: ReadonlyMap<number, Article> = new Map(SORTED_ARTICLES.map((a) => [a.id, a] as const));

const NONE: ReadonlyArray<never> = Object.freeze([]);

/** Index of the first item whose id is greater than `after` (binary search: `pool` is sorted by id). */
const firstIndexAbove = (pool: ReadonlyArray<{ readonly id: number }>, after: number): number => {
  let lo = 0;
  let hi = pool.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const item = pool[mid];
    if (item !== undefined && item.id <= after) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};

/**
 * The learning modules of one category, or all of them (grouped by category,
 * in a fixed order) when no category is given. Returns shared, frozen arrays.
 * @example modulesByCategory('college').every((m) => m.category === 'college') // true
 */
export const modulesByCategory = (category?: Category): ReadonlyArray<LearningModule> =>
  category === undefined ? LEARNING_MODULES : (MODULES_BY_CATEGORY.get(category) ?? NONE);

/**
 * One page of article summaries (no `content`, no `published_at`), ascending by
 * id: at most `limit` items with id > `startingAfter` (which need not be an id
 * in the list), `hasMore` when further items follow the page.
 * @example listArticles({ limit: 2 }).items.map((a) => a.id) // [1, 2]
 */
export const listArticles = (page: PageRequest, category?: Category): Page<ArticleSummary> => {
  const pool = category === undefined ? SUMMARIES : (SUMMARIES_BY_CATEGORY.get(category) ?? NONE);
  const after = page.startingAfter;
  const start = after === undefined ? 0 : firstIndexAbove(pool, after);
  // A negative or fractional limit is a caller bug; treat it as "nothing" rather than slicing oddly.
  const limit = Number.isNaN(page.limit) ? 0 : Math.max(0, Math.floor(page.limit));
  const end = Math.min(pool.length, start + limit);
  return { items: pool.slice(start, end), hasMore: end < pool.length };
};

/**
 * The full article with this id, if there is one.
 * @example O.isSome(findArticle(1 as ArticleId)) // true
 */
export const findArticle = (id: ArticleId): O.Option<Article> => O.fromNullable(ARTICLES_BY_ID.get(id));
