/**
 * Every storage port's contract, run against one store adapter (docs/architecture.md): the
 * memory and mongo adapters each call this once from their tests.
 */
import type { StoreContractOptions, StoreFactory } from '../../testing/contract-harness.js';
import { accountRepositoryContract } from '../../accounts/account-repository.contract.js';
import { bureauFlowRepositoryContract } from '../../bureau/bureau-flow-repository.contract.js';
import { clientRepositoryContract } from '../../clients/client-repository.contract.js';
import { creditScoreRepositoryContract } from '../../credit-scores/credit-score-repository.contract.js';
import { ownedReadsContract } from './owned-reads.contract.js';
import { paymentPlanRepositoryContract } from '../../payment-plans/payment-plan-repository.contract.js';
import { planPaymentRepositoryContract } from '../../payment-plans/plan-payment-repository.contract.js';
import { storeHealthContract } from '../../shared/store-health.contract.js';
import { tokenRepositoryContract } from '../../clients/token-repository.contract.js';
import { auditLogContract } from '../../clients/audit-log.contract.js';
import { userRepositoryContract } from '../../users/user-repository.contract.js';
import { concurrencyContract } from './concurrency.contract.js';
import { idempotencyStoreContract } from '../../shared/idempotency-store.contract.js';
import { webhookStoresContract } from '../../webhooks/webhook-stores.contract.js';
import { demoSeedContract } from '../../demo/demo-seed.contract.js';
import { erasureRegistryContract } from '../../users/erasure-registry.contract.js';

/**
 * Register one `describe` per storage port. `makeStore` is called before every
 * test and must return a new, empty store; it is closed after the test
 * (`opts.cleanup` runs first, e.g. to drop a test database).
 * @example
 *   runStoreContracts('memory store', async () => createMemoryStore());
 */
export function runStoreContracts(name: string, makeStore: StoreFactory, opts: StoreContractOptions = {}): void {
  clientRepositoryContract(name, makeStore, opts);
  tokenRepositoryContract(name, makeStore, opts);
  auditLogContract(name, makeStore, opts);
  userRepositoryContract(name, makeStore, opts);
  accountRepositoryContract(name, makeStore, opts);
  creditScoreRepositoryContract(name, makeStore, opts);
  ownedReadsContract(name, makeStore, opts);
  bureauFlowRepositoryContract(name, makeStore, opts);
  paymentPlanRepositoryContract(name, makeStore, opts);
  planPaymentRepositoryContract(name, makeStore, opts);
  storeHealthContract(name, makeStore, opts);
  idempotencyStoreContract(name, makeStore, opts);
  concurrencyContract(name, makeStore, opts);
  webhookStoresContract(name, makeStore, opts);
  erasureRegistryContract(name, makeStore, opts);
  demoSeedContract(name, makeStore, opts);
}
