/**
 * The memory store and the sandbox bureau as Inversify modules: every storage
 * port of core bound to its in-memory repository (one fresh, empty store per
 * container), and `CreditBureau` to the simulated bureau. A port added to the
 * store is one line in `MEMORY_STORE_CLASSES`.
 */
import { ContainerModule } from 'inversify';
import { PORTS, STORE_PORT_KEYS, storePortTokens, type StorePortClasses, type StorePortKey } from '@debtkit/core';
import { MemoryAccountRepository } from './memory-account-repository.js';
import { MemoryBureauFlowRepository } from './memory-bureau-flow-repository.js';
import { MemoryClientRepository } from './memory-client-repository.js';
import { MemoryContentRepository } from './memory-content-repository.js';
import { MemoryCreditScoreRepository } from './memory-credit-score-repository.js';
import { MemoryPaymentPlanRepository } from './memory-payment-plan-repository.js';
import { MemoryPlanPaymentRepository } from './memory-plan-payment-repository.js';
import { MemoryStoreHealth } from './memory-store-health.js';
import { MemoryTokenRepository } from './memory-token-repository.js';
import { MemoryUserRepository } from './memory-user-repository.js';
import { SandboxCreditBureau } from './sandbox-credit-bureau.js';
import { MemoryIdempotencyStore } from './memory-idempotency-store.js';
import { MemoryEventOutbox } from './memory-event-outbox.js';
import { MemoryWebhookEndpointRepository } from './memory-webhook-endpoint-repository.js';
import { MemoryWebhookDeliveryRepository } from './memory-webhook-delivery-repository.js';

/** The memory store's class for each store port (the port table's keys: a missing or wrong class does not compile). */
export const MEMORY_STORE_CLASSES: StorePortClasses = {
  clients: MemoryClientRepository,
  tokens: MemoryTokenRepository,
  users: MemoryUserRepository,
  accounts: MemoryAccountRepository,
  creditScores: MemoryCreditScoreRepository,
  bureauFlows: MemoryBureauFlowRepository,
  paymentPlans: MemoryPaymentPlanRepository,
  planPayments: MemoryPlanPaymentRepository,
  content: MemoryContentRepository,
  idempotency: MemoryIdempotencyStore,
  events: MemoryEventOutbox,
  webhookEndpoints: MemoryWebhookEndpointRepository,
  webhookDeliveries: MemoryWebhookDeliveryRepository,
};

export const memoryStoreModule = (): ContainerModule =>
  new ContainerModule(({ bind }) => {
    // Generic in the key, so Inversify checks each class against its token's type.
    const bindPort = <K extends StorePortKey>(key: K): void => void bind(storePortTokens[key]).to(MEMORY_STORE_CLASSES[key]).inSingletonScope();
    for (const key of STORE_PORT_KEYS) bindPort(key);
    bind(PORTS.StoreHealth).to(MemoryStoreHealth).inSingletonScope();
  });

/** The simulated bureau (test data): for sandbox, or production only when the operator says so. */
export const sandboxBureauModule = (): ContainerModule =>
  new ContainerModule(({ bind }) => {
    bind(PORTS.CreditBureau).to(SandboxCreditBureau).inSingletonScope();
  });
