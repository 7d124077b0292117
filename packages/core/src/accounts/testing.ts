/**
 * What the accounts feature gives the stores' tests (`@debtkit/core/testing`, docs/adding-a-resource.md):
 * its contract suites and object mothers, and its row of contract suites (`accountsContracts`), which
 * `runStoreContracts` runs on every store. One line in registry/feature-testing.ts lists this file.
 */
import type { FeatureContracts } from '../testing/contract-harness.js';
import type { storePorts } from './manifest.js';
import { accountRepositoryContract } from './account-repository.contract.js';
export * from './record-mothers.js';
export { accountRepositoryContract } from './account-repository.contract.js';

export const accountsContracts = {
  ports: { accounts: accountRepositoryContract },
} as const satisfies FeatureContracts<typeof storePorts>;
