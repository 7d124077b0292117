/**
 * The in-memory store: every storage port over plain Maps, for tests, demos and
 * `npm start`. It starts empty; seeding is explicit (see core's `seedDemo`).
 */
import type { StorePorts } from '@debtkit/core';
import { MemoryAccountRepository } from './memory-account-repository.js';
import { MemoryBureauFlowRepository } from './memory-bureau-flow-repository.js';
import { MemoryClientRepository } from './memory-client-repository.js';
import { MemoryContentRepository } from './memory-content-repository.js';
import { MemoryCreditScoreRepository } from './memory-credit-score-repository.js';
import { MemoryPaymentPlanRepository } from './memory-payment-plan-repository.js';
import { MemoryPlanPaymentRepository } from './memory-plan-payment-repository.js';
import { MemoryStoreHealth } from './memory-store-health.js';
import { MemoryIdempotencyStore } from './memory-idempotency-store.js';
import { MemoryTokenRepository } from './memory-token-repository.js';
import { MemoryUserRepository } from './memory-user-repository.js';
import { MemoryEventOutbox } from './memory-event-outbox.js';
import { MemoryWebhookEndpointRepository } from './memory-webhook-endpoint-repository.js';
import { MemoryWebhookDeliveryRepository } from './memory-webhook-delivery-repository.js';

/**
 * A new, empty store; each call is independent of every other.
 * @example
 *   const store = createMemoryStore();
 *   const client = await store.clients.create({ name: 'Demo', environment: 'sandbox', api_version: '2024-07-01', created_at })();
 */
export const createMemoryStore = (): StorePorts => memoryStoreAround(new MemoryUserRepository());

/** The owned reads of accounts, scores and plans check the user through the store's own `users`. */
const memoryStoreAround = (users: MemoryUserRepository): StorePorts => ({
  clients: new MemoryClientRepository(),
  tokens: new MemoryTokenRepository(),
  users,
  accounts: new MemoryAccountRepository(users),
  creditScores: new MemoryCreditScoreRepository(users),
  bureauFlows: new MemoryBureauFlowRepository(),
  paymentPlans: new MemoryPaymentPlanRepository(users),
  planPayments: new MemoryPlanPaymentRepository(),
  content: new MemoryContentRepository(),
  health: new MemoryStoreHealth(),
  idempotency: new MemoryIdempotencyStore(),
  events: new MemoryEventOutbox(),
  webhookEndpoints: new MemoryWebhookEndpointRepository(),
  webhookDeliveries: new MemoryWebhookDeliveryRepository(),
  // Nothing to release: the maps go with the store object.
  close: () => Promise.resolve(),
});
