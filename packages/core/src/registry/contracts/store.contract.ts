/**
 * Every storage port's contract, run against one store adapter (docs/architecture.md): the
 * memory and mongo adapters each call this once from their tests.
 */
import type { StoreContractOptions, StoreFactory } from '../../testing/contract-harness.js';
import type { StorePortKey } from '../../shared/store-ports.js';
import { accountRepositoryContract } from '../../accounts/account-repository.contract.js';
import { bureauFlowRepositoryContract } from '../../bureau/bureau-flow-repository.contract.js';
import { clientRepositoryContract } from '../../clients/client-repository.contract.js';
import { creditScoreRepositoryContract } from '../../credit-scores/credit-score-repository.contract.js';
import { ownedReadsContract } from './owned-reads.contract.js';
import { paymentPlanRepositoryContract } from '../../payment-plans/payment-plan-repository.contract.js';
import { planPaymentRepositoryContract } from '../../payment-plans/plan-payment-repository.contract.js';
import { storeHealthContract } from '../../testing/store-health.contract.js';
import { tokenRepositoryContract } from '../../clients/token-repository.contract.js';
import { auditLogContract } from '../../clients/audit-log.contract.js';
import { userRepositoryContract } from './user-repository.contract.js';
import { concurrencyContract } from './concurrency.contract.js';
import { idempotencyStoreContract } from '../../testing/idempotency-store.contract.js';
import { webhookStoresContract } from '../../webhooks/webhook-stores.contract.js';
import { demoSeedContract } from '../../demo/demo-seed.contract.js';
import { erasureRegistryContract } from '../../users/erasure-registry.contract.js';

/** A contract suite over a store: registers its `describe` blocks. */
type StoreContract = (name: string, makeStore: StoreFactory, opts: StoreContractOptions) => void;

/**
 * Each store port's contract suite: ONE row per port of the port table (`STORE_PORTS`), so a new
 * port does not compile until it names the suite that checks it on every store. A suite
 * covering several ports (the webhook stores) is named by each of them and runs once.
 */
export const PORT_CONTRACTS = {
  clients: clientRepositoryContract,
  tokens: tokenRepositoryContract,
  audit: auditLogContract,
  users: userRepositoryContract,
  accounts: accountRepositoryContract,
  creditScores: creditScoreRepositoryContract,
  bureauFlows: bureauFlowRepositoryContract,
  paymentPlans: paymentPlanRepositoryContract,
  planPayments: planPaymentRepositoryContract,
  idempotency: idempotencyStoreContract,
  events: webhookStoresContract,
  webhookEndpoints: webhookStoresContract,
  webhookDeliveries: webhookStoresContract,
  erasures: erasureRegistryContract,
} as const satisfies { readonly [K in StorePortKey]: StoreContract };

/** The suites over several ports at once, and over the store as a whole (its health, the demo seed). */
const STORE_WIDE_CONTRACTS: ReadonlyArray<StoreContract> = [ownedReadsContract, storeHealthContract, concurrencyContract, demoSeedContract];

/**
 * Register one `describe` per storage port. `makeStore` is called before every
 * test and must return a new, empty store; it is closed after the test
 * (`opts.cleanup` runs first, e.g. to drop a test database).
 * @example
 *   runStoreContracts('memory store', async () => createMemoryStore());
 */
export function runStoreContracts(name: string, makeStore: StoreFactory, opts: StoreContractOptions = {}): void {
  for (const contract of new Set<StoreContract>([...Object.values(PORT_CONTRACTS), ...STORE_WIDE_CONTRACTS]))
    contract(name, makeStore, opts);
}
