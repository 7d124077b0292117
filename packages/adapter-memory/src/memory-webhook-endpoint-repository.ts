/** `WebhookEndpointRepository` in memory: endpoints in ascending id order, compare-and-set on `version`. */
import { injectable } from 'inversify';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import {
  conflict,
  type ClientId,
  type DomainError,
  type Id,
  type NewWebhookEndpoint,
  type Page,
  type PageRequest,
  type WebhookEndpointPatch,
  type WebhookEndpointRecord,
  type WebhookEndpointRepository,
} from '@debtkit/core';
import { IdSequence, applyPatch, lazyEither, lazyRight, pageOf } from './memory-collection.js';

const copyEndpoint = (e: WebhookEndpointRecord): WebhookEndpointRecord => ({ ...e, events: [...e.events] });

@injectable()
export class MemoryWebhookEndpointRepository implements WebhookEndpointRepository {
  private readonly endpoints = new Map<Id, WebhookEndpointRecord>();
  private readonly ids = new IdSequence();

  create(endpoint: NewWebhookEndpoint): TE.TaskEither<DomainError, WebhookEndpointRecord> {
    return lazyRight(() => {
      const record = copyEndpoint({ ...endpoint, events: [...endpoint.events], id: this.ids.next(), version: 1 });
      this.endpoints.set(record.id, record);
      return copyEndpoint(record);
    });
  }

  get(clientId: ClientId, endpointId: Id): TE.TaskEither<DomainError, O.Option<WebhookEndpointRecord>> {
    return lazyRight(() => {
      const found = this.endpoints.get(endpointId);
      return found === undefined || found.client_id !== clientId ? O.none : O.some(copyEndpoint(found));
    });
  }

  list(clientId: ClientId, page: PageRequest): TE.TaskEither<DomainError, Page<WebhookEndpointRecord>> {
    return lazyRight(() => pageOf(this.endpoints.values(), page, copyEndpoint, (e) => e.client_id === clientId));
  }

  listEnabled(clientId: ClientId): TE.TaskEither<DomainError, ReadonlyArray<WebhookEndpointRecord>> {
    return lazyRight(() => [...this.endpoints.values()].filter((e) => e.client_id === clientId && e.status === 'enabled').map(copyEndpoint));
  }

  update(
    clientId: ClientId,
    endpointId: Id,
    expectedVersion: number,
    patch: WebhookEndpointPatch,
  ): TE.TaskEither<DomainError, O.Option<WebhookEndpointRecord>> {
    return lazyEither(() => {
      const found = this.endpoints.get(endpointId);
      if (found === undefined || found.client_id !== clientId) return E.right(O.none);
      if (found.version !== expectedVersion) return E.left(conflict('The webhook endpoint changed since it was read'));
      const next: WebhookEndpointRecord = {
        ...applyPatch(found, { ...patch, events: patch.events === undefined ? undefined : [...patch.events] }, ['id', 'client_id', 'secret', 'created_at']),
        // `description: null` clears it; applyPatch skips only undefined.
        version: found.version + 1,
      };
      this.endpoints.set(endpointId, next);
      return E.right(O.some(copyEndpoint(next)));
    });
  }

  delete(clientId: ClientId, endpointId: Id): TE.TaskEither<DomainError, boolean> {
    return lazyRight(() => {
      const found = this.endpoints.get(endpointId);
      return found !== undefined && found.client_id === clientId && this.endpoints.delete(endpointId);
    });
  }
}
