/**
 * `TokenRepository` on MongoDB: collection `tokens`, `_id` = the token id, a
 * unique index on `hash` (looked up on every API request), and one on
 * `(client_id, _id)` for a client's list. Tokens stored before `expires_at`
 * existed (docs/operations.md, round 4) have no such field: they read as `expires_at: null`.
 */
import { inject, injectable } from 'inversify';
import * as O from 'fp-ts/lib/Option.js';
import type { Document } from 'mongodb';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import {
  TokenRecord,
  type ClientId,
  type StoreError,
  type Page,
  type PageRequest,
  type Timestamp,
  type TokenId,
  type TokenRepository,
} from '@debtkit/core';
import { COLLECTION_NAMES } from './mongo-collection-names.js';
import { type MongoContext, MONGO_CONTEXT } from './mongo-context.js';
import { documentCodec } from './mongo-document-codec.js';
import { MongoRecordCollection } from './mongo-record-collection.js';

const tokenCodec = documentCodec(COLLECTION_NAMES.tokens, TokenRecord, 'id');

/** A token document, read with `expires_at: null` when it was stored before the field existed (and only then). */
export const TokenDocument = {
  ...tokenCodec,
  decode: (document: Document): TokenRecord => tokenCodec.decode('expires_at' in document ? document : { ...document, expires_at: null }),
};

@injectable()
export class MongoTokenRepository implements TokenRepository {
  private readonly tokens: MongoRecordCollection<TokenRecord>;

  constructor(@inject(MONGO_CONTEXT) ctx: MongoContext) {
    this.tokens = new MongoRecordCollection(ctx, COLLECTION_NAMES.tokens, TokenDocument);
  }

  create(clientId: ClientId, hash: string, createdAt: Timestamp): TE.TaskEither<StoreError, TokenRecord> {
    return this.tokens.task(
      async () =>
        this.tokens.insert({
          id: await this.tokens.nextId(),
          client_id: clientId,
          hash,
          created_at: createdAt,
          revoked_at: null,
          expires_at: null,
        }),
      'A token with this hash already exists',
    );
  }

  findByHash(hash: string): TE.TaskEither<StoreError, O.Option<TokenRecord>> {
    return this.tokens.task(() => this.tokens.findOne({ hash }));
  }

  findById(id: TokenId): TE.TaskEither<StoreError, O.Option<TokenRecord>> {
    return this.tokens.task(() => this.tokens.findOne({ _id: id }));
  }

  listByClient(clientId: ClientId, page: PageRequest): TE.TaskEither<StoreError, Page<TokenRecord>> {
    return this.tokens.task(() => this.tokens.findPage({ client_id: clientId }, page));
  }

  expire(id: TokenId, expiresAt: Timestamp): TE.TaskEither<StoreError, O.Option<TokenRecord>> {
    return this.tokens.task(async () => {
      // Only a live token without an expiry takes one (`null` also matches a document without the field): the first roll wins.
      const expiring = await this.tokens.update({ _id: id, revoked_at: null, expires_at: null }, { expires_at: expiresAt });
      return O.isSome(expiring) ? expiring : this.tokens.findOne({ _id: id });
    });
  }

  revoke(id: TokenId, revokedAt: Timestamp): TE.TaskEither<StoreError, O.Option<TokenRecord>> {
    return this.tokens.task(async () => {
      // Only an unrevoked token takes the time, so the first revocation wins, even between processes.
      const revoked = await this.tokens.update({ _id: id, revoked_at: null }, { revoked_at: revokedAt });
      return O.isSome(revoked) ? revoked : this.tokens.findOne({ _id: id });
    });
  }
}
