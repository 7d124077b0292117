/**
 * The repositories over one context: the store's own (mongo-store.ts), or a
 * transaction's, whose context carries its session (mongo-unit-of-work.ts).
 * Each is built on first use: a transaction pays only for the ports it touches.
 */
import type { TransactionPorts } from '@debtkit/core';
import type { MongoContext } from './mongo-context.js';
import { MongoAccountRepository } from './mongo-account-repository.js';
import { MongoBureauFlowRepository } from './mongo-bureau-flow-repository.js';
import { MongoClientRepository } from './mongo-client-repository.js';
import { MongoContentRepository } from './mongo-content-repository.js';
import { MongoCreditScoreRepository } from './mongo-credit-score-repository.js';
import { MongoPaymentPlanRepository } from './mongo-payment-plan-repository.js';
import { MongoPlanPaymentRepository } from './mongo-plan-payment-repository.js';
import { MongoIdempotencyStore } from './mongo-idempotency-store.js';
import { MongoTokenRepository } from './mongo-token-repository.js';
import { MongoUserRepository } from './mongo-user-repository.js';
import { MongoEventOutbox } from './mongo-event-outbox.js';
import { MongoWebhookEndpointRepository } from './mongo-webhook-endpoint-repository.js';
import { MongoWebhookDeliveryRepository } from './mongo-webhook-delivery-repository.js';

const REPOSITORIES: { readonly [K in keyof TransactionPorts]: (ctx: MongoContext) => TransactionPorts[K] } = {
  clients: (ctx) => new MongoClientRepository(ctx),
  tokens: (ctx) => new MongoTokenRepository(ctx),
  users: (ctx) => new MongoUserRepository(ctx),
  accounts: (ctx) => new MongoAccountRepository(ctx),
  creditScores: (ctx) => new MongoCreditScoreRepository(ctx),
  bureauFlows: (ctx) => new MongoBureauFlowRepository(ctx),
  paymentPlans: (ctx) => new MongoPaymentPlanRepository(ctx),
  planPayments: (ctx) => new MongoPlanPaymentRepository(ctx),
  content: () => new MongoContentRepository(),
  idempotency: (ctx) => new MongoIdempotencyStore(ctx),
  events: (ctx) => new MongoEventOutbox(ctx),
  webhookEndpoints: (ctx) => new MongoWebhookEndpointRepository(ctx),
  webhookDeliveries: (ctx) => new MongoWebhookDeliveryRepository(ctx),
};

/** Every repository over `ctx`, each built when first read. */
export const mongoTransactionPorts = (ctx: MongoContext): TransactionPorts => {
  const ports = {} as Record<keyof TransactionPorts, unknown>;
  for (const name of Object.keys(REPOSITORIES) as Array<keyof TransactionPorts>) {
    let built: unknown;
    Object.defineProperty(ports, name, { enumerable: true, get: () => (built ??= REPOSITORIES[name](ctx)) });
  }
  return ports as TransactionPorts;
};
