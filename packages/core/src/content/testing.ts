/**
 * What the content feature gives the stores' tests (`@debtkit/core/testing`, docs/adding-a-resource.md):
 * its contract suites and object mothers, and its row of contract suites (`contentContracts`), which
 * `runStoreContracts` runs on every store. One line in registry/feature-testing.ts lists this file.
 */
import type { FeatureContracts } from '../testing/contract-harness.js';
import type { storePorts } from './manifest.js';

export { contentRepositoryContract } from './content-repository.contract.js';

export const contentContracts = {
  ports: {},
} as const satisfies FeatureContracts<typeof storePorts>;
