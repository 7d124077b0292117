/**
 * The MongoDB store as an Inversify module: every storage port of core bound
 * to its Mongo repository, all sharing one opened context. A port added to the
 * store is one line in `MONGO_STORE_CLASSES`.
 */
import { ContainerModule } from 'inversify';
import { PORTS, STORE_PORT_KEYS, storePortTokens, type StorePortClasses, type StorePortKey } from '@debtkit/core';
import { MONGO_CONTEXT, type MongoContext } from './mongo-context.js';
import { MongoAccountRepository } from './mongo-account-repository.js';
import { MongoBureauFlowRepository } from './mongo-bureau-flow-repository.js';
import { MongoClientRepository } from './mongo-client-repository.js';
import { MongoContentRepository } from './mongo-content-repository.js';
import { MongoCreditScoreRepository } from './mongo-credit-score-repository.js';
import { MongoPaymentPlanRepository } from './mongo-payment-plan-repository.js';
import { MongoPlanPaymentRepository } from './mongo-plan-payment-repository.js';
import { MongoStoreHealth } from './mongo-store-health.js';
import { MongoTokenRepository } from './mongo-token-repository.js';
import { MongoUserRepository } from './mongo-user-repository.js';
import { MongoIdempotencyStore } from './mongo-idempotency-store.js';
import { MongoEventOutbox } from './mongo-event-outbox.js';
import { MongoWebhookEndpointRepository } from './mongo-webhook-endpoint-repository.js';
import { MongoWebhookDeliveryRepository } from './mongo-webhook-delivery-repository.js';

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
  content: MongoContentRepository,
  idempotency: MongoIdempotencyStore,
  events: MongoEventOutbox,
  webhookEndpoints: MongoWebhookEndpointRepository,
  webhookDeliveries: MongoWebhookDeliveryRepository,
};

/** Bind the Mongo repositories over `ctx` (from `openMongoContext`); whoever opened the context closes it. */
export const mongoStoreModule = (ctx: MongoContext): ContainerModule =>
  new ContainerModule(({ bind }) => {
    bind(MONGO_CONTEXT).toConstantValue(ctx);
    // Generic in the key, so Inversify checks each class against its token's type.
    const bindPort = <K extends StorePortKey>(key: K): void => void bind(storePortTokens[key]).to(MONGO_STORE_CLASSES[key]).inSingletonScope();
    for (const key of STORE_PORT_KEYS) bindPort(key);
    bind(PORTS.StoreHealth).to(MongoStoreHealth).inSingletonScope();
  });
