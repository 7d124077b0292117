/**
 * The mongo store's side of the users feature (core's `users/manifest.ts`): its store ports' classes,
 * their collections and each query's indexes; ONE row of `MONGO_FEATURES` (mongo-features.ts;
 * docs/adding-a-resource.md). Collection and index names are stored data: never rename one.
 */
import type { MongoFeature } from './mongo-feature.js';
import { COLLECTION_NAMES } from './mongo-collection-names.js';
import { MongoUserRepository } from './mongo-user-repository.js';
import { MongoErasureRegistry } from './mongo-erasure-registry.js';

export const usersMongo = {
  classes: {
    users: MongoUserRepository,
    erasures: MongoErasureRegistry,
  },
  collections: {
    users: COLLECTION_NAMES.users,
    erasures: COLLECTION_NAMES.erasures,
  },
  ports: {
    users: COLLECTION_NAMES.users,
    erasures: COLLECTION_NAMES.erasures,
  },
  indexes: {
    users: [{ key: { client_id: 1, _id: 1 }, name: 'client_id_id', unique: true }],
    // `_id` is the erased user's id; a marker goes once every record it redacts has expired (docs/decisions/tenancy.md).
    erasures: [{ key: { purge_at: 1 }, name: 'purge_at_ttl', expireAfterSeconds: 0 }],
  },
} as const satisfies MongoFeature;
