/**
 * `ClientRepository` in memory.
 */
import * as E from 'fp-ts/lib/Either.js';
import { inject, injectable } from 'inversify';
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { Client, ClientId, ClientRepository, StoreError, NewClient, Page, PageRequest } from '@debtkit/core';
import { MEMORY_SESSION, lazyEither, lazyRight, pageOf } from './memory-collection.js';
import type { MemorySession } from './memory-database.js';

const copyClient = (c: Client): Client => ({ ...c });

/** Clients are one partition (there are few); ids ascend. */
const ALL = 0;

@injectable()
export class MemoryClientRepository implements ClientRepository {
  private readonly clients;
  private readonly ids;

  constructor(@inject(MEMORY_SESSION) private readonly s: MemorySession) {
    this.clients = s.db.table<number, ClientId, Client>('clients');
    this.ids = s.db.ids('clients');
  }

  create(client: NewClient): TE.TaskEither<StoreError, Client> {
    return lazyEither(() => {
      const record: Client = {
        id: this.ids.next(),
        name: client.name,
        environment: client.environment,
        api_version: client.api_version,
        created_at: client.created_at,
      };
      const done = this.clients.set(this.s, ALL, record.id, record);
      return E.isLeft(done) ? done : E.right(copyClient(record));
    });
  }

  findById(id: ClientId): TE.TaskEither<StoreError, O.Option<Client>> {
    return lazyRight(() => {
      const found = this.clients.get(this.s, ALL, id);
      return found === undefined ? O.none : O.some(copyClient(found));
    });
  }

  list(page: PageRequest): TE.TaskEither<StoreError, Page<Client>> {
    return lazyRight(() => pageOf(this.clients.values(this.s, ALL), page, copyClient));
  }

  touch(id: ClientId): TE.TaskEither<StoreError, boolean> {
    return lazyEither(() => {
      const found = this.clients.get(this.s, ALL, id);
      if (found === undefined) return E.right(false);
      const done = this.clients.set(this.s, ALL, id, found);
      return E.isLeft(done) ? done : E.right(true);
    });
  }

  setApiVersion(id: ClientId, apiVersion: string): TE.TaskEither<StoreError, O.Option<Client>> {
    return lazyEither(() => {
      const found = this.clients.get(this.s, ALL, id);
      if (found === undefined) return E.right(O.none);
      const next: Client = { ...found, api_version: apiVersion };
      const done = this.clients.set(this.s, ALL, id, next);
      return E.isLeft(done) ? done : E.right(O.some(copyClient(next)));
    });
  }

  delete(id: ClientId): TE.TaskEither<StoreError, boolean> {
    return lazyEither(() => this.clients.delete(this.s, ALL, id));
  }
}
