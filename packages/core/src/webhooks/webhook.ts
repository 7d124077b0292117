/**
 * Events and webhooks (docs/decisions/webhooks.md): what changed for a client, kept 30 days
 * and pushed to the client's webhook endpoints. Codecs first; the records are
 * what the stores keep, the views what the API answers.
 */
import * as t from 'io-ts';
import { ClientId, EventId, Timestamp, UserId, WebhookDeliveryId, WebhookEndpointId, nullable } from '../shared/primitives.js';
import { boundedString } from '../shared/codec.js';

/** Every event type, in the order docs/decisions/webhooks.md lists them. */
export const EventType = t.keyof(
  {
    'bureau_auth.completed': null,
    'credit_score.created': null,
    'account.created': null,
    'account.updated': null,
    'account.closed': null,
    'payment_plan.created': null,
    'payment_plan.deleted': null,
    'plan_payment.created': null,
    'user.deleted': null,
    'webhook_endpoint.disabled': null,
  },
  'EventType',
);
export type EventType = t.TypeOf<typeof EventType>;
export const EVENT_TYPES: ReadonlyArray<EventType> = Object.keys(EventType.keys) as EventType[];

/** How long an event (and its deliveries) is kept. */
export const EVENT_RETENTION_DAYS = 30;
export const EVENT_RETENTION_MS = EVENT_RETENTION_DAYS * 86_400_000;

/**
 * An event as the API answers it and as a webhook delivers it. `object` is already in `api_version`'s shape.
 * `user_id` is the user the change was about; null for a change of the client's own (`webhook_endpoint.disabled`).
 */
export const WebhookEvent = t.type(
  {
    id: EventId,
    type: EventType,
    created_at: Timestamp,
    api_version: t.string,
    data: t.type({ user_id: nullable(UserId), object: t.UnknownRecord }),
  },
  'Event',
);
export type WebhookEvent = t.TypeOf<typeof WebhookEvent>;

/**
 * A stored event: the view, its owner, when it expires, and whether the
 * deliveries to the client's endpoints have been created from it yet.
 *
 * Its stored shape (docs/decisions/tenancy.md, docs/decisions/webhooks.md): since 2026-11-26 an event is stored with
 * `render_context` (possibly `{}`), its object in the shape of `api_version`,
 * the latest version when it was stored, and rendered for each reader
 * (`renderEvent`). An event stored before has no `render_context`: its object
 * was rendered once, in the client's version of the day (`api_version`), and is
 * served as stored until it expires.
 */
export const EventRecord = t.intersection(
  [
    WebhookEvent,
    t.type({ client_id: ClientId, expires_at: Timestamp, fanned_out: t.boolean }),
    // A test event (docs/webhook-replay.md): stored for its one delivery only; never listed, never fanned out.
    // render_context: what older versions' renderings need (docs/api/webhook-versions.md).
    t.partial({ test: t.boolean, render_context: t.UnknownRecord }),
  ],
  'EventRecord',
);
export type EventRecord = t.TypeOf<typeof EventRecord>;

export const toEventView = (e: EventRecord): WebhookEvent => ({
  id: e.id,
  type: e.type,
  created_at: e.created_at,
  api_version: e.api_version,
  data: { user_id: e.data.user_id, object: e.data.object },
});

/** What an endpoint subscribes to: event types, or `*` for all of them. */
export const EventSelector = t.union([EventType, t.literal('*')], 'EventSelector');
export type EventSelector = t.TypeOf<typeof EventSelector>;

export const WebhookEndpointStatus = t.keyof({ enabled: null, disabled: null }, 'WebhookEndpointStatus');
export type WebhookEndpointStatus = t.TypeOf<typeof WebhookEndpointStatus>;

export const WebhookDescription = boundedString(0, 500, 'string(0..500)');

/**
 * Why an endpoint is disabled, when debtkit disabled it (docs/decisions/tenancy.md): `failing`,
 * its deliveries failed for `FAILING_ENDPOINT_DISABLE_MS` with no success since.
 * Null when it is enabled or the client disabled it.
 */
export const WebhookDisabledReason = t.keyof({ failing: null }, 'WebhookDisabledReason');
export type WebhookDisabledReason = t.TypeOf<typeof WebhookDisabledReason>;

/** An endpoint whose attempts have failed this long in a row (no success since) is disabled: 3 days. */
export const FAILING_ENDPOINT_DISABLE_MS = 3 * 86_400_000;

/**
 * Replay (docs/sandbox-over-time.md): a window of at most 30 days and 10,000 events is
 * redelivered to one endpoint; at most one such replay runs per endpoint.
 */
