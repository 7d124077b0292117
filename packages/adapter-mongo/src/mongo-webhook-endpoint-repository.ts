/**
 * `WebhookEndpointRepository` on MongoDB: collection `webhook_endpoints`,
 * `_id` = the endpoint id; an update is one `findOneAndUpdate` conditioned on
 * the version read (compare-and-set, docs/decisions/transactions.md).
 */
import { inject, injectable } from 'inversify';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import {
  WebhookEndpointRecord,
  conflict,
  type ClientId,
  type StoreError,
  type Id,
  type NewWebhookEndpoint,
  type Page,
  type PageRequest,
  type WebhookEndpointPatch,
  type WebhookEndpointRepository,
  type WebhookEndpointId,
} from '@debtkit/core';
import { COLLECTION_NAMES } from './mongo-collection-names.js';
import { MONGO_CONTEXT, type MongoContext } from './mongo-context.js';
import { documentCodec } from './mongo-document-codec.js';
import { MongoRecordCollection, setOf } from './mongo-record-collection.js';

export const WebhookEndpointDocument = documentCodec(COLLECTION_NAMES.webhookEndpoints, WebhookEndpointRecord, 'id');

@injectable()
export class MongoWebhookEndpointRepository implements WebhookEndpointRepository {
  private readonly endpoints: MongoRecordCollection<WebhookEndpointRecord>;

  constructor(@inject(MONGO_CONTEXT) ctx: MongoContext) {
    this.endpoints = new MongoRecordCollection(ctx, COLLECTION_NAMES.webhookEndpoints, WebhookEndpointDocument);
  }

  create(endpoint: NewWebhookEndpoint): TE.TaskEither<StoreError, WebhookEndpointRecord> {
    return this.endpoints.task(async () =>
      this.endpoints.insert({ ...endpoint, events: [...endpoint.events], id: await this.endpoints.nextId(), version: 1 }),
    );
  }

  get(clientId: ClientId, endpointId: WebhookEndpointId): TE.TaskEither<StoreError, O.Option<WebhookEndpointRecord>> {
    return this.endpoints.task(() => this.endpoints.findOne({ client_id: clientId, _id: endpointId }));
  }

  list(clientId: ClientId, page: PageRequest): TE.TaskEither<StoreError, Page<WebhookEndpointRecord>> {
    return this.endpoints.task(() => this.endpoints.findPage({ client_id: clientId }, page));
  }

  listEnabled(clientId: ClientId): TE.TaskEither<StoreError, ReadonlyArray<WebhookEndpointRecord>> {
    return this.endpoints.task(() => this.endpoints.findAll({ client_id: clientId, status: 'enabled' }, { _id: 1 }));
  }

  update(
    clientId: ClientId,
    endpointId: WebhookEndpointId,
    expectedVersion: number,
    patch: WebhookEndpointPatch,
  ): TE.TaskEither<StoreError, O.Option<WebhookEndpointRecord>> {
    const { secret: _secret, version: _version, ...allowed } = setOf(patch);
    return pipe(
      this.endpoints.task(async () => {
        const updated = await this.endpoints.findOneAndUpdate(
          { client_id: clientId, _id: endpointId, version: expectedVersion },
          { $set: allowed, $inc: { version: 1 } },
        );
        // Nothing matched: missing (none) or changed since it was read (conflict).
        return O.isSome(updated) ? E.right(updated) : E.left(await this.endpoints.findOne({ client_id: clientId, _id: endpointId }));
      }),
      TE.chainW(
        E.match(
          (current): TE.TaskEither<StoreError, O.Option<WebhookEndpointRecord>> =>
            O.isSome(current) ? TE.left(conflict('The webhook endpoint changed since it was read')) : TE.right(O.none),
          TE.right,
        ),
      ),
    );
  }

  delete(clientId: ClientId, endpointId: WebhookEndpointId): TE.TaskEither<StoreError, boolean> {
    return this.endpoints.task(() => this.endpoints.deleteOne({ client_id: clientId, _id: endpointId }));
  }

  countForClient(clientId: ClientId): TE.TaskEither<StoreError, number> {
    return this.endpoints.task(() => this.endpoints.count({ client_id: clientId }));
  }
}
