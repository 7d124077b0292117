/**
 * What the credit-scores feature contributes, declared once (shared/feature-manifest.ts; docs/architecture.md,
 * "One manifest per feature"): the registry lists it in `registry/features.ts`.
 */
import type { FeatureManifest, FeatureResponses } from '../shared/feature-manifest.js';
import { portToken } from '../shared/store-ports.js';
import type { CreditScoreRepository } from './credit-score-repository.js';
import { creditScoreUseCases } from './use-cases.js';
import { CREDIT_SCORE_PERSONAL_DATA } from './personal-data.js';
import * as t from 'io-ts';
import { CreditScore } from './credit-score.js';
import type { UserDataRowsOf } from '../shared/user-data.js';
/**
 * The store ports the feature owns (key → typed token), apart from the manifest so the registry's port
 * table (registry/store-ports.ts) types the transaction's ports without the use cases that read them.
 */
export const storePorts = {
  creditScores: portToken<CreditScoreRepository>('CreditScoreRepository'),
} as const;

/**
 * What the user delete does with each of the feature's store ports (docs/decisions/tenancy.md#erasure):
 * the method deleting a user's records, or why they stay; rows of `USER_DATA` (registry/user-data.ts).
 */
export const userData = {
  creditScores: 'deleteAllForUser',
} as const satisfies UserDataRowsOf<typeof storePorts>;

/**
 * The response kinds the feature answers with, each kind → the codec of its body in the latest version
 * (docs/decisions/versioning.md): merged into `RESPONSE_CODECS` (registry/versioning/response-kinds.ts).
 */
export const responses = {
  credit_score: CreditScore,
  credit_score_history: t.type({ credit_scores: t.readonlyArray(CreditScore), has_more: t.boolean }, 'CreditScoreHistory'),
} as const satisfies FeatureResponses;

export const manifest = {
  storePorts,
  useCases: creditScoreUseCases,
  personalData: { credit_score: CREDIT_SCORE_PERSONAL_DATA },
} as const satisfies FeatureManifest;