export const REPLAY_MAX_WINDOW_DAYS = 30;
export const REPLAY_MAX_WINDOW_MS = REPLAY_MAX_WINDOW_DAYS * 86_400_000;
export const REPLAY_MAX_EVENTS = 10_000;

/**
 * An endpoint's last window replay, kept on the endpoint: it runs while a
 * delivery to the endpoint of an event with an id from `first_event_id` to
 * `last_event_id` (the events it re-armed) is still pending. Null ids: it
 * found no event, and is over at once.
 */
export const WebhookReplayState = t.type(
  {
    since: Timestamp,
    until: Timestamp,
    started_at: Timestamp,
    first_event_id: nullable(EventId),
    last_event_id: nullable(EventId),
    deliveries: t.number,
  },
  'WebhookReplayState',
);
export type WebhookReplayState = t.TypeOf<typeof WebhookReplayState>;

/** What a redelivery or a test answers (202): the event and how many deliveries of it were armed. */
export const EventRedelivery = t.type({ event_id: EventId, deliveries: t.number }, 'EventRedelivery');
export type EventRedelivery = t.TypeOf<typeof EventRedelivery>;

/** What a window replay answers (202): the window, how many events it holds, how many deliveries were armed. */
export const WebhookReplay = t.type({ since: Timestamp, until: Timestamp, events: t.number, deliveries: t.number }, 'WebhookReplay');
export type WebhookReplay = t.TypeOf<typeof WebhookReplay>;

const endpointFields = {
  id: WebhookEndpointId,
  url: t.string,
  events: t.array(EventSelector),
  description: nullable(t.string),
  status: WebhookEndpointStatus,
  created_at: Timestamp,
};

/**
 * The version an endpoint stored before endpoints had their own `api_version`
 * reads as: `2024-07-01`, the version every delivery it received was in (the
 * only one there was), so moving its client to another version later does not
 * change what it receives.
 */
export const ENDPOINT_API_VERSION_BEFORE_THE_FIELD = '2024-07-01';

export const WebhookEndpoint = t.type(
  { ...endpointFields, api_version: t.string, disabled_reason: nullable(WebhookDisabledReason) },
  'WebhookEndpoint',
);
export type WebhookEndpoint = t.TypeOf<typeof WebhookEndpoint>;

/** The creation answer: the only response that shows the signing secret. */
export const CreatedWebhookEndpoint = t.intersection([WebhookEndpoint, t.type({ secret: t.string })], 'CreatedWebhookEndpoint');
export type CreatedWebhookEndpoint = t.TypeOf<typeof CreatedWebhookEndpoint>;

/**
 * A stored endpoint: with its owner, its secret and a version for compare-and-set (docs/decisions/transactions.md).
 * `failing_since`: the first failed attempt since the last success (null or absent: none).
 * Both health fields came with docs/decisions/tenancy.md: a record stored before has neither, and reads as null.
 * `api_version` (the version its deliveries are rendered in) came with 2026-11-26: a record stored
 * before reads as `ENDPOINT_API_VERSION_BEFORE_THE_FIELD` (`endpointApiVersion`).
 */
export const WebhookEndpointRecord = t.intersection(
  [
    t.type({ ...endpointFields, client_id: ClientId, secret: t.string, version: t.number }),
    t.partial({ disabled_reason: nullable(WebhookDisabledReason), failing_since: nullable(Timestamp), api_version: t.string }),
    // The endpoint's last window replay (docs/sandbox-over-time.md; absent: none yet).
    t.partial({ replay: nullable(WebhookReplayState) }),
  ],
  'WebhookEndpointRecord',
);
export type WebhookEndpointRecord = t.TypeOf<typeof WebhookEndpointRecord>;

/** The version `endpoint`'s deliveries are rendered in. */
export const endpointApiVersion = (e: Pick<WebhookEndpointRecord, 'api_version'>): string =>
  e.api_version ?? ENDPOINT_API_VERSION_BEFORE_THE_FIELD;

export const toWebhookEndpointView = (e: WebhookEndpointRecord): WebhookEndpoint => ({
  id: e.id,
  url: e.url,
  events: [...e.events],
  description: e.description,
  status: e.status,
  api_version: endpointApiVersion(e),
  disabled_reason: e.disabled_reason ?? null,
  created_at: e.created_at,
});

/**
 * What an attempt's outcome changes of its endpoint's health (docs/decisions/tenancy.md):
 * the first failure since a success starts `failing_since`; a success ends it;
 * a failure `FAILING_ENDPOINT_DISABLE_MS` or more after `failing_since`
 * disables an enabled endpoint (`disabled_reason: failing`). Most attempts
 * change nothing (`unchanged`), so nothing is written for them.
 * @example endpointHealthAfter({ status: 'enabled', failing_since: null }, false, now) // { change: 'failing', failing_since: now }
 */
