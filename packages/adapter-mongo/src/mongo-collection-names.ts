/**
 * The names of the store's collections (named after the resources, docs/decisions/mongodb.md), by
 * key: stored data, never rename one. The repositories read their collection's name here (this file
 * imports no repository). A feature's mongo file (`mongo-<feature>.ts`) adds a new collection's name
 * to the slot `CollectionNames` by module augmentation beside its row; `COLLECTIONS`
 * (mongo-collections.ts) is every feature's rows merged, checked against this slot.
 */
export const COLLECTION_NAMES = {
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

/** The slot of every collection's name, by key: the names above, and any a feature adds by module augmentation. */
export interface CollectionNames extends KnownCollectionNames {}
type KnownCollectionNames = typeof COLLECTION_NAMES;

/** The name of a collection of the store. */
export type CollectionName = CollectionNames[keyof CollectionNames];
