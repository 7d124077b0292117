/**
 * What the credit-scores feature gives the stores' tests (`@debtkit/core/testing`, docs/adding-a-resource.md):
 * its contract suites and object mothers, and its row of contract suites (`creditScoresContracts`), which
 * `runStoreContracts` runs on every store. One line in registry/feature-testing.ts lists this file.
 */
import type { FeatureContracts } from '../testing/contract-harness.js';
import type { storePorts } from './manifest.js';
import { creditScoreRepositoryContract } from './credit-score-repository.contract.js';
export * from './record-mothers.js';
export { creditScoreRepositoryContract } from './credit-score-repository.contract.js';

export const creditScoresContracts = {
  ports: { creditScores: creditScoreRepositoryContract },
} as const satisfies FeatureContracts<typeof storePorts>;
