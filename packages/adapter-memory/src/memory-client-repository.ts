/**
 * `ClientRepository` in memory.
 */
import { injectable } from 'inversify';
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { Client, ClientId, ClientRepository, DomainError, NewClient, Page, PageRequest } from '@debtkit/core';
import { IdSequence, lazyRight, pageOf } from './memory-collection.js';

const copyClient = (c: Client): Client => ({ ...c });

@injectable()
export class MemoryClientRepository implements ClientRepository {
  /** Insertion order is ascending id order (ids come from one ascending sequence). */
  private readonly byId = new Map<ClientId, Client>();
  private readonly ids = new IdSequence();

  create(client: NewClient): TE.TaskEither<DomainError, Client> {
    return lazyRight(() => {
      const record: Client = {
        id: this.ids.next(),
        name: client.name,
        environment: client.environment,
        api_version: client.api_version,
        created_at: client.created_at,
      };
      this.byId.set(record.id, record);
      return copyClient(record);
    });
  }

  findById(id: ClientId): TE.TaskEither<DomainError, O.Option<Client>> {
    return lazyRight(() => {
      const found = this.byId.get(id);
      return found === undefined ? O.none : O.some(copyClient(found));
    });
  }

  list(page: PageRequest): TE.TaskEither<DomainError, Page<Client>> {
    return lazyRight(() => pageOf(this.byId.values(), page, copyClient));
  }

  delete(id: ClientId): TE.TaskEither<DomainError, boolean> {
    return lazyRight(() => this.byId.delete(id));
  }
}
