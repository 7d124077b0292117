/**
 * The collections of the store (named after the resources, docs/decisions/mongodb.md) and the
 * indexes each query needs, created idempotently at start.
 */
import type { Db, IndexDescription } from 'mongodb';
import type { StorePortKey } from '@debtkit/core';

export const COLLECTIONS = {
  clients: 'clients',
  tokens: 'tokens',
  users: 'users',
  accounts: 'accounts',
  creditScores: 'credit_scores',
  bureauFlows: 'bureau_flows',
  paymentPlans: 'payment_plans',
  planPayments: 'plan_payments',
  counters: 'counters',
  idempotencyKeys: 'idempotency_keys',
  events: 'events',
  webhookEndpoints: 'webhook_endpoints',
  webhookDeliveries: 'webhook_deliveries',
  erasures: 'erasures',
  auditEvents: 'audit_events',
} as const;
export type CollectionName = (typeof COLLECTIONS)[keyof typeof COLLECTIONS];

/**
 * The collection of each store port, by its key in core's port table (`STORE_PORTS`):
 * a new port does not compile until its collection is in `COLLECTIONS` (and so its
 * indexes in `INDEXES`). The names are stored data: never rename one.
 */
export const PORT_COLLECTIONS = {
  clients: COLLECTIONS.clients,
  tokens: COLLECTIONS.tokens,
  users: COLLECTIONS.users,
  accounts: COLLECTIONS.accounts,
  creditScores: COLLECTIONS.creditScores,
  bureauFlows: COLLECTIONS.bureauFlows,
  paymentPlans: COLLECTIONS.paymentPlans,
  planPayments: COLLECTIONS.planPayments,
  idempotency: COLLECTIONS.idempotencyKeys,
  events: COLLECTIONS.events,
  webhookEndpoints: COLLECTIONS.webhookEndpoints,
  webhookDeliveries: COLLECTIONS.webhookDeliveries,
  erasures: COLLECTIONS.erasures,
  audit: COLLECTIONS.auditEvents,
} as const satisfies PortCollections;

/** One collection per store port key. */
export type PortCollections = { readonly [K in StorePortKey]: CollectionName };

/**
 * `_id` is the record's integer id (see mongo-document-codec.ts), so every
 * "(owner, id)" index below is unique by construction; it is declared unique
 * to state the key. Each serves the owner-scoped get/update/delete and the
 * owner's page `{ owner, _id: { $gt } }` sorted by `_id` in either direction.
 * Names are fixed so that a restart finds the same index and does nothing.
 */
export const INDEXES: { readonly [C in CollectionName]: ReadonlyArray<IndexDescription> } = {
  // Clients are listed by `_id` alone.
  clients: [],
  tokens: [
    // Every API request looks a token up by the hash of its secret.
    { key: { hash: 1 }, name: 'hash_unique', unique: true },
    { key: { client_id: 1, _id: 1 }, name: 'client_id_id', unique: true },
  ],
  users: [{ key: { client_id: 1, _id: 1 }, name: 'client_id_id', unique: true }],
  // The type/status filters stay within one user's accounts: the owner prefix is enough.
  accounts: [{ key: { user_id: 1, _id: 1 }, name: 'user_id_id', unique: true }],
  // `latest` and `history` walk this index backwards.
  credit_scores: [{ key: { user_id: 1, _id: 1 }, name: 'user_id_id', unique: true }],
  // `_id` is the user id: one flow per user, enforced by the `_id` index.
  bureau_flows: [],
  payment_plans: [{ key: { user_id: 1, _id: 1 }, name: 'user_id_id', unique: true }],
  // Listed per (user, plan); its prefix serves deleteAllForUser.
  plan_payments: [{ key: { user_id: 1, payment_plan_id: 1, _id: 1 }, name: 'user_id_payment_plan_id_id', unique: true }],
  // `_id` is the collection name whose ids the counter allocates.
  counters: [],
  // `_id` is "<client id>:<key>"; MongoDB removes a key once `expires_at` has passed (TTL index).
  idempotency_keys: [{ key: { expires_at: 1 }, name: 'expires_at_ttl', expireAfterSeconds: 0 }],
  // Retention (docs/decisions/webhooks.md): MongoDB removes a document once its `purge_at`
  // (a BSON date, as TTL indexes need) has passed; reads also filter on
  // `expires_at`, because the TTL monitor only runs every 60 s.
  events: [
    { key: { client_id: 1, _id: 1 }, name: 'client_id_id', unique: true },
    // The fan-out (docs/decisions/tenancy.md): the events not yet fanned out, in turn across clients.
    { key: { fanned_out: 1, client_id: 1, _id: 1 }, name: 'fanned_out_client_id_id' },
    // A window replay's read (docs/sandbox-over-time.md): one client's events by creation time.
    { key: { client_id: 1, created_at: 1 }, name: 'client_id_created_at' },
    { key: { purge_at: 1 }, name: 'purge_at_ttl', expireAfterSeconds: 0 },
  ],
  webhook_endpoints: [{ key: { client_id: 1, _id: 1 }, name: 'client_id_id', unique: true }],
  webhook_deliveries: [
    // One delivery per (endpoint, event), whoever fans out and however often.
    { key: { endpoint_id: 1, event_id: 1 }, name: 'endpoint_id_event_id_unique', unique: true },
    { key: { client_id: 1, endpoint_id: 1, _id: 1 }, name: 'client_id_endpoint_id_id', unique: true },
    // What the worker's claim scans: pending deliveries by due time.
    { key: { status: 1, next_attempt_at: 1 }, name: 'status_next_attempt_at' },
    // The fair claim's (docs/decisions/tenancy.md): pending deliveries by client, then due time.
    { key: { status: 1, client_id: 1, next_attempt_at: 1 }, name: 'status_client_id_next_attempt_at' },
    { key: { purge_at: 1 }, name: 'purge_at_ttl', expireAfterSeconds: 0 },
  ],
  // `_id` is the erased user's id; a marker goes once every record it redacts has expired (docs/decisions/tenancy.md).
  erasures: [{ key: { purge_at: 1 }, name: 'purge_at_ttl', expireAfterSeconds: 0 }],
  // Listed by `_id` (and filtered by action); kept a year: MongoDB removes a record once its `purge_at` has passed.
  audit_events: [{ key: { purge_at: 1 }, name: 'purge_at_ttl', expireAfterSeconds: 0 }],
};

/** Create every index; an identical existing index is left as it is. */
export const ensureIndexes = async (db: Db, maxTimeMS: number): Promise<void> => {
  await Promise.all(
    Object.entries(INDEXES)
      .filter(([, specs]) => specs.length > 0)
      .map(([name, specs]) => db.collection(name).createIndexes([...specs], { maxTimeMS })),
  );
};

/**
 * Bring documents written by an older release up to the current shape, at
 * start (idempotent, and cheap once done: the filter matches nothing). Accounts
 * gained `version` (the compare-and-set token of docs/decisions/transactions.md): an account stored
 * without one is at version 1.
 */
export const migrateDocuments = async (db: Db, maxTimeMS: number): Promise<void> => {
  await db.collection(COLLECTIONS.accounts).updateMany({ version: { $exists: false } }, { $set: { version: 1 } }, { maxTimeMS });
};
