/**
 * The repositories over one context: the store's own (mongo-store.ts), or a
 * transaction's, whose context carries its session (mongo-unit-of-work.ts).
 * In a transaction each is built on first use: it pays only for the ports it touches.
 */
import type { StorePortClasses, StorePortKey, TransactionPorts } from '@debtkit/core';
import type { MongoContext } from './mongo-context.js';
import { MongoAccountRepository } from './mongo-account-repository.js';
import { MongoBureauFlowRepository } from './mongo-bureau-flow-repository.js';
import { MongoClientRepository } from './mongo-client-repository.js';
import { MongoCreditScoreRepository } from './mongo-credit-score-repository.js';
import { MongoPaymentPlanRepository } from './mongo-payment-plan-repository.js';
import { MongoPlanPaymentRepository } from './mongo-plan-payment-repository.js';
import { MongoTokenRepository } from './mongo-token-repository.js';
import { MongoUserRepository } from './mongo-user-repository.js';
import { MongoIdempotencyStore } from './mongo-idempotency-store.js';
import { MongoEventOutbox } from './mongo-event-outbox.js';
import { MongoWebhookEndpointRepository } from './mongo-webhook-endpoint-repository.js';
import { MongoWebhookDeliveryRepository } from './mongo-webhook-delivery-repository.js';
import { MongoErasureRegistry } from './mongo-erasure-registry.js';
import { MongoAuditLog } from './mongo-audit-log.js';

/** The mongo store's class for each store port (the port table's keys: a missing or wrong class does not compile). */
export const MONGO_STORE_CLASSES: StorePortClasses = {
  clients: MongoClientRepository,
  tokens: MongoTokenRepository,
  users: MongoUserRepository,
  accounts: MongoAccountRepository,
  creditScores: MongoCreditScoreRepository,
  bureauFlows: MongoBureauFlowRepository,
  paymentPlans: MongoPaymentPlanRepository,
  planPayments: MongoPlanPaymentRepository,
  idempotency: MongoIdempotencyStore,
  events: MongoEventOutbox,
  webhookEndpoints: MongoWebhookEndpointRepository,
  webhookDeliveries: MongoWebhookDeliveryRepository,
  erasures: MongoErasureRegistry,
  audit: MongoAuditLog,
};

/** Every repository over `ctx`, each built when first read. */
export const mongoTransactionPorts = (ctx: MongoContext): TransactionPorts => {
  const ports = {};
  for (const key of Object.keys(MONGO_STORE_CLASSES) as StorePortKey[]) {
    let built: unknown;
    Object.defineProperty(ports, key, { enumerable: true, get: () => (built ??= new MONGO_STORE_CLASSES[key](ctx)) });
  }
  // Every key of the class table (the port table's keys) has its getter, typed by that table.
  return ports as TransactionPorts;
};
