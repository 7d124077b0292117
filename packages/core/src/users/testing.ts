/**
 * What the users feature gives the stores' tests (`@debtkit/core/testing`, docs/adding-a-resource.md):
 * its contract suites and object mothers, and its row of contract suites (`usersContracts`), which
 * `runStoreContracts` runs on every store. One line in registry/feature-testing.ts lists this file.
 */
import type { FeatureContracts } from '../testing/contract-harness.js';
import type { storePorts } from './manifest.js';
import { erasureRegistryContract } from './erasure-registry.contract.js';
export * from './record-mothers.js';
export { erasureRegistryContract } from './erasure-registry.contract.js';

// Not `users`: the users port's suite names every feature's records, so it is the registry's (registry/contracts/user-repository.contract.ts).
export const usersContracts = {
  ports: { erasures: erasureRegistryContract },
} as const satisfies FeatureContracts<Omit<typeof storePorts, 'users'>>;
