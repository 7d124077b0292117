/**
 * What the clients feature gives the stores' tests (`@debtkit/core/testing`, docs/adding-a-resource.md):
 * its contract suites and object mothers, and its row of contract suites (`clientsContracts`), which
 * `runStoreContracts` runs on every store. One line in registry/feature-testing.ts lists this file.
 */
import type { FeatureContracts } from '../testing/contract-harness.js';
import type { storePorts } from './manifest.js';
import { clientRepositoryContract } from './client-repository.contract.js';
import { tokenRepositoryContract } from './token-repository.contract.js';
import { auditLogContract } from './audit-log.contract.js';
export * from './record-mothers.js';
export { clientRepositoryContract } from './client-repository.contract.js';
export { tokenRepositoryContract } from './token-repository.contract.js';
export { auditLogContract } from './audit-log.contract.js';
export { readableTokenHasher, aSandboxToken } from './test-tokens.js';

export const clientsContracts = {
  ports: { clients: clientRepositoryContract, tokens: tokenRepositoryContract, audit: auditLogContract },
} as const satisfies FeatureContracts<typeof storePorts>;
