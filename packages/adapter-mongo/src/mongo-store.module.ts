/**
 * The MongoDB store as an Inversify module: every storage port of core bound
 * to its Mongo repository, all sharing one opened context. A port added to the
 * store is one `bind` line here.
 */
import { ContainerModule } from 'inversify';
import { PORTS } from '@debtkit/core';
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

/** Bind the Mongo repositories over `ctx` (from `openMongoContext`); whoever opened the context closes it. */
export const mongoStoreModule = (ctx: MongoContext): ContainerModule =>
  new ContainerModule(({ bind }) => {
    bind(MONGO_CONTEXT).toConstantValue(ctx);
    bind(PORTS.ClientRepository).to(MongoClientRepository).inSingletonScope();
    bind(PORTS.TokenRepository).to(MongoTokenRepository).inSingletonScope();
    bind(PORTS.UserRepository).to(MongoUserRepository).inSingletonScope();
    bind(PORTS.AccountRepository).to(MongoAccountRepository).inSingletonScope();
    bind(PORTS.CreditScoreRepository).to(MongoCreditScoreRepository).inSingletonScope();
    bind(PORTS.BureauFlowRepository).to(MongoBureauFlowRepository).inSingletonScope();
    bind(PORTS.PaymentPlanRepository).to(MongoPaymentPlanRepository).inSingletonScope();
    bind(PORTS.PlanPaymentRepository).to(MongoPlanPaymentRepository).inSingletonScope();
    bind(PORTS.ContentRepository).to(MongoContentRepository).inSingletonScope();
    bind(PORTS.StoreHealth).to(MongoStoreHealth).inSingletonScope();
    bind(PORTS.IdempotencyStore).to(MongoIdempotencyStore).inSingletonScope();
    bind(PORTS.EventOutbox).to(MongoEventOutbox).inSingletonScope();
    bind(PORTS.WebhookEndpointRepository).to(MongoWebhookEndpointRepository).inSingletonScope();
    bind(PORTS.WebhookDeliveryRepository).to(MongoWebhookDeliveryRepository).inSingletonScope();
  });
