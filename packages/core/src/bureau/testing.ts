/**
 * What the bureau feature gives the stores' tests (`@debtkit/core/testing`, docs/adding-a-resource.md):
 * its contract suites and object mothers, and its row of contract suites (`bureauContracts`), which
 * `runStoreContracts` runs on every store. One line in registry/feature-testing.ts lists this file.
 */
import type { FeatureContracts } from '../testing/contract-harness.js';
import type { storePorts } from './manifest.js';
import { bureauFlowRepositoryContract } from './bureau-flow-repository.contract.js';
export * from './record-mothers.js';
export { bureauFlowRepositoryContract } from './bureau-flow-repository.contract.js';

export const bureauContracts = {
  ports: { bureauFlows: bureauFlowRepositoryContract },
} as const satisfies FeatureContracts<typeof storePorts>;
