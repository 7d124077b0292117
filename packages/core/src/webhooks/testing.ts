/**
 * What the webhooks feature gives the stores' tests (`@debtkit/core/testing`, docs/adding-a-resource.md):
 * its contract suites and object mothers, and its row of contract suites (`webhooksContracts`), which
 * `runStoreContracts` runs on every store. One line in registry/feature-testing.ts lists this file.
 */
import type { FeatureContracts } from '../testing/contract-harness.js';
import type { storePorts } from './manifest.js';
import { webhookStoresContract } from './webhook-stores.contract.js';
export { webhookStoresContract, anEvent, aWebhookEndpoint, aDelivery } from './webhook-stores.contract.js';

export const webhooksContracts = {
  ports: { events: webhookStoresContract, webhookEndpoints: webhookStoresContract, webhookDeliveries: webhookStoresContract },
} as const satisfies FeatureContracts<typeof storePorts>;
