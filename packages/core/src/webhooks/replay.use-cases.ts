/**
 * Test webhooks and replay (docs/sandbox-over-time.md). Each is ONE transaction (docs/decisions/transactions.md),
 * so under an Idempotency-Key it commits with its kept answer:
 * - a test: one signed sample event of a type, marked `test`, stored for its
 *   one delivery to the endpoint (never listed, never fanned out); sandbox only;
 * - a redelivery: one stored event, to one endpoint or every enabled endpoint
 *   subscribed to its type;
 * - a window replay: every event of up to 30 days (10,000 events at most) to
 *   one endpoint; one at a time per endpoint.
 * A redelivery re-arms the existing delivery of the event to the endpoint (a
 * new series of attempts under the same `webhook-id`) or creates it; the
 * delivery worker then sends it under its usual fairness rules (docs/decisions/tenancy.md).
 */
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import * as O from 'fp-ts/lib/Option.js';
import { pipe } from 'fp-ts/lib/function.js';
import {
  conflict,
  notFound,
  validationError,
  type ValidationError,
  type NotFound,
  type Conflict,
  type QuotaExceeded,
  type StoreError,
  type DomainError,
} from '../shared/errors.js';
import { DEFAULT_QUOTAS, withinQuotaFor } from '../shared/quotas.js';
import type { Client } from '../clients/client.js';
import type { ClientId, EventId, Timestamp, WebhookEndpointId } from '../shared/primitives.js';
import {
  EVENT_RETENTION_MS,
  REPLAY_MAX_EVENTS,
  REPLAY_MAX_WINDOW_DAYS,
  REPLAY_MAX_WINDOW_MS,
  subscribesTo,
  type EventRecord,
  type EventRedelivery,
  type WebhookEndpointRecord,
  type WebhookReplay,
} from './webhook.js';
import type { TransactionPorts } from '../shared/store-ports.js';
import type { NewWebhookDelivery } from './webhook-delivery-repository.js';
import { renderContextOf } from '../shared/versioning/version-change.js';
import { ApplicationDeps, type Change, inTransaction, noChange, nowStamp, orNotFound, today } from '../shared/deps.js';
import type { RedeliverEventBody, ReplayWebhookBody, TestWebhookBody } from './webhook-requests.js';

const isRecordObject = (u: unknown): u is Readonly<Record<string, unknown>> => typeof u === 'object' && u !== null && !Array.isArray(u);

const requireEnabled = (endpoint: WebhookEndpointRecord): E.Either<Conflict, WebhookEndpointRecord> =>
  endpoint.status === 'enabled' ? E.right(endpoint) : E.left(conflict('The webhook endpoint is disabled; enable it (PATCH status) first'));

/**
 * The delivery of `event` to `endpoint`, due at `now` plus `offsetMs`: a
 * replay makes its deliveries due a millisecond apart, the last one at `now`
 * (all due at once, and the worker, taking the soonest due first, sends them
 * in event order).
 */
const deliveryOf = (event: EventRecord, endpoint: WebhookEndpointRecord, now: Date, offsetMs = 0): NewWebhookDelivery => ({
  client_id: event.client_id,
  endpoint_id: endpoint.id,
  event_id: event.id,
  event_type: event.type,
  created_at: event.created_at,
  expires_at: event.expires_at,
  next_attempt_at: new Date(now.getTime() + offsetMs).toISOString() as Timestamp,
});

/**
 * Bump the client (so two concurrent arming requests of one client conflict
 * and the one run again counts the other's deliveries, shared/quotas.ts), then
 * `quota_exceeded` unless `adding` more armed deliveries fit beside the
 * client's armed ones.
 */
const armedQuota = (
  deps: Pick<ApplicationDeps, 'quotas'>,
  tx: TransactionPorts,
  clientId: ClientId,
  adding: number,
  now: Date,
): TE.TaskEither<NotFound | QuotaExceeded | StoreError, void> =>
  adding === 0
    ? TE.right(undefined)
    : pipe(
        tx.clients.touch(clientId),
        TE.chainW((found): TE.TaskEither<NotFound | StoreError, number> =>
          found ? tx.webhookDeliveries.countArmed(clientId, now) : TE.left(notFound('Client not found')),
        ),
        TE.chainEitherKW((armed) =>
          withinQuotaFor('armedDeliveriesPerClient', (deps.quotas ?? DEFAULT_QUOTAS).armedDeliveriesPerClient, armed, adding),
        ),
      );

const conflictMessage = <Err extends DomainError>(e: Err): Err | Conflict =>
  e._tag === 'conflict' && e.message.startsWith('The webhook endpoint changed')
    ? conflict('The webhook endpoint changed concurrently; try again')
    : e;

