/**
 * The mongo store's side of the credit-scores feature (core's `credit-scores/manifest.ts`): its store ports' classes,
 * their collections and each query's indexes; ONE row of `MONGO_FEATURES` (mongo-features.ts;
 * docs/adding-a-resource.md). Collection and index names are stored data: never rename one.
 */
import type { MongoFeature } from './mongo-feature.js';
import { COLLECTION_NAMES } from './mongo-collection-names.js';
import { MongoCreditScoreRepository } from './mongo-credit-score-repository.js';

export const creditScoresMongo = {
  classes: {
    creditScores: MongoCreditScoreRepository,
  },
  collections: {
    creditScores: COLLECTION_NAMES.creditScores,
  },
  ports: {
    creditScores: COLLECTION_NAMES.creditScores,
  },
  indexes: {
    // `latest` and `history` walk this index backwards.
    credit_scores: [{ key: { user_id: 1, _id: 1 }, name: 'user_id_id', unique: true }],
  },
} as const satisfies MongoFeature;
