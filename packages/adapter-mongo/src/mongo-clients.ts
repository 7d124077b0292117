/**
 * The mongo store's side of the clients feature (core's `clients/manifest.ts`): its store ports' classes,
 * their collections and each query's indexes; ONE row of `MONGO_FEATURES` (mongo-features.ts;
 * docs/adding-a-resource.md). Collection and index names are stored data: never rename one.
 */
import type { MongoFeature } from './mongo-feature.js';
import { COLLECTION_NAMES } from './mongo-collection-names.js';
import { MongoClientRepository } from './mongo-client-repository.js';
import { MongoTokenRepository } from './mongo-token-repository.js';
import { MongoAuditLog } from './mongo-audit-log.js';

export const clientsMongo = {
  classes: {
    clients: MongoClientRepository,
    tokens: MongoTokenRepository,
    audit: MongoAuditLog,
  },
  collections: {
    clients: COLLECTION_NAMES.clients,
    tokens: COLLECTION_NAMES.tokens,
    auditEvents: COLLECTION_NAMES.auditEvents,
  },
  ports: {
    clients: COLLECTION_NAMES.clients,
    tokens: COLLECTION_NAMES.tokens,
    audit: COLLECTION_NAMES.auditEvents,
  },
  indexes: {
    // Clients are listed by `_id` alone.
    clients: [],
    tokens: [
      // Every API request looks a token up by the hash of its secret.
      { key: { hash: 1 }, name: 'hash_unique', unique: true },
      { key: { client_id: 1, _id: 1 }, name: 'client_id_id', unique: true },
    ],
    // Listed by `_id` (and filtered by action); kept a year: MongoDB removes a record once its `purge_at` has passed.
    audit_events: [{ key: { purge_at: 1 }, name: 'purge_at_ttl', expireAfterSeconds: 0 }],
  },
} as const satisfies MongoFeature;
