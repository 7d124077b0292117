/**
 * @debtkit/core/testing: the storage contract suites every store adapter runs,
 * the object mothers that feed them, and TaskEither assertions.
 * On the registry floor (docs/architecture.md): it names every feature's suites and mothers.
 * Needs mocha's globals (`describe`, `it`, hooks) and chai at run time.
 */
export * from '../testing/contract-harness.js';
export * from '../testing/record-mothers.js';
export * from '../clients/record-mothers.js';
export * from '../users/record-mothers.js';
export * from '../accounts/record-mothers.js';
export * from '../credit-scores/record-mothers.js';
export * from '../bureau/record-mothers.js';
export * from '../payment-plans/record-mothers.js';
export { itPagesAscendingById } from '../testing/paging.contract.js';
export type { PagedCollection } from '../testing/paging.contract.js';
export { runStoreContracts } from './contracts/store.contract.js';
export { clientRepositoryContract } from '../clients/client-repository.contract.js';
export { tokenRepositoryContract } from '../clients/token-repository.contract.js';
export { auditLogContract } from '../clients/audit-log.contract.js';
export { userRepositoryContract } from './contracts/user-repository.contract.js';
export { accountRepositoryContract } from '../accounts/account-repository.contract.js';
export { creditScoreRepositoryContract } from '../credit-scores/credit-score-repository.contract.js';
export { ownedReadsContract } from './contracts/owned-reads.contract.js';
export { bureauFlowRepositoryContract } from '../bureau/bureau-flow-repository.contract.js';
export { paymentPlanRepositoryContract } from '../payment-plans/payment-plan-repository.contract.js';
export { planPaymentRepositoryContract } from '../payment-plans/plan-payment-repository.contract.js';
export { contentRepositoryContract } from '../content/content-repository.contract.js';
export { storeHealthContract } from '../testing/store-health.contract.js';
export { concurrencyContract } from './contracts/concurrency.contract.js';
export { quotaConcurrencyContract } from './contracts/quotas.contract.js';
export { idempotencyStoreContract } from '../testing/idempotency-store.contract.js';
export { demoSeedContract } from '../demo/demo-seed.contract.js';
export { interleavingStore } from '../testing/interleaving-store.js';
export { erasureRegistryContract } from '../users/erasure-registry.contract.js';
export { webhookStoresContract, anEvent, aWebhookEndpoint, aDelivery } from '../webhooks/webhook-stores.contract.js';
export { sequentialSecrets } from '../testing/test-secrets.js';
export { readableTokenHasher, aSandboxToken } from '../clients/test-tokens.js';
export { faultInjectingStore, type FaultInjectingStore } from '../testing/fault-injecting-store.js';
export { atomicityContract, type AtomicityContractOptions } from './contracts/atomicity.contract.js';
