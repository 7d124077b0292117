/**
 * What the demo feature gives the stores' tests (`@debtkit/core/testing`, docs/adding-a-resource.md):
 * its contract suites and object mothers, and its row of contract suites (`demoContracts`), which
 * `runStoreContracts` runs on every store. One line in registry/feature-testing.ts lists this file.
 */
import type { FeatureContracts } from '../testing/contract-harness.js';
import type { storePorts } from './manifest.js';
import { demoSeedContract } from './demo-seed.contract.js';
export { demoSeedContract } from './demo-seed.contract.js';

export const demoContracts = {
  ports: {},
  storeWide: [demoSeedContract],
} as const satisfies FeatureContracts<typeof storePorts>;
