/**
 * What the webhooks feature contributes, declared once (shared/feature-manifest.ts; docs/architecture.md,
 * "One manifest per feature"): the registry lists it in `registry/features.ts`.
 */
import type { FeatureManifest, FeatureResponses } from '../shared/feature-manifest.js';
import { portToken } from '../shared/store-ports.js';
import type { EventOutbox } from './event-outbox.js';
import type { WebhookEndpointRepository } from './webhook-endpoint-repository.js';
import type { WebhookDeliveryRepository } from './webhook-delivery-repository.js';
import { webhookUseCases } from './use-cases.js';
import { pagedCodec } from '../shared/paging.js';
import { EventRedelivery, WebhookDelivery, WebhookEndpoint, WebhookEvent, WebhookReplay } from './webhook.js';
import type { UserDataRowsOf } from '../shared/user-data.js';
/**
 * The store ports the feature owns (key → typed token), apart from the manifest so the registry's port
 * table (registry/store-ports.ts) types the transaction's ports without the use cases that read them.
 */
export const storePorts = {
  events: portToken<EventOutbox>('EventOutbox'),
  webhookEndpoints: portToken<WebhookEndpointRepository>('WebhookEndpointRepository'),
  webhookDeliveries: portToken<WebhookDeliveryRepository>('WebhookDeliveryRepository'),
} as const;

/**
 * What the user delete does with each of the feature's store ports (docs/decisions/tenancy.md#erasure):
 * the method deleting a user's records, or why they stay; rows of `USER_DATA` (registry/user-data.ts).
 */
export const userData = {
  events: { kept: "the client's 30 days of events; the user's are redacted by the erasure marker" },
  webhookEndpoints: { kept: "the client's, not the user's" },
  webhookDeliveries: { kept: "sent ones are the receiver's; the user delete cancels the pending ones (cancelPendingForUser)" },
} as const satisfies UserDataRowsOf<typeof storePorts>;

/**
 * The response kinds the feature answers with, each kind → the codec of its body in the latest version
 * (docs/decisions/versioning.md): merged into `RESPONSE_CODECS` (registry/versioning/response-kinds.ts).
 */
export const responses = {
  event: WebhookEvent,
  event_list: pagedCodec('events', WebhookEvent),
  webhook_endpoint: WebhookEndpoint,
  webhook_endpoint_list: pagedCodec('webhook_endpoints', WebhookEndpoint),
  webhook_delivery_list: pagedCodec('deliveries', WebhookDelivery),
  event_redelivery: EventRedelivery,
  webhook_replay: WebhookReplay,
} as const satisfies FeatureResponses;

export const manifest = {
  storePorts,
  useCases: webhookUseCases,
} as const satisfies FeatureManifest;