/**
 * Send one sample event of `body.type` to the endpoint (sandbox only: in
 * production `not_found`, docs/sandbox-over-time.md). One transaction: the test event
 * (rendered in the client's version, marked `test`, already fanned out) and
 * its delivery, due now.
 */
export const sendTestWebhook =
  (deps: Pick<ApplicationDeps, 'clock' | 'unitOfWork' | 'versioning' | 'computations' | 'webhookSamples'>) =>
  (
    client: Pick<Client, 'id' | 'environment' | 'api_version'>,
    endpointId: WebhookEndpointId,
    body: TestWebhookBody,
  ): Change<EventRedelivery, ValidationError | NotFound | StoreError> => {
    if (client.environment !== 'sandbox') return noChange(TE.left(notFound('Test webhooks are sandbox only')));
    const now = deps.clock.now();
    return inTransaction(deps, (tx) =>
      pipe(
        pipe(tx.webhookEndpoints.get(client.id, endpointId), orNotFound('Webhook endpoint')),
        TE.chainEitherKW(requireEnabled),
        TE.chainW((endpoint) =>
          pipe(
            deps.webhookSamples(deps, body.type, endpoint, today(deps.clock), nowStamp(deps.clock)),
            // Stored as `emitEvent` stores a real event: in the latest shape with its render context, so the
            // delivery renders it in its endpoint's version (docs/api/webhook-versions.md).
            TE.chainW((sample) =>
              tx.events.append({
                client_id: client.id,
                type: body.type,
                created_at: now.toISOString() as Timestamp,
                api_version: deps.versioning.latest,
                data: { user_id: sample.userId, object: isRecordObject(sample.object) ? sample.object : { value: sample.object } },
                expires_at: new Date(now.getTime() + EVENT_RETENTION_MS).toISOString() as Timestamp,
                render_context: renderContextOf(sample.object) ?? {},
                test: true,
              }),
            ),
            TE.chainW((event) =>
              pipe(
                tx.webhookDeliveries.createMany([deliveryOf(event, endpoint, now)]),
                TE.map(() => ({ event_id: event.id, deliveries: 1 })),
              ),
            ),
          ),
        ),
      ),
    );
  };

/** The endpoints a redelivery goes to: the one named (enabled, subscribed to the event's type), or every enabled one subscribed. */
const redeliveryTargets = (
  tx: TransactionPorts,
  clientId: ClientId,
  event: EventRecord,
  endpointId: WebhookEndpointId | undefined,
): TE.TaskEither<ValidationError | StoreError, ReadonlyArray<WebhookEndpointRecord>> =>
  endpointId === undefined
    ? pipe(
        tx.webhookEndpoints.listEnabled(clientId),
        TE.map((all) => all.filter((e) => subscribesTo(e, event.type))),
      )
    : pipe(
        tx.webhookEndpoints.get(clientId, endpointId),
        TE.chainEitherKW(
          O.match<WebhookEndpointRecord, E.Either<ValidationError | Conflict, ReadonlyArray<WebhookEndpointRecord>>>(
            () => E.left(validationError('Invalid redelivery', [{ path: 'endpoint_id', message: `no webhook endpoint ${endpointId}` }])),
            (endpoint) =>
              !subscribesTo(endpoint, event.type)
                ? E.left(
                    validationError('Invalid redelivery', [
                      { path: 'endpoint_id', message: `webhook endpoint ${endpointId} does not subscribe to ${event.type}` },
                    ]),
                  )
                : pipe(
                    requireEnabled(endpoint),
                    E.map((e) => [e]),
                  ),
          ),
        ),
      );

/**
 * Redeliver one stored event (not a test event: those are `not_found` here as
 * in `GET /api/events`), in one transaction: the delivery to each target endpoint
 * re-armed or created, due now. Answers how many; 0 when no endpoint subscribes.
 */
export const redeliverEvent =
  (deps: Pick<ApplicationDeps, 'clock' | 'unitOfWork' | 'quotas'>) =>
  (
    clientId: ClientId,
    eventId: EventId,
    body: RedeliverEventBody,
  ): Change<EventRedelivery, ValidationError | NotFound | QuotaExceeded | StoreError> => {
    const now = deps.clock.now();
    return inTransaction(deps, (tx) =>
      pipe(
        pipe(tx.events.get(clientId, eventId, now), TE.map(O.filter((e) => e.test !== true)), orNotFound('Event')),
        TE.chainW((event) =>
          pipe(
            redeliveryTargets(tx, clientId, event, body.endpoint_id),
            TE.chainFirstW((endpoints) => armedQuota(deps, tx, clientId, endpoints.length, now)),
            TE.chainW((endpoints) =>
              endpoints.length === 0 ? TE.right(0) : tx.webhookDeliveries.rearm(endpoints.map((e) => deliveryOf(event, e, now))),
            ),
            TE.map((deliveries) => ({ event_id: event.id, deliveries })),
          ),
        ),
      ),
    );
  };

