import type * as TE from 'fp-ts/lib/TaskEither.js';
import type * as O from 'fp-ts/lib/Option.js';
import type { StoreError } from '../shared/errors.js';
import type { Client, Environment } from './client.js';
import type { ClientId, Timestamp } from '../shared/primitives.js';
import type { Page, PageRequest } from '../shared/paging.js';

export interface NewClient {
  readonly name: string;
  readonly environment: Environment;
  readonly api_version: string;
  readonly created_at: Timestamp;
}

export interface ClientRepository {
  create(client: NewClient): TE.TaskEither<StoreError, Client>;
  findById(id: ClientId): TE.TaskEither<StoreError, O.Option<Client>>;
  list(page: PageRequest): TE.TaskEither<StoreError, Page<Client>>;
  /**
   * Write the client record without changing what it answers (the owner bump
   * of a client-level creation, docs/decisions/transactions.md, as `UserRepository.touch` for a
   * user): inside a transaction, two creations under one client conflict, so a
   * quota counted in one of them cannot be passed by the other. `false` when
   * there is no such client.
   */
  touch(id: ClientId): TE.TaskEither<StoreError, boolean>;
  /** Pin the client to `apiVersion` (docs/operations.md, moving a client); `none` when there is no such client. */
  setApiVersion(id: ClientId, apiVersion: string): TE.TaskEither<StoreError, O.Option<Client>>;
  /**
   * Remove the client document only; false when there is none. For a client
   * that nothing refers to yet (a demo seed that lost its race undoes its own).
   */
  delete(id: ClientId): TE.TaskEither<StoreError, boolean>;
}
