/**
 * The port table (docs/architecture.md), on the registry floor: every store port is listed ONCE, in `STORE_PORTS`,
 * with its key and its type. Everything else is derived from it: the
 * `TransactionPorts` / `StorePorts` records, each store adapter's Inversify
 * bindings (a class table typed `StorePortClasses`), the ports a transaction
 * hands out, the composition root's lookups, and the use cases' `ApplicationDeps`.
 * Adding a store port is: one line here, one class in each store's class table;
 * the compiler finds every other place.
 */
import type { Clock } from '../shared/clock.js';
import type { ClientRepository } from '../clients/client-repository.js';
import type { TokenRepository } from '../clients/token-repository.js';
import type { AuditLog } from '../clients/audit-log.js';
import type { UserRepository } from '../users/user-repository.js';
import type { AccountRepository } from '../accounts/account-repository.js';
import type { CreditScoreRepository } from '../credit-scores/credit-score-repository.js';
import type { BureauFlowRepository } from '../bureau/bureau-flow-repository.js';
import type { PaymentPlanRepository } from '../payment-plans/payment-plan-repository.js';
import type { PlanPaymentRepository } from '../payment-plans/plan-payment-repository.js';
import type { CreditBureau } from '../bureau/credit-bureau.js';
import type { StoreHealth } from '../shared/store-health.js';
import type { IdempotencyStore } from '../shared/idempotency-store.js';
import type { EventOutbox } from '../webhooks/event-outbox.js';
import type { WebhookEndpointRepository } from '../webhooks/webhook-endpoint-repository.js';
import type { WebhookDeliveryRepository } from '../webhooks/webhook-delivery-repository.js';
import type { ErasureRegistry } from '../users/erasure-registry.js';
import type { TokenHasher } from '../clients/token-hasher.js';
import type { SecretGenerator } from '../shared/secret-generator.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { portToken, type PortOf, type PortToken, type StorePortKey, type TransactionPorts } from '../shared/store-ports.js';

/**
 * THE list of store ports: key → typed token. Every one is transactional (a
 * `UnitOfWork` hands all of them out bound to its transaction, shared/unit-of-work.ts).
 */
export const STORE_PORTS = {
  clients: portToken<ClientRepository>('ClientRepository'),
  tokens: portToken<TokenRepository>('TokenRepository'),
  users: portToken<UserRepository>('UserRepository'),
  accounts: portToken<AccountRepository>('AccountRepository'),
  creditScores: portToken<CreditScoreRepository>('CreditScoreRepository'),
  bureauFlows: portToken<BureauFlowRepository>('BureauFlowRepository'),
  paymentPlans: portToken<PaymentPlanRepository>('PaymentPlanRepository'),
  planPayments: portToken<PlanPaymentRepository>('PlanPaymentRepository'),
  /** Idempotency keys of POST requests (docs/decisions/idempotency.md). */
  idempotency: portToken<IdempotencyStore>('IdempotencyStore'),
  events: portToken<EventOutbox>('EventOutbox'),
  webhookEndpoints: portToken<WebhookEndpointRepository>('WebhookEndpointRepository'),
  webhookDeliveries: portToken<WebhookDeliveryRepository>('WebhookDeliveryRepository'),
  /** Markers of erased users (docs/decisions/tenancy.md). */
  erasures: portToken<ErasureRegistry>('ErasureRegistry'),
  /** The operators' audit log (docs/operations.md): appended in each admin change's transaction. */
  audit: portToken<AuditLog>('AuditLog'),
} as const;

/** The ports of the table, by key. */
type RegisteredPorts = { readonly [K in keyof typeof STORE_PORTS]: PortOf<(typeof STORE_PORTS)[K]> };

// The kernel's slot (shared/store-ports.ts) gets one member per row of the table: every
// floor sees `TransactionPorts` whole, and no feature or kernel file imports this one.
declare module '../shared/store-ports.js' {
  interface TransactionPorts extends RegisteredPorts {}
}

/**
 * `STORE_PORTS` typed as a mapped table, so code generic in the key (`storePortTokens[key]`
 * with `key: K`) still sees `PortToken<TransactionPorts[K]>`.
 */
export const storePortTokens: { readonly [K in StorePortKey]: PortToken<TransactionPorts[K]> } = STORE_PORTS;

/** The keys of the table, in its order. */
export const STORE_PORT_KEYS: ReadonlyArray<StorePortKey> = Object.keys(STORE_PORTS) as StorePortKey[];

/** A ports record built key by key: `portFor(key)` gives that key's port. */
export const buildStorePorts = (portFor: <K extends StorePortKey>(key: K) => TransactionPorts[K]): TransactionPorts => {
  const ports: Partial<Record<StorePortKey, unknown>> = {};
  for (const key of STORE_PORT_KEYS) ports[key] = portFor(key);
  // Every key was set just above, each with the type its key maps to.
  return ports as TransactionPorts;
};

/** Tokens of the ports that are not store ports (and of the store's health and unit of work). */
export const PORTS = {
  Clock: portToken<Clock>('Clock'),
  CreditBureau: portToken<CreditBureau>('CreditBureau'),
  StoreHealth: portToken<StoreHealth>('StoreHealth'),
  /** The store's `UnitOfWork` (shared/unit-of-work.ts). */
  UnitOfWork: portToken<UnitOfWork>('UnitOfWork'),
  TokenHasher: portToken<TokenHasher>('TokenHasher'),
  SecretGenerator: portToken<SecretGenerator>('SecretGenerator'),
} as const;
