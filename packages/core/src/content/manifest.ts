/**
 * What the content feature contributes, declared once (shared/feature-manifest.ts; docs/architecture.md,
 * "One manifest per feature"): the registry lists it in `registry/features.ts`.
 */
import type { FeatureManifest, FeatureResponses } from '../shared/feature-manifest.js';
import { contentUseCases } from './use-cases.js';
import * as t from 'io-ts';
import { pagedCodec } from '../shared/paging.js';
import { Article, ArticleSummary, LearningModule } from './content.js';
/** The feature owns no store port. */
export const storePorts = {} as const;

/**
 * The response kinds the feature answers with, each kind → the codec of its body in the latest version
 * (docs/decisions/versioning.md): merged into `RESPONSE_CODECS` (registry/versioning/response-kinds.ts).
 */
export const responses = {
  learning_modules: t.type({ modules: t.readonlyArray(LearningModule) }, 'LearningModules'),
  article: Article,
  article_list: pagedCodec('articles', ArticleSummary),
} as const satisfies FeatureResponses;

export const manifest = {
  storePorts,
  useCases: contentUseCases,
} as const satisfies FeatureManifest;
