/** Events and webhooks: everything of this feature `@debtkit/core` exports (its codecs, ports and use cases), one line in `src/index.ts`. */
export * from './webhook.js';
export * from './event-outbox.js';
export * from './webhook-endpoint-repository.js';
export * from './webhook-delivery-repository.js';
export * from './webhook-url-policy.js';
export * from './events.use-cases.js';
export * from './use-cases.js';
export * from './webhook-health.js';
export * from './webhook-requests.js';
export * from './replay.use-cases.js';
export * from './sample-events.js';
export * from './event-redaction.js';
