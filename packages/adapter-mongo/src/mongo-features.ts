/**
 * THE list of the mongo store's features (docs/adding-a-resource.md): ONE row per feature of core
 * owning store ports (each in its `mongo-<feature>.ts`), and the kernel's own (the idempotency keys,
 * the id counters). The class table (`MONGO_STORE_CLASSES`, mongo-store-ports.ts) and the collections'
 * tables (`COLLECTIONS`, `PORT_COLLECTIONS`, `INDEXES`, mongo-collections.ts) are merged from it, each
 * typed by its rows' types and checked against core's port table or the collections' slot, so a
 * missing row fails the build.
 */
import type { MongoFeature } from './mongo-feature.js';
import { COLLECTION_NAMES } from './mongo-collection-names.js';
import { MongoIdempotencyStore } from './mongo-idempotency-store.js';
import { clientsMongo } from './mongo-clients.js';
import { webhooksMongo } from './mongo-webhooks.js';
import { usersMongo } from './mongo-users.js';
import { accountsMongo } from './mongo-accounts.js';
import { creditScoresMongo } from './mongo-credit-scores.js';
import { bureauMongo } from './mongo-bureau.js';
import { paymentPlansMongo } from './mongo-payment-plans.js';

/** The kernel's row: the idempotency keys (a store port owned by no feature) and the id counters. */
const kernelMongo = {
  classes: { idempotency: MongoIdempotencyStore },
  collections: { counters: COLLECTION_NAMES.counters, idempotencyKeys: COLLECTION_NAMES.idempotencyKeys },
  ports: { idempotency: COLLECTION_NAMES.idempotencyKeys },
  indexes: {
    // `_id` is the collection name whose ids the counter allocates.
    counters: [],
    // `_id` is "<client id>:<key>"; MongoDB removes a key once `expires_at` has passed (TTL index).
    idempotency_keys: [{ key: { expires_at: 1 }, name: 'expires_at_ttl', expireAfterSeconds: 0 }],
  },
} as const satisfies MongoFeature;

export const MONGO_FEATURES = [
  clientsMongo,
  webhooksMongo,
  usersMongo,
  accountsMongo,
  creditScoresMongo,
  bureauMongo,
  paymentPlansMongo,
  kernelMongo,
] as const;

type Rows = (typeof MONGO_FEATURES)[number];
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** The rows' `part`, merged into one record type. */
export type MergedRows<Part extends keyof MongoFeature> = {
  readonly [K in keyof UnionToIntersection<Rows[Part]>]: UnionToIntersection<Rows[Part]>[K];
};

/** The rows' `part` merged into one table; a key in two rows is a programming error, thrown at load. */
export const mergeRows = <Part extends keyof MongoFeature>(part: Part): MergedRows<Part> => {
  const merged: Record<string, unknown> = {};
  for (const row of MONGO_FEATURES as ReadonlyArray<MongoFeature>)
    for (const [key, value] of Object.entries(row[part])) {
      if (key in merged) throw new Error(`mongo features: ${part} ${key} is declared twice`);
      merged[key] = value;
    }
  // Every row's keys were copied just above, each with its row's type.
  return merged as MergedRows<Part>;
};
