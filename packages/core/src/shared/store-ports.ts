/**
 * The port table (docs/architecture.md): every store port is listed ONCE, in `STORE_PORTS`,
 * with its key and its type. Everything else is derived from it: the
 * `TransactionPorts` / `StorePorts` records, each store adapter's Inversify
 * bindings (a class table typed `StorePortClasses`), the ports a transaction
 * hands out, the composition root's lookups, and the use cases' `ApplicationDeps`.
 * Adding a store port is: one line here, one class in each store's class table;
 * the compiler finds every other place.
 */
import type { Clock } from './clock.js';
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
import type { StoreHealth } from './store-health.js';
import type { IdempotencyStore } from './idempotency-store.js';
import type { EventOutbox } from '../webhooks/event-outbox.js';
import type { WebhookEndpointRepository } from '../webhooks/webhook-endpoint-repository.js';
import type { WebhookDeliveryRepository } from '../webhooks/webhook-delivery-repository.js';
import type { ErasureRegistry } from '../users/erasure-registry.js';
import type { TokenHasher } from '../clients/token-hasher.js';
import type { SecretGenerator } from './secret-generator.js';
import type { UnitOfWork } from './unit-of-work.js';

/**
 * A typed service identifier. At run time a symbol; its type is also an
 * abstract constructor of `T`, the one member of Inversify's
 * `ServiceIdentifier<T>` (`string | symbol | Newable<T> | AbstractNewable<T>`)
 * that carries a `T`. So Inversify itself infers `T` from a token and checks
 * `bind(token).to(Class)`, `toConstantValue`, `toResolvedValue`'s dependency
 * list and `get(token)`: a wrong class or a swapped token does not compile.
 * Nothing ever calls `new` on a token. (core imports nothing from inversify.)
 */
export type PortToken<T> = symbol & (abstract new (...args: never[]) => T);

/** The type a token stands for. */
export type PortOf<Token> = Token extends PortToken<infer T> ? T : never;

/** A new token: `Symbol.for`, so two copies of core agree on it. */
export const portToken = <T>(name: string): PortToken<T> =>
  // The one cast of the table: a symbol is given the phantom constructor type (see PortToken).
  Symbol.for(`debtkit.${name}`) as unknown as PortToken<T>;

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

export type StorePortKey = keyof typeof STORE_PORTS;

/** Every store port, by key: what a transaction hands out, and what a store adapter implements. */
export type TransactionPorts = { readonly [K in StorePortKey]: PortOf<(typeof STORE_PORTS)[K]> };

/**
 * `STORE_PORTS` typed as a mapped table, so code generic in the key (`storePortTokens[key]`
 * with `key: K`) still sees `PortToken<TransactionPorts[K]>`.
 */
export const storePortTokens: { readonly [K in StorePortKey]: PortToken<TransactionPorts[K]> } = STORE_PORTS;

/** The keys of the table, in its order. */
export const STORE_PORT_KEYS: ReadonlyArray<StorePortKey> = Object.keys(STORE_PORTS) as StorePortKey[];

/**
 * A store adapter's implementation classes, one per key (`Newable<T>` as Inversify
 * has it). A class table typed with this misses no port and has no wrong class.
 */
export type StorePortClasses = { readonly [K in StorePortKey]: new (...args: any[]) => TransactionPorts[K] };

/** A ports record built key by key: `portFor(key)` gives that key's port. */
export const buildStorePorts = (portFor: <K extends StorePortKey>(key: K) => TransactionPorts[K]): TransactionPorts => {
  const ports: Partial<Record<StorePortKey, unknown>> = {};
  for (const key of STORE_PORT_KEYS) ports[key] = portFor(key);
  // Every key was set just above, each with the type its key maps to.
  return ports as TransactionPorts;
};

/** `ports` with each port replaced by `f(key, port)` (e.g. a wrapper that injects faults or interleaving). */
export const mapStorePorts = (
  ports: TransactionPorts,
  f: <K extends StorePortKey>(key: K, port: TransactionPorts[K]) => TransactionPorts[K],
): TransactionPorts => buildStorePorts((key) => f(key, ports[key]));

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

/** An opened store: every store port, its health, its unit of work, and how to release it (what a store adapter factory returns). */
export interface StorePorts extends TransactionPorts {
  readonly health: StoreHealth;
  /** Runs a change as one transaction over these ports (docs/decisions/transactions.md). */
  readonly unitOfWork: UnitOfWork;
  /** Release connections (no-op for memory). */
  close(): Promise<void>;
}
