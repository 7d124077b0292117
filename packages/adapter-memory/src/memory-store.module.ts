/**
 * The memory store and the sandbox bureau as Inversify modules: every storage
 * port of core bound to its in-memory repository (one fresh, empty store per
 * container), and `CreditBureau` to the simulated bureau. A port added to the
 * store is one `bind` line here.
 */
import { ContainerModule } from 'inversify';
import { PORTS } from '@debtkit/core';
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

export const memoryStoreModule = (): ContainerModule =>
  new ContainerModule(({ bind }) => {
    bind(PORTS.ClientRepository).to(MemoryClientRepository).inSingletonScope();
    bind(PORTS.TokenRepository).to(MemoryTokenRepository).inSingletonScope();
    bind(PORTS.UserRepository).to(MemoryUserRepository).inSingletonScope();
    bind(PORTS.AccountRepository).to(MemoryAccountRepository).inSingletonScope();
    bind(PORTS.CreditScoreRepository).to(MemoryCreditScoreRepository).inSingletonScope();
    bind(PORTS.BureauFlowRepository).to(MemoryBureauFlowRepository).inSingletonScope();
    bind(PORTS.PaymentPlanRepository).to(MemoryPaymentPlanRepository).inSingletonScope();
    bind(PORTS.PlanPaymentRepository).to(MemoryPlanPaymentRepository).inSingletonScope();
    bind(PORTS.ContentRepository).to(MemoryContentRepository).inSingletonScope();
    bind(PORTS.StoreHealth).to(MemoryStoreHealth).inSingletonScope();
    bind(PORTS.IdempotencyStore).to(MemoryIdempotencyStore).inSingletonScope();
    bind(PORTS.EventOutbox).to(MemoryEventOutbox).inSingletonScope();
    bind(PORTS.WebhookEndpointRepository).to(MemoryWebhookEndpointRepository).inSingletonScope();
    bind(PORTS.WebhookDeliveryRepository).to(MemoryWebhookDeliveryRepository).inSingletonScope();
  });

/** The simulated bureau (test data): for sandbox, or production only when the operator says so. */
export const sandboxBureauModule = (): ContainerModule =>
  new ContainerModule(({ bind }) => {
    bind(PORTS.CreditBureau).to(SandboxCreditBureau).inSingletonScope();
  });
