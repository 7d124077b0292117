/**
 * `WebhookDeliveryRepository` on MongoDB: collection `webhook_deliveries`,
 * `_id` = the delivery id, a unique index on (endpoint, event). A claim is one
 * `findOneAndUpdate` that takes the lease only if no unexpired lease is held
 * (two when the clients after the last one served have nothing due: the turn
 * wraps around, docs/decisions/tenancy.md), so processes sharing the database never send the same attempt at once; the
 * outcome is recorded only under the same lease token. Ids come from
 * `MongoVisibleSequence`, and `listForEndpoint` answers none above its horizon,
 * so a reader paging with `starting_after` never passes a delivery still being
 * inserted by a fan-out in another process (claims take no cursor: a late
 * insert is simply claimed later).
 */
import { inject, injectable } from 'inversify';
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { Collection, Document, Filter } from 'mongodb';
import type {
  ClaimFilter,
  ClientId,
  DeliveryLease,
  DeliveryOutcome,
  StoreError,
  Id,
  NewWebhookDelivery,
  Page,
  PageRequest,
  UserId,
  WebhookDeliveryId,
  WebhookDeliveryRecord,
  WebhookDeliveryRepository,
  WebhookEndpointId,
} from '@debtkit/core';
import { COLLECTION_NAMES } from './mongo-collection-names.js';
import { MONGO_CONTEXT, commandOptions, type MongoContext } from './mongo-context.js';
import type { StoredDocument } from './mongo-document-codec.js';
import { isDuplicateKeyError } from './mongo-errors.js';
import { MongoRecordCollection } from './mongo-record-collection.js';
import { MongoVisibleSequence } from './mongo-visible-sequence.js';
import { WebhookDeliveryDocument } from './mongo-webhook-documents.js';

@injectable()
export class MongoWebhookDeliveryRepository implements WebhookDeliveryRepository {
  private readonly deliveries: MongoRecordCollection<WebhookDeliveryRecord>;
  private readonly raw: Collection<StoredDocument>;
  private readonly sequence: MongoVisibleSequence<WebhookDeliveryId>;

  constructor(@inject(MONGO_CONTEXT) private readonly ctx: MongoContext) {
    this.deliveries = new MongoRecordCollection(ctx, COLLECTION_NAMES.webhookDeliveries, WebhookDeliveryDocument);
    this.raw = ctx.db.collection(COLLECTION_NAMES.webhookDeliveries);
    this.sequence = new MongoVisibleSequence(ctx, COLLECTION_NAMES.webhookDeliveries);
  }

  createMany(deliveries: ReadonlyArray<NewWebhookDelivery>): TE.TaskEither<StoreError, void> {
    return this.deliveries.task(async () => {
      for (const d of deliveries) {
        try {
          await this.sequence.append(d.created_at, (id) =>
            this.deliveries.insert({
              ...d,
              id,
              status: 'pending',
              attempts: 0,
              last_response_status: null,
              lease_until: null,
              lease_token: null,
            }),
          );
        } catch (error) {
          // The pair exists: another fan-out of the same event got there first.
          if (!isDuplicateKeyError(error)) throw error;
        }
      }
    });
  }

  rearm(deliveries: ReadonlyArray<NewWebhookDelivery>): TE.TaskEither<StoreError, number> {
    return this.deliveries.task(async () => {
      // By endpoint: the pairs that exist are re-armed by one update per due time, the others created.
      const byEndpoint = new Map<Id, NewWebhookDelivery[]>();
      for (const d of deliveries) byEndpoint.set(d.endpoint_id, [...(byEndpoint.get(d.endpoint_id) ?? []), d]);
      for (const [endpointId, list] of byEndpoint) {
        const existing = await this.raw
          .find(
            { endpoint_id: endpointId, event_id: { $in: list.map((d) => d.event_id) } },
            { ...commandOptions(this.ctx), projection: { event_id: 1 } },
          )
          .toArray();
        const stored = new Set(existing.map((e) => e['event_id'] as number));
        const rearmed = list.filter((d) => stored.has(d.event_id));
        if (rearmed.length > 0) {
          // One command for all of them (each its own due time).
          await this.raw.bulkWrite(
            rearmed.map((d) => ({
              updateOne: {
                filter: { endpoint_id: endpointId, event_id: d.event_id },
                update: {
                  $set: { status: 'pending', attempts: 0, next_attempt_at: d.next_attempt_at, lease_until: null, lease_token: null },
                },
              },
            })),
            { ...commandOptions(this.ctx), ordered: true },
          );
        }
        for (const d of list.filter((x) => !stored.has(x.event_id))) {
          await this.sequence.append(d.created_at, (id) =>
            this.deliveries.insert({
              ...d,
              id,
              status: 'pending',
              attempts: 0,
              last_response_status: null,
              lease_until: null,
              lease_token: null,
            }),
          );
        }
      }
      return deliveries.length;
    });
  }

