/**
 * The mongo store's side of the accounts feature (core's `accounts/manifest.ts`): its store ports' classes,
 * their collections and each query's indexes; ONE row of `MONGO_FEATURES` (mongo-features.ts;
 * docs/adding-a-resource.md). Collection and index names are stored data: never rename one.
 */
import type { MongoFeature } from './mongo-feature.js';
import { COLLECTION_NAMES } from './mongo-collection-names.js';
import { MongoAccountRepository } from './mongo-account-repository.js';

export const accountsMongo = {
  classes: {
    accounts: MongoAccountRepository,
  },
  collections: {
    accounts: COLLECTION_NAMES.accounts,
  },
  ports: {
    accounts: COLLECTION_NAMES.accounts,
  },
  indexes: {
    // The type/status filters stay within one user's accounts: the owner prefix is enough.
    accounts: [{ key: { user_id: 1, _id: 1 }, name: 'user_id_id', unique: true }],
  },
} as const satisfies MongoFeature;