/** `since` and `until` as stored timestamps are written (milliseconds, `Z`), checked: since before until, at most 30 days apart. */
const replayWindow = (body: ReplayWebhookBody): E.Either<ValidationError, { readonly since: Timestamp; readonly until: Timestamp }> => {
  const since = new Date(body.since);
  const until = new Date(body.until);
  if (until.getTime() <= since.getTime())
    return E.left(validationError('Invalid replay window', [{ path: 'until', message: 'must be after since' }]));
  if (until.getTime() - since.getTime() > REPLAY_MAX_WINDOW_MS) {
    return E.left(
      validationError('Invalid replay window', [{ path: 'until', message: `must be at most ${REPLAY_MAX_WINDOW_DAYS} days after since` }]),
    );
  }
  return E.right({ since: since.toISOString() as Timestamp, until: until.toISOString() as Timestamp });
};

/** `conflict` while the endpoint's last window replay still has a pending delivery. */
const noReplayRunning = (tx: TransactionPorts, endpoint: WebhookEndpointRecord): TE.TaskEither<StoreError, void> => {
  const replay = endpoint.replay ?? null;
  if (replay === null || replay.first_event_id === null || replay.last_event_id === null) return TE.right(undefined);
  return pipe(
    tx.webhookDeliveries.countPending(endpoint.client_id, endpoint.id, replay.first_event_id, replay.last_event_id),
    TE.chainW((pending) =>
      pending === 0
        ? TE.right(undefined)
        : TE.left(
            conflict(
              `A replay of this webhook endpoint is running (${pending} of its deliveries pending); one replay runs per endpoint at a time`,
            ),
          ),
    ),
  );
};

/**
 * Replay a window to one endpoint, in one transaction: every unexpired event
 * created from `since` (included) to `until` (excluded) that the endpoint
 * subscribes to is redelivered (re-armed or created, due now, in event order).
 * Refused: a window over 30 days or `until` not after `since` (400 naming
 * `until`), over 10,000 events (400 naming the limit), a disabled endpoint or
 * one whose last replay still runs (409). The endpoint records the replay,
 * with compare-and-set, so two concurrent replays cannot both start.
 */
export const replayWebhookEndpoint =
  (deps: Pick<ApplicationDeps, 'clock' | 'unitOfWork' | 'quotas'>) =>
  (
    clientId: ClientId,
    endpointId: WebhookEndpointId,
    body: ReplayWebhookBody,
  ): Change<WebhookReplay, ValidationError | NotFound | QuotaExceeded | StoreError> => {
    const now = deps.clock.now();
    const window = replayWindow(body);
    if (E.isLeft(window)) return noChange(TE.left(window.left));
    const { since, until } = window.right;
    return inTransaction(deps, (tx) =>
      pipe(
        pipe(tx.webhookEndpoints.get(clientId, endpointId), orNotFound('Webhook endpoint')),
        TE.chainEitherKW(requireEnabled),
        TE.chainFirstW((endpoint) => noReplayRunning(tx, endpoint)),
        TE.chainW((endpoint) =>
          pipe(
            tx.events.listWindow(clientId, since, until, REPLAY_MAX_EVENTS + 1, now),
            TE.chainEitherKW((events) =>
              events.length > REPLAY_MAX_EVENTS
                ? E.left(
                    validationError(`A replay covers at most ${REPLAY_MAX_EVENTS} events; narrow the window`, [
                      { path: 'until', message: `the window holds more than ${REPLAY_MAX_EVENTS} events` },
                    ]),
                  )
                : E.right(events.filter((e) => subscribesTo(endpoint, e.type))),
            ),
            TE.chainFirstW((events) => armedQuota(deps, tx, clientId, events.length, now)),
            TE.chainW((events) =>
              pipe(
                tx.webhookEndpoints.update(clientId, endpointId, endpoint.version, {
                  replay: {
                    since,
                    until,
                    started_at: now.toISOString() as Timestamp,
                    first_event_id: events[0]?.id ?? null,
                    last_event_id: events[events.length - 1]?.id ?? null,
                    deliveries: events.length,
                  },
                }),
                orNotFound('Webhook endpoint'),
                TE.chainW(() =>
                  events.length === 0
                    ? TE.right(0)
                    : tx.webhookDeliveries.rearm(events.map((e, i) => deliveryOf(e, endpoint, now, i - (events.length - 1)))),
                ),
                TE.map((deliveries) => ({ since, until, events: events.length, deliveries })),
              ),
            ),
          ),
        ),
        TE.mapLeft(conflictMessage),
      ),
    );
  };
