/**
 * What the webhooks feature contributes, declared once (shared/feature-manifest.ts; docs/architecture.md,
 * "One manifest per feature"): the registry lists it in `registry/features.ts`.
 */
import type { FeatureManifest } from '../shared/feature-manifest.js';
import { portToken } from '../shared/store-ports.js';
import type { EventOutbox } from './event-outbox.js';
import type { WebhookEndpointRepository } from './webhook-endpoint-repository.js';
import type { WebhookDeliveryRepository } from './webhook-delivery-repository.js';
import { webhookUseCases } from './use-cases.js';
/**
 * The store ports the feature owns (key → typed token), apart from the manifest so the registry's port
 * table (registry/store-ports.ts) types the transaction's ports without the use cases that read them.
 */
export const webhooksStorePorts = {
  events: portToken<EventOutbox>('EventOutbox'),
  webhookEndpoints: portToken<WebhookEndpointRepository>('WebhookEndpointRepository'),
  webhookDeliveries: portToken<WebhookDeliveryRepository>('WebhookDeliveryRepository'),
} as const;

export const webhooksManifest = {
  storePorts: webhooksStorePorts,
  useCases: webhookUseCases,
} as const satisfies FeatureManifest;
