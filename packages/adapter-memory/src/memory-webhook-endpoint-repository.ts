/** `WebhookEndpointRepository` in memory: endpoints in ascending id order, compare-and-set on `version`. */
import { inject, injectable } from 'inversify';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import {
  conflict,
  type ClientId,
  type StoreError,
  type Id,
  type NewWebhookEndpoint,
  type Page,
  type PageRequest,
  type WebhookEndpointPatch,
  type WebhookEndpointRecord,
  type WebhookEndpointRepository,
  type WebhookEndpointId,
} from '@debtkit/core';
import { MEMORY_SESSION, applyPatch, lazyEither, lazyRight, pageOf } from './memory-collection.js';
import type { MemorySession } from './memory-database.js';

const copyEndpoint = (e: WebhookEndpointRecord): WebhookEndpointRecord => ({ ...e, events: [...e.events] });

@injectable()
export class MemoryWebhookEndpointRepository implements WebhookEndpointRepository {
  /** client → endpoint id → endpoint. */
  private readonly endpoints;
  private readonly ids;

  constructor(@inject(MEMORY_SESSION) private readonly s: MemorySession) {
    this.endpoints = s.db.table<ClientId, Id, WebhookEndpointRecord>('webhookEndpoints');
    this.ids = s.db.ids('webhookEndpoints');
  }

  create(endpoint: NewWebhookEndpoint): TE.TaskEither<StoreError, WebhookEndpointRecord> {
    return lazyEither(() => {
      const record = copyEndpoint({ ...endpoint, events: [...endpoint.events], id: this.ids.next(), version: 1 });
      const done = this.endpoints.set(this.s, record.client_id, record.id, record);
      return E.isLeft(done) ? done : E.right(copyEndpoint(record));
    });
  }

  get(clientId: ClientId, endpointId: WebhookEndpointId): TE.TaskEither<StoreError, O.Option<WebhookEndpointRecord>> {
    return lazyRight(() => {
      const found = this.endpoints.get(this.s, clientId, endpointId);
      return found === undefined ? O.none : O.some(copyEndpoint(found));
    });
  }

  list(clientId: ClientId, page: PageRequest): TE.TaskEither<StoreError, Page<WebhookEndpointRecord>> {
    return lazyRight(() => pageOf(this.endpoints.values(this.s, clientId), page, copyEndpoint));
  }

  listEnabled(clientId: ClientId): TE.TaskEither<StoreError, ReadonlyArray<WebhookEndpointRecord>> {
    return lazyRight(() => [...this.endpoints.values(this.s, clientId)].filter((e) => e.status === 'enabled').map(copyEndpoint));
  }

  update(
    clientId: ClientId,
    endpointId: WebhookEndpointId,
    expectedVersion: number,
    patch: WebhookEndpointPatch,
  ): TE.TaskEither<StoreError, O.Option<WebhookEndpointRecord>> {
    return lazyEither(() => {
      const found = this.endpoints.get(this.s, clientId, endpointId);
      if (found === undefined) return E.right(O.none);
      if (found.version !== expectedVersion) return E.left(conflict('The webhook endpoint changed since it was read'));
      const next: WebhookEndpointRecord = {
        ...applyPatch(found, { ...patch, events: patch.events === undefined ? undefined : [...patch.events] }, [
          'id',
          'client_id',
          'secret',
          'created_at',
        ]),
        // `description: null` clears it; applyPatch skips only undefined.
        version: found.version + 1,
      };
      const done = this.endpoints.set(this.s, clientId, endpointId, next);
      return E.isLeft(done) ? done : E.right(O.some(copyEndpoint(next)));
    });
  }

  delete(clientId: ClientId, endpointId: WebhookEndpointId): TE.TaskEither<StoreError, boolean> {
    return lazyEither(() => this.endpoints.delete(this.s, clientId, endpointId));
  }

  countForClient(clientId: ClientId): TE.TaskEither<StoreError, number> {
    return lazyRight(() => this.endpoints.count(this.s, clientId));
  }
}
