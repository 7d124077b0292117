/**
 * The memory store's classes of the webhooks feature's store ports (core's `webhooks/manifest.ts`), one
 * row of `MEMORY_STORE_CLASSES` (memory-store.ts; docs/adding-a-resource.md).
 */
import type { StorePortClasses } from '@debtkit/core';
import { MemoryEventOutbox } from './memory-event-outbox.js';
import { MemoryWebhookEndpointRepository } from './memory-webhook-endpoint-repository.js';
import { MemoryWebhookDeliveryRepository } from './memory-webhook-delivery-repository.js';

export const webhooksMemoryClasses = {
  events: MemoryEventOutbox,
  webhookEndpoints: MemoryWebhookEndpointRepository,
  webhookDeliveries: MemoryWebhookDeliveryRepository,
} as const satisfies Partial<StorePortClasses>;