  countArmed(clientId: ClientId, now: Date): TE.TaskEither<StoreError, number> {
    // The index (status, client_id, next_attempt_at) covers it: the client's pending deliveries only.
    return this.deliveries.task(() =>
      this.deliveries.count({ status: 'pending', client_id: clientId, expires_at: { $gt: now.toISOString() } }),
    );
  }

  countPending(clientId: ClientId, endpointId: WebhookEndpointId, fromEventId: Id, toEventId: Id): TE.TaskEither<StoreError, number> {
    return this.deliveries.task(() =>
      this.deliveries.count({
        client_id: clientId,
        endpoint_id: endpointId,
        status: 'pending',
        event_id: { $gte: fromEventId, $lte: toEventId },
      }),
    );
  }

  claimDue(now: Date, lease: DeliveryLease, filter: ClaimFilter): TE.TaskEither<StoreError, O.Option<WebhookDeliveryRecord>> {
    const at = now.toISOString();
    const due: Filter<StoredDocument> = {
      status: 'pending',
      next_attempt_at: { $lte: at },
      expires_at: { $gt: at },
      ...(filter.busyEndpoints.length === 0 ? {} : { endpoint_id: { $nin: [...filter.busyEndpoints] } }),
      $or: [{ lease_until: null }, { lease_until: { $lte: at } }],
    };
    const busyClients = filter.busyClients.length === 0 ? {} : { $nin: [...filter.busyClients] };
    // Each claim is one atomic findOneAndUpdate; in turn across clients (docs/decisions/tenancy.md): first a client after
    // `afterClient`, then (wrapping around) any, each time the lowest such client id and its delivery due soonest.
    const claim = (clients: Document): Promise<Document | null> =>
      this.raw.findOneAndUpdate(
        { ...due, ...(Object.keys(clients).length === 0 ? {} : { client_id: clients }) },
        { $set: { lease_until: lease.until, lease_token: lease.token } },
        { ...commandOptions(this.ctx), sort: { client_id: 1, next_attempt_at: 1, _id: 1 }, returnDocument: 'after' },
      );
    return this.deliveries.task(async () => {
      const document =
        (filter.afterClient === undefined ? null : await claim({ ...busyClients, $gt: filter.afterClient })) ?? (await claim(busyClients));
      return document === null ? O.none : O.some(WebhookDeliveryDocument.decode(document));
    });
  }

  complete(deliveryId: Id, leaseToken: string, outcome: DeliveryOutcome): TE.TaskEither<StoreError, boolean> {
    return this.deliveries.task(async () => {
      const updated = await this.deliveries.findOneAndUpdate(
        { _id: deliveryId, lease_token: leaseToken },
        { $set: { ...outcome, lease_until: null, lease_token: null } },
      );
      return O.isSome(updated);
    });
  }

  listForEndpoint(
    clientId: ClientId,
    endpointId: WebhookEndpointId,
    page: PageRequest,
    now: Date,
  ): TE.TaskEither<StoreError, Page<WebhookDeliveryRecord>> {
    return this.deliveries.task(() =>
      this.sequence.page(
        this.deliveries,
        { client_id: clientId, endpoint_id: endpointId, expires_at: { $gt: now.toISOString() } },
        page,
        now,
      ),
    );
  }

  deleteForEndpoint(clientId: ClientId, endpointId: WebhookEndpointId): TE.TaskEither<StoreError, number> {
    return this.deliveries.task(() => this.deliveries.deleteMany({ client_id: clientId, endpoint_id: endpointId }));
  }

  cancelPendingForUser(clientId: ClientId, userId: UserId): TE.TaskEither<StoreError, number> {
    return this.deliveries.task(async () => {
      // A delivery names its event, the event its user: the user's event ids first (in the same session, so the same snapshot).
      const events = await this.ctx.db
        .collection<StoredDocument>(COLLECTION_NAMES.events)
        .find({ client_id: clientId, 'data.user_id': userId }, { ...commandOptions(this.ctx), projection: { _id: 1 } })
        .toArray();
      if (events.length === 0) return 0;
      const canceled = await this.raw.updateMany(
        { client_id: clientId, status: 'pending', event_id: { $in: events.map((e) => e._id) } },
        { $set: { status: 'canceled', next_attempt_at: null, lease_until: null, lease_token: null } },
        commandOptions(this.ctx),
      );
      return canceled.modifiedCount;
    });
  }
}
