/**
 * Learning modules and articles (docs/api/reference.md).
 */
import * as t from 'io-ts';
import { ArticleId, IsoDate } from '../shared/primitives.js';

export const Category = t.keyof(
  {
    career: null,
    college: null,
    entrepreneurship: null,
    financial_basics: null,
    investing: null,
    major_milestones: null,
    risk_management: null,
    teen_finance: null,
  },
  'Category',
);
export type Category = t.TypeOf<typeof Category>;

export const LearningModule = t.type({ category: Category, title: t.string, content: t.string }, 'LearningModule');
export type LearningModule = t.TypeOf<typeof LearningModule>;

export const ArticleSummary = t.type({ id: ArticleId, title: t.string, category: Category, summary: t.string }, 'ArticleSummary');
export type ArticleSummary = t.TypeOf<typeof ArticleSummary>;

export const Article = t.intersection([ArticleSummary, t.type({ content: t.string, published_at: IsoDate })], 'Article');
export type Article = t.TypeOf<typeof Article>;
