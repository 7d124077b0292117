/**
 * @debtkit/core/testing: the storage contract suites every store adapter runs,
 * the object mothers that feed them, and TaskEither assertions.
 * Needs mocha's globals (`describe`, `it`, hooks) and chai at run time.
 */
export * from './contract-harness.js';
export * from './record-mothers.js';
export { itPagesAscendingById } from './paging.contract.js';
export type { PagedCollection } from './paging.contract.js';
export { runStoreContracts } from './store.contract.js';
export { clientRepositoryContract } from './client-repository.contract.js';
export { tokenRepositoryContract } from './token-repository.contract.js';
export { auditLogContract } from './audit-log.contract.js';
export { userRepositoryContract } from './user-repository.contract.js';
export { accountRepositoryContract } from './account-repository.contract.js';
export { creditScoreRepositoryContract } from './credit-score-repository.contract.js';
export { ownedReadsContract } from './owned-reads.contract.js';
export { bureauFlowRepositoryContract } from './bureau-flow-repository.contract.js';
export { paymentPlanRepositoryContract } from './payment-plan-repository.contract.js';
export { planPaymentRepositoryContract } from './plan-payment-repository.contract.js';
export { contentRepositoryContract } from './content-repository.contract.js';
export { storeHealthContract } from './store-health.contract.js';
export { concurrencyContract } from './concurrency.contract.js';
export { quotaConcurrencyContract } from './quotas.contract.js';
export { idempotencyStoreContract } from './idempotency-store.contract.js';
export { demoSeedContract } from './demo-seed.contract.js';
export { interleavingStore } from './interleaving-store.js';
export { erasureRegistryContract } from './erasure-registry.contract.js';
export { webhookStoresContract, anEvent, aWebhookEndpoint, aDelivery } from './webhook-stores.contract.js';
export { sequentialSecrets, readableTokenHasher, aSandboxToken } from './test-secrets.js';
export { faultInjectingStore, type FaultInjectingStore } from './fault-injecting-store.js';
export { atomicityContract, type AtomicityContractOptions } from './atomicity.contract.js';
