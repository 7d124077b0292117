/**
 * `ClientRepository` on MongoDB: collection `clients`, `_id` = the client id.
 */
import { inject, injectable } from 'inversify';
import type * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { Client, type ClientId, type ClientRepository, type StoreError, type NewClient, type Page, type PageRequest } from '@debtkit/core';
import { COLLECTION_NAMES } from './mongo-collection-names.js';
import { type MongoContext, MONGO_CONTEXT } from './mongo-context.js';
import { documentCodec } from './mongo-document-codec.js';
import { MongoRecordCollection } from './mongo-record-collection.js';

export const ClientDocument = documentCodec(COLLECTION_NAMES.clients, Client, 'id');

@injectable()
export class MongoClientRepository implements ClientRepository {
  private readonly clients: MongoRecordCollection<Client>;

  constructor(@inject(MONGO_CONTEXT) ctx: MongoContext) {
    this.clients = new MongoRecordCollection(ctx, COLLECTION_NAMES.clients, ClientDocument);
  }

  create(client: NewClient): TE.TaskEither<StoreError, Client> {
    return this.clients.task(async () => this.clients.insert({ id: await this.clients.nextId(), ...client }));
  }

  findById(id: ClientId): TE.TaskEither<StoreError, O.Option<Client>> {
    return this.clients.task(() => this.clients.findOne({ _id: id }));
  }

  list(page: PageRequest): TE.TaskEither<StoreError, Page<Client>> {
    return this.clients.task(() => this.clients.findPage({}, page));
  }

  touch(id: ClientId): TE.TaskEither<StoreError, boolean> {
    return this.clients.task(() => this.clients.touch({ _id: id }));
  }

  setApiVersion(id: ClientId, apiVersion: string): TE.TaskEither<StoreError, O.Option<Client>> {
    return this.clients.task(() => this.clients.findOneAndUpdate({ _id: id }, { $set: { api_version: apiVersion } }));
  }

  delete(id: ClientId): TE.TaskEither<StoreError, boolean> {
    return this.clients.task(() => this.clients.deleteOne({ _id: id }));
  }
}
