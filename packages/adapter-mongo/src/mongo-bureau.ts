/**
 * The mongo store's side of the bureau feature (core's `bureau/manifest.ts`): its store ports' classes,
 * their collections and each query's indexes; ONE row of `MONGO_FEATURES` (mongo-features.ts;
 * docs/adding-a-resource.md). Collection and index names are stored data: never rename one.
 */
import type { MongoFeature } from './mongo-feature.js';
import { COLLECTION_NAMES } from './mongo-collection-names.js';
import { MongoBureauFlowRepository } from './mongo-bureau-flow-repository.js';

export const bureauMongo = {
  classes: {
    bureauFlows: MongoBureauFlowRepository,
  },
  collections: {
    bureauFlows: COLLECTION_NAMES.bureauFlows,
  },
  ports: {
    bureauFlows: COLLECTION_NAMES.bureauFlows,
  },
  indexes: {
    // `_id` is the user id: one flow per user, enforced by the `_id` index.
    bureau_flows: [],
  },
} as const satisfies MongoFeature;