export type EndpointHealthChange =
  | { readonly change: 'unchanged' }
  | { readonly change: 'failing'; readonly failing_since: Timestamp }
  | { readonly change: 'recovered' }
  | { readonly change: 'disable' };

export const endpointHealthAfter = (
  endpoint: Pick<WebhookEndpointRecord, 'status' | 'failing_since'>,
  succeeded: boolean,
  now: Date,
): EndpointHealthChange => {
  const since = endpoint.failing_since ?? null;
  if (succeeded) return since === null ? { change: 'unchanged' } : { change: 'recovered' };
  if (endpoint.status !== 'enabled') return { change: 'unchanged' };
  if (since === null) return { change: 'failing', failing_since: now.toISOString() as Timestamp };
  return now.getTime() - Date.parse(since) >= FAILING_ENDPOINT_DISABLE_MS ? { change: 'disable' } : { change: 'unchanged' };
};

/**
 * The health fields a client's PATCH of `status` resets: the client's own
 * disable has no reason, and enabling a disabled endpoint starts its health afresh.
 */
export const statusPatchOf = (
  current: Pick<WebhookEndpointRecord, 'status'>,
  status: WebhookEndpointStatus | undefined,
): { readonly disabled_reason?: null; readonly failing_since?: null } =>
  status === 'disabled'
    ? { disabled_reason: null }
    : status === 'enabled' && current.status === 'disabled'
      ? { disabled_reason: null, failing_since: null }
      : {};

/** Does `endpoint` want events of `type`? */
export const subscribesTo = (endpoint: Pick<WebhookEndpointRecord, 'events'>, type: EventType): boolean =>
  endpoint.events.includes('*') || endpoint.events.includes(type);

/**
 * `canceled`: never to be attempted again because the event's user was erased
 * (docs/decisions/tenancy.md); added in round 4, so records stored before never hold it.
 */
export const DeliveryStatus = t.keyof({ pending: null, succeeded: null, failed: null, canceled: null }, 'DeliveryStatus');
export type DeliveryStatus = t.TypeOf<typeof DeliveryStatus>;

export const WebhookDelivery = t.type(
  {
    id: WebhookDeliveryId,
    event_id: EventId,
    event_type: EventType,
    status: DeliveryStatus,
    attempts: t.number,
    last_response_status: nullable(t.number),
    next_attempt_at: nullable(Timestamp),
    created_at: Timestamp,
  },
  'WebhookDelivery',
);
export type WebhookDelivery = t.TypeOf<typeof WebhookDelivery>;

/**
 * A stored delivery of one event to one endpoint. `lease_until`/`lease_token`
 * mark an attempt in progress: whoever claimed it is the only one that may
 * record its outcome, and nobody else claims it before the lease runs out.
 */
export const WebhookDeliveryRecord = t.intersection(
  [
    WebhookDelivery,
    t.type({
      client_id: ClientId,
      endpoint_id: WebhookEndpointId,
      expires_at: Timestamp,
      lease_until: nullable(Timestamp),
      lease_token: nullable(t.string),
    }),
  ],
  'WebhookDeliveryRecord',
);
export type WebhookDeliveryRecord = t.TypeOf<typeof WebhookDeliveryRecord>;

export const toDeliveryView = (d: WebhookDeliveryRecord): WebhookDelivery => ({
  id: d.id,
  event_id: d.event_id,
  event_type: d.event_type,
  status: d.status,
  attempts: d.attempts,
  last_response_status: d.last_response_status,
  next_attempt_at: d.next_attempt_at,
  created_at: d.created_at,
});

/**
 * Where a delivery goes after an attempt: succeeded on a 2xx; otherwise
 * pending again after the next delay of `retrySeconds`, or failed once the
 * delays are used up (`attempts` counts the attempt just made).
 * @example nextDeliveryState(false, 1, [5, 300], now) // { status: 'pending', next_attempt_at: now + 5 s }
 */
export const nextDeliveryState = (
  succeeded: boolean,
  attempts: number,
  retrySeconds: ReadonlyArray<number>,
  now: Date,
): { readonly status: DeliveryStatus; readonly next_attempt_at: Timestamp | null } => {
  if (succeeded) return { status: 'succeeded', next_attempt_at: null };
  const delay = retrySeconds[attempts - 1];
  if (delay === undefined) return { status: 'failed', next_attempt_at: null };
  return { status: 'pending', next_attempt_at: new Date(now.getTime() + delay * 1000).toISOString() as Timestamp };
};
