/**
 * @debtkit/core/testing: the storage contract suites every store adapter runs,
 * the object mothers that feed them, and TaskEither assertions.
 * On the registry floor (docs/architecture.md): the kernel's and the registry's suites, and every feature's
 * (its `testing.ts`, listed once in registry/feature-testing.ts).
 * Needs mocha's globals (`describe`, `it`, hooks) and chai at run time.
 */
export * from '../testing/contract-harness.js';
export * from '../testing/record-mothers.js';
// Each feature's suites, mothers and row of suites, one line per feature (registry/feature-testing.ts).
export * from './feature-testing.js';
export { itPagesAscendingById } from '../testing/paging.contract.js';
export type { PagedCollection } from '../testing/paging.contract.js';
export { runStoreContracts } from './contracts/store.contract.js';
export { userRepositoryContract } from './contracts/user-repository.contract.js';
export { ownedReadsContract } from './contracts/owned-reads.contract.js';
export { storeHealthContract } from '../testing/store-health.contract.js';
export { concurrencyContract } from './contracts/concurrency.contract.js';
export { quotaConcurrencyContract } from './contracts/quotas.contract.js';
export { idempotencyStoreContract } from '../testing/idempotency-store.contract.js';
export { interleavingStore } from '../testing/interleaving-store.js';
export { sequentialSecrets } from '../testing/test-secrets.js';
export { faultInjectingStore, type FaultInjectingStore } from '../testing/fault-injecting-store.js';
export { atomicityContract, type AtomicityContractOptions } from './contracts/atomicity.contract.js';
