import type * as TE from 'fp-ts/lib/TaskEither.js';
import type * as O from 'fp-ts/lib/Option.js';
import type { StoreError } from '../shared/errors.js';
import type { DeliveryStatus, EventType, WebhookDeliveryRecord } from './webhook.js';
import type { ClientId, EventId, Timestamp, UserId, WebhookDeliveryId, WebhookEndpointId } from '../shared/primitives.js';
import type { Page, PageRequest } from '../shared/paging.js';

export interface NewWebhookDelivery {
  readonly client_id: ClientId;
  readonly endpoint_id: WebhookEndpointId;
  readonly event_id: EventId;
  readonly event_type: EventType;
  readonly created_at: Timestamp;
  readonly expires_at: Timestamp;
  /** When the first attempt is due. */
  readonly next_attempt_at: Timestamp;
}

/** A claim on one attempt: only the holder of `token` may record it, and nobody claims it again before `until`. */
export interface DeliveryLease {
  readonly token: string;
  readonly until: Timestamp;
}

export interface DeliveryOutcome {
  readonly status: DeliveryStatus;
  readonly attempts: number;
  readonly last_response_status: number | null;
  readonly next_attempt_at: Timestamp | null;
}

/**
 * Which due deliveries a claim may take (docs/decisions/tenancy.md, fair webhooks): none of
 * an endpoint or a client the claiming process is already at its cap for,
 * and, in turn across clients, one of the first client after `afterClient`
 * in id order that has one due (wrapping around to the lowest id).
 */
export interface ClaimFilter {
  readonly busyEndpoints: ReadonlyArray<WebhookEndpointId>;
  readonly busyClients: ReadonlyArray<ClientId>;
  /** The client the previous claim went to; absent: start from the lowest client id. */
  readonly afterClient?: ClientId;
}

/** Deliveries of events to webhook endpoints, and the claiming of due attempts by the worker(s). */
export interface WebhookDeliveryRepository {
  /**
   * Create the deliveries; one whose (endpoint, event) pair exists already is
   * left as it is, so a fan-out that runs twice (a crash, two processes) makes
   * one delivery per pair.
   */
  createMany(deliveries: ReadonlyArray<NewWebhookDelivery>): TE.TaskEither<StoreError, void>;
  /**
   * Replay (docs/sandbox-over-time.md): for each, re-arm the delivery of its (endpoint,
   * event) pair if there is one (pending again, `attempts` 0, due at its
   * `next_attempt_at`, no lease: a new series of attempts, the same
   * `webhook-id`; its id, `created_at` and `last_response_status` kept), or
   * create it as `createMany` does. Answers how many it re-armed or created.
   */
  rearm(deliveries: ReadonlyArray<NewWebhookDelivery>): TE.TaskEither<StoreError, number>;
  /**
   * How many of the client's deliveries are armed (pending) and unexpired at
   * `now`: what the armed-deliveries quota counts (shared/quotas.ts). A store
   * answers it from an index, not a scan of every delivery.
   */
  countArmed(clientId: ClientId, now: Date): TE.TaskEither<StoreError, number>;
  /** How many of the endpoint's deliveries of events with ids in `fromEventId..toEventId` (inclusive) are pending (a window replay runs while any is). */
  countPending(
    clientId: ClientId,
    endpointId: WebhookEndpointId,
    fromEventId: EventId,
    toEventId: EventId,
  ): TE.TaskEither<StoreError, number>;
  /**
   * Atomically claim a pending delivery due at `now` (and not under another
   * unexpired lease) that `filter` allows: of the first client after
   * `filter.afterClient` (in id order, wrapping around) that has one, its
   * delivery due soonest; `none` when nothing is. Two claimers never get the
   * same delivery while its lease runs.
   */
  claimDue(now: Date, lease: DeliveryLease, filter: ClaimFilter): TE.TaskEither<StoreError, O.Option<WebhookDeliveryRecord>>;
  /** Record an attempt and release the lease; `false` (nothing changed) when `leaseToken` no longer holds it. */
  complete(deliveryId: WebhookDeliveryId, leaseToken: string, outcome: DeliveryOutcome): TE.TaskEither<StoreError, boolean>;
  /** The endpoint's unexpired deliveries, ascending by id. */
  listForEndpoint(
    clientId: ClientId,
    endpointId: WebhookEndpointId,
    page: PageRequest,
    now: Date,
  ): TE.TaskEither<StoreError, Page<WebhookDeliveryRecord>>;
  deleteForEndpoint(clientId: ClientId, endpointId: WebhookEndpointId): TE.TaskEither<StoreError, number>;
  /**
   * Erasure (docs/decisions/tenancy.md): every pending delivery of an event of the client's
   * user `userId` becomes `canceled`, with no next attempt and no lease (an
   * attempt under way then cannot record its outcome: `complete` answers
   * `false`). Deliveries already succeeded or failed are left as they are.
   * Answers how many were canceled.
   */
  cancelPendingForUser(clientId: ClientId, userId: UserId): TE.TaskEither<StoreError, number>;
}
