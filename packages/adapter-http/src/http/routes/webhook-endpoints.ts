/**
 * The events and webhook endpoints API (docs/decisions/webhooks.md), as entries of the
 * endpoint table: `api-endpoints.ts` lists them with the rest, so the router
 * and the OpenAPI document read them as they read every other endpoint.
 */
import * as t from 'io-ts';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import {
  CreateWebhookEndpointBody,
  CreatedWebhookEndpoint,
  EventListQuery,
  RedeliverEventBody,
  ReplayWebhookBody,
  TestWebhookBody,
  PageQuery,
  PatchWebhookEndpointBody,
} from '@debtkit/core';
import { Endpoint, endpoint } from './endpoint.js';
import { paged } from './paged-list.js';

const ENDPOINT_ERRORS = ['not_found', 'validation_error'] as const;

export const WEBHOOK_API_ENDPOINTS: ReadonlyArray<Endpoint> = [
  endpoint({
    method: 'GET',
    path: '/api/events',
    summary: 'List events of the last 30 days, ascending by id',
    tag: 'Events',
    pathIds: [],
    query: EventListQuery,
    description:
      "Each event in the request's version (an event stored before 2026-11-26 as it was stored, in the version its `api_version` names).",
    status: 200,
    response: { kind: 'event_list', inRequestVersion: true },
    errors: ['validation_error'],
    run: (app, i) => pipe(app.listEvents(i.client.id, i.query, i.apiVersion), TE.map(paged('events'))),
  }),
  endpoint({
    method: 'GET',
    path: '/api/events/:event_id',
    summary: 'Retrieve an event',
    tag: 'Events',
    pathIds: ['event_id'],
    status: 200,
    response: { kind: 'event', inRequestVersion: true },
    errors: ENDPOINT_ERRORS,
    run: (app, i) => app.getEvent(i.client.id, i.ids.event_id, i.apiVersion),
  }),
  endpoint({
    method: 'POST',
    path: '/api/webhook_endpoints',
    summary: 'Register a webhook endpoint (the answer shows its signing secret, once)',
    tag: 'Webhooks',
    description:
      "`api_version`: the version its deliveries are rendered in; default the client's pinned version. An unknown version is 400 naming `api_version`.",
    pathIds: [],
    body: CreateWebhookEndpointBody,
    status: 201,
    response: { kind: 'webhook_endpoint', codec: CreatedWebhookEndpoint },
    errors: ['validation_error', 'not_found', 'quota_exceeded', 'conflict'],
    run: (app, i) => app.createWebhookEndpoint(i.client.id, i.body),
  }),
  endpoint({
    method: 'GET',
    path: '/api/webhook_endpoints',
    summary: 'List webhook endpoints',
    tag: 'Webhooks',
    pathIds: [],
    query: PageQuery,
    status: 200,
    response: { kind: 'webhook_endpoint_list' },
    errors: ['validation_error'],
    run: (app, i) => pipe(app.listWebhookEndpoints(i.client.id, i.query), TE.map(paged('webhook_endpoints'))),
  }),
  endpoint({
    method: 'GET',
    path: '/api/webhook_endpoints/:endpoint_id',
    summary: 'Retrieve a webhook endpoint',
    tag: 'Webhooks',
    pathIds: ['endpoint_id'],
    status: 200,
    response: { kind: 'webhook_endpoint' },
    errors: ENDPOINT_ERRORS,
    run: (app, i) => app.getWebhookEndpoint(i.client.id, i.ids.endpoint_id),
  }),
  endpoint({
    method: 'PATCH',
    path: '/api/webhook_endpoints/:endpoint_id',
    summary: 'Change the URL, events, description, status or API version of a webhook endpoint',
    tag: 'Webhooks',
    pathIds: ['endpoint_id'],
    body: PatchWebhookEndpointBody,
    status: 200,
    response: { kind: 'webhook_endpoint' },
    errors: [...ENDPOINT_ERRORS, 'conflict'],
    run: (app, i) => app.updateWebhookEndpoint(i.client.id, i.ids.endpoint_id, i.body),
  }),
  endpoint({
    method: 'DELETE',
    path: '/api/webhook_endpoints/:endpoint_id',
    summary: 'Delete a webhook endpoint and its deliveries',
    tag: 'Webhooks',
    pathIds: ['endpoint_id'],
    status: 204,
    errors: [...ENDPOINT_ERRORS, 'conflict'],
    run: (app, i) => app.deleteWebhookEndpoint(i.client.id, i.ids.endpoint_id),
  }),
  endpoint({
    method: 'GET',
    path: '/api/webhook_endpoints/:endpoint_id/deliveries',
    summary: 'Deliveries of events to a webhook endpoint',
    tag: 'Webhooks',
    pathIds: ['endpoint_id'],
    query: PageQuery,
    status: 200,
    response: { kind: 'webhook_delivery_list' },
    errors: ENDPOINT_ERRORS,
    run: (app, i) => pipe(app.listWebhookDeliveries(i.client.id, i.ids.endpoint_id, i.query), TE.map(paged('deliveries'))),
  }),
  // Test webhooks and replay (docs/sandbox-over-time.md; docs/webhook-replay.md)
  endpoint({
    method: 'POST',
    path: '/api/webhook_endpoints/:endpoint_id/test',
    summary: 'Send a signed sample event of a type to the endpoint, marked "test": true (sandbox only)',
    tag: 'Webhooks',
    description:
      "The sample event is stored for its one delivery (listed in the endpoint's deliveries) but is not one of the client's events: " +
      '`GET /api/events` does not list it and no other endpoint receives it. In production this path answers 404.',
    pathIds: ['endpoint_id'],
    body: TestWebhookBody,
    status: 202,
    response: { kind: 'event_redelivery' },
    errors: [...ENDPOINT_ERRORS, 'conflict'],
    run: (app, i) => app.sendTestWebhook(i.client, i.ids.endpoint_id, i.body),
  }),
  endpoint({
    method: 'POST',
    path: '/api/events/:event_id/redeliver',
    summary: 'Deliver a stored event again, to one endpoint or every enabled endpoint subscribed to its type',
    tag: 'Events',
    description:
      'Re-arms the delivery of the event to each endpoint (a new series of attempts under the same `webhook-id`), or creates it. ' +
      'Receivers de-duplicate by `webhook-id`.',
    pathIds: ['event_id'],
    body: RedeliverEventBody,
    status: 202,
    response: { kind: 'event_redelivery' },
    errors: [...ENDPOINT_ERRORS, 'conflict', 'quota_exceeded'],
    run: (app, i) => app.redeliverEvent(i.client.id, i.ids.event_id, i.body),
  }),
  endpoint({
    method: 'POST',
    path: '/api/webhook_endpoints/:endpoint_id/replay',
    summary: 'Deliver every event of a window (at most 30 days and 10,000 events) to the endpoint again',
    tag: 'Webhooks',
    description:
      'Events created from `since` (included) to `until` (excluded) that the endpoint subscribes to are redelivered in event order, each under its usual ' +
      '`webhook-id`. One replay runs per endpoint at a time: a second, while a delivery of the first is pending, is 409.',
    pathIds: ['endpoint_id'],
    body: ReplayWebhookBody,
    status: 202,
    response: { kind: 'webhook_replay' },
    errors: [...ENDPOINT_ERRORS, 'conflict', 'quota_exceeded'],
    run: (app, i) => app.replayWebhookEndpoint(i.client.id, i.ids.endpoint_id, i.body),
  }),
];
