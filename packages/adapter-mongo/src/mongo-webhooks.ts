/**
 * The mongo store's side of the webhooks feature (core's `webhooks/manifest.ts`): its store ports' classes,
 * their collections and each query's indexes; ONE row of `MONGO_FEATURES` (mongo-features.ts;
 * docs/adding-a-resource.md). Collection and index names are stored data: never rename one.
 */
import type { MongoFeature } from './mongo-feature.js';
import { COLLECTION_NAMES } from './mongo-collection-names.js';
import { MongoEventOutbox } from './mongo-event-outbox.js';
import { MongoWebhookEndpointRepository } from './mongo-webhook-endpoint-repository.js';
import { MongoWebhookDeliveryRepository } from './mongo-webhook-delivery-repository.js';

export const webhooksMongo = {
  classes: {
    events: MongoEventOutbox,
    webhookEndpoints: MongoWebhookEndpointRepository,
    webhookDeliveries: MongoWebhookDeliveryRepository,
  },
  collections: {
    events: COLLECTION_NAMES.events,
    webhookEndpoints: COLLECTION_NAMES.webhookEndpoints,
    webhookDeliveries: COLLECTION_NAMES.webhookDeliveries,
  },
  ports: {
    events: COLLECTION_NAMES.events,
    webhookEndpoints: COLLECTION_NAMES.webhookEndpoints,
    webhookDeliveries: COLLECTION_NAMES.webhookDeliveries,
  },
  indexes: {
    // Retention (docs/decisions/webhooks.md): MongoDB removes a document once its `purge_at`
    // (a BSON date, as TTL indexes need) has passed; reads also filter on
    // `expires_at`, because the TTL monitor only runs every 60 s.
    events: [
      { key: { client_id: 1, _id: 1 }, name: 'client_id_id', unique: true },
      // The fan-out (docs/decisions/tenancy.md): the events not yet fanned out, in turn across clients.
      { key: { fanned_out: 1, client_id: 1, _id: 1 }, name: 'fanned_out_client_id_id' },
      // A window replay's read (docs/sandbox-over-time.md): one client's events by creation time.
      { key: { client_id: 1, created_at: 1 }, name: 'client_id_created_at' },
      { key: { purge_at: 1 }, name: 'purge_at_ttl', expireAfterSeconds: 0 },
    ],
    webhook_endpoints: [{ key: { client_id: 1, _id: 1 }, name: 'client_id_id', unique: true }],
    webhook_deliveries: [
      // One delivery per (endpoint, event), whoever fans out and however often.
      { key: { endpoint_id: 1, event_id: 1 }, name: 'endpoint_id_event_id_unique', unique: true },
      { key: { client_id: 1, endpoint_id: 1, _id: 1 }, name: 'client_id_endpoint_id_id', unique: true },
      // What the worker's claim scans: pending deliveries by due time.
      { key: { status: 1, next_attempt_at: 1 }, name: 'status_next_attempt_at' },
      // The fair claim's (docs/decisions/tenancy.md): pending deliveries by client, then due time.
      { key: { status: 1, client_id: 1, next_attempt_at: 1 }, name: 'status_client_id_next_attempt_at' },
      { key: { purge_at: 1 }, name: 'purge_at_ttl', expireAfterSeconds: 0 },
    ],
  },
} as const satisfies MongoFeature;
