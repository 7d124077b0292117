import type * as TE from 'fp-ts/lib/TaskEither.js';
import type * as O from 'fp-ts/lib/Option.js';
import type { StoreError } from '../shared/errors.js';
import type { EventSelector, WebhookDisabledReason, WebhookReplayState, WebhookEndpointRecord, WebhookEndpointStatus } from './webhook.js';
import type { ClientId, Timestamp, WebhookEndpointId } from '../shared/primitives.js';
import type { Page, PageRequest } from '../shared/paging.js';

export interface NewWebhookEndpoint {
  readonly client_id: ClientId;
  readonly url: string;
  readonly events: ReadonlyArray<EventSelector>;
  readonly description: string | null;
  readonly status: WebhookEndpointStatus;
  /** The version its deliveries are rendered in (a known version; the use case checks). */
  readonly api_version: string;
  readonly secret: string;
  readonly created_at: Timestamp;
}

export interface WebhookEndpointPatch {
  readonly url?: string;
  readonly events?: ReadonlyArray<EventSelector>;
  readonly description?: string | null;
  readonly status?: WebhookEndpointStatus;
  readonly api_version?: string;
  /** Health (docs/decisions/tenancy.md): written by the delivery worker's use case, reset by a client's PATCH of `status`. */
  readonly disabled_reason?: WebhookDisabledReason | null;
  readonly failing_since?: Timestamp | null;
  /** The endpoint's window replay (docs/sandbox-over-time.md), written by the replay use case. */
  readonly replay?: WebhookReplayState | null;
}

/** A client's webhook endpoints; every operation is scoped to the owning client. */
export interface WebhookEndpointRepository {
  /** Store with the next id and version 1. */
  create(endpoint: NewWebhookEndpoint): TE.TaskEither<StoreError, WebhookEndpointRecord>;
  get(clientId: ClientId, endpointId: WebhookEndpointId): TE.TaskEither<StoreError, O.Option<WebhookEndpointRecord>>;
  list(clientId: ClientId, page: PageRequest): TE.TaskEither<StoreError, Page<WebhookEndpointRecord>>;
  /** Every enabled endpoint of the client, ascending by id. */
  listEnabled(clientId: ClientId): TE.TaskEither<StoreError, ReadonlyArray<WebhookEndpointRecord>>;
  /**
   * Compare-and-set (docs/decisions/transactions.md): apply `patch` only if the stored version is
   * `expectedVersion`, and bump it. `none` when there is no such endpoint,
   * `conflict` when it changed since it was read.
   */
  update(
    clientId: ClientId,
    endpointId: WebhookEndpointId,
    expectedVersion: number,
    patch: WebhookEndpointPatch,
  ): TE.TaskEither<StoreError, O.Option<WebhookEndpointRecord>>;
  delete(clientId: ClientId, endpointId: WebhookEndpointId): TE.TaskEither<StoreError, boolean>;
  /** How many endpoints the client has, enabled or not (the endpoints-per-client quota, shared/quotas.ts). */
  countForClient(clientId: ClientId): TE.TaskEither<StoreError, number>;
}
