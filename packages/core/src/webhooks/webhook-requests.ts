/** Request codecs of the events and webhook endpoints API (docs/decisions/webhooks.md). */
import * as t from 'io-ts';
import { boundedString, strictObject } from '../shared/codec.js';
import { EventSelector, EventType, WebhookDescription, WebhookEndpointStatus } from './webhook.js';
import { pageFields, queryIdOf } from '../shared/requests.js';
import { Timestamp, WebhookEndpointId } from '../shared/primitives.js';

/** Longest webhook URL accepted (what browsers and proxies reliably carry). */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/**
 * An absolute `http:` or `https:` URL with a host and no credentials; whether
 * its scheme and host are allowed here is the `WebhookUrlPolicy`'s to say.
 */
export const WebhookUrl = new t.Type<string, string, unknown>(
  'WebhookUrl',
  (u): u is string => typeof u === 'string',
  (u, c) => {
    if (typeof u !== 'string' || u.length === 0 || u.length > MAX_WEBHOOK_URL_LENGTH) {
      return t.failure(u, c, `must be an absolute http(s) URL of at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
    }
    let url: URL;
    try {
      url = new URL(u);
    } catch {
      return t.failure(u, c, 'must be an absolute http(s) URL');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return t.failure(u, c, 'must use https (or http in sandbox)');
    if (url.hostname === '') return t.failure(u, c, 'must name a host');
    if (url.username !== '' || url.password !== '') return t.failure(u, c, 'must not contain credentials');
    if (url.hash !== '') return t.failure(u, c, 'must not contain a fragment');
    return t.success(u);
  },
  String,
);

/** A non-empty list of distinct selectors: event types, or `*` alone. */
const EventSelectors = t.refinement(
  t.array(EventSelector),
  (list) => list.length > 0 && new Set(list).size === list.length && (!list.includes('*') || list.length === 1),
  'EventSelectors(non-empty, distinct; "*" alone)',
);

/**
 * The API version an endpoint's deliveries are rendered in: a short
 * string here; whether this build knows it is the use case's to say (400 naming `api_version`).
 */
export const EndpointApiVersion = boundedString(1, 32);

export const CreateWebhookEndpointBody = strictObject(
  'CreateWebhookEndpointBody',
  { url: WebhookUrl },
  { events: EventSelectors, description: t.union([WebhookDescription, t.null]), api_version: EndpointApiVersion },
);
export type CreateWebhookEndpointBody = t.TypeOf<typeof CreateWebhookEndpointBody>;

export const PatchWebhookEndpointBody = strictObject(
  'PatchWebhookEndpointBody',
  {},
  {
    url: WebhookUrl,
    events: EventSelectors,
    description: t.union([WebhookDescription, t.null]),
    status: WebhookEndpointStatus,
    api_version: EndpointApiVersion,
  },
);
export type PatchWebhookEndpointBody = t.TypeOf<typeof PatchWebhookEndpointBody>;

export const EventListQuery = strictObject('EventListQuery', {}, { ...pageFields, type: EventType, user_id: queryIdOf('user') });
export type EventListQuery = t.TypeOf<typeof EventListQuery>;

/** `POST /api/webhook_endpoints/{endpoint_id}/test` (docs/sandbox-over-time.md): the type of the sample event to send. */
export const TestWebhookBody = strictObject('TestWebhookBody', { type: EventType }, {});
export type TestWebhookBody = t.TypeOf<typeof TestWebhookBody>;

/** `POST /api/events/{event_id}/redeliver` (docs/sandbox-over-time.md): one endpoint, or (absent) every enabled endpoint subscribed to the event's type. */
export const RedeliverEventBody = strictObject('RedeliverEventBody', {}, { endpoint_id: WebhookEndpointId });
export type RedeliverEventBody = t.TypeOf<typeof RedeliverEventBody>;

/** `POST /api/webhook_endpoints/{endpoint_id}/replay` (docs/sandbox-over-time.md): the window, `since` included, `until` excluded (ISO-8601 UTC). */
export const ReplayWebhookBody = strictObject('ReplayWebhookBody', { since: Timestamp, until: Timestamp }, {});
export type ReplayWebhookBody = t.TypeOf<typeof ReplayWebhookBody>;
