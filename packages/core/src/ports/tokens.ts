/**
 * Typed identifiers for the composition root (Inversify `ServiceIdentifier<T>`
 * is satisfied by a symbol; the phantom type documents what is bound).
 */
import type { Clock } from './clock.js';
import type { ClientRepository } from './client-repository.js';
import type { TokenRepository } from './token-repository.js';
import type { UserRepository } from './user-repository.js';
import type { AccountRepository } from './account-repository.js';
import type { CreditScoreRepository } from './credit-score-repository.js';
import type { BureauFlowRepository } from './bureau-flow-repository.js';
import type { PaymentPlanRepository } from './payment-plan-repository.js';
import type { PlanPaymentRepository } from './plan-payment-repository.js';
import type { ContentRepository } from './content-repository.js';
import type { CreditBureau } from './credit-bureau.js';
import type { StoreHealth } from './store-health.js';
import type { IdempotencyStore } from './idempotency-store.js';
import type { EventOutbox } from './event-outbox.js';
import type { WebhookEndpointRepository } from './webhook-endpoint-repository.js';
import type { WebhookDeliveryRepository } from './webhook-delivery-repository.js';
import type { TokenHasher } from './token-hasher.js';
import type { SecretGenerator } from './secret-generator.js';

export type PortToken<T> = symbol & { readonly __port?: T };
const token = <T>(name: string): PortToken<T> => Symbol.for(`debtkit.${name}`) as PortToken<T>;

export const PORTS = {
  Clock: token<Clock>('Clock'),
  ClientRepository: token<ClientRepository>('ClientRepository'),
  TokenRepository: token<TokenRepository>('TokenRepository'),
  UserRepository: token<UserRepository>('UserRepository'),
  AccountRepository: token<AccountRepository>('AccountRepository'),
  CreditScoreRepository: token<CreditScoreRepository>('CreditScoreRepository'),
  BureauFlowRepository: token<BureauFlowRepository>('BureauFlowRepository'),
  PaymentPlanRepository: token<PaymentPlanRepository>('PaymentPlanRepository'),
  PlanPaymentRepository: token<PlanPaymentRepository>('PlanPaymentRepository'),
  ContentRepository: token<ContentRepository>('ContentRepository'),
  CreditBureau: token<CreditBureau>('CreditBureau'),
  StoreHealth: token<StoreHealth>('StoreHealth'),
  IdempotencyStore: token<IdempotencyStore>('IdempotencyStore'),
  EventOutbox: token<EventOutbox>('EventOutbox'),
  WebhookEndpointRepository: token<WebhookEndpointRepository>('WebhookEndpointRepository'),
  WebhookDeliveryRepository: token<WebhookDeliveryRepository>('WebhookDeliveryRepository'),
  TokenHasher: token<TokenHasher>('TokenHasher'),
  SecretGenerator: token<SecretGenerator>('SecretGenerator'),
} as const;

/** Every storage port an adapter provides, in one record (what a store adapter factory returns). */
export interface StorePorts {
  readonly clients: ClientRepository;
  readonly tokens: TokenRepository;
  readonly users: UserRepository;
  readonly accounts: AccountRepository;
  readonly creditScores: CreditScoreRepository;
  readonly bureauFlows: BureauFlowRepository;
  readonly paymentPlans: PaymentPlanRepository;
  readonly planPayments: PlanPaymentRepository;
  readonly content: ContentRepository;
  readonly health: StoreHealth;
  /** Idempotency keys of POST requests (DESIGN 4.2). */
  readonly idempotency: IdempotencyStore;
  readonly events: EventOutbox;
  readonly webhookEndpoints: WebhookEndpointRepository;
  readonly webhookDeliveries: WebhookDeliveryRepository;
  /** Release connections (no-op for memory). */
  close(): Promise<void>;
}
