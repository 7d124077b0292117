/**
 * What the credit-scores feature contributes, declared once (shared/feature-manifest.ts; docs/architecture.md,
 * "One manifest per feature"): the registry lists it in `registry/features.ts`.
 */
import type { FeatureManifest } from '../shared/feature-manifest.js';
import { portToken } from '../shared/store-ports.js';
import type { CreditScoreRepository } from './credit-score-repository.js';
import { creditScoreUseCases } from './use-cases.js';
import { CREDIT_SCORE_PERSONAL_DATA } from './personal-data.js';
/**
 * The store ports the feature owns (key → typed token), apart from the manifest so the registry's port
 * table (registry/store-ports.ts) types the transaction's ports without the use cases that read them.
 */
export const creditScoresStorePorts = {
  creditScores: portToken<CreditScoreRepository>('CreditScoreRepository'),
} as const;

export const creditScoresManifest = {
  storePorts: creditScoresStorePorts,
  useCases: creditScoreUseCases,
  personalData: { credit_score: CREDIT_SCORE_PERSONAL_DATA },
} as const satisfies FeatureManifest;
